"""Project rules a team commits (.dp/rules.toml), layered on each person's store, acting only after dp trust.

Two people (two HOMEs, two stores) share one repository through a real git
remote: Ann writes the rules and pushes; Bob clones. Everything goes through
the installed ``dp`` and ``pave-check`` with real hook JSON.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from capture_support import failure, no_such_tool, run_capture, success
from hook_support import programs_dir
from task_projects import real_checkout

BIN = Path(sys.executable).parent
BD_CALL = "bd create --wisp 'fix the build' && just test"


class Person:
    """One user: a HOME, a store, a cache, and a git identity."""

    def __init__(self, root: Path, name: str):
        self.home = root / name
        (self.home / ".dp").mkdir(parents=True)
        env = {key: value for key, value in os.environ.items() if not key.startswith(("DP_", "CLAUDE", "GIT_"))}
        env.update({"HOME": str(self.home), "XDG_CACHE_HOME": str(self.home / ".cache"), "NO_COLOR": "1",
                    "COLUMNS": "200", "GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": f"{name}@example.com",
                    "GIT_COMMITTER_NAME": name, "GIT_COMMITTER_EMAIL": f"{name}@example.com",
                    "GIT_CONFIG_NOSYSTEM": "1"})
        # The team's tools are installed: the hook leaves a recipe for a program not on PATH alone.
        env["PATH"] = f"{programs_dir(self.home / 'bin', gt='true', bd='true')}{os.pathsep}{env['PATH']}"
        self.env = env
        self.store = self.home / ".dp" / "dp.db"

    def dp(self, *args, cwd, check=True) -> subprocess.CompletedProcess:
        proc = subprocess.run([str(BIN / "dp"), *map(str, args)], capture_output=True, text=True, cwd=cwd,
                              env=self.env, timeout=120)
        if check:
            assert proc.returncode == 0, f"dp {' '.join(map(str, args))}:\n{proc.stdout}{proc.stderr}"
        return proc

    def git(self, *args, cwd) -> str:
        proc = subprocess.run(["git", *args], capture_output=True, text=True, cwd=cwd, env=self.env, timeout=60)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    def hook(self, payload: dict) -> subprocess.CompletedProcess:
        return subprocess.run([str(BIN / "pave-check")], input=json.dumps(payload), capture_output=True, text=True,
                              env=self.env, timeout=60)

    def bash(self, command: str, cwd: Path) -> str | None:
        """The command after this person's hook, or None when it was left alone."""
        proc = self.hook({"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash",
                          "tool_input": {"command": command, "description": "run"}, "cwd": str(cwd)})
        assert proc.returncode == 0 and proc.stderr == "", proc.stderr
        if not proc.stdout:
            return None
        return json.loads(proc.stdout)["hookSpecificOutput"].get("updatedInput", {}).get("command")

    def session_start(self, cwd: Path) -> str:
        proc = self.hook({"session_id": "s", "hook_event_name": "SessionStart", "source": "startup",
                          "cwd": str(cwd)})
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"] if proc.stdout else ""


def _real_project(path: Path) -> None:
    """What a checkout looks like (``real_checkout``), with a justfile."""
    real_checkout(path, ignored=(".dp/rules.local.toml",))
    (path / "justfile").write_text("test:\n\techo tests\n")


