"""Finding 1 of issue 46: the agent could trust the repository itself.

In an untrusted clone the session-start text told the model "let them act with `dp trust`",
paving's notes said "`dp trust` in … lets paving do that", and the agent's `dp trust` went
through: pave-check had no rule for dp, and `dp trust` asked nothing. From then on the
repository's rules rewrote every command. The same held for every command that widens what dp
does to later calls: `dp alias`, `dp aliases import`, `dp suggest --apply`, `dp paving on`,
`dp init`, `dp pave --hook`, `dp team connect`.

Now only a person widens what dp does (the one list: dp.widening). pave-check answers an agent's
Bash call that may run such a command with the agent's own question to the person (or a refusal
naming the command to type, where the agent has no question), with no rule at all; the command
itself, started inside an agent's tool call (the agent's mark on its commands, observed in each
binary), asks on the person's terminal or refuses; the texts the agent reads name these commands
as the person's. A person typing them in a terminal is asked nothing. Every test drives the
installed ``dp`` and ``pave-check`` (and, at the end, each agent's real binary) and reads the real
store.
"""

from __future__ import annotations

import fcntl
import json
import os
import select
import sqlite3
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from real_client_users import suite

from dp.agents import all_agents, get, names
from security.repository import cloned_repository, hook_env

BIN = Path(sys.executable).parent
PERSON_ONLY = "only the person runs that, in their own terminal; an agent asks them to"
# What the store holds of what the hooks captured: it grows in any session, and decides nothing.
CAPTURED = {"desires", "learned", "told", "actions", "sqlite_sequence"}
CAPTURED_FILES = ("dp.db", "actions.jsonl")  # the store itself (read above, table by table) and the hook's notes
COLLECTION = '[[aliases]]\nfrom = "git"\nto = "x"\ntool = "Bash"\nparam = "command"\ncommand = "git"\nmatch_kind = "command"\n'
# Each command that widens what dp does, as an agent (or a person) types it.
WIDENING = [
    ("trust",),
    ("alias", "--cmd", "git", "--replace", "x"),
    ("alias", "--project", "read_file", "Read"),
    ("aliases", "import", "team.toml"),
    ("suggest", "--apply", "s1b2c3d"),
    ("paving", "on"),
    ("init", "--agent", "claude"),
    ("pave", "--hook", "--agent", "gemini"),
    ("team", "connect", "postgresql://mallory@127.0.0.1:9/dp"),
]
# What an agent may still run: reading, narrowing, a dry run.
OPEN = [("trust", "--show"), ("aliases",), ("doctor",), ("paths",), ("paving",), ("paving", "--explain"),
        ("alias", "--cmd", "git", "--replace", "x", "--dry-run"), ("init", "--dry-run"), ("untrust",),
        ("alias", "--delete", "read_file")]


class Person:
    """One person's HOME, store and clone of a repository with a committed .dp/rules.toml."""

    def __init__(self, root: Path, markers):
        self.home = root / "home"
        (self.home / ".claude").mkdir(parents=True)
        self.env = hook_env(self.home)
        self.store = self.home / ".dp" / "dp.db"
        self.repo = cloned_repository(root / "widget", {
            ".dp/rules.toml": '[[aliases]]\nfrom = "npm test"\nto = "make test"\ntool = "Bash"\nparam = "command"\n'
                              'command = "npm"\nmatch_kind = "recipe"\n',
            "team.toml": COLLECTION}, markers)

    def dp(self, *args, env=None, cwd=None) -> subprocess.CompletedProcess:
        return subprocess.run([str(BIN / "dp"), *args], cwd=cwd or self.repo, env={**self.env, **(env or {})},
                              capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)

    def state(self) -> dict:
        """Everything dp decides later calls by: the store's tables (captured data aside), every other
        file of dp's and of the agents' settings under HOME, and the repository's .dp directory."""
        found = {}
        if self.store.exists():
            with sqlite3.connect(self.store) as conn:
                tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
                for table in sorted(set(tables) - CAPTURED):
                    found[table] = sorted(map(repr, conn.execute(f'SELECT * FROM "{table}"')))
        for root in (self.home, self.repo / ".dp", self.repo / ".claude"):
            for path in sorted(root.rglob("*")) if root.exists() else ():
                relative = path.relative_to(root)
                if path.is_file() and relative.parts[0] not in (".cache", "tmp") and not path.name.startswith(CAPTURED_FILES):
                    found[str(path)] = path.read_bytes()
        return found


