"""`dp suggest`: each source of evidence, the single-event rule, --apply through dp alias, dp doctor."""

from __future__ import annotations

import json

import pytest
from capture_support import failure, no_such_tool, run_capture, success, transcript_lines
from cli_assertions import assert_one_line_error


@pytest.fixture
def store(dp):
    assert dp("aliases").returncode == 0
    return dp


def _transcripts(tmp_path, sessions: dict) -> str:
    """Write one transcript per session; returns the projects directory."""
    root = tmp_path / "projects"
    for n, (session, calls) in enumerate(sessions.items()):
        directory = root / f"-work-app{n}"
        directory.mkdir(parents=True)
        (directory / f"{session}.jsonl").write_text(transcript_lines(session, calls))
    return str(root)


def _suggest(dp, *args) -> list[dict]:
    proc = dp("suggest", "--json", *args)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _aliases(found) -> list[list[str]]:
    return [item["alias"] for item in found]


def only_programs(env, tmp_path, *names) -> None:
    """The tests' PATH holds ``names`` alone (stub programs): a rename is proposed only where its
    program is missing and its replacement is there."""
    directory = tmp_path / "only-bin"
    directory.mkdir(exist_ok=True)
    for name in names:
        stub = directory / name
        stub.write_text("#!/bin/sh\nexit 0\n")
        stub.chmod(0o755)
    env["PATH"] = str(directory)


def _capture(env, *events):
    for n, event in enumerate(events):
        event = {**event, "tool_use_id": f"toolu_{n}_{event['tool_use_id']}"}
        assert run_capture(event, env=env).returncode == 0


# -- hallucinated tool names ----------------------------------------------------------------------

TOOL_NAMES = [
    ("read_file", {"path": "a.py"}, "Read"),
    ("readFile", {"file_path": "a.py"}, "Read"),
    ("file_read", {"path": "a.py"}, "Read"),
    ("cat_file", {"filename": "a.py"}, "Read"),
    ("write_file", {"path": "a.py", "content": "x"}, "Write"),
    ("run_command", {"command": "ls"}, "Bash"),
    ("shell", {"cmd": "ls"}, "Bash"),
    ("execute_bash", {"command": "ls"}, "Bash"),
    ("grep_search", {"query": "TODO"}, "Grep"),
    ("search_files", {"pattern": "TODO", "path": "src"}, "Grep"),
    ("list_dir", {"path": "src"}, "Glob"),
    ("glob_files", {"pattern": "*.py"}, "Glob"),
]


@pytest.mark.parametrize("name, tool_input, target", TOOL_NAMES)
def test_hallucinated_tool_names_map_to_the_real_tool(store, tmp_path, name, tool_input, target):
    calls = [(name, tool_input, no_such_tool(name), True)]
    store("ingest", "--claude-transcripts", _transcripts(tmp_path, {"s1": calls, "s2": calls}))
    [item] = _suggest(store)
    assert (item["kind"], item["alias"], item["count"], item["sessions"]) == ("tool-name", [name, target], 2, 2)
    assert item["confidence"] >= 0.6 and item["evidence"][0]["tool_name"] == name
    assert "No such tool available" in item["evidence"][0]["error"]


def test_a_name_whose_input_fits_no_tool_is_not_aliased(store, tmp_path):
    calls = [("read_file", {"command": "ls -la"}, no_such_tool("read_file"), True)]
    store("ingest", "--claude-transcripts", _transcripts(tmp_path, {"s1": calls, "s2": calls}))
    assert _suggest(store) == []


@pytest.mark.parametrize("name", ["Read", "Bash", "mcp__github__get_issue"])
def test_never_an_alias_away_from_a_real_tool(store, tmp_path, name):
    calls = [(name, {"file_path": "a.py"}, no_such_tool(name), True)]
    store("ingest", "--claude-transcripts", _transcripts(tmp_path, {"s1": calls, "s2": calls}))
    assert _suggest(store, "--min-count", "1") == []


def test_one_exact_tool_name_event_is_enough_but_a_fuzzy_one_is_not(store, tmp_path):
    store("ingest", "--claude-transcripts", _transcripts(tmp_path, {
        "s1": [("read_file", {"file_path": "a.py"}, no_such_tool("read_file"), True),
               ("list_dir", {"path": "src"}, no_such_tool("list_dir"), True)]}))
    assert _aliases(_suggest(store)) == [["read_file", "Read"]]  # list_dir lacks Glob's pattern: needs more
    assert ["list_dir", "Glob"] in _aliases(_suggest(store, "--min-count", "1"))


# -- command not found, then a sibling worked --------------------------------------------------------