@pytest.fixture
def team(tmp_path):
    """Ann's repository with rules she exported from her store and committed; Bob's clone."""
    ann, bob = Person(tmp_path, "ann"), Person(tmp_path, "bob")
    origin = tmp_path / "origin.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(origin)], check=True, env=ann.env)
    work = tmp_path / "ann-work"
    _real_project(work)
    ann.git("init", "-q", "-b", "main", cwd=work)
    ann.dp("alias", "--cmd", "bd", "--flag", "wisp", "ephemeral", "-m", "this bd has no --wisp", cwd=work)
    ann.dp("alias", "--recipe", "gt mail check", "gt mail list --unread", cwd=work)
    (work / ".dp").mkdir()
    exported = ann.dp("aliases", "export", cwd=work).stdout
    (work / ".dp" / "rules.toml").write_text("# Our corrections: review changes like code.\n" + exported)
    ann.dp("alias", "--delete", "--cmd", "bd", "--flag", "wisp", "x", cwd=work)  # now only the file has them
    ann.dp("alias", "--delete", "--recipe", "gt mail check", cwd=work)
    ann.git("add", "-A", cwd=work)
    ann.git("commit", "-qm", "team rules", cwd=work)
    ann.git("remote", "add", "origin", str(origin), cwd=work)
    ann.git("push", "-q", "origin", "main", cwd=work)
    ann.dp("trust", cwd=work)  # she wrote the file by hand: trusted like anyone's
    clone = tmp_path / "bob-clone"
    bob.git("clone", "-q", str(origin), str(clone), cwd=tmp_path)
    return ann, work, bob, clone


def test_a_clone_is_corrected_only_after_trust_until_the_file_changes_and_again_after(team):
    ann, work, bob, clone = team
    inside = clone / "src"
    # Cloned: the file is there, but it acts for nobody who did not trust it.
    assert bob.bash(BD_CALL, inside) is None
    context = bob.session_start(inside)
    assert f"{clone}/.dp/rules.toml is not trusted" in context and "`dp trust`" in context
    assert context.count("not trusted") == 1
    listing = bob.dp("aliases", cwd=inside)
    assert "not trusted" in listing.stderr and listing.stderr.count("dp trust") == 2  # once: --show and trust
    assert "SOURCE" not in listing.stdout  # no project rule is in effect for Bob yet
    # --show says what it would do, in words, and trusts nothing.
    shown = bob.dp("trust", "--show", cwd=inside).stdout
    assert "(not trusted)" in shown
    assert "bd: Flag `--wisp` should be `--ephemeral` (this bd has no --wisp)" in shown
    assert bob.bash(BD_CALL, inside) is None
    # Trusted: corrected.
    bob.dp("trust", cwd=inside)
    assert bob.bash(BD_CALL, inside) == "bd create --ephemeral 'fix the build' && just test"
    assert "bd: Flag `--wisp` should be `--ephemeral`" in bob.session_start(inside)
    # Ann changes the file (a review would catch it; dp does not trust it for Bob).
    ann.dp("alias", "--project", "--cmd", "bd", "--flag", "wisp", "ephemeral", "-m", "use --ephemeral", cwd=work)
    assert ann.bash(BD_CALL, work) == "bd create --ephemeral 'fix the build' && just test"  # her own edit
    ann.git("commit", "-qam", "reword", cwd=work)
    ann.git("push", "-q", "origin", "main", cwd=work)
    bob.git("pull", "-q", "--ff-only", cwd=clone)
    assert bob.bash(BD_CALL, inside) is None
    context = bob.session_start(inside)
    assert "changed since you trusted it" in context and "`dp trust`" in context
    doctor = json.loads(bob.dp("doctor", "--json", cwd=inside, check=False).stdout)
    [layer] = [check for check in doctor["checks"] if check["check"] == "layers"]
    assert layer["status"] == "warning" and "changed since you trusted it" in layer["message"]
    # Re-trusted: corrected again, with the new wording.
    bob.dp("trust", cwd=inside)
    assert bob.bash(BD_CALL, inside) == "bd create --ephemeral 'fix the build' && just test"
    assert "(use --ephemeral)" in bob.session_start(inside)
    # And untrusted once more: inert.
    assert "No longer trusted" in bob.dp("untrust", cwd=inside).stdout
    assert bob.bash(BD_CALL, inside) is None