@pytest.fixture
def person(tmp_path, markers) -> Person:
    person = Person(tmp_path, markers)
    assert person.dp("paving", "off").returncode == 0  # so that the agent's `dp paving on` would show
    return person


def ask_answer(agent_name: str, command: str, cwd: Path, env: dict) -> dict:
    """pave-check --agent NAME for one Bash call of ``command``: what the adapter read back from it."""
    agent = get(agent_name)
    payload = agent.hooks().sample_payload(agent.agent_tool("Bash"), {"command": command}, str(cwd))
    proc = subprocess.run([str(BIN / "pave-check"), "--agent", agent_name], input=json.dumps(payload), cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    decision = agent.hooks().read_answer(proc.returncode, proc.stdout, proc.stderr)
    return {"kind": decision.kind, "text": decision.text, "stdout": proc.stdout}


# -- the hook: the agent's own question, or a refusal naming the command ------------------------


def question_or_refusal(agent: str) -> str:
    """``ask`` where the agent's hook can put a call to the person (``Agent.asks_person``), else ``deny``."""
    return "ask" if get(agent).asks_person else "deny"


@pytest.mark.parametrize("agent", names())
@pytest.mark.parametrize("spelling", [
    "dp trust", "cd src && dp trust", "bash -c 'dp trust'", "env DP_DB=x timeout 5 dp trust", "python3 -m dp trust",
    "git status; dp alias --cmd git --replace x", "x=$(dp paving on)", "dp init", "dp aliases import team.toml",
])
def test_the_hook_puts_a_widening_dp_command_to_the_person_with_no_rule_at_all(tmp_path, markers, agent, spelling):
    person = Person(tmp_path, markers)
    answer = ask_answer(agent, spelling, person.repo, person.env)  # no store, no gate, no rule
    assert answer["kind"] == question_or_refusal(agent), answer
    assert "Only the person decides that, never an agent's tool call" in answer["text"]
    assert f"type it in your own terminal: cd {person.repo} && dp " in answer["text"]


@pytest.mark.parametrize("agent", names())
def test_the_same_holds_with_rules_the_gate_and_paving_in_place(person, agent):
    assert person.dp("alias", "--cmd", "grep", "--replace", "rg").returncode == 0  # a store, a gate, hook entries
    assert person.dp("paving", "on").returncode == 0
    answer = ask_answer(agent, "dp trust && grep -n x README.md", person.repo, person.env)
    assert answer["kind"] == question_or_refusal(agent)
    assert "type it in your own terminal: cd " in answer["text"] and answer["text"].endswith(
        "(the agent's command was: dp trust && grep -n x README.md)")


@pytest.mark.parametrize("agent", names())
@pytest.mark.parametrize("command", [" ".join(("dp", *argv)) for argv in OPEN])
def test_reading_and_narrowing_stay_open(person, agent, command):
    assert ask_answer(agent, command, person.repo, person.env)["kind"] in ("nothing", "context")


# -- the command itself: inside an agent's tool call it refuses, or asks on the person's terminal --


@pytest.mark.parametrize("argv", WIDENING, ids=" ".join)
def test_inside_any_agents_tool_call_a_widening_command_changes_nothing(person, argv):
    before = person.state()
    for agent in all_agents():
        for variable, value in agent.child_markers:
            proc = person.dp(*argv, env={variable: value or "x"})
            assert proc.returncode == 1, (agent.name, proc.stdout, proc.stderr)
            [line] = proc.stderr.splitlines()
            assert line.startswith("dp: error: `dp ") and f"inside {agent.display}'s tool call" in line, line
            assert line.endswith("only the person decides that; run it in your own terminal (nothing was changed)")
            assert proc.stdout == ""
    assert person.state() == before


def test_a_person_in_a_terminal_is_asked_nothing_and_every_command_works(person):
    before = person.state()
    for argv in (("trust",), ("alias", "--cmd", "git", "--replace", "x"), ("alias", "--project", "read_file", "Read"),
                 ("aliases", "import", "team.toml"), ("paving", "on"), ("init", "--agent", "claude"),
                 ("pave", "--hook", "--agent", "gemini")):
        proc = person.dp(*argv)
        assert proc.returncode == 0, (argv, proc.stderr)
        changed = person.state()
        assert changed != before, argv
        before = changed
    with sqlite3.connect(person.store) as conn:
        assert conn.execute("SELECT count(*) FROM aliases_v3 WHERE from_name = 'git' AND to_name = 'x'").fetchone()[0]


@pytest.mark.parametrize("argv", OPEN, ids=" ".join)
def test_reading_and_narrowing_commands_run_inside_an_agent(person, argv):
    proc = person.dp(*argv, env={"CLAUDECODE": "1"})
    assert "inside Claude Code's tool call" not in proc.stderr, proc.stderr


def test_a_script_the_call_runs_is_inside_the_call_too(person):
    """A repository's Makefile recipe (``make setup``: the hook sees no dp in the call) and an npm
    script: the programs the call starts carry the agent's mark."""
    (person.repo / "Makefile").write_text(f"setup:\n\t-{BIN / 'dp'} trust\n\t-{BIN / 'dp'} paving on\n")
    before = person.state()
    agent_shell = subprocess.run(["bash", "-c", "make -s setup; echo made"], cwd=person.repo,
                                 env={**person.env, "GEMINI_CLI": "1"}, capture_output=True, text=True, timeout=120)
    assert agent_shell.stderr.count("inside Gemini CLI's tool call (GEMINI_CLI=1)") == 2, agent_shell.stderr
    assert person.state() == before


def _terminal_run(argv: list, env: dict, cwd: Path, answer: bytes | None, stdio_on_terminal: bool = False):
    """``argv`` in a session of its own whose controlling terminal is a new pseudo-terminal (its
    standard streams pipes, unless ``stdio_on_terminal``); ``answer`` typed once a question shows.
    Returns (exit status, what the terminal showed, stderr)."""
    master, slave = os.openpty()
    streams = ({"stdin": slave, "stdout": slave, "stderr": slave} if stdio_on_terminal else
               {"stdin": subprocess.DEVNULL, "stdout": subprocess.PIPE, "stderr": subprocess.PIPE})
    proc = subprocess.Popen(argv, cwd=cwd, env=env, start_new_session=True, pass_fds=(slave,),
                            preexec_fn=lambda: fcntl.ioctl(slave, termios.TIOCSCTTY, 0), **streams)
    os.close(slave)
    shown, deadline = b"", time.monotonic() + 60
    while proc.poll() is None and b"[y/N]" not in shown and time.monotonic() < deadline:
        if select.select([master], [], [], 0.2)[0]:
            try:
                shown += os.read(master, 4096)
            except OSError:
                break
    if answer is not None and b"[y/N]" in shown:
        os.write(master, answer)
    _, stderr = proc.communicate(timeout=60)
    while select.select([master], [], [], 0.1)[0]:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    os.close(master)
    return proc.returncode, shown.decode("utf-8", "replace"), (stderr or b"").decode()


@pytest.mark.parametrize("answer, acts", [(b"y\n", True), (b"n\n", False)])
def test_with_a_terminal_of_the_persons_the_command_asks_there(person, answer, acts):
    """An agent that leaves its commands the person's terminal (not their standard streams): dp asks
    on it, and only a yes typed there lets the command act."""
    before = person.state()
    status, shown, stderr = _terminal_run([str(BIN / "dp"), "trust"], {**person.env, "QWEN_CODE": "1"},
                                          person.repo, answer)
    assert "Qwen Code started `dp trust`" in shown and "Only you can decide this. [y/N]" in shown
    assert (status == 0) is acts, stderr
    assert (person.state() != before) is acts


def test_a_terminal_the_command_runs_in_is_the_agents_and_never_asked(person):
    """Codex CLI can type into the terminal its command runs in (write_stdin): no question there."""
    before = person.state()
    status, shown, _ = _terminal_run([str(BIN / "dp"), "trust"], {**person.env, "CODEX_THREAD_ID": "t"}, person.repo,
                                     b"y\n", stdio_on_terminal=True)
    assert status == 1 and "[y/N]" not in shown and "inside Codex CLI's tool call" in shown
    assert person.state() == before


# -- the list tells the truth: what it says only reads changes nothing -------------------------

# A command line of each command the list says only reads (run as a person would), and a dry run of
# each that widens: the test fails for a reading command without one here.
READING = [("aliases",), ("aliases", "export"), ("paving",), ("pave", "--agents-md"), ("team",), ("team", "status"),
           ("desires",), ("paths",), ("doctor",), ("tasks",), ("stats",), ("report", "--json"), ("git",), ("recipe",), ("recipe", "list"),
           ("recipe", "validate", "hello.yaml"), ("recipe", "explain", "hello.yaml"), ("trust", "--show"),
           ("alias", "--cmd", "git", "--replace", "x", "--dry-run"), ("aliases", "import", "team.toml", "--dry-run"),
           ("suggest", "--apply", "s1b2c3d", "--dry-run"), ("paving", "on", "--dry-run"), ("init", "--dry-run"),
           ("pave", "--hook", "--dry-run"), ("team", "connect", "postgresql://mallory@127.0.0.1:9/dp", "--dry-run")]


def test_every_command_the_list_says_only_reads_changes_nothing(person):
    from dp.widening import READS, classify

    samples = {classify(argv).path: argv for argv in READING}
    assert all(classify(argv).kind == READS for argv in READING)
    reading = {path for path in _commands() if _default_kind(path) == READS}
    assert reading <= set(samples), sorted(reading - set(samples))
    assert {classify(argv).path for argv in WIDENING} <= set(samples)  # and a dry run of each that widens
    (person.repo / "hello.yaml").write_text((Path(__file__).parents[2] / "examples" / "recipes" / "hello.yaml")
                                            .read_text())
    before = person.state()
    for argv in READING:
        person.dp(*argv)
        assert person.state() == before, argv


def _commands() -> list:
    from dp.widening import COMMANDS, Group

    paths = []
    for name, entry in COMMANDS.items():
        paths.append((name,))
        if isinstance(entry, Group):
            paths.extend((name, sub) for sub in entry.commands)
    return paths


def _default_kind(path: tuple) -> str:
    from dp.widening import COMMANDS, Group

    entry = COMMANDS[path[0]]
    if isinstance(entry, Group):
        entry = entry.commands[path[1]] if len(path) > 1 else entry.own
    return entry.kind


# -- what the agent reads names these commands as the person's --------------------------------


def test_what_the_agent_reads_tells_it_to_ask_the_person(person):
    start = {"session_id": "s", "cwd": str(person.repo), "hook_event_name": "SessionStart", "source": "startup"}
    proc = subprocess.run([str(BIN / "pave-check")], input=json.dumps(start), env=person.env, capture_output=True,
                          text=True, timeout=60)
    context = json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
    assert f"do not apply until `dp trust --show`, then `dp trust` in {person.repo} ({PERSON_ONLY})" in context
    assert "let them act with `dp trust`" not in context
    explained = person.dp("paving", "--explain", env={"CLAUDECODE": "1"}).stdout
    assert f"after `dp trust` there ({PERSON_ONLY})" in explained
    doctor = person.dp("doctor", env={"CLAUDECODE": "1"}).stdout
    assert f"fix ({PERSON_ONLY}): cd {person.repo} && dp trust --show && dp trust" in doctor
    assert "\n                   fix: dp" not in doctor  # every dp fix the agent reads is the person's
    assert "fix: cd" in person.dp("doctor").stdout  # a person's own doctor reads as it always did


# -- each agent's real binary: the model's widening dp commands never change the store ---------


def _asked(agent: str, user, commands: list[str]) -> list[str]:
    """What the person (and the model) was shown for each of ``commands`` run as the model's shell calls in
    the agent's real binary, driven by its suite's harness (``contract.py``): one session for all, or one
    per command where the agent's question to the person ends a headless session (``asking_ends``), with
    ``unsandboxed``'s options so the store could be written if nothing stopped it."""
    harness = suite(agent).HARNESS
    calls = [harness.shell(command) for command in commands]
    sessions = [harness.run_unsandboxed(user, [[call]]) for call in calls] if harness.asking_ends else \
        [harness.run_unsandboxed(user, [[call] for call in calls])] * len(calls)
    return [(harness.asked or harness.shown)(session, call) for session, call in zip(sessions, calls)]


def _dp_state(home: Path, store: Path, project_file: Path) -> dict:
    """What dp decides later calls by, for a user of a real agent: the store (captured data aside),
    dp's other files (the mod's own records aside) and the agent's project settings file."""
    found = {"project settings": project_file.exists()}
    if store.exists():
        with sqlite3.connect(store) as conn:
            tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            for table in sorted(set(tables) - CAPTURED):
                found[table] = sorted(map(repr, conn.execute(f'SELECT * FROM "{table}"')))
    for path in sorted((home / ".dp").rglob("*")):
        if path.is_file() and not path.name.startswith(CAPTURED_FILES) and "claude-mod" not in path.parts:
            found[str(path)] = path.read_bytes()
    return found


@pytest.mark.parametrize("agent", names())
def test_in_each_agents_real_binary_the_models_widening_commands_reach_the_person_and_change_nothing(
        tmp_path, warm_cache, agent):
    from agent_home import AgentUser, new_user

    made = suite(agent).SUITE
    user = new_user(made.user_class, tmp_path, made.binary(), warm_cache)
    (user.bin / "dp").symlink_to(BIN / "dp")  # on the agent's PATH, as on the person's: nothing but dp stops it
    if not (user.project / ".git").exists():
        subprocess.run(["git", "init", "-q", str(user.project)], check=True)
    (user.project / ".dp").mkdir()
    (user.project / ".dp" / "rules.toml").write_text(COLLECTION)  # a committed rule that waits for trust
    user.init() if isinstance(user, AgentUser) else user.init("--agent", agent)
    user.dp("paving", "off")
    project_file = get(agent).hooks().config_path("project", project_dir=user.project)
    before = _dp_state(user.home, user.store, project_file)
    commands = ["dp trust", "dp alias --cmd git --replace x", "dp paving on", f"dp init --agent {agent} --scope project",
                "d=d; ${d}p trust"]  # a spelling the hook cannot read: the command's own guard
    shown = _asked(agent, user, commands)
    assert len(shown) == len(commands), shown
    display = get(agent).display
    for command, text in zip(commands[:-1], shown):
        assert "Only the person decides that, never an agent's tool call" in text, (command, text)
        assert f"type it in your own terminal: cd {user.project} && {command}" in text, (command, text)
    assert f"inside {display}'s tool call" in shown[-1], shown[-1]
    assert _dp_state(user.home, user.store, project_file) == before
    typed = user.dp("trust", check=False)  # the person, in a terminal: as ever
    assert typed.returncode == 0 and "Trusted" in typed.stdout, typed.stderr
    assert _dp_state(user.home, user.store, project_file) != before
