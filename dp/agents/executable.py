"""Finding the real pave-check program to put in the hook entry.

Claude Code runs the hook before every tool call, so the command must start
the hook directly: a pyenv/asdf/mise shim in front of it re-resolves the
interpreter on every call (~100 ms each). We use the console script installed
next to the running interpreter, resolved to its real path, and reject
anything that looks like a version-manager shim.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
import sysconfig
from pathlib import Path

from dp import INSTALL_HINT
from dp.errors import DpError, did_you_mean
from dp.paths import find_upwards, inside, walk_up

PROGRAM = "pave-check"
PERMISSIONS = ("none", "ask", "allow")
MODES = ("rewrite", "advise")

_SHIM_MANAGERS = ("pyenv", "asdf", "mise", "rtx", "rbenv", "nodenv", "goenv", "jenv", "volta")
_SHIM_CONTENT = re.compile(
    r"\b(?:pyenv|asdf|mise|rtx|rbenv|nodenv|goenv|jenv)\b[^\n]*\bexec\b|#\s*asdf-plugin:", re.IGNORECASE
)


def shim_reason(path) -> str | None:
    """Why ``path`` is a version-manager shim rather than the program, or None."""
    path = Path(path)
    parts = path.parts
    if path.parent.name == "shims":  # ~/.pyenv/shims, ~/.asdf/shims, …/mise/shims; not any path that says "shims"
        manager = next((name for name in _SHIM_MANAGERS if any(name in part for part in parts)), "version-manager")
        return f"{path} is a {manager} shim"
    real = Path(os.path.realpath(path))
    if real.name in _SHIM_MANAGERS:
        return f"{path} links to the {real.name} executable (a shim)"
    head = _head(real)
    if head is None:
        return None
    if _SHIM_CONTENT.search(head):
        return f"{path} is a shim script that re-executes through a version manager"
    interpreter = _shebang_interpreter(head)
    if interpreter and interpreter != str(path):
        if os.path.basename(interpreter) == "env":
            return None
        inner = shim_reason(interpreter) if os.path.exists(interpreter) else None
        if inner:
            return f"{path} starts its interpreter through a shim ({inner})"
    return None


def _head(path: Path) -> str | None:
    """The start of a script (None for binaries and unreadable files)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(4096)
    except OSError:
        return None
    if not data.startswith(b"#!"):
        return None
    return data.decode("utf-8", "replace")


def _shebang_interpreter(head: str) -> str | None:
    words = head.splitlines()[0][2:].split()
    return words[0] if words else None


def candidates(program: str = PROGRAM) -> list[Path]:
    """Where an installed console script (pave-check, dp) can be, best first."""
    names = [program + ".exe", program] if os.name == "nt" else [program]
    directories = [Path(sys.executable).parent]
    for scheme in (None, f"{os.name}_user"):
        try:
            scripts = sysconfig.get_path("scripts", scheme) if scheme else sysconfig.get_path("scripts")
        except KeyError:
            continue
        if scripts:
            directories.append(Path(scripts))
    found = [directory / name for directory in directories for name in names]
    on_path = shutil.which(program)
    if on_path:
        found.append(Path(on_path))
    return found


def find_pave_check() -> Path:
    """The real, absolute path of the installed pave-check (never a shim)."""
    return find_program(PROGRAM)


def find_program(program: str) -> Path:
    """The real, absolute path of dp's installed console script ``program`` (never a shim)."""
    rejected = []
    for candidate in candidates(program):
        if not (candidate.is_file() and os.access(candidate, os.X_OK)):
            continue
        real = Path(os.path.realpath(candidate))
        reason = shim_reason(candidate) or shim_reason(real)
        if reason:
            rejected.append(reason)
            continue
        return real
    detail = f" (only shims found: {'; '.join(rejected)})" if rejected else ""
    raise DpError(
        f"cannot find the installed {program} program{detail}; reinstall dp "
        f"({INSTALL_HINT}) so that it ships its console scripts"
    )


def hook_command(executable: Path, db: Path | None = None, permission: str = "none", mode: str = "rewrite",
                 agent: str | None = None) -> str:
    """The hook entry's command line; only non-default options are spelled out
    (``--agent`` for any agent but Claude Code)."""
    if permission not in PERMISSIONS:
        raise DpError(f"--permission must be one of {', '.join(PERMISSIONS)}, not {permission!r}"
                      f"{did_you_mean(permission, PERMISSIONS)}")
    if mode not in MODES:
        raise DpError(f"--mode must be one of {', '.join(MODES)}, not {mode!r}{did_you_mean(mode, MODES)}")
    words = [str(executable)]
    if agent:
        words += ["--agent", agent]
    if db is not None:
        words += ["--db", str(db)]
    if permission != "none":
        words += ["--permission", permission]
    if mode != "rewrite":
        words += ["--mode", mode]
    return shlex.join(words)


_OPTION_NAMES = ("--agent", "--db", "--permission", "--mode")


def _scan_options(words: list[str]) -> tuple[dict, list[str]]:
    """(``--db/--permission/--mode`` values, every other word) after the program word."""
    options, others = {}, []
    index = 1
    while index < len(words):
        name, equals, inline = words[index].partition("=")
        if name in _OPTION_NAMES and equals:
            options[name[2:]] = inline
        elif name in _OPTION_NAMES and index + 1 < len(words):
            options[name[2:]] = words[index + 1]
            index += 1
        else:
            others.append(words[index])
        index += 1
    return options, others


def hook_options(words: list[str]) -> dict:
    """The ``--db/--permission/--mode`` values in a hook command's argv words."""
    return _scan_options(words)[0]


def hook_argv(command) -> list[str] | None:
    """``command`` as argv when it is nothing but pave-check and its own options, else None.

    ``dp doctor`` runs the installed hook to time it, without a shell: a
    command holding anything more (``&& …``, redirections, other programs)
    is not one dp wrote, and doctor does not execute it. ``~`` and ``$VAR``
    are expanded as the shell would, since people write them in paths.
    """
    if not isinstance(command, str):
        return None
    try:
        words = [os.path.expanduser(os.path.expandvars(word)) for word in shlex.split(command)]
    except ValueError:
        return None
    if not words or os.path.basename(words[0]) not in (PROGRAM, PROGRAM + ".exe"):
        return None
    return None if _scan_options(words)[1] else words


def stability_warning(program: Path) -> str | None:
    """Why the hook command ``program`` may stop existing, with the fix; None when it is stable.

    The hook runs before every tool call, from every project: a program in a
    temporary directory or in a repository's own virtual environment (the
    clone dp was installed from) disappears with it, and then every tool call
    runs a missing hook.
    """
    import tempfile

    real = Path(os.path.realpath(program))
    fix = "install dp as a tool instead (uv tool install PATH-OR-WHEEL, or pipx install PATH-OR-WHEEL), then run dp init again"
    venv = next((parent for parent in walk_up(real.parent) if (parent / "pyvenv.cfg").is_file()), None)
    repository = venv and find_upwards(venv.parent, ".git")
    if repository is not None:
        return (f"{program} is inside the repository {repository} (its own virtual environment): "
                f"the hook breaks when that clone is moved or deleted; {fix}")
    temporary = {Path(os.path.realpath(tempfile.gettempdir())), Path("/tmp"), Path("/var/tmp")}
    if any(inside(real, directory) for directory in temporary):
        return f"{program} is in a temporary directory: the hook breaks when it is cleaned up; {fix}"
    return None