def test_a_local_file_overrides_one_project_rule_for_one_person(team):
    ann, work, bob, clone = team
    bob.dp("trust", cwd=clone)
    (clone / ".dp" / "rules.local.toml").write_text(
        "# mine only\n[[aliases]]\nfrom = \"wisp\"\nto = \"temp\"\ntool = \"Bash\"\nparam = \"command\"\n"
        "command = \"bd\"\nmatch_kind = \"flag\"\n")
    # A new local file is a new layer: inert until trusted, the project layer still acts.
    assert bob.bash("bd create --wisp x", clone) == "bd create --ephemeral x"
    bob.dp("trust", cwd=clone)
    assert bob.bash("bd create --wisp x", clone) == "bd create --temp x"
    assert bob.bash("gt mail check", clone) == "gt mail list --unread"  # the other project rule stays
    rows = json.loads(bob.dp("aliases", "--json", cwd=clone).stdout)
    assert [(row["from_name"], row["to_name"], row["source"], row.get("line")) for row in rows] == [
        ("wisp", "temp", "local", 2), ("gt mail check", "gt mail list --unread", "project", 17)]
    table = bob.dp("aliases", cwd=clone).stdout
    assert "local:2" in table and "project:17" in table
    # Ann (no local file) keeps the project's rule; git does not see Bob's file.
    ann.dp("trust", cwd=work)
    assert ann.bash("bd create --wisp x", work) == "bd create --ephemeral x"
    assert bob.git("status", "--porcelain", cwd=clone) == ""


def test_a_suggestion_applied_with_project_is_one_clean_hunk(team):
    ann, work, bob, clone = team
    bob.dp("trust", cwd=clone)
    # The agent guessed a -cli name the team's tool does not have (gt is on PATH, gt-cli nowhere): dp
    # suggests a rename only where the program typed is missing and what the agent ran instead is there.
    for session in ("s1", "s2"):
        for event in (failure("gt-cli mail list", "Exit code 127\ngt-cli: command not found", session=session,
                              tool_use_id="f", cwd=str(clone)),
                      success("gt mail list", session=session, tool_use_id="s", cwd=str(clone))):
            assert run_capture({**event, "tool_use_id": f"{session}{event['tool_use_id']}"}, env=bob.env).returncode == 0
    [item] = json.loads(bob.dp("suggest", "--json", cwd=clone).stdout)
    applied = bob.dp("suggest", "--apply", item["id"], "--project", cwd=clone / "src")
    assert applied.stdout == f"Rule set in {clone}/.dp/rules.toml: command gt-cli -> gt\n"
    diff = bob.git("diff", "--unified=1", cwd=clone)
    hunks = [line for line in diff.splitlines() if line.startswith("@@")]
    assert len(hunks) == 1 and diff.count("\n-") == 1, diff  # one hunk, nothing removed (only the --- header)
    added = [line[1:] for line in diff.splitlines() if line.startswith("+") and not line.startswith("+++")]
    assert added == ["", "[[aliases]]", 'from = "gt-cli"', 'to = "gt"', 'tool = "Bash"', 'param = "command"',
                     'command = "gt-cli"', 'match_kind = "command"']
    # Bob trusted the file before and made this change himself: it still acts for him.
    assert bob.bash("gt-cli mail send", clone) == "gt mail send"
    assert json.loads(bob.dp("suggest", "--json", cwd=clone).stdout) == []  # covered by the project rule now
    # Not in his store: the file is the one place it lives.
    assert json.loads(bob.dp("aliases", "--json", cwd=bob.home).stdout) == []


def test_project_edits_keep_comments_and_order_and_refuse_what_the_store_refuses(team):
    ann, work, bob, clone = team
    rules = clone / ".dp" / "rules.toml"
    before = rules.read_text()
    bob.dp("alias", "--project", "--recipe", "gt mail check", "gt mail list --unread --all", cwd=clone)
    after = rules.read_text()
    assert after.replace('"gt mail list --unread --all"', '"gt mail list --unread"') == before
    # The store's refusal, word for word, and nothing written.
    refused = bob.dp("alias", "--project", "--cmd", "bd", "--flag", "wisp", "", cwd=clone, check=False)
    stored = bob.dp("alias", "--cmd", "bd", "--flag", "wisp", "", cwd=clone, check=False)
    assert refused.returncode == stored.returncode == 1 and refused.stderr == stored.stderr
    assert rules.read_text() == after
    # A broken file is named with its line and left alone.
    rules.write_text(after.replace('to = "gt mail list --unread --all"', 'to = 7'))
    broken = bob.dp("alias", "--project", "--cmd", "grep", "--replace", "rg", cwd=clone, check=False)
    assert broken.returncode == 1 and broken.stderr.startswith(f"dp: error: {rules} line ")
    assert "field 'to' must be a string" in broken.stderr and "nothing was changed" in broken.stderr
    assert len(broken.stderr.splitlines()) == 1
    # Outside a repository: one line saying why.
    outside = bob.dp("alias", "--project", "--cmd", "grep", "--replace", "rg", cwd=bob.home, check=False)
    assert outside.returncode == 1 and "not inside a git repository" in outside.stderr


