"""Replay benchmark: learn from the earlier sessions, replay the later ones through the real hooks.

Given session files in any format ``dp ingest`` reads (``--agent``; Claude Code
transcripts by default), the sessions are ordered by their first call and split
(``--learn-share``, half by default). The earlier part goes through the real
``dp ingest`` and ``dp suggest`` (learning, and every proposed rule applied with
``dp suggest --apply ID --act``: made to act, as a person who accepts them all would, not set in shadow);
the later part is replayed call by call: every Bash call
through the real ``pave-check`` (PreToolUse JSON), and every failed one through
the real ``dp-capture`` (PostToolUseFailure JSON, the after-failure answer). The
programs on the hooks' PATH are stubs (``Machines``): for learning, those the
earlier sessions ran successfully, minus those they found missing; for each
replayed session, also what it ran itself, minus what it found missing, so a
session whose machine had ripgrep keeps its ``rg``. Each recorded working directory is a real
one during the run, holding before each replayed session what that session shows of its
project (``replay_projects.Projects``: the programs it ran by a relative path, the npm scripts and
make targets it ran), so what dp knows about a project can answer there. A session file is a
session of its own (a subagent's transcript shares its parent's session id).

It reports, over the replayed calls:

* (a) failures **prevented**: the hook rewrote the call into the agent's own later
  fix (dp.learn's pair, compared as normalised words, or as the same search
  through a translation table: ``dp.learn.tables.same_fix``);
* (b) failures **answered** correctly: the after-failure answer is that fix;
* calls whose program was missing on their session's machine, rewritten or
  answered with the call **translated** exactly through a shipped table (``rg`` → ``grep``, what
  ``integration_tests/test_rewrite_semantics.py`` proves means the same) where
  the agent's own later fix was another search, or none followed: counted apart,
  neither right nor wrong;
* (c) **wrong** rewrites or answers: anything else the hooks changed or said,
  including a rewrite of a call that had succeeded.

``recurring`` counts the later failures whose shape (command word and error
class) the earlier sessions also failed with. Exits 1 when wrong exceeds 1 % of
the replayed calls.

    python bench/run_replay_bench.py --sessions DIR [--agent claude] [--learn-share 0.5] [--answers-only] [--json]

The public trajectories its figures come from are not part of the repository: bench/README.md
names them (repository, commit, paths) and ``trajectories_to_transcripts.py`` rebuilds the
session files from them.
"""

from __future__ import annotations

import argparse
import bisect
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from markdown import markdown_table
from replay_projects import Projects

from dp.agents import get
from dp.capture import events, sessionfiles
from dp.capture.answer import LEARNED
from dp.learn.answer import command_starts, normalised, told_call, words
from dp.learn.known import SOURCES
from dp.learn.pairs import session_pairs
from dp.learn.tables import same_fix, table_pair, translated
from dp.store import Store, desires

BIN = Path(sys.executable).parent
MAX_WRONG_SHARE = 0.01


def read_files(agent, files: list[Path]) -> list[list]:
    """The Bash calls of each session file (``desires.bash_calls`` rows), each with its command: the
    reader's pass keeps every success's command here, not only those after a failure. One store for all
    files, each file read on its own so its rows are known by their ids; a row's session is made the
    file's own (a subagent's transcript shares its parent's session id, and ids restart per file)."""
    scratch = Path(tempfile.mkdtemp(prefix="dp-replay-read-"))
    kept, sessionfiles.keep_after_failures = sessionfiles.keep_after_failures, _keep_every_command
    bounds = []
    try:
        with Store.open(scratch / "read.db") as store:
            for path in files:
                single = scratch / "one"
                single.mkdir()
                (single / path.name).symlink_to(path.resolve())
                agent.role("sessions").ingest(store.conn, single)
                shutil.rmtree(single)
                bounds.append(store.conn.execute("SELECT coalesce(max(id), 0) FROM desires").fetchone()[0])
            rows = list(desires.bash_calls(store.conn))
    finally:
        sessionfiles.keep_after_failures = kept
        shutil.rmtree(scratch, ignore_errors=True)
    per_file: list[list] = [[] for _ in files]
    for row in rows:
        index = bisect.bisect_left(bounds, row[0])
        per_file[index].append((*row[:6], f"{row[6]}@{index}", *row[7:]))
    return per_file


