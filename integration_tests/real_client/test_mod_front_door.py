"""The mod as the front door for Bash, in the real client: only commands dp can act on start pave-check.

With the plugin installed and mods loading (2.1.286+), the mod reads each Bash
command's words against the snapshot's word set and runs pave-check only on a
match; the plugin's classic Bash handler steps aside. A recording wrapper
stands in for pave-check in the installed plugin (the marketplace copy and the
client's cache), so every dp process a session starts leaves one line, with
the command it was asked about. Where mods do not load, the classic handler
runs pave-check for every call, as before.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from real_managers import install_manager

from dp.agents.claude.fake_api import bash
from real_client.claude_install import PINNED_VERSION
from real_client.client_support import BIN, RealClient
from real_client.front_door_support import RECIPE, asked, hook_answers, mod_decisions, recorded, user_with_rules
from real_client.test_plugin import LATEST, install_plugin, release_client

CORPUS = Path(__file__).parent.parent / "data" / "corpus.txt"

UNTOUCHED = ("ls", "echo hi", "cat notes.txt", "git status", "pwd")


def classic_answer(client: RealClient, command: str) -> str:
    """What the classic hook makes of ``command`` here (pave-check on its own stdin), run as bash would."""
    payload = {"session_id": "classic", "cwd": str(client.project), "hook_event_name": "PreToolUse",
               "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "toolu_classic"}
    proc = subprocess.run([str(BIN / "pave-check")], input=json.dumps(payload), capture_output=True, text=True,
                          env=client.env, cwd=client.project, timeout=60, check=True)
    rewritten = json.loads(proc.stdout)["hookSpecificOutput"]["updatedInput"]["command"] if proc.stdout else command
    ran = subprocess.run(["bash", "-c", rewritten], capture_output=True, text=True, env=client.env,
                         cwd=client.project, timeout=60)
    return (ran.stdout + ran.stderr).strip()


ACTED_ON = ("grep -rn x .", "npm install", f"{RECIPE} 'job 1; echo INJECTED'")


@pytest.mark.parametrize("release", [None, LATEST], ids=["pinned", LATEST])
def test_after_a_plain_init_ordinary_commands_start_no_dp_process_and_rewrites_stay_as_today(
        tmp_path, warm_cache, release):
    client = release_client(tmp_path, warm_cache, release)
    report = client.init(plain=True)  # dp init, nothing more: the client loads mods, so dp is its plugin
    assert report["chosen"] == (release or PINNED_VERSION) and report["plugin"]["client"]["ok"], report
    assert "hooks" not in client.read_settings()
    user_with_rules(client)
    log, capture_log = recorded(client), recorded(client, "dp-capture")
    expected = {command: classic_answer(client, command) for command in ACTED_ON}
    log.unlink(missing_ok=True)

    calls = [bash(command) for command in UNTOUCHED + ACTED_ON]
    session = client.run([[call] for call in calls])

    assert session.result["is_error"] is False, session.proc.stdout
    # One dp process per command a rule or paving acts on; none for the rest, none after a batch,
    # and no dp-capture at all: nothing failed.
    assert asked(log) == list(ACTED_ON)
    assert not capture_log.exists(), capture_log.read_text()
    results = {call["input"]["command"]: session.tool_result(call["id"])["text"] for call in calls}
    for command in ACTED_ON:
        assert results[command] == expected[command], (command, results[command])
    assert results["echo hi"] == "hi" and "x marks the spot" in results["cat notes.txt"]
    assert results["npm install"] == "pnpm ran: install"
    assert results[f"{RECIPE} 'job 1; echo INJECTED'"] == "deployed job 1; echo INJECTED"
    assert "grep → rg" in session.shown(calls[len(UNTOUCHED)]["id"])  # dp's note, as the hook wrote it
    report = json.loads(client.dp("doctor", "--json", check=False).stdout)
    lines = [f["message"] for f in report["checks"] if f["check"] == "plugin"]
    assert any("Bash went through the mod's front door" in line for line in lines), lines


@pytest.mark.parametrize("release, switch", [("2.1.240", {}), ("2.1.286", {"CLAUDE_CODE_ENABLE_FUNCTION_HOOKS": "0"})])
def test_where_mods_do_not_load_the_classic_handlers_ask_dp_as_their_filters_say(tmp_path, warm_cache, release, switch):
    client = release_client(tmp_path, warm_cache, release)
    install_plugin(client)
    user_with_rules(client)
    log, capture_log = recorded(client), recorded(client, "dp-capture")
    client.env.update(switch)

    calls = [bash(command) for command in ("ls", "grep -rn x .", "npm install")]
    session = client.run([[call] for call in calls])

    assert session.result["is_error"] is False, session.proc.stdout
    # The `if`-filtered Bash handlers for the calls a rule or paving word names (not `ls`: issue 52), and no
    # correction hook after a batch without a refused tool name (its shell guard);
    # dp-capture after every call that ran (async: the last one may outlive a -p session).
    assert asked(log) == ["grep -rn x .", "npm install"]
    captured = [json.loads(line) for line in capture_log.read_text().splitlines()]
    assert [(p["hook_event_name"], p["tool_input"]["command"]) for p in captured][0] == ("PostToolUse", "ls")
    # dp's answers reached the client (2.1.286's auto-mode classifier may still hold the paved call back).
    assert "grep → rg" in session.shown(calls[1]["id"]) and "ran `pnpm install`" in session.shown(calls[2]["id"])
    if release == "2.1.240":
        assert session.tool_result(calls[2]["id"])["text"] == "pnpm ran: install"
        assert session.tool_result(calls[1]["id"])["text"].startswith("rg ran:")
    report = json.loads(client.dp("doctor", "--json", check=False).stdout)
    lines = [f["message"] for f in report["checks"] if f["check"] == "plugin"]
    assert any("the mod did not load in the latest session" in line for line in lines), lines


def corpus_commands() -> list[str]:
    import sys

    sys.path.insert(0, str(Path(__file__).parents[2] / "bench"))
    from corpus import commands

    return commands(CORPUS)


def test_on_the_corpus_the_mod_skips_only_commands_the_classic_hook_leaves_alone(client, tmp_path):
    """No client: the mod's own decision (its TypeScript, under bun) against the real pave-check's answer.

    A command the mod does not send to dp must be one pave-check answers with
    nothing; one it sends gets pave-check's own answer, so no rewrite can differ.
    And the mod sends no more than the hook's own gate could act on: a command
    whose words hold none of the snapshot's (``$( )``, here-docs, ``du -sh .``,
    ``python -c``) stays in the client.
    """
    user_with_rules(client)
    client.dp("alias", "-q", "--cmd", "find", "--replace", "fd")
    commands = corpus_commands() + list(UNTOUCHED) + list(ACTED_ON) + list(JUDGED_BY_WORDS)
    snapshot = client.home / ".dp" / "claude-mod" / "aliases.json"

    decided = mod_decisions(install_manager("bun") / "bun", snapshot, commands, tmp_path)
    answers = hook_answers(str(BIN / "python"), client.env, client.project, commands)
    asks = [ask for ask, _ in decided]

    from dp.shell.words import command_words

    for command, (_, words) in zip(commands, decided):  # the port reads the words the hook reads
        assert words == sorted(command_words(command)), command

    skipped = [command for command, ask in zip(commands, asks) if not ask]
    acted = [command for command, (status, out) in zip(commands, answers) if status != 0 or out]
    assert not set(skipped) & set(acted), sorted(set(skipped) & set(acted))
    assert set(UNTOUCHED) <= set(skipped) and set(ACTED_ON) <= set(acted)
    # Nothing beyond the gate: each command sent to dp holds a word a rule is keyed on, or a paving
    # word (with its needed text), as the snapshot says.
    door = json.loads(snapshot.read_text())["bash"]
    assert sorted(door["needs"]) == ["pip", "pip3", "python", "python3"]
    assert [command for command, ask in zip(commands, asks) if ask != gate(door, command)] == []
    assert set(JUDGED_BY_WORDS) <= set(skipped)
    print(f"corpus: {len(commands)} commands, the mod asks dp for {len(commands) - len(skipped)}, "
          f"pave-check acts on {len(acted)}")


# Constructs the scan reads through: pave-check leaves each alone (no word of theirs has a rule here).
JUDGED_BY_WORDS = ("ls $(cat list)", "cat <<EOF\nx\nEOF", 'eval "$X"', ". ./env.sh", "du -sh .",
                   "python -c 'print(1)'", "diff <(ls a) <(ls b)")


def gate(door: dict, command: str) -> bool:
    """Whether pave-check's gate could pass for ``command`` under the snapshot's front door (the mod's
    decision, spelled from dp.shell.words and dp.paving.gate)."""
    from dp.shell.words import command_words

    if door["everything"] or len(command) > 65536 or not command.isascii() or any(
            not (char.isprintable() or char in "\t\n") for char in command):
        return True
    if any(text in command for text in door["mentions"]):  # dp's own name: its commands are the person's
        return True
    return any(word in door["words"] and door["needs"].get(word, "") in command for word in command_words(command))


def test_the_snapshot_stays_true_a_stale_or_unreadable_one_sends_every_call_to_dp(client):
    """One session, the snapshot changing under it: a rule change whose sync did not run (the rules
    stamp moved), a real rule change (dp alias syncs it: a new word, no staleness), a broken file.

    The rule change is the person's (an agent's `dp alias` is theirs to decide: dp.widening), made
    while the session runs: a stand-in program runs dp alias's own code in-process."""
    client.init("--plugin")
    client.program("oldtool")
    client.program("newtool")
    log = recorded(client)
    stamp, snapshot = client.home / ".dp" / "rules.changed", client.home / ".dp" / "claude-mod" / "aliases.json"
    client.program("rule-change", f"{shlex.quote(str(BIN / 'python'))} -c 'import sys; from dp.cli.app import "
                   "build_app; build_app(\"alias\")(args=sys.argv[1:], prog_name=\"x\", standalone_mode=False)' "
                   "alias -q --cmd oldtool --replace newtool")
    dp_alias = "rule-change"
    # The files under ~/.dp by name through the environment: a command naming `dp` goes to dp whatever
    # the snapshot says (the front door's `mentions`), and these are about the snapshot alone.
    client.env.update(STAMP=str(stamp), SNAPSHOT=str(snapshot))
    commands = ["pwd", 'touch "$STAMP"', "pwd", dp_alias, "pwd", "oldtool x", "echo '{' > \"$SNAPSHOT\"", "pwd"]
    calls = [bash(command) for command in commands]

    session = client.run([[call] for call in calls])

    assert session.result["is_error"] is False, session.proc.stdout
    # Fresh: no dp. Stale: every call, until dp alias wrote the snapshot again. Then only the rule's word,
    # and after the snapshot broke, every call again.
    assert asked(log) == ["pwd", dp_alias, "oldtool x", "pwd"]
    assert session.tool_result(calls[5]["id"])["text"] == "newtool ran: x"