def test_a_broken_project_file_fails_open_for_that_layer_only(team):
    ann, work, bob, clone = team
    bob.dp("alias", "--cmd", "scp", "--flag", "r", "R", cwd=clone)
    bob.dp("trust", cwd=clone)
    rules = clone / ".dp" / "rules.toml"
    rules.write_text(rules.read_text() + "\n[[aliases]]\nfrom = \"x\"\nto = \"y\"\nmatch_kind = \"bogus\"\n")
    assert bob.bash("scp -r a b:", clone) == "scp -R a b:"  # the user's rules still apply
    assert bob.bash(BD_CALL, clone) is None
    line = next(n for n, text in enumerate(rules.read_text().splitlines(), 1) if text == "[[aliases]]" and n > 20)
    listing = bob.dp("aliases", cwd=clone)
    assert f"{rules}: line {line}: entry 3:" in listing.stderr and "match_kind" in listing.stderr
    doctor = json.loads(bob.dp("doctor", "--json", cwd=clone, check=False).stdout)
    [layer] = [check for check in doctor["checks"] if check["check"] == "layers"]
    assert layer["status"] == "error" and f"line {line}" in layer["message"]
    refused = bob.dp("trust", cwd=clone, check=False)
    assert refused.returncode == 1 and f"line {line}" in refused.stderr and "nothing was trusted" in refused.stderr
    # Oversized, and a directory in the file's place: the same, never an error in the hook.
    rules.write_bytes(b"# " + b"x" * (2 << 20) + b"\n")
    assert bob.bash("scp -r a b:", clone) == "scp -R a b:"
    assert "bytes" in bob.dp("aliases", cwd=clone).stderr
    rules.unlink()
    rules.mkdir()
    assert bob.bash("scp -r a b:", clone) == "scp -R a b:"
    assert "a directory" in bob.dp("aliases", cwd=clone).stderr


def test_trust_lives_in_the_store_not_the_repository_and_tool_names_are_layered(team):
    ann, work, bob, clone = team
    bob.dp("alias", "--project", "read_file", "Read", cwd=clone)  # Bob's edit of a file he never trusted
    payload = {"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "read_file",
               "tool_input": {"file_path": "a"}, "cwd": str(clone)}
    assert bob.hook(payload).returncode == 0  # his edit did not grant trust
    bob.dp("trust", cwd=clone)
    blocked = bob.hook(payload)
    assert (blocked.returncode, blocked.stderr) == (2, "read_file is not a valid tool. Use Read instead.\n")
    assert bob.git("status", "--porcelain", cwd=clone) == " M .dp/rules.toml\n"  # the trust is not in the repo
    assert bob.hook({**payload, "cwd": str(bob.home)}).returncode == 0  # outside the project: not in effect


def test_trust_adds_the_project_words_to_the_hook_filters(team):
    ann, work, bob, clone = team
    fake_claude = bob.home / "claude"
    fake_claude.write_text("#!/bin/sh\necho '2.1.330 (Claude Code)'\n")
    fake_claude.chmod(0o755)
    bob.env["DP_CLAUDE"] = str(fake_claude)
    bob.dp("paving", "off", cwd=clone)  # only the rules' words in the conditions here (paving adds its own while on)
    bob.dp("pave", "--hook", cwd=clone)
    settings = bob.home / ".claude" / "settings.json"

    def conditions() -> list[str]:
        entries = json.loads(settings.read_text())["hooks"].get("PreToolUse", [])
        return [hook.get("if", "") for entry in entries for hook in entry["hooks"]]

    assert not any("bd" in condition for condition in conditions())
    bob.dp("trust", cwd=clone)
    assert "Bash(*bd*)" in conditions() and "Bash(*gt*)" in conditions()
    bob.dp("untrust", cwd=clone)
    assert not any("bd" in condition for condition in conditions())