def _keep_every_command(rows):
    for row in rows:
        yield events.keep_command(row) if events.CALL_COMMAND in row else row


def split(agent, directory: Path, share: float, into: Path, projects: Projects) -> tuple[Path, Path, list, list]:
    """(learn dir, replay dir, learn calls, replay calls): the session files by their first call's time, each
    copy's working directories made real ones (``projects``), in the copy and in its calls."""
    files = sorted(path for path in directory.rglob("*") if path.is_file())
    dated = [(min(call[8] for call in calls), path, [_placed(call, projects) for call in calls])
             for path, calls in zip(files, read_files(agent, files)) if calls]
    dated.sort(key=lambda item: item[0])
    cut = int(len(dated) * share)
    parts = (into / "learn", into / "replay")
    for part in parts:
        part.mkdir(parents=True)
    for index, (_when, path, _calls) in enumerate(dated):
        relative = path.relative_to(directory)  # a subagent's transcript keeps its place under its session
        (parts[index >= cut] / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, parts[index >= cut] / relative)
        projects.rewrite(parts[index >= cut] / relative)
    learn_calls = [call for _w, _p, calls in dated[:cut] for call in calls]
    replay_calls = [call for _w, _p, calls in dated[cut:] for call in calls]
    return parts[0], parts[1], learn_calls, replay_calls


def _placed(call, projects: Projects) -> tuple:
    """``call`` with its working directory the real one standing for it (``Projects.place``)."""
    return (*call[:7], str(projects.place(call[7])) if call[7] else call[7], *call[8:])


def programs_of(calls: list) -> tuple[set, set]:
    """(the programs the calls ran successfully, those they found missing)."""
    missing = {call[5] for call in calls if call[1] == "failure" and call[4] == "command not found"}
    ran = set()
    for call in calls:
        if call[1] == "success" and call[2]:
            found = words(json.loads(call[2]).get("command") or "") or []
            ran |= {found[i] for i in command_starts(found) if "/" not in found[i]}
    return ran, missing


def stubs(names, into: Path) -> str:
    """A directory of stub programs named ``names``; its path."""
    into.mkdir(parents=True)
    for name in sorted(names):
        if name and name.replace("-", "").replace("_", "").replace(".", "").isalnum():
            stub = into / name
            stub.write_text("#!/bin/sh\nexit 0\n")
            stub.chmod(0o755)
    return str(into)


class Machines:
    """The PATH each session ran with, as stubs: the programs the earlier sessions ran successfully, minus
    those found missing (where learning runs); for a replayed session, also what it ran itself, minus
    what it found missing (its own machine: ripgrep installed on one, missing on another)."""

    def __init__(self, learn_calls: list, replay_calls: list, into: Path):
        ran, missing = programs_of(learn_calls)
        self.missing_anywhere = missing | programs_of(replay_calls)[1]
        self.learned = ran - missing
        self.base = stubs(self.learned - self.missing_anywhere, into / "base")
        self.learn_path = f"{stubs(self.learned & self.missing_anywhere, into / 'learn')}{os.pathsep}{self.base}"
        self.into, self.made = into, 0

    def path_for(self, calls: list) -> str:
        ran, missing = programs_of(calls)
        extra = ((ran | self.learned) & self.missing_anywhere | ran) - missing
        self.made += 1
        return f"{stubs(extra, self.into / f'session-{self.made}')}{os.pathsep}{self.base}"


def learn(env: dict, store: Path, agent, learn_dir: Path, apply_rules: bool = True) -> list[dict]:
    """The real dp ingest and dp suggest on the earlier sessions; every suggestion applied (unless not asked)."""
    option = agent.session_option[0]
    _dp(env, store, "ingest", option, str(learn_dir))
    found = json.loads(_dp(env, store, "suggest", "--json")) if apply_rules else []
    for item in found:  # --act: measured acting, not in shadow (what a person gets once a shadow record is clean)
        _dp(env, store, "suggest", "--apply", item["id"], "--act")
    return found


