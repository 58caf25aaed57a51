"""The programs that run another program (``sudo``, ``env``, ``timeout 5`` …).

Shared by the rewriting path (``dp.shell.segment``, on bashlex words) and the
capture hook's shapes (``dp.shell.shape``, on plain words), so both agree on
which word names the program. Plain string work, no ``re``: the capture hook
imports this on every tool call.
"""

from __future__ import annotations

# Transparent wrappers: options that take a separate value, whether NAME=value
# words may follow, and how many positional words precede the command.
WRAPPERS = {
    "sudo": (
        {"-u", "-g", "-h", "-p", "-C", "-D", "-R", "-r", "-t", "-T", "-U", "--user", "--group",
         "--host", "--prompt", "--chdir", "--chroot", "--role", "--type", "--close-from",
         "--command-timeout", "--other-user"},
        True,
        0,
    ),
    "env": ({"-u", "-C", "-S", "--unset", "--chdir", "--split-string"}, True, 0),
    "time": ({"-f", "-o", "--format", "--output"}, False, 0),
    "nice": ({"-n", "--adjustment"}, False, 0),
    "nohup": (set(), False, 0),
    "command": (set(), False, 0),
    "exec": ({"-a"}, False, 0),
    "timeout": ({"-s", "-k", "--signal", "--kill-after"}, False, 1),
    "xargs": (
        {"-I", "-L", "-n", "-P", "-s", "-E", "-d", "-a", "--arg-file", "--delimiter",
         "--max-args", "--max-procs", "--max-chars", "--eof", "--max-lines"},
        False,
        0,
    ),
}
# Runners: the words in front of a program that run the project's own copy of it (`npx tsc`,
# `uv run pytest`, `python3 -m pytest`). A shape keeps them with the program they run (``dp.shell.shape``),
# and a learned answer may put one in front of the program the agent asked for (``dp.learn.carry``).
RUNNERS = frozenset({
    ("npx",), ("bunx",), ("npm", "exec"), ("pnpm", "exec"), ("yarn", "exec"), ("uv", "run"), ("poetry", "run"),
    ("pipenv", "run"), ("pdm", "run"), ("hatch", "run"), ("rye", "run"), ("bundle", "exec"), ("python", "-m"),
    ("python3", "-m"),
})
# Runner options that take the next word as their value (`npx -p typescript tsc`, `uv run --with x pytest`).
RUNNER_OPTIONS_WITH_VALUES = frozenset({
    "-p", "--package", "-c", "--call", "--with", "--with-requirements", "--with-editable", "--python",
    "--directory", "--project", "--extra", "--group", "--env-file", "--index", "--index-url", "--from",
    "--filter", "-C", "--dir", "--workspace", "-w",
})
# Options with which a wrapper only reports on the command instead of running
# it (`command -v grep`, `sudo -l grep`): the wrapper is then the command.
_QUERY_OPTIONS = {"command": {"-v", "-V"}, "sudo": {"-l", "--list"}}
_NAME_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_NAME_CHARS = _NAME_START | frozenset("0123456789")


def basename(word: str) -> str:
    return word.rsplit("/", 1)[-1]


def is_assignment(word: str) -> bool:
    """``NAME=…``, ``NAME+=…`` or ``NAME[i]=…``: a variable assignment, not a command."""
    name, equals, _ = word.partition("=")
    if not equals or not name or name[0] not in _NAME_START:
        return False
    name = name[:-1] if name.endswith("+") else name
    if name.endswith("]") and "[" in name:
        name = name[: name.index("[")]
    return bool(name) and all(c in _NAME_CHARS for c in name)


# Wrapper options that run the command in another directory (`env -C DIR`, `sudo -D DIR`, `--chdir=DIR`).
_CHDIR_OPTIONS = ("-C", "-D", "--chdir")


def changes_directory(wrapper_words: list[str]) -> bool:
    """Whether the wrapper words before a command make it run in another directory."""
    return any(word in _CHDIR_OPTIONS or word.startswith("--chdir=") for word in wrapper_words)


def _is_query(wrapper: str, option: str) -> bool:
    queries = _QUERY_OPTIONS.get(wrapper, ())
    if option.startswith("--"):
        return option in queries
    return any(f"-{letter}" in queries for letter in option[1:])


def program_index(values: list[str]) -> int:
    """Index of the word (by value) that names the program run, past any wrappers."""
    i = 0
    while i < len(values):
        wrapper = basename(values[i])
        spec = WRAPPERS.get(wrapper)
        if spec is None:
            return i
        options_with_values, assignments, positional = spec
        j = i + 1
        while j < len(values):
            value = values[j]
            if value == "--":
                j += 1
                break
            if not value.startswith("-") or value == "-":
                break
            if _is_query(wrapper, value):
                return i
            j += 2 if value in options_with_values else 1
        while assignments and j < len(values) and is_assignment(values[j]):
            j += 1
        j += positional
        if j >= len(values):
            return i  # a bare wrapper (`time`, `env`) is itself the command
        i = j
    return 0