def test_pave_agents_md_and_paths_see_the_rules_in_effect(team):
    ann, work, bob, clone = team
    bob.dp("trust", cwd=clone)
    block = bob.dp("pave", "--agents-md", cwd=clone).stdout
    assert "Flag `--wisp` should be `--ephemeral`" in block
    entries = json.loads(bob.dp("pave", "--agents-md", "--json", cwd=clone).stdout)["rules"]
    assert {entry["source"] for entry in entries} == {"project"}
    assert run_capture(failure("bd create --wisp x", "Exit code 1\nError: unknown flag: --wisp", cwd=str(clone)),
                       env=bob.env).returncode == 0
    [path] = json.loads(bob.dp("paths", "--json", cwd=clone).stdout)
    assert path["covered_by"]["to_name"] == "ephemeral"


def test_import_into_the_project_file_appends_in_one_write(team, tmp_path):
    ann, work, bob, clone = team
    collection = tmp_path / "more.toml"
    collection.write_text('[meta]\nversion = 1\n\n[[aliases]]\nfrom = "grep"\nto = "rg"\ntool = "Bash"\n'
                          'param = "command"\ncommand = "grep"\nmatch_kind = "command"\n\n[[aliases]]\nfrom = "gt mail '
                          'check"\nto = "changed"\ntool = "Bash"\nparam = "command"\ncommand = "gt"\nmatch_kind = '
                          '"recipe"\n')
    rules = clone / ".dp" / "rules.toml"
    before = rules.read_text()
    dry = bob.dp("aliases", "import", collection, "--project", "--dry-run", cwd=clone)
    assert "would import 1, skipped 1" in dry.stderr and rules.read_text() == before
    bob.dp("aliases", "import", collection, "--project", cwd=clone)
    assert rules.read_text().startswith(before) and rules.read_text().count("[[aliases]]") == 3
    bob.dp("aliases", "import", collection, "--project", "--conflict", "overwrite", cwd=clone)
    assert 'to = "changed"' in rules.read_text() and rules.read_text().count("[[aliases]]") == 3


def test_a_full_disk_import_says_so_and_imports_nothing(tmp_path):
    """100,000 rules into a store that may not grow past 2 MB (RLIMIT_FSIZE, as a full disk)."""
    import resource

    person = Person(tmp_path, "carol")
    person.dp("alias", "--cmd", "scp", "--flag", "r", "R", cwd=tmp_path)
    lines = ["[meta]", "version = 1"]
    for n in range(100_000):
        lines += ["", "[[aliases]]", f'from = "tool_{n}"', 'to = "Read"']
    collection = tmp_path / "big.toml"
    collection.write_text("\n".join(lines) + "\n")

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (2 << 20, 2 << 20))

    proc = subprocess.run([str(BIN / "dp"), "aliases", "import", str(collection)], capture_output=True, text=True,
                          env=person.env, cwd=tmp_path, timeout=300, preexec_fn=limit)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith(f"dp: error: cannot write the alias store {person.store}: the disk is full")
    assert "nothing was imported" in proc.stderr and "internal error" not in proc.stderr
    assert len(proc.stderr.splitlines()) == 1
    rows = json.loads(person.dp("aliases", "--json", cwd=tmp_path).stdout)
    assert [row["command"] for row in rows] == ["scp"]


