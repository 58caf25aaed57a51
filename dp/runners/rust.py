"""Cargo: its built-in subcommands plus the project's ``[alias]`` entries.

Aliases live in ``.cargo/config.toml`` (or the legacy ``.cargo/config``) of the
crate directory and its parents up to the project root; like cargo, the
nearest definition wins.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from dp.paths import walk_up
from dp.runners.base import BUILTIN, Runner, Task, first_existing, read_toml, table

MANIFEST = "Cargo.toml"
CONFIG_NAMES = ("config.toml", "config")
# Project-scoped built-ins, described as `cargo --list` does. Commands that
# act on the registry or the user's installation (publish, install, login, …)
# are left out on purpose.
BUILTINS = {
    "bench": "Execute all benchmarks of a local package",
    "build": "Compile a local package and all of its dependencies",
    "check": "Analyze the current package and report errors, but don't build object files",
    "clean": "Remove artifacts that cargo has generated in the past",
    "clippy": "Checks a package to catch common mistakes and improve your Rust code",
    "doc": "Build a package's documentation",
    "fetch": "Fetch dependencies of a package from the network",
    "fix": "Automatically fix lint warnings reported by rustc",
    "fmt": "Formats all bin and lib files of the current crate using rustfmt",
    "metadata": "Output the resolved dependencies of a package in machine-readable format",
    "run": "Run a binary or example of the local package",
    "test": "Execute all unit and integration tests and build examples of a local package",
    "tree": "Display a tree visualization of a dependency graph",
    "update": "Update dependencies as recorded in the local lock file",
}
# Every command compiled into cargo. Cargo ignores an alias with one of these
# names (with a warning), so such an alias is not a task; aliases may shadow
# external subcommands such as clippy and fmt.
CARGO_COMMANDS = frozenset(
    {"add", "bench", "build", "check", "clean", "config", "doc", "fetch", "fix",
     "generate-lockfile", "git-checkout", "help", "info", "init", "install", "locate-project",
     "login", "logout", "metadata", "new", "owner", "package", "pkgid", "publish",
     "read-manifest", "remove", "report", "run", "rustc", "rustdoc", "search", "test", "tree",
     "uninstall", "update", "vendor", "verify-project", "version", "yank"}
)


def detect(directory: Path, project_root: Path) -> list[Runner]:
    if not (directory / MANIFEST).is_file():
        return []
    tasks = {
        name: Task(name, ["cargo", name], description=text, kind="subcommand", origin=BUILTIN)
        for name, text in BUILTINS.items()
    }
    sources = []
    for config in reversed(_configs(directory, project_root)):  # farthest first
        aliases = _aliases(config)
        for name, words in aliases.items():
            tasks[name] = Task(
                name, ["cargo", name], description=f"cargo {shlex.join(words)}", kind="alias"
            )
        if aliases:
            sources.append(str(config.relative_to(project_root)))
    reason = "Cargo.toml found: cargo built-in subcommands"
    if sources:
        reason += f" and [alias] entries of {', '.join(reversed(sources))}"
    return [
        Runner("cargo", ecosystem="rust", reason=reason, root=directory, tasks=list(tasks.values()))
    ]


def _aliases(config: Path) -> dict[str, list[str]]:
    """The ``[alias]`` entries of ``config`` that cargo would use, as words."""
    found = {}
    for name, expansion in table(read_toml(config), "alias").items():
        words = shlex.split(expansion) if isinstance(expansion, str) else expansion
        usable = isinstance(words, list) and all(isinstance(word, str) for word in words)
        if usable and name not in CARGO_COMMANDS:
            found[name] = words
    return found


def _configs(directory: Path, project_root: Path) -> list[Path]:
    """Cargo config files from ``directory`` up to ``project_root``, nearest first."""
    found = (first_existing(folder / ".cargo", CONFIG_NAMES) for folder in walk_up(directory, project_root))
    return [config for config in found if config is not None]