def _dp(env, store, *args) -> str:
    proc = subprocess.run([str(BIN / "dp"), "--db", str(store), *args], capture_output=True, text=True, env=env,
                          timeout=600)
    if proc.returncode != 0:
        raise SystemExit(f"dp {' '.join(args)} failed: {proc.stderr.strip()}")
    return proc.stdout


def _hook(program: str, payload: dict, env: dict, store: Path) -> str:
    proc = subprocess.run([str(BIN / program), "--db", str(store)], input=json.dumps(payload), capture_output=True,
                          text=True, env=env, timeout=60)
    return proc.stdout


RULE = "rule"  # a rewrite before the call ran (a learned rule a person applied); the others are dp-capture's sources
KINDS = {RULE: "rewrite before the failure (a learned rule, applied)", LEARNED: "learned answer",
         **{source: label for source, label in zip(SOURCES, (
             "the agent's own tool", "literal slip", "the project's wrapper", "another name on PATH",
             "table read backwards", "the project's tasks"))}}


def replay(calls: list, env: dict, store: Path, cwd: str, machines: Machines, rules=(), seen=frozenset(),
           projects: Projects | None = None) -> dict:
    """Every later call through pave-check, every later failure through dp-capture, each session on its
    own machine's PATH and in its own working directory (as recorded: one per source repository, where
    answers learned there act), holding what the session shows of its project (``projects``); the tallies.
    ``rules``: the (program, its replacement) renames learned; ``seen``: the (program, error class) of the
    earlier sessions' failures (what makes a failure recurring)."""
    fixes, paths, missing = {}, {}, {}
    sessions: dict[str, list] = {}
    for call in calls:
        sessions.setdefault(call[6], []).append(call)
    for session, session_calls in sessions.items():
        fixes.update({(pair.session, pair.failed_id): pair.fixed for pair in session_pairs(session_calls)})
        paths[session] = {**env, "PATH": machines.path_for(session_calls)}
        missing[session] = programs_of(session_calls)[1]
    tally = {"replayed": 0, "failures": 0, "with_fix": 0, "prevented": 0, "answered": 0, "translated": 0,
             "otherwise": 0, "wrong": 0, "left_alone": 0, "recurring_left_alone": 0, "told_earlier": 0,
             "kinds": {kind: {"fix": 0, "otherwise": 0, "recurring_fix": 0, "recurring_otherwise": 0}
                       for kind in KINDS}, "examples": []}
    answered_words: dict[str, set] = {}
    for n, call in enumerate(calls):
        row_id, outcome, tool_input, error, klass, word, session, where = call[:8]
        if session not in answered_words:  # a session's calls are replayed together, in order
            answered_words[session] = set()
            if projects is not None:
                projects.lay(sessions[session])
        command = json.loads(tool_input)["command"]
        tally["replayed"] += 1
        failed = outcome == "failure"
        fix = fixes.get((session, row_id))  # ids are per file read: a session and its id name a call
        again = failed and _failure_key(call) in seen
        tally["failures"] += failed
        tally["with_fix"] += fix is not None
        base = {"session_id": session, "cwd": where or cwd, "tool_name": "Bash", "tool_input": {"command": command},
                "tool_use_id": f"toolu_replay_{n}", "transcript_path": ""}
        answer = json.loads(_hook("pave-check", {**base, "hook_event_name": "PreToolUse"}, paths[session], store)
                            or "{}")
        rewritten = ((answer.get("hookSpecificOutput") or {}).get("updatedInput") or {}).get("command")
        if rewritten and normalised(rewritten) != normalised(command):
            right = failed and fix is not None and same_fix(rewritten, fix)
            counted = "prevented" if right else _other(call, rewritten, rules, missing[session])
            _count(tally, counted, RULE, again, command, rewritten, fix, "rewrite")
            continue  # the rewritten call is what would have run: the original never failed
        if not failed:
            continue
        told = _hook("dp-capture", {**base, "hook_event_name": "PostToolUseFailure", "error": error or "error"},
                     paths[session], store)
        context = (json.loads(told).get("hookSpecificOutput") or {}).get("additionalContext", "") if told else ""
        if not context:
            tally["left_alone"] += 1
            tally["recurring_left_alone"] += again
            tally["told_earlier"] += word in answered_words.get(session, ())
            continue
        answered_words[session].add(word)
        source = _told_source(store, session)
        said = told_call(context)
        right = said is not None and fix is not None and same_fix(said, fix)
        if right:
            counted = "answered"
        elif source == LEARNED:
            counted = _other(call, said or "", rules, missing[session])
        else:  # what dp knows is exact by construction; wrong only where the session lacked what it named
            counted = "wrong" if said and _first_program(said) in missing[session] else "otherwise"
        _count(tally, counted, source, again, command, said or context.splitlines()[0], fix, "answer")
    return tally