def test_the_mod_snapshot_carries_a_trusted_projects_tool_names_with_the_trusted_text(team):
    """The Claude Code mod (dp/agents/claude/mod) renames hallucinated tool names from a per-user snapshot;
    a trusted repository's aliases go in an entry of their own, for sessions inside it."""
    ann, work, bob, clone = team
    bob.dp("alias", "--project", "read_file", "Read", "-m", "Read is the file tool", cwd=clone)
    snapshot = bob.home / ".dp" / "claude-mod" / "aliases.json"
    assert json.loads(snapshot.read_text())["projects"] == []  # written, not trusted: nothing for the mod
    bob.dp("trust", cwd=clone)
    [entry] = json.loads(snapshot.read_text())["projects"]
    rules = (clone / ".dp" / "rules.toml").resolve()
    assert entry["root"] == str(clone.resolve())
    assert entry["files"] == [{"path": str(rules), "text": rules.read_text()}]
    [alias] = entry["aliases"]
    assert (alias["name"], alias["tool"], alias["args"]["path"], alias["message"]) == (
        "read_file", "Read", "file_path", "Read is the file tool")
    assert json.loads(snapshot.read_text())["aliases"] == []  # not the user's own
    bob.dp("untrust", cwd=clone)
    assert json.loads(snapshot.read_text())["projects"] == []


def _after_batch(person: Person, cwd: Path, name: str = "read_file") -> str:
    """PostToolBatch after Claude Code rejected a call of the unknown tool ``name``: dp's additionalContext."""
    proc = person.hook({"session_id": "s", "hook_event_name": "PostToolBatch", "cwd": str(cwd), "tool_calls": [
        {"tool_name": name, "tool_use_id": "t1", "tool_input": {"path": "src/main.py"},
         "tool_response": no_such_tool(name)}]})
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    if not proc.stdout:
        return ""
    answer = json.loads(proc.stdout)["hookSpecificOutput"]
    assert answer["hookEventName"] == "PostToolBatch"
    return answer["additionalContext"]


def test_session_start_and_post_tool_batch_follow_the_project_layers(team):
    ann, work, bob, clone = team
    inside = clone / "src"
    rules = clone / ".dp" / "rules.toml"
    # Bob has no store yet: the session still learns, once, that the project's rules wait for him.
    untrusted = (f"dp: {rules} is not trusted, so its rules (2) do not apply until `dp trust --show`, then `dp trust` "
                 f"in {clone} (only the person runs that, in their own terminal; an agent asks them to)")
    assert bob.session_start(inside) == untrusted
    # His own alias of the hallucinated tool name; a project alias of it he writes but has not trusted yet.
    bob.dp("alias", "read_file", "Read", "-m", "user: use Read", cwd=bob.home)
    bob.dp("alias", "--project", "read_file", "Read", "-m", "project: use Read", cwd=clone)
    context = bob.session_start(inside)
    assert context.startswith("dp (desire paths) corrections on this machine; follow them:\n")
    assert context.endswith("\n" + untrusted.replace("rules (2)", "rules (3)"))
    assert context.count("dp trust`") == 1 and "wisp" not in context and "project: use Read" not in context
    assert _after_batch(bob, inside) == "dp: user: use Read"  # the inert project layer does not speak
    # Trusted: the project's tool-name correction and command rules are listed, the notice is gone.
    bob.dp("trust", cwd=clone)
    context = bob.session_start(inside)
    assert "not trusted" not in context and "dp trust" not in context
    lines = context.splitlines()
    assert "- bd: Flag `--wisp` should be `--ephemeral` (this bd has no --wisp)" in lines
    assert any(line.startswith("- gt: ") and "gt mail check" in line and "gt mail list --unread" in line
               for line in lines), context
    assert sum("read_file" in line for line in lines) == 1 and "project: use Read" in context  # over the user's
    assert _after_batch(bob, inside) == "dp: project: use Read"
    assert _after_batch(bob, bob.home) == "dp: user: use Read"  # outside the repository: his own
    assert _after_batch(bob, inside, "Read") == ""  # a name nobody aliased: nothing to say
    # A local file over the project (trusted too): local over project over user.
    (clone / ".dp" / "rules.local.toml").write_text(
        '[[aliases]]\nfrom = "read_file"\nto = "Read"\nmessage = "local: use Read"\n')
    assert _after_batch(bob, inside) == "dp: project: use Read"  # not trusted yet
    bob.dp("trust", cwd=clone)
    assert _after_batch(bob, inside) == "dp: local: use Read"
    assert "local: use Read" in bob.session_start(inside) and "project: use Read" not in bob.session_start(inside)
    # Ann pushes a change to the committed file: for Bob it reverts to the notice, the local layer still acts.
    ann.dp("alias", "--project", "--cmd", "bd", "--flag", "wisp", "ephemeral", "-m", "use --ephemeral", cwd=work)
    ann.git("commit", "-qam", "reword", cwd=work)
    ann.git("push", "-q", "origin", "main", cwd=work)
    bob.git("stash", "-q", cwd=clone)  # his uncommitted project alias, to pull cleanly
    bob.git("pull", "-q", "--ff-only", cwd=clone)
    context = bob.session_start(inside)
    assert context.endswith(f"\ndp: {rules} changed since you trusted it, so its rules (2) do not apply until "
                            f"`dp trust --show`, then `dp trust` in {clone} (only the person runs that, in their own terminal; an agent asks them to)")
    assert "wisp" not in context and "gt mail" not in context and "local: use Read" in context
    assert context.count("dp trust`") == 1
    (clone / ".dp" / "rules.local.toml").unlink()
    assert _after_batch(bob, inside) == "dp: user: use Read"
    assert bob.session_start(inside).endswith(f"in {clone} (only the person runs that, in their own terminal; an agent asks them to)")


