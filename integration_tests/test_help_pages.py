"""Every --help page: whole descriptions, examples, no type names, no colour in pipes; shell completion."""

from __future__ import annotations

import os
import re
import subprocess

import pytest

from conftest import DP_BIN


def commands(dp, *prefix: str) -> list[tuple[str, ...]]:
    """Every command and subcommand, read from the help pages themselves."""
    page = dp(*prefix, "--help").stdout
    found = [prefix]
    if "Commands:" in page:
        for line in page.split("Commands:", 1)[1].splitlines():
            match = re.match(r" {2,}([a-z][a-z-]*)  ", line)
            if match:
                found += commands(dp, *prefix, match.group(1))
    return found


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    env = {**os.environ, "HOME": str(tmp_path_factory.mktemp("home")), "COLUMNS": "80"}
    env.pop("NO_COLOR", None)

    def dp(*args):
        return subprocess.run([str(DP_BIN), *args], capture_output=True, text=True, env=env, timeout=60)

    return {" ".join(names): dp(*names, "--help") for names in commands(dp)}


def test_every_command_is_listed_and_has_a_page(pages):
    assert {"", "alias", "aliases", "aliases import", "recipe run", "run", "uninstall"} <= set(pages)
    for name, proc in pages.items():
        assert proc.returncode == 0 and proc.stdout.startswith("Usage: dp"), name


def test_every_page_shows_examples(pages):
    for name, proc in pages.items():
        assert re.search(r"^\s+(Examples|Modes):?$|^\s+dp [a-z]", proc.stdout, re.M), f"dp {name}: no example"


def test_no_type_names_and_no_cut_descriptions(pages):
    for name, proc in pages.items():
        assert not re.search(r"<(list|str|int|float|path|bool)\b", proc.stdout), f"dp {name}:\n{proc.stdout}"
        commands_part = proc.stdout.split("Commands:", 1)[1] if "Commands:" in proc.stdout else ""
        assert not re.search(r"\w\.\.\.$", commands_part, re.M), f"dp {name} cuts a description:\n{commands_part}"


def test_help_in_a_pipe_has_no_colour_even_without_no_color(pages):
    for name, proc in pages.items():
        assert "\x1b[" not in proc.stdout, name


def test_install_completion_writes_a_completion_script_that_completes(tmp_path, env):
    home = tmp_path / "completion-home"
    home.mkdir()
    # typer finds the shell among the process's ancestors, which depend on how the tests were
    # started (an xdist worker under a non-shell parent finds none); name it instead.
    proc = subprocess.run([str(DP_BIN), "--install-completion", "bash"], capture_output=True, text=True,
                          env={**env, "HOME": str(home), "SHELL": "/bin/bash",
                               "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "dp" in (home / ".bashrc").read_text()
    completed = subprocess.run([str(DP_BIN)], capture_output=True, text=True, timeout=60,
                               env={**env, "_DP_COMPLETE": "complete_bash", "COMP_WORDS": "dp ali",
                                    "COMP_CWORD": "1"})
    assert completed.stdout.split() == ["alias", "aliases"]