@pytest.mark.parametrize("missing, sibling", [("python", "python3"), ("pip", "pip3"), ("fd", "fdfind")])
def test_command_not_found_then_a_sibling_in_the_same_session(store, env, tmp_path, missing, sibling):
    only_programs(env, tmp_path, sibling)
    for session in ("s1", "s2"):
        _capture(env,
                 failure(f"{missing} -x job", f"Exit code 127\n/bin/bash: line 1: {missing}: command not found",
                         session=session, tool_use_id="f"),
                 success("ls", session=session, tool_use_id="l"),
                 success(f"{sibling} -x job", session=session, tool_use_id="s"))
    [item] = _suggest(store)
    assert (item["kind"], item["alias"], item["sessions"]) == ("command", ["--cmd", missing, "--replace", sibling], 2)
    assert item["evidence"][0]["then"] == f"{sibling} -x job"


@pytest.mark.parametrize("on_path", [("python", "python3"), ()])
def test_no_rename_unless_the_program_is_missing_and_its_replacement_there(store, env, tmp_path, on_path):
    only_programs(env, tmp_path, *on_path)
    for session in ("s1", "s2"):
        _capture(env, failure("python x.py", "Exit code 127\npython: command not found", session=session,
                              tool_use_id="f"),
                 success("python3 x.py", session=session, tool_use_id="s"))
    assert _suggest(store) == []


def test_lookalike_names_without_a_pair_are_no_rename(store, env, tmp_path):
    """javac missing, then java ran something else: names alike, programs not; no pair, no rule."""
    only_programs(env, tmp_path, "java")
    for session in ("s1", "s2"):
        _capture(env, failure("javac Main.java", "Exit code 127\njavac: command not found", session=session,
                              tool_use_id="f"),
                 success("java -version", session=session, tool_use_id="s"))
    assert _suggest(store, "--min-count", "1") == []


def test_a_single_session_is_evidence_never_a_rule(store, env, tmp_path):
    """One-off pairs stay evidence whatever --min-count says: the generalisation must recur across sessions."""
    only_programs(env, tmp_path, "python3")
    _capture(env, failure("python x.py", "Exit code 127\npython: command not found", tool_use_id="f"),
             success("python3 x.py", tool_use_id="s"), success("ls", tool_use_id="l"),
             failure("python y.py", "Exit code 127\npython: command not found", tool_use_id="g"),
             success("python3 y.py", tool_use_id="t"))
    assert _suggest(store) == []
    assert _suggest(store, "--min-count", "1") == []


def test_an_unrelated_success_or_another_session_is_no_evidence(store, env):
    _capture(env, failure("python x.py", "Exit code 127\npython: command not found", session="a", tool_use_id="f"),
             success("ls -la", session="a", tool_use_id="l"),
             success("python3 x.py", session="b", tool_use_id="s"))
    assert _suggest(store, "--min-count", "1") == []


# -- subcommand typos ------------------------------------------------------------------------------


def test_the_tools_own_hint_is_enough_after_one_event(store, env):
    error = ("Exit code 1\ngit: 'comit' is not a git command. See 'git --help'.\n\n"
             "The most similar command is\n\tcommit")
    _capture(env, failure("git comit -m 'x'", error, tool_use_id="f"))
    [item] = _suggest(store)
    assert item["kind"] == "subcommand" and item["unambiguous"] is True and item["confidence"] >= 0.9
    assert item["alias"] == ["--recipe", "git comit", "git commit {{ args }}"]


def test_an_explicit_min_count_is_honoured_even_for_unambiguous_evidence(store, env):
    """--min-count N returns only what was seen N times; the one-event shortcut is the default only."""
    error = ("Exit code 1\ngit: 'comit' is not a git command. See 'git --help'.\n\n"
             "The most similar command is\n\tcommit")
    _capture(env, failure("git comit -m 'x'", error, tool_use_id="f"))
    assert [item["count"] for item in _suggest(store)] == [1]
    assert _suggest(store, "--min-count", "2") == []
    assert _suggest(store, "--min-count", "1")[0]["alias"] == ["--recipe", "git comit", "git commit {{ args }}"]
    _capture(env, failure("git comit -m 'y'", error, tool_use_id="g"))
    assert [item["count"] for item in _suggest(store, "--min-count", "2")] == [2]
    assert _suggest(store, "--min-count", "3") == []
    text = store("suggest", "--min-count", "3")
    assert text.returncode == 0 and "each needs 3 matching failures" in text.stderr + text.stdout


def test_an_ambiguous_hint_is_not_taken(store, env):
    error = "git: 'st' is not a git command.\n\nThe most similar commands are\n\tstatus\n\tstash"
    _capture(env, failure("git st", error, tool_use_id="f"))
    assert _suggest(store, "--min-count", "1") == []