@pytest.mark.parametrize("release", [None, LATEST], ids=["pinned", LATEST])
def test_with_the_front_door_ordinary_calls_start_no_capture_and_a_failure_still_gets_its_answer(
        tmp_path, warm_cache, release):
    """dp-capture through the mod: nothing for `ls` and the rest, the failed call captured in line with
    the learned answer in its result, and the Bash calls just after it captured (the fix dp.learn reads)."""
    from real_client.test_learned_answer import ANSWER, NOT_FOUND, _earlier_session

    client = release_client(tmp_path, warm_cache, release)
    if shutil.which("gradle", path=client.env["PATH"]):
        pytest.skip("this machine has gradle: the call would not fail")
    client.init(plain=True)
    wrapper = client.project / "gradlew"
    wrapper.write_text("#!/bin/sh\necho BUILD SUCCESSFUL\n")
    wrapper.chmod(0o755)
    (client.project / "notes.txt").write_text("x marks the spot\n")
    subprocess.run(["git", "init", "-q", str(client.project)], check=True)
    _earlier_session(client, "earlier-1")
    _earlier_session(client, "earlier-2")
    assert json.loads(client.dp("suggest", "--json").stdout)[0]["alias"] == ["--recipe", "gradle", "./gradlew {{ args }}"]
    pave_log, capture_log = recorded(client), recorded(client, "dp-capture")

    ordinary = [bash(command) for command in UNTOUCHED]
    failing, fix = bash("gradle -q build"), bash("./gradlew -q build")
    later = [bash(command) for command in ("echo after", "ls", "pwd", "echo one", "echo two", "echo three")]
    session = client.run([[call] for call in [*ordinary, failing, fix, *later]])

    assert session.result["is_error"] is False, session.proc.stdout
    assert asked(pave_log) == []  # no rule or paving word anywhere
    starts = [json.loads(line) for line in capture_log.read_text().splitlines()]
    captured = [[(p["hook_event_name"], p["tool_input"]["command"]) for p in (s if isinstance(s, list) else [s])]
                for s in starts]
    # Two processes: the failure in line, then the FOLLOW_CALLS (5) Bash calls after it, handed over
    # together once the last of them ran. Nothing before the failure, nothing past them.
    assert captured == [[("PostToolUseFailure", "gradle -q build")],
                        [("PostToolUse", "./gradlew -q build"), *[("PostToolUse", c["input"]["command"]) for c in later[:4]]]]
    assert session.tool_result(ordinary[1]["id"])["text"] == "hi"
    assert NOT_FOUND.splitlines()[-1] in session.tool_result(failing["id"])["text"]
    assert ANSWER in session.shown(failing["id"])
    rows = json.loads(client.dp("desires", "--json", check=False).stdout)
    assert any("gradle -q build" in json.dumps(row) for row in rows), rows
    # The fix's command is stored (what dp.learn pairs with the failure): a third session's pair.
    item = json.loads(client.dp("suggest", "--json").stdout)[0]
    assert item["sessions"] == 3 and "./gradlew -q build" in [e["then"] for e in item["evidence"]], item
    # The successes no process captured are in the session file: dp ingest stores exactly those.
    report = json.loads(client.dp("ingest", "--claude-transcripts", "--json").stdout)["claude_transcripts"]
    assert (report["failures"], report["successes"]) == (1, 12) and report["added"] == 12 - 5, report
    report = json.loads(client.dp("doctor", "--json", check=False).stdout)
    lines = [f["message"] for f in report["checks"] if f["check"] == "plugin"]
    assert any("dp-capture only after a failure" in line for line in lines), lines