def _told_source(store: Path, session: str) -> str:
    """Where the answer dp-capture just told ``session`` came from: ``learned``, or the kind dp knew it by
    (the newest answer among dp's actions: ``learned #ID: …``, ``known (KIND): …``)."""
    with Store.open(store) as opened:
        row = opened.conn.execute("SELECT rule FROM actions WHERE session_id = ? AND kind = 'answer' "
                                  "ORDER BY id DESC LIMIT 1", (session,)).fetchone()
    rule = row[0] if row else ""
    return rule[len("known ("):].split(")", 1)[0] if rule.startswith("known (") else LEARNED


def _first_program(command: str) -> str:
    found = words(command) or []
    starts = command_starts(found)
    return found[starts[0]] if starts else ""


def _other(call, changed: str, rules: list, missing: set) -> str:
    """How to count a rewrite or learned answer that is not the agent's own fix: ``translated`` when the call's
    program was missing on its session's machine (``missing``: this call failed so, or another of the
    session did: ``rg x || grep x``) and what dp gave is the call translated exactly through a shipped
    table (what integration_tests/test_rewrite_semantics.py proves means the same), else ``wrong``."""
    command = json.loads(call[2])["command"]
    left = words(changed) or []
    exact = [(source, translated(command, source, target)) for source, target in rules
             if table_pair(source, target) and source in missing]
    return "translated" if any(found is not None and normalised(found) == normalised(changed)
                               and source not in {left[i] for i in command_starts(left)}  # all of it, or it fails
                               for source, found in exact) else "wrong"


def _count(tally: dict, key: str, kind: str, again: bool, command: str, changed: str, fix, how: str) -> None:
    """Count one rewrite or answer: its outcome (``key``), and under its ``kind`` whether it was the agent's
    own fix, for every failure and for the recurring ones (``again``)."""
    tally[key] += 1
    if key in ("prevented", "answered", "translated", "otherwise"):
        column = "fix" if key in ("prevented", "answered") else "otherwise"
        tally["kinds"][kind][column] += 1
        tally["kinds"][kind][f"recurring_{column}"] += again
    if len(tally["examples"]) < 20:
        tally["examples"].append({"outcome": key, "how": how, "kind": kind, "call": command[:120],
                                  "dp": changed[:120], "agent_fix": (fix or "")[:120]})


def failed_shapes(calls: list) -> set:
    """The keys (command word, error class) of the calls' failures: what makes a later failure recurring. A
    missing program is one failure whatever it was asked to run: ``python -m pytest`` (a shape of its own)
    and ``python manage.py`` both find ``python`` missing."""
    return {_failure_key(call) for call in calls if call[1] == "failure"}


def recurring(seen: set, replay_calls: list) -> int:
    """How many later failures have a key the earlier sessions' failures (``seen``) have too."""
    return sum(1 for call in replay_calls if call[1] == "failure" and _failure_key(call) in seen)


def _failure_key(call) -> tuple:
    word = call[5].split()[0] if call[4] == "command not found" and call[5] else call[5]
    return word, call[4]