def test_subcommand_typo_by_edit_distance_to_subcommands_seen_working(store, env):
    _capture(env, success("npm install --save-dev x", session="s0", tool_use_id="ok"),
             success("npm run build", session="s0", tool_use_id="ok2"))
    for session in ("s1", "s2"):
        _capture(env, failure("npm isntall left-pad", 'Exit code 1\nUnknown command: "isntall"', session=session,
                              tool_use_id="f"))
    [item] = _suggest(store)
    assert item["alias"] == ["--recipe", "npm isntall", "npm install {{ args }}"] and item["count"] == 2


# -- unknown options -------------------------------------------------------------------------------


def test_unknown_option_then_success_with_another_flag(store, env):
    for session in ("s1", "s2"):
        _capture(env,
                 failure("grep -rP 'a+' src", "Exit code 2\ngrep: invalid option -- 'P'", session=session, tool_use_id="f"),
                 success("grep -rE 'a+' src", session=session, tool_use_id="s"))
    [item] = _suggest(store)
    assert (item["kind"], item["alias"]) == ("flag", ["--cmd", "grep", "--flag", "-P", "-E"])
    assert item["evidence"][0]["then"] == "grep -rE"


def test_a_long_option_swapped_for_another(store, env):
    for session in ("s1", "s2"):
        _capture(env,
                 failure("mytool build --verbose", "Exit code 2\nerror: unexpected argument '--verbose' found",
                         session=session, tool_use_id="f"),
                 success("mytool build --debug", session=session, tool_use_id="s"))
    assert _aliases(_suggest(store)) == [["--cmd", "mytool", "--flag", "--verbose", "--debug"]]


def test_an_unknown_option_with_no_replacement_proposes_nothing(store, env):
    _capture(env, failure("grep -P x f", "grep: invalid option -- 'P'", tool_use_id="f"),
             success("grep x f", tool_use_id="s"))
    assert _suggest(store, "--min-count", "1") == []


# -- applying ----------------------------------------------------------------------------------------


def test_apply_creates_the_rule_through_dp_alias_and_the_suggestion_goes(store, env, tmp_path, pave_check):
    only_programs(env, tmp_path, "python3")
    for session in ("s1", "s2"):
        _capture(env, failure("python x.py", "Exit code 127\npython: command not found", session=session,
                              tool_use_id="f"),
                 success("python3 x.py", session=session, tool_use_id="s"))
    [item] = _suggest(store)
    proc = store("suggest", "--apply", item["id"], "--act")  # from 2 sessions: acting only when asked
    assert (proc.returncode, proc.stdout) == (0, "Rule set: command python -> python3\n")
    assert _suggest(store) == []
    assert json.loads(store("aliases", "--json").stdout)[0]["to_name"] == "python3"
    rewritten = pave_check({"tool_name": "Bash", "tool_input": {"command": "python y.py"}})
    assert json.loads(rewritten.stdout)["hookSpecificOutput"]["updatedInput"]["command"] == "python3 y.py"
    paths = json.loads(store("paths", "--json").stdout)
    assert paths[0]["covered_by"]["to_name"] == "python3"


def test_apply_json_is_dp_alias_json(store, env):
    _capture(env, failure("git comit", "git: 'comit' is not a git command.\n\nThe most similar command is\n\tcommit",
                          tool_use_id="f"))
    [item] = _suggest(store)
    applied = json.loads(store("suggest", "--apply", item["id"], "--json").stdout)
    assert (applied["action"], applied["match_kind"], applied["from_name"]) == ("set", "recipe", "git comit")


def test_apply_an_unknown_id_is_a_one_line_error(store):
    assert_one_line_error(store("suggest", "--apply", "s000000"), "no pending suggestion 's000000'")


def test_text_output_shows_the_command_and_evidence(store, env):
    _capture(env, failure("git comit -m x", "git: 'comit' is not a git command.\n\nThe most similar command is\n\tcommit",
                          tool_use_id="f"))
    proc = store("suggest")
    assert "dp alias --recipe 'git comit' 'git commit {{ args }}'" in proc.stdout
    assert "e.g. git comit -m x" in proc.stdout and "dp suggest --apply ID" in proc.stderr


def test_doctor_mentions_pending_suggestions(store, env):
    _capture(env, failure("git comit", "git: 'comit' is not a git command.\n\nThe most similar command is\n\tcommit",
                          tool_use_id="f"))
    [item] = _suggest(store)
    report = json.loads(store("doctor", "--json").stdout)
    [finding] = [check for check in report["checks"] if check["check"] == "suggestions"]
    assert item["id"] in finding["message"] and "dp suggest" in finding["fix"]
    store("suggest", "--apply", item["id"], "--act")
    report = json.loads(store("doctor", "--json").stdout)
    [finding] = [check for check in report["checks"] if check["check"] == "suggestions"]
    assert finding["status"] == "ok" and "no pending suggestions" in finding["message"]
