"""Every file dp writes for the user, through every kind of path it can meet.

The writers are the settings file (``dp pave --hook``/``--unhook``, every
scope), AGENTS.md (``dp pave --agents-md --output``), a Makefile (``dp make
--generate --force``) and a store export (``dp aliases export -o``). Each is
driven as a subprocess against real symlinks, FIFOs, sockets, devices and
directories: a link to a regular file is written through (the link stays a
link), anything else is one clear error with nothing written anywhere and
no hang.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from special_kinds import make_directory, make_fifo, make_socket


def _settings(home: Path, project: Path, scope: str) -> Path:
    if scope == "user":
        return home / ".claude" / "settings.json"
    return project / ".claude" / ("settings.json" if scope == "project" else "settings.local.json")


# Each writer: (name of the file it writes inside the project, the command, text the file must gain).
WRITERS = {
    "settings-user": ("user", ["pave", "--hook"], "pave-check"),
    "settings-project": ("project", ["pave", "--hook", "--scope", "project"], "pave-check"),
    "settings-local": ("local", ["pave", "--hook", "--scope", "local"], "pave-check"),
    "settings-custom": ("custom.json", ["pave", "--hook", "--settings", "{path}"], "pave-check"),
    "agents-md": ("AGENTS.md", ["pave", "--agents-md", "--include-personal", "--output", "{path}"], "dp:begin"),
    "makefile": ("Makefile", ["make", "--generate", "python", "--force", "--cwd", "{dir}"], ".PHONY"),
    "export": ("team.toml", ["aliases", "export", "-o", "{path}"], "[[aliases]]"),
}


@pytest.fixture
def project(tmp_path) -> Path:
    path = tmp_path / "project"
    path.mkdir()
    return path


def _path_for(writer: str, home: Path, project: Path) -> Path:
    name = WRITERS[writer][0]
    if name in ("user", "project", "local"):
        return _settings(home, project, name)
    return project / name


def _run(dp, writer: str, path: Path, project: Path):
    args = [a.replace("{path}", str(path)).replace("{dir}", str(path.parent)) for a in WRITERS[writer][1]]
    return dp(*args, cwd=project, timeout=20)


@pytest.fixture
def with_rule(dp):
    assert dp("alias", "--cmd", "grep", "--replace", "rg").returncode == 0


def _snapshot(*roots: Path) -> dict:
    """Every entry under the roots (kind and content), to prove nothing was written."""
    seen = {}
    for root in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            for name in dirnames + filenames:
                entry = Path(dirpath) / name
                info = entry.lstat()
                content = entry.read_bytes() if stat.S_ISREG(info.st_mode) else os.readlink(entry) if entry.is_symlink() else ""
                seen[str(entry)] = (stat.S_IFMT(info.st_mode), content)
    return seen


@pytest.mark.parametrize("writer", WRITERS)
def test_a_link_to_a_regular_file_is_written_through_and_stays_a_link(dp, home, project, tmp_path, writer, with_rule):
    path = _path_for(writer, home, project)
    path.parent.mkdir(parents=True, exist_ok=True)
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    real = dotfiles / "real-file"
    original = b"{}\n" if "settings" in writer else b"old\n"
    real.write_bytes(original)
    real.chmod(0o640)
    path.symlink_to(real)
    result = _run(dp, writer, path, project)
    assert result.returncode == 0, result.stderr
    assert path.is_symlink() and os.readlink(path) == str(real)
    assert WRITERS[writer][2] in real.read_text()
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    # The atomic write happened in the target's directory and left nothing behind.
    assert sorted(p.name for p in dotfiles.iterdir()) == ["real-file"]
    assert [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")] == []


SPECIAL_TARGETS = {
    "fifo": make_fifo,
    "socket": make_socket,
    "directory": make_directory,
    "char-device": None,  # /dev/null
    "dangling": "missing",
    "loop": "loop",
}


def _make_bad_link(kind: str, link: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(exist_ok=True)
    if kind == "char-device":
        link.symlink_to("/dev/null")
    elif kind == "dangling":
        link.symlink_to(elsewhere / "does-not-exist")
    elif kind == "loop":
        partner = elsewhere / "partner"
        partner.symlink_to(link)
        link.symlink_to(partner)
    else:
        target = elsewhere / kind
        SPECIAL_TARGETS[kind](target)
        link.symlink_to(target)


@pytest.mark.parametrize("kind", SPECIAL_TARGETS)
@pytest.mark.parametrize("writer", WRITERS)
def test_a_link_to_anything_but_a_regular_file_is_refused_and_nothing_is_written(
    dp, home, project, tmp_path, writer, kind, with_rule
):
    path = _path_for(writer, home, project)
    path.parent.mkdir(parents=True, exist_ok=True)
    _make_bad_link(kind, path, tmp_path)
    before = _snapshot(home, project, tmp_path / "elsewhere")
    result = _run(dp, writer, path, project)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("dp: error: "), result.stderr
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr
    assert str(path.name) in lines[0]
    assert _snapshot(home, project, tmp_path / "elsewhere") == before


@pytest.mark.parametrize("kind", ["fifo", "socket", "directory"])
@pytest.mark.parametrize("writer", WRITERS)
def test_a_special_file_in_place_of_the_file_is_refused_without_hanging(dp, home, project, tmp_path, writer, kind, with_rule):
    path = _path_for(writer, home, project)
    path.parent.mkdir(parents=True, exist_ok=True)
    SPECIAL_TARGETS[kind](path)
    before = _snapshot(home, project)
    result = _run(dp, writer, path, project)  # a FIFO opened for reading would block: the timeout catches it
    assert result.returncode != 0
    assert result.stderr.startswith("dp: error: ") and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert _snapshot(home, project) == before


ROUND_TRIP_FILES = {
    "four-space-non-ascii-no-newline": '{\n    "model": "opus",\n    "note": "café ☕",\n    "list": [1, 2],\n    "env": {"B": "1", "A": "2"}\n}',
    "tabs-crlf-escapes": '{\r\n\t"zeta": "\\u00e9",\r\n\t"alpha": {\r\n\t\t"x": true\r\n\t}\r\n}\r\n',
    "compact-one-line": '{"permissions":{"allow":["Bash(ls:*)"]},"theme":"dark"}\n',
    "empty-hooks-object": '{\n  "hooks": {}\n}\n',
    "other-hooks": '{\n  "hooks": {\n    "PostToolUse": [\n      {"matcher": "Edit", "hooks": [{"type": "command", "command": "fmt"}]}\n    ]\n  }\n}\n\n',
}


@pytest.mark.parametrize("scope", ["user", "project", "local"])
@pytest.mark.parametrize("name", ROUND_TRIP_FILES)
def test_hook_then_unhook_gives_back_the_same_bytes(dp, home, project, scope, name):
    path = _settings(home, project, scope)
    path.parent.mkdir(parents=True, exist_ok=True)
    original = ROUND_TRIP_FILES[name].encode("utf-8")
    path.write_bytes(original)
    installed = dp("pave", "--hook", "--scope", scope, cwd=project)
    assert installed.returncode == 0, installed.stderr
    assert "pave-check" in path.read_text()
    removed = dp("pave", "--unhook", "--scope", scope, cwd=project)
    assert removed.returncode == 0, removed.stderr
    assert path.read_bytes() == original
    # Backups live in the user's dp directory, never beside the settings file.
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]
    assert len(list((home / ".dp" / "backups").iterdir())) == 2


def test_unhook_of_a_file_dp_created_leaves_no_residue_in_the_repository(dp, home, project):
    assert dp("pave", "--hook", "--scope", "project", cwd=project).returncode == 0
    assert (project / ".claude" / "settings.json").exists()
    removed = dp("pave", "--unhook", "--scope", "project", cwd=project)
    assert removed.returncode == 0, removed.stderr
    assert "deleted" in removed.stdout
    assert list(project.iterdir()) == []


def test_unhook_without_a_matching_backup_still_leaves_no_empty_hooks_object(dp, home, project):
    path = project / ".claude" / "settings.json"
    assert dp("pave", "--hook", "--scope", "project", cwd=project).returncode == 0
    data = json.loads(path.read_text())
    data["model"] = "sonnet"  # the user changed something meanwhile
    path.write_text(json.dumps(data, indent=2) + "\n")
    assert dp("pave", "--unhook", "--scope", "project", cwd=project).returncode == 0
    assert path.read_text() == '{\n  "model": "sonnet"\n}\n'


def test_backups_keep_several_generations_in_the_dp_directory(dp, home, project):
    path = home / ".claude" / "settings.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text('{"n": 0}\n')
    for n in range(1, 8):
        assert dp("pave", "--hook").returncode == 0
        assert dp("pave", "--unhook").returncode == 0
        path.write_text(f'{{"n": {n}}}\n')
    backups = sorted((home / ".dp" / "backups").iterdir())
    assert len(backups) == 5
    assert all(stat.S_IMODE(b.stat().st_mode) == 0o600 for b in backups)
    assert sorted(p.name for p in path.parent.iterdir()) == ["settings.json"]