def run(sessions: Path, agent_name: str, share: float, apply_rules: bool = True) -> dict:
    agent = get(agent_name)
    work = Path(tempfile.mkdtemp(prefix="dp-replay-"))
    try:
        projects = Projects(work / "projects")
        learn_dir, _replay_dir, learn_calls, replay_calls = split(agent, sessions, share, work / "split", projects)
        home = work / "home"
        home.mkdir()
        cwd = work / "project"
        cwd.mkdir()
        env = {key: value for key, value in os.environ.items() if not key.startswith(("DP_", "CLAUDE"))}
        machines = Machines(learn_calls, replay_calls, work / "bin")
        env.update(HOME=str(home), PATH=machines.learn_path, NO_COLOR="1")
        store = work / "dp.db"
        rules = learn(env, store, agent, learn_dir, apply_rules)
        answers = Store.open(store)
        learned = answers.conn.execute("SELECT count(*) FROM learned").fetchone()[0]
        answers.close()
        renames = [(row[0], row[1]) for row in _renames(store)]
        seen = failed_shapes(learn_calls)
        tally = replay(replay_calls, env, store, str(cwd), machines, renames, seen, projects)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    tally.update(sessions_learned=_sessions(learn_calls), sessions_replayed=_sessions(replay_calls),
                 learned_answers=learned, rules_applied=[" ".join(item["alias"]) for item in rules],
                 recurring_failures=recurring(seen, replay_calls))
    tally["wrong_share"] = tally["wrong"] / tally["replayed"] if tally["replayed"] else 0.0
    right = sum(kind["recurring_fix"] for kind in tally["kinds"].values())
    tally["recurring_with_own_fix"] = right
    tally["recurring_with_own_fix_share"] = right / tally["recurring_failures"] if tally["recurring_failures"] else 0.0
    return tally


def _renames(store: Path) -> list:
    """(program, its replacement) of every command rename learned (rules and answers alike)."""
    with Store.open(store) as opened:
        return opened.conn.execute("SELECT command, to_text FROM learned WHERE kind = 'command'").fetchall()


def _sessions(calls: list) -> int:
    """How many sessions the calls are of (a subagent's transcript is part of its parent's session)."""
    return len({call[6].rsplit("@", 1)[0] for call in calls})


def report(tally: dict) -> str:
    rows = [["sessions learned from / replayed", f"{tally['sessions_learned']} / {tally['sessions_replayed']}"],
            ["learned answers / rules applied", f"{tally['learned_answers']} / {len(tally['rules_applied'])}"],
            ["replayed calls", tally["replayed"]],
            ["failures (recurring; with a later fix)",
             f"{tally['failures']} ({tally['recurring_failures']}; {tally['with_fix']})"],
            ["(a) prevented by a rewrite equal to the agent's fix", tally["prevented"]],
            ["(b) answered with the agent's own fix at the moment of failure", tally["answered"]],
            ["answered otherwise: what dp knows, not what the agent then ran", tally["otherwise"]],
            ["missing program: the call translated exactly, not the agent's fix", tally["translated"]],
            ["(c) wrong rewrites or answers", f"{tally['wrong']} ({tally['wrong_share']:.1%} of replayed calls)"],
            ["recurring failures prevented or answered with the agent's own fix",
             f"{tally['recurring_with_own_fix']} of {tally['recurring_failures']} "
             f"({tally['recurring_with_own_fix_share']:.1%})"]]
    kinds = [[KINDS[kind], counts["recurring_fix"], counts["recurring_otherwise"], counts["fix"], counts["otherwise"]]
             for kind, counts in tally["kinds"].items()]
    kinds.append(["left alone (after an answer earlier in the session)", tally["recurring_left_alone"], "",
                  f"{tally['left_alone']} ({tally['told_earlier']})", ""])
    return (markdown_table(["replay", "value"], rows) + "\n\n"
            + markdown_table(["answer kind", "recurring: the agent's own fix", "recurring: otherwise",
                              "all failures: the agent's own fix", "all: otherwise"], kinds))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=Path, required=True, help="a directory of session files")
    parser.add_argument("--agent", default="claude", help="whose session files they are (dp ingest's readers)")
    parser.add_argument("--learn-share", type=float, default=0.5)
    parser.add_argument("--answers-only", action="store_true",
                        help="apply no suggested rule: measure the after-failure answers alone")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not args.sessions.is_dir():
        print(f"run_replay_bench: {args.sessions} is not a directory of session files", file=sys.stderr)
        return 2
    tally = run(args.sessions, args.agent, args.learn_share, not args.answers_only)
    print(json.dumps(tally, indent=2) if args.json else report(tally))
    return 1 if tally["wrong_share"] > MAX_WRONG_SHARE else 0


if __name__ == "__main__":
    sys.exit(main())
