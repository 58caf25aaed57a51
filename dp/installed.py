"""How this dp was installed, and the command that adds a package to that installation.

dp is installed four ways (README, "Set up"): ``uv tool install``, ``pipx install``, the README's own
virtualenv (``~/.local/share/desire-paths``, its three programs linked into ``~/.local/bin``), or
into some Python's site-packages. A hint that tells a person to ``pip install`` something (the team
extra's PostgreSQL driver) must name the command for theirs: ``pip`` is not on PATH for the first
three (the virtualenv's is deliberately kept off it), and it would install beside dp, not into it.

Read from the running interpreter only (``sys.prefix`` and the files uv and pipx leave there), never
by running a program. Stdlib only, imported only when such a hint is shown.
"""

from __future__ import annotations

import os
import re
import shlex
import sys

from dp import DISTRIBUTION

UV, PIPX, VENV, PYTHON = "uv tool", "pipx", "virtualenv", "python"
# Where uv and pipx keep what they installed: the receipt in the tool's environment.
_UV_RECEIPT = "uv-receipt.toml"
_PIPX_METADATA = "pipx_metadata.json"


def kind(prefix: str | None = None) -> str:
    """How the dp running here was installed: ``uv tool``, ``pipx``, ``virtualenv`` or ``python``."""
    prefix = prefix or sys.prefix
    if os.path.isfile(os.path.join(prefix, _UV_RECEIPT)):
        return UV
    if os.path.isfile(os.path.join(prefix, _PIPX_METADATA)):
        return PIPX
    return VENV if prefix != sys.base_prefix else PYTHON


def add_command(requirement: str, prefix: str | None = None) -> str:
    """The command that installs ``requirement`` into this dp's own environment, for the way it was installed."""
    prefix = prefix or sys.prefix
    how, wanted = kind(prefix), shlex.quote(requirement)
    if how == UV:  # uv has no inject: the tool is installed again, from its own source, with the package
        return f"uv tool install --with {wanted} {shlex.quote(_uv_source(prefix))}"
    if how == PIPX:
        return f"pipx inject {DISTRIBUTION} {wanted}"
    pip = os.path.join(prefix, "bin", "pip")
    if how == VENV and os.path.isfile(pip):  # the virtualenv's own pip, by its path: it is not on PATH
        return f"{shlex.quote(pip)} install {wanted}"
    return f"{shlex.quote(sys.executable)} -m pip install {wanted}"


def _uv_source(prefix: str) -> str:
    """What ``uv tool install`` was given for dp (a directory, a wheel, a URL), as its receipt records it;
    the distribution's name when the receipt names none (installed from the index)."""
    try:
        with open(os.path.join(prefix, _UV_RECEIPT), encoding="utf-8") as handle:
            receipt = handle.read(1 << 16)
    except OSError:
        return DISTRIBUTION
    found = re.search(rf'\{{\s*name\s*=\s*"{re.escape(DISTRIBUTION)}"\s*,\s*(?:directory|path|url|git)\s*=\s*"([^"]+)"',
                      receipt)
    return found.group(1) if found else DISTRIBUTION


def extra_requirement(extra: str) -> str:
    """The requirement behind one of dp's extras (``team`` → ``psycopg[binary]>=3.1,<4``), read from dp's
    installed metadata; the extra itself where the metadata cannot say (a source checkout)."""
    from importlib import metadata

    try:
        requires = metadata.requires(DISTRIBUTION) or []
    except metadata.PackageNotFoundError:
        requires = []
    marker = re.compile(rf"""extra\s*==\s*["']{re.escape(extra)}["']""")
    wanted = [spec.split(";", 1)[0].strip() for spec in requires if marker.search(spec)]
    return ", ".join(wanted) if len(wanted) == 1 else f"{DISTRIBUTION}[{extra}]"