def _doctor(person: Person, cwd: Path) -> tuple[str, list[dict]]:
    """``dp doctor --cwd`` run from the person's HOME: (the text report, the --json checks)."""
    text = person.dp("doctor", "--cwd", cwd, cwd=person.home, check=False).stdout
    checks = json.loads(person.dp("doctor", "--json", "--cwd", cwd, cwd=person.home, check=False).stdout)["checks"]
    return text, checks


def test_doctor_reports_each_layer_for_cwd_and_checks_the_project_rules(team):
    ann, work, bob, clone = team
    rules, local = clone / ".dp" / "rules.toml", clone / ".dp" / "rules.local.toml"
    bob.dp("alias", "--project", "--cmd", "mytool", "--replace", "othertool", cwd=clone)  # renames only
    local.write_text('# mine\n[[aliases]]\nfrom = "foo"\nto = "bar"\ntool = "Bash"\nparam = "command"\n'
                     'command = "foo"\nmatch_kind = "command"\n')
    text, checks = _doctor(bob, clone / "src")
    lines = text.splitlines()
    fix = f"                   fix: cd {clone} && dp trust --show && dp trust"
    for source, path, count in (("project", rules, 3), ("local", local, 1)):
        said = (f"warn   layers      {source}: {path} is not trusted, so its rules ({count}) do not apply until "
                f"`dp trust --show`, then `dp trust` in {clone} (only the person runs that, in their own terminal; an agent asks them to)")
        assert said in lines and lines[lines.index(said) + 1] == fix
    # Not acting yet, its rules are checked all the same: where each is written, and the fix made there.
    renames = {check["details"]["source"]: check for check in checks
               if check["check"] == "rules" and "only renames" in check["message"]}
    header = rules.read_text().splitlines().index("[[aliases]]", 20) + 1  # the entry dp appended
    assert renames["project"]["message"].startswith(f"{rules} line {header}: command mytool → othertool only renames")
    assert renames["project"]["fix"] == ("dp alias --delete --cmd mytool --replace othertool --project "
                                         "(if othertool reads some flags differently)")
    assert renames["local"]["message"].startswith(f"{local} line 2: command foo → bar only renames")
    assert renames["local"]["fix"] == f"remove the entry at {local} line 2 (if bar reads some flags differently)"
    # The fix works as said; trusted, both layers act and every rule in effect can fire.
    bob.dp(*renames["project"]["fix"].split(" (")[0].split()[1:], cwd=clone)
    local.write_text('# mine\n[[aliases]]\nfrom = "read_file"\nto = "Read"\nmessage = "use Read"\n')
    bob.dp("trust", cwd=clone)
    text, checks = _doctor(bob, clone / "src")
    assert f"ok     layers      project: {rules} acts (2 rules, trusted)" in text
    assert f"ok     layers      local: {local} acts (1 rule, trusted)" in text
    assert ("ok     rules       all 3 rules (3 from the project layers) are valid: 2 can fire before the call "
            "runs; 1 tool-name alias is only told to the model") in text
    assert "tool-name aliases for names it does not know (read_file)" in text  # reach sees the layers too
    assert "ok     rules       the store has no rules; the project layers' 3 rules act here" in text
    assert "changes nothing" not in text
    # The user's own rules are checked with them; a changed file and a broken one say so per layer.
    bob.dp("alias", "--cmd", "scp", "--flag", "r", "R", cwd=bob.home)
    rules.write_text(rules.read_text().replace("this bd has no --wisp", "use --ephemeral"))
    local.write_text(local.read_text() + '\n[[aliases]]\nfrom = "x"\nto = "y"\nmatch_kind = "bogus"\n')
    text, checks = _doctor(bob, clone)
    assert (f"warn   layers      project: {rules} changed since you trusted it, so its rules (2) do not apply "
            f"until `dp trust --show`, then `dp trust` in {clone} (only the person runs that, in their own terminal; an agent asks them to)") in text
    [broken] = [check for check in checks if check["check"] == "layers" and check["status"] == "error"]
    assert broken["message"].startswith(f"local: {local}: line 7: entry 2: ") and "match_kind" in broken["message"]
    assert "ok     rules       all 3 rules (2 from the project layers) can fire\n" in text
    # Elsewhere, only the user's store.
    text, _ = _doctor(bob, bob.home)
    assert "layers" not in text and "ok     rules       all 1 rules can fire\n" in text


