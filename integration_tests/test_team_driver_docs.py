"""Issue 49, finding 10: the team driver's install command the README and docs/team.md give is the one dp
prints for each way dp is installed (``dp.installed``; integration_tests/test_first_run.py runs the real
``dp team connect`` of each install and reads its hint). ``pip install 'desire-paths[team]'`` is wrong for
all three installs the README gives: uv tool and pipx have no pip on PATH, and the README's own
virtualenv keeps its pip off PATH."""

from __future__ import annotations

from pathlib import Path

from dp.installed import add_command, extra_requirement

ROOT = Path(__file__).resolve().parent.parent
TEAM = (ROOT / "docs" / "team.md").read_text()
README = (ROOT / "README.md").read_text()
VENV = "~/.local/share/desire-paths"  # the README's install


def printed(tmp_path: Path, how: str) -> str:
    """What dp prints for an install of ``how``, the install's own path written as the docs write it."""
    prefix = tmp_path / how
    (prefix / "bin").mkdir(parents=True)
    if how == "venv":
        (prefix / "bin" / "pip").write_text("#!/bin/sh\n")
        shown = VENV
    elif how == "uv":
        (prefix / "uv-receipt.toml").write_text('[tool]\nrequirements = [{ name = "desire-paths", directory = '
                                                '"SOURCE" }]\n')
        shown = ""
    else:
        (prefix / "pipx_metadata.json").write_text('{"main_package": {"package": "desire-paths"}}\n')
        shown = ""
    command = add_command(extra_requirement("team"), str(prefix))
    return command.replace(str(prefix), shown) if shown else command


def test_docs_team_gives_the_command_dp_prints_for_each_install(tmp_path):
    for how in ("venv", "uv", "pipx"):
        assert f"\n{printed(tmp_path, how)}  " in TEAM, how
    assert "pip install 'desire-paths[team]'" not in TEAM + README


def test_readme_gives_a_command_dp_prints(tmp_path):
    assert f"`{printed(tmp_path, 'pipx')}`" in README


def test_the_readme_says_what_touches_the_network_and_when():
    """It said "the hooks never touch the network" while every session start launches a team sync."""
    text = " ".join(README.split())
    assert "the hooks never touch the network" not in text
    assert ("once you ran `dp team connect`, the `dp team sync` every session start launches as a detached "
            "process of its own") in text
    assert "Before `dp team connect`, dp's own code reaches no other machine" in text