def test_session_start_takes_a_changed_trusted_files_words_out_of_the_hook_filters(team):
    ann, work, bob, clone = team
    fake_claude = bob.home / "claude"
    fake_claude.write_text("#!/bin/sh\necho '2.1.330 (Claude Code)'\n")
    fake_claude.chmod(0o755)
    bob.env["DP_CLAUDE"] = str(fake_claude)
    bob.dp("paving", "off", cwd=clone)
    bob.dp("pave", "--hook", cwd=clone)
    bob.dp("trust", cwd=clone)
    settings = bob.home / ".claude" / "settings.json"

    def conditions() -> list[str]:
        entries = json.loads(settings.read_text())["hooks"].get("PreToolUse", [])
        return [hook.get("if", "") for entry in entries for hook in entry["hooks"]]

    assert "Bash(*bd*)" in conditions() and "Bash(*gt*)" in conditions()
    synced = settings.read_bytes()
    bob.session_start(clone)  # nothing changed: the settings are not touched
    assert settings.read_bytes() == synced
    # Ann's change arrives by a pull: the file stops acting at once; the per-call path does not resync.
    ann.dp("alias", "--project", "--cmd", "bd", "--flag", "wisp", "ephemeral", "-m", "use --ephemeral", cwd=work)
    ann.git("commit", "-qam", "reword", cwd=work)
    ann.git("push", "-q", "origin", "main", cwd=work)
    bob.git("pull", "-q", "--ff-only", cwd=clone)
    assert bob.bash(BD_CALL, clone) is None
    assert settings.read_bytes() == synced
    # The next session start brings the filters in line: the changed file's words are gone.
    assert "changed since you trusted it" in bob.session_start(clone / "src")
    assert not any("bd" in condition or "gt" in condition for condition in conditions())
    changed = settings.read_bytes()
    bob.session_start(clone)
    assert settings.read_bytes() == changed  # once, not at every session
    # Trusted again: back in the filters, and corrected.
    bob.dp("trust", cwd=clone)
    assert "Bash(*bd*)" in conditions()
    assert bob.bash(BD_CALL, clone) == "bd create --ephemeral 'fix the build' && just test"
