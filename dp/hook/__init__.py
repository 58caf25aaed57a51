"""pave-check: the hook that enforces the aliases, in every agent.

An agent runs it before tool calls with its hook JSON on stdin; the agent's
adapter (``--agent``, default Claude Code; dp/agents/) reads that payload
into a neutral event and writes the decision made here in the agent's output
contract. Everything in this module sees only the event: payload in,
decision out. Outcomes, as Claude Code sees them (PreToolUse):

* tool-name alias → exit 2, the correction on stderr (the call is blocked);
* a rule changes the input → exit 0 and one JSON object whose
  ``updatedInput`` is the whole original input with the corrected fields
  (or, with ``--mode advise``, a deny carrying the corrected call);
* anything else — no rule, a rule that changes nothing, bad input, a missing
  or unreadable store, any internal error, running out of time → exit 0 and
  no output, so the call goes ahead untouched (fail open);
* SessionStart / PostToolBatch → the corrections as ``additionalContext``
  (at session start; after a batch where Claude Code rejected an aliased
  tool name it does not know — see dp/hook/events.py).

This module is imported on every tool call: it stays stdlib-only and parses
its options by hand. Bash parsing, Jinja2 and the rule logic are imported
only when a rule could apply.
"""

import sys

from dp.agents.base import AFTER_BATCH, CONTEXT, NOTHING, SESSION_START

MAX_INPUT_BYTES = 1 << 20
# The one timing constant: the timeout ``dp init`` / ``dp pave --hook``
# install (seconds; Claude Code kills the hook past it). Everything the hook
# does itself ends well before, so it always answers rather than being killed.
HOOK_TIMEOUT_SECONDS = 5
# At most this long for a SessionStart that refreshes the filters (dp.layers.synced), within
# WALL_CEILING_SECONDS with time left for the session's context.
REFRESH_SECONDS = 2
# The one wall-clock budget of a run, from the first byte read to the answer
# (reading stdin, decoding the JSON, the word scan, the store and its wait,
# paving, the rewrite): past it the hook exits 0 with no output, so the call
# goes ahead untouched, whatever the input. Python's start-up and writing the
# answer fit in what is left of the installed timeout.
WALL_CEILING_SECONDS = HOOK_TIMEOUT_SECONDS * 0.6
# The CPU time a run may use inside that ceiling (a runaway parse ends here
# even when the machine is idle).
TIME_BUDGET_SECONDS = 2.0
# Every dp hook reads its payload within this long (``read_stdin``): an agent writes it and closes
# stdin at once; a writer that never closes it gets the hook's fail-open answer, not a wait.
STDIN_SECONDS = WALL_CEILING_SECONDS
# Above this many distinct words, ask the store in chunks (SQL variable limits).
_WORDS_PER_QUERY = 500

USAGE = """usage: pave-check [--agent NAME] [--db PATH] [--permission none|ask|allow] [--mode rewrite|advise] [--verbose]

The hook dp installs into coding agents (Claude Code by default; --agent
gemini for Gemini CLI): reads the hook JSON on stdin, blocks tool-name
aliases, rewrites tool input by the alias rules (JSON on stdout).
With --verbose (and always with --mode advise) a command dp left as typed
because it could not translate it exactly carries a note saying why; with
--verbose, stderr also says why a call was let through untouched (input it
ignores, no store, no rule, a rule's program not on PATH, an internal error).
An unknown --agent is said on stderr. Unknown or malformed options are
ignored; every error lets the call through (exit 0).

Example hook command:  pave-check --db ~/.dp/dp.db --permission none
"""


class Options:
    __slots__ = ("agent", "db", "permission", "mode", "verbose", "said", "acted", "shadowed")

    def __init__(self):
        self.agent = None  # dp.agents.DEFAULT
        self.db = None
        self.permission = "none"
        self.mode = "rewrite"
        self.verbose = False
        self.said: list = []  # why the call was let through untouched (stderr under --verbose)
        self.acted: list = []  # what dp did to the call: (rule, its source, program rewritten away, program written)
        self.shadowed: list = []  # what its shadow rules would have done, in the same form (dp alias --shadow)

    def say(self, why: str) -> None:
        """Note why the hook lets a call through untouched: printed on stderr under --verbose only,
        so a person debugging the hook sees every silent path and an agent never does."""
        if self.verbose:
            self.said.append(why)

    @property
    def explains(self) -> bool:
        """Whether notes about commands left as typed are shown."""
        return self.verbose or self.mode == "advise"


def parse_options(argv) -> Options:
    """``--name value`` or ``--name=value``; anything unknown or invalid is ignored.

    An option missing its value never swallows the option after it
    (``--permission --mode advise`` still advises).
    """
    options = Options()
    choices = {"--permission": ("none", "ask", "allow"), "--mode": ("rewrite", "advise")}
    i = 0
    while i < len(argv):
        name, has_value, value = str(argv[i]).partition("=")
        if name == "--verbose" and not has_value:
            options.verbose = True
        elif name in ("--agent", "--db", "--permission", "--mode"):
            if not has_value:
                if i + 1 >= len(argv) or str(argv[i + 1]).startswith("--"):
                    i += 1
                    continue  # no value: ignore this option, not the next one
                i += 1
                value = str(argv[i])
            if name in ("--db", "--agent"):
                if value:
                    setattr(options, name[2:], value)
            elif value in choices[name]:
                setattr(options, name[2:], value)
        i += 1
    return options


def main(argv=None) -> int:
    """Console entry point; the return value is the exit status (0, or 2 to block).

    The whole run, stdin to answer, is under one limit (``WALL_CEILING_SECONDS``,
    ``TIME_BUDGET_SECONDS``; dp.shell.guard): past it the call goes ahead untouched.
    """
    args = sys.argv[1:] if argv is None else list(argv)
    if args and args[0] in ("-h", "--help"):
        sys.stdout.write(USAGE)
        return 0
    options = parse_options(args)
    try:
        from dp.shell.guard import deadline

        with deadline(TIME_BUDGET_SECONDS, WALL_CEILING_SECONDS):
            status, stdout, stderr = run(options, read_stdin(MAX_INPUT_BYTES))
    except BaseException as error:  # fail open: never break the agent's session; out of time too
        if not options.verbose:
            return 0
        status, stdout, stderr = 0, "", ""
        options.say(_failure(error))
    if status == 0:  # exit 2's stderr is the correction the agent reads: nothing is added to it
        stderr += "".join(f"pave-check: {why}\n" for why in options.said)
    try:
        for stream, text in ((sys.stdout, stdout), (sys.stderr, stderr)):
            if text:
                binary = getattr(stream, "buffer", None)
                if binary is None:  # a text-only stream (an embedding test harness)
                    stream.write(text)
                    stream.flush()
                else:
                    binary.write(text.encode("utf-8"))
                    binary.flush()
    except BaseException:
        return 0
    return status


def _failure(error: BaseException) -> str:
    """Why a run that raised lets the call through (--verbose)."""
    from dp.shell.guard import Timeout

    if isinstance(error, Timeout) and error.args:
        return f"{error.args[0]}: the call goes ahead as typed"
    if isinstance(error, Timeout):
        return (f"out of time ({TIME_BUDGET_SECONDS:g} s of CPU or {WALL_CEILING_SECONDS:g} s in all): "
                "the call goes ahead as typed")
    return f"internal error ({type(error).__name__}: {error}): the call goes ahead as typed"


def read_stdin(limit: int) -> bytes | None:
    """The one read of a hook's payload, for every dp hook (pave-check, dp-capture): at most ``limit``
    bytes (None past it), within ``STDIN_SECONDS``. A writer that never closes stdin gets
    ``dp.shell.guard.Timeout`` ("stdin still open …") after that, and the hook fails open."""
    from dp.shell.guard import Timeout, deadline

    try:
        with deadline(STDIN_SECONDS, STDIN_SECONDS):
            data = sys.stdin.buffer.read(limit + 1)
    except Timeout:
        raise Timeout(f"stdin still open after {STDIN_SECONDS:g} s") from None
    return None if len(data) > limit else data


def run(options: Options, data: bytes | None) -> tuple[int, str, str]:
    """Decide the hook's answer: (exit status, stdout, stderr). Raises on internal errors.

    The agent's adapter reads the payload and writes the answer (dp/agents/); between
    the two, everything here works on dp's neutral event and decision alone.
    """
    if not data:
        options.say(f"input over {MAX_INPUT_BYTES >> 20} MiB: not read" if data is None else "no input on stdin")
        return 0, "", ""
    import json

    from dp.agents import UnknownAgent, get

    try:
        payload = json.loads(data.decode("utf-8"))
    except ValueError as error:
        options.say(f"input is not JSON ({error}): the call goes ahead as typed")
        return 0, "", ""
    if not isinstance(payload, dict):
        options.say(f"input is not a JSON object (a {type(payload).__name__}): the call goes ahead as typed")
        return 0, "", ""
    try:
        agent = get(options.agent)
    except UnknownAgent as error:  # a mistake in the hook command: said even without --verbose
        return 0, "", f"pave-check: {error}; every call goes ahead as typed until --agent in the hook command is fixed\n"
    event = agent.read_event(payload)
    if event is None:
        hook = payload.get("hook_event_name")
        options.say(f"{agent.display} sent no tool call dp acts on" + (f" (hook event {hook!r})" if hook else ""))
        return 0, "", ""
    event.agent = agent
    return agent.answer(event, decide(options, event))


def decide(options: Options, event):
    """dp's decision for one neutral event (``dp.agents.base.Event``): a ``Decision``."""
    from dp.agents.base import PRE_TOOL, Decision

    if event.kind in _CONTEXT_EVENTS:
        return Decision(CONTEXT, _context(options, event))
    if event.kind != PRE_TOOL:
        options.say(f"{event.hook}: pave-check acts before a tool runs (dp-capture handles this event)")
        return Decision(NOTHING)
    asked = _for_the_person(event)
    if asked is not None:
        return asked
    words = _command_words(event)
    if not options.verbose:  # --verbose takes the full path, which says why a call went ahead
        from dp.hook import gate

        known = gate.answer(options.db, event, words)
        if known == gate.NOTHING:
            return Decision(NOTHING)
        if known is not None:
            from dp.agents.base import BLOCK

            options.acted.append(_blocked(known))
            return _noted(options, event, Decision(BLOCK, known.message or _correction(event, known)))
    conn = _open_store(options)
    try:
        return _noted(options, event, _decide(conn, options, event, words, _project(conn, event.cwd)))
    finally:
        if conn is not None:
            conn.close()


# Beside the store: pave-check appends one JSON line per call it acted on (dp.capture.actions moves them
# into the store). Past MAX_SPOOL_BYTES (thousands of actions no capture run took) it notes nothing more.
ACTIONS_SPOOL = "actions.jsonl"
MAX_SPOOL_BYTES = 1 << 20
_MAX_FIELD = 200
# The kind each decision is noted as (a rewrite's advice-only answer and a plain "nothing" are no action).
_ACTION_KINDS = {"rewrite": "rewrite", "deny": "advise", "block": "block"}


def _blocked(alias) -> tuple:
    """The action of a tool-name alias that blocks a call."""
    return (f"{alias.from_name} → {alias.to_name}", getattr(alias, "source", "") or "user", alias.from_name,
            alias.to_name)


def _noted(options, event, decision):
    """``decision``, after noting what dp did to the call (issue 51): one line appended to the spool
    beside the store, never SQLite, only when dp acted (a call dp leaves alone costs nothing here).
    The line holds rule descriptions and command words, no command text. Fails open: a note never
    costs the call its answer."""
    kind = _ACTION_KINDS.get(decision.kind)
    noted = [(kind, options.acted)] if kind is not None and options.acted else []
    if options.shadowed:
        noted.append(("shadow", options.shadowed))
    if not noted:
        return decision
    import json
    import os
    import time

    try:
        from dp.store.location import db_location

        at = time.time()
        text = "".join(json.dumps({"at": at, "session": event.session[:_MAX_FIELD],
                                   "call": str(event.call_id or "")[:_MAX_FIELD],
                                   "agent": getattr(event.agent, "name", "") or "", "kind": kind,
                                   "cwd": event.cwd[:1024],
                                   "rules": [[str(part)[:_MAX_FIELD] for part in act] for act in acts[:8]]},
                                  ensure_ascii=False) + "\n" for kind, acts in noted)
        path = os.path.join(os.path.dirname(os.path.abspath(db_location(options.db))), ACTIONS_SPOOL)
        descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            if os.fstat(descriptor).st_size < MAX_SPOOL_BYTES:
                os.write(descriptor, text.encode("utf-8"))  # one small write: lines never interleave
        finally:
            os.close(descriptor)
    except Exception:  # noqa: BLE001 - the answer matters more than its note
        pass
    return decision


# The word every name of dp holds (dp.widening.MENTION, which tests/test_widening.py holds it to): a
# Bash call without it is answered without importing more.
_MENTION = "dp"


def _for_the_person(event):
    """A Bash call that may run a dp command that widens what dp does (dp.widening): the person
    decides it, not the agent — the agent's own question to them where it has one, else a refusal
    that names the command to type in their own terminal (the adapter chooses, ``Agent.answer``).
    Before the gate and every rule, so it holds with no rule at all; None for any other call."""
    from dp.rules import BASH_PARAM, BASH_TOOL

    command = event.tool_input.get(BASH_PARAM) if isinstance(event.tool_input, dict) else None
    if event.tool != BASH_TOOL or not isinstance(command, str) or _MENTION not in command:
        return None
    from dp.widening import for_the_person, in_command

    found = in_command(command)
    if found is None:
        return None
    from dp.agents.base import ASK, Decision

    return Decision(ASK, for_the_person(found, event.cwd, command))


def _command_words(event):
    """The words of a Bash call's command that could name a program (dp.shell.words), read once
    for the gate and the full path (a 1 MiB command costs the scan a few hundred milliseconds);
    None for any other call."""
    from dp.rules import BASH_PARAM, BASH_TOOL

    command = event.tool_input.get(BASH_PARAM) if isinstance(event.tool_input, dict) else None
    if event.tool != BASH_TOOL or not isinstance(command, str) or not command:
        return None
    from dp.shell.words import command_words

    return command_words(command)


# Events answered with additionalContext only (dp/hook/events.py).
_CONTEXT_EVENTS = (SESSION_START, AFTER_BATCH)


def _context(options, event) -> str:
    conn = _open_store(options)
    project = _project(conn, event.cwd)
    if conn is None and project is None:
        return ""
    from dp.hook import events

    try:
        if event.kind == "session_start":
            from dp.layers.effective import merge
            from dp.rules.programs import acting_here
            from dp.store.read import all_rules

            rules = acting_here(merge(all_rules(conn) if conn is not None else [], project), event.cwd)
            notices = project.notices() if project is not None else []
            _refresh_filters(options, conn)
            _start_team_sync(options)
            return events.session_context(event.agent.spelled_rules(rules) if event.agent else rules, notices)
        marks = event.agent.unknown_tool_marks if event.agent else (events.UNKNOWN_TOOL_ERROR,)
        return events.unknown_tool_corrections(conn, event.payload, project, marks)
    finally:
        if conn is not None:
            conn.close()


def _refresh_filters(options, conn) -> None:
    """At SessionStart only: when a trusted project file changed since dp last synced the hook
    filters (dp.layers.synced: a stat per trusted file), sync them now, in a process of its own
    (dp.install sits above the hook), before the session's hooks are read; when only the hook's
    gate is not in line with the rules (dp.hook.gate: a dp that wrote none yet, a change whose
    sync never ran), write that alone. Fails open."""
    if conn is None:
        return
    import subprocess

    from dp.hook.gate import state
    from dp.layers.synced import stale
    from dp.store.read import db_location

    try:
        db = db_location(options.db)
        if stale(db, conn):
            argv = own_python("dp.refresh", str(db))
        elif state(db) != "fresh":
            argv = own_python("dp.refresh", str(db), "--gate")
        else:
            return
        subprocess.run(argv, cwd="/", stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=REFRESH_SECONDS, check=False)
    except Exception:  # noqa: BLE001 - the session's context matters more than fresher filters
        return


# Beside the store: written by dp team connect / sync (dp.team.config.STATE).
TEAM_STATE = "team.json"


def _start_team_sync(options) -> None:
    """At SessionStart only: when this store syncs with a team (its team state exists: the person
    ran ``dp team connect``), start ``dp.team.background`` detached and go on at once: the session
    never waits for the network, and nothing of the team code is imported here. A repository's
    ``[team] url`` starts nothing: it is a suggestion until the person takes it (``dp.team.config``).
    Fails open."""
    import os

    from dp.store.read import db_location

    try:
        db = db_location(options.db)
        if not os.path.exists(os.path.join(os.path.dirname(os.path.abspath(db)), TEAM_STATE)):
            return
        import subprocess

        subprocess.Popen(own_python("dp.team.background", db), cwd="/", stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    except Exception:  # noqa: BLE001 - a team sync is never worth a session's context
        return


def own_python(module: str, *args: str) -> list:
    """The argv that runs ``module``'s ``main(args)`` from the dp this process runs, and nothing else.

    The hook runs in the agent's directory, a repository: ``python -m`` would
    put that directory first on ``sys.path``, and a committed ``dp/…`` would be
    what runs. ``-I`` (isolated mode) keeps the working directory, PYTHON*
    variables and the user's site directory off the path; the one directory
    added is the one this dp was imported from, so the child imports the same
    dp wherever it is installed. Callers also start it in ``/``.
    """
    import os
    import sys

    home = os.path.dirname(os.path.dirname(os.path.abspath(sys.modules["dp"].__file__)))
    code = f"import sys; sys.path.insert(0, sys.argv[1]); from {module} import main; sys.exit(main(sys.argv[2:]))"
    return [sys.executable, "-I", "-c", code, home, *args]


def _project(conn, cwd: str):
    """The project layers of the call's directory (dp.layers), whatever the agent;
    None when there is no layer file there, or no ``cwd``."""
    if not cwd:
        return None
    from dp.layers.locate import layer_files

    located = layer_files(cwd)
    if not located[1]:
        return None  # most calls: the stats of the walk up, and not even dp.layers.effective imported
    from dp.layers.effective import project_layers

    return project_layers(conn, cwd, located)


def _open_store(options):
    """The store, read-only; None when there is none (no user rules). Raises when it is unreadable."""
    from dp.store.read import db_location, open_readonly

    path = db_location(options.db)
    conn = open_readonly(path)
    if conn is None:
        options.say(f"no store at {path}: no user rules (dp alias creates it)")
    return conn


def _decide(conn, options, event, words, project=None):
    """The decision for one call; ``conn`` is None when there is no store (no user rules),
    ``words`` the command words of a Bash call (``_command_words``), ``project`` the project
    layers of the call's directory (dp.layers), None when it has none."""
    from dp.agents.base import BLOCK, Decision
    from dp.rules import BASH_PARAM, BASH_TOOL

    tool, tool_input = event.tool, event.tool_input
    alias = _tool_alias(conn, event, project)
    if alias is not None:
        options.acted.append(_blocked(alias))
        return Decision(BLOCK, alias.message or _correction(event, alias))
    if not isinstance(tool_input, dict):  # a block depends on the name alone; a rewrite needs input
        options.say(f"the {event.agent_tool} call's input is not an object: nothing to rewrite")
        return Decision(NOTHING)

    command = tool_input.get(BASH_PARAM) if tool == BASH_TOOL else None

    def fetch(text):
        user = _rules(conn, tool, text, words if text == command else None) if conn is not None else []
        found = _with_project(user, project, tool, text, words if text == command else None)
        return event.agent.spelled_params(event.agent_tool, found) if event.agent is not None else found

    rules = fetch(command if isinstance(command, str) else "")
    cwd = event.cwd
    if conn is not None:
        _shadow(conn, options, event, words)
    paving = _paving(options, command, words, cwd, event.session, rules, conn, project) if words else None
    if paving is None and not any(rule.match_kind for rule in rules):
        if options.verbose:
            _say_no_rule(options, event, command, words)
        return Decision(NOTHING)

    from dp.rules.apply import rewrite
    from dp.shell.programs import Programs

    result = rewrite(
        tool_input, rules, cwd=cwd, refetch=fetch if isinstance(command, str) else None, pave=paving,
        programs=Programs(cwd=cwd),
    )
    if result is None:
        options.say(f"the rules for this {event.agent_tool} call changed nothing")
        return Decision(NOTHING)
    for remark in result.remarks:
        options.say(remark)
    options.acted.extend(_acts(result))
    return _response(options, tool_input, result)


def _shadow(conn, options, event, words) -> None:
    """What the store's shadow rules (dp alias --shadow) would have done to this call, alone on its input,
    into ``options.shadowed``; the call's answer never depends on them. One indexed query for the call's
    words, none in a store from before them (0011)."""
    from dp.store.read import shadow_rules_for_tool

    found = shadow_rules_for_tool(conn, event.tool, words or ())
    if not found:
        return
    if event.agent is not None:
        found = event.agent.spelled_params(event.agent_tool, found)
    from dp.rules.apply import rewrite
    from dp.shell.programs import Programs

    result = rewrite(event.tool_input, found, cwd=event.cwd, programs=Programs(cwd=event.cwd))
    if result is not None and result.updated_input != event.tool_input:
        options.shadowed.extend(_acts(result))


def _acts(result) -> list:
    """What a rewrite pass did, one action per rule that fired (and one for project paving): the rule
    as dp names it, its layer, the program it rewrote away and the one it wrote."""
    from dp.rules import COMMAND
    from dp.rules.apply import label

    acts = [(label(rule), rule.source, rule.command, rule.to_name if rule.match_kind == COMMAND else rule.command)
            for rule in result.fired]
    if result.paved:
        acts.append(("project paving", "paving", "", ""))
    return acts


def _say_no_rule(options, event, command, words) -> None:
    """Why a call no rule and no paving acts on went ahead (--verbose only: it parses the command)."""
    if event.tool == "Bash" and not command:
        options.say("empty command: nothing to rewrite")
        return
    if not words:
        options.say(f"no rule for {event.agent_tool}")
        return
    import os

    from dp.paving import WORDS
    from dp.paving.switch import off_reason
    from dp.shell.segment import simple_commands
    from dp.store.read import db_location

    programs = list(dict.fromkeys(command.program for command in simple_commands(command) or []))
    looked_up = [program for program in programs if program in words or program.rpartition("/")[2] in words]
    options.say("no rule for " + (", ".join(looked_up) if looked_up else "the command's words"))
    missed = [program for program in programs if program not in looked_up]
    if missed:  # "no rule" only for what was asked: a program the word scan missed may have one
        options.say(f"not looked up: {', '.join(missed)} (dp's word scan missed it: please report)")
    if WORDS.intersection(words):
        reason = off_reason(os.path.dirname(db_location(options.db)), event.cwd)
        options.say(reason or "project paving: no project here, or nothing to pave in it")


def _correction(event, alias) -> str:
    """``X is not a valid tool. Use Y instead.``, Y in the agent's own name, and the call's
    arguments the agent's Y names otherwise (``, with path (not file_path)``)."""
    agent, to_name, renamed = event.agent, alias.to_name, []
    if agent is not None:
        if agent.is_own_tool(to_name) or to_name in agent.tool_names.values():
            canonical = agent.canonical(to_name)  # the agent's own name or dp's: no other adapter is loaded
        else:
            from dp.agents import canonical_anywhere

            canonical = canonical_anywhere(to_name)
        to_name = agent.agent_tool(canonical)
        if isinstance(event.tool_input, dict):
            renamed = agent.renamed_arguments(canonical, event.tool_input)
    arguments = ", with " + ", ".join(f"{new} (not {old})" for old, new in renamed) if renamed else ""
    return f"{event.agent_tool} is not a valid tool. Use {to_name} instead{arguments}."


def _tool_alias(conn, event, project=None):
    """The alias of the tool's name as the agent spelled it, when it is a correction in that agent;
    an acting project layer's alias (dp.layers) over the store's.

    An alias leading to the very tool called is none (``read_file → Read`` is
    meant for Claude Code; in Gemini CLI ``read_file`` *is* Read) and never blocks.
    """
    from dp.store.read import tool_alias

    alias = None
    if project is not None:
        from dp.layers.effective import tool_alias as project_alias

        alias = project_alias(project, event.agent_tool)
    if alias is None and conn is not None:
        alias = tool_alias(conn, event.agent_tool)
    if alias is not None and event.agent is not None and not event.agent.corrects(alias.from_name, alias.to_name):
        return None
    return alias


def _paving(options, command: str, words, cwd: str, session: str, rules, conn=None, project=None):
    """Project paving for this Bash call, when one of its words is a paving word and it is on."""
    import os

    from dp.paving import gate
    from dp.store.read import db_location

    paving = gate(words, command, os.path.dirname(db_location(options.db)), cwd)
    if paving is not None:
        paving.session = session
        paving.verbose = options.explains
        paving.user_commands = {rule.command for rule in rules if rule.match_kind and rule.command}
        paving.trusts = _trusts(conn, project)
    return paving


def _trusts(conn, project):
    """Whether the user trusts a repository (by its real root), for paving: the answer the project
    layers already read for the call's own repository, else one lookup (dp.store.trust)."""

    def trusts(root: str) -> bool:
        if project is not None and project.real_root == root:
            return project.trusted
        from dp.store.trust import repository_trusted

        return repository_trusted(conn, root)

    return trusts


def _with_project(user_rules, project, tool: str, text: str, words):
    """The user's rules for this call with the acting project rules laid over them (dp.layers)."""
    if project is None:
        return user_rules
    from dp.layers.effective import for_call, overlay

    if text and words is None:
        from dp.shell.words import command_words

        words = command_words(text)
    return overlay(user_rules, for_call(project, tool, set(words) if text else None))


def _rules(conn, tool: str, text: str, words=None):
    """The tool's rules that could apply to ``text`` (parameter rules always do),
    recipes with their compiled programs attached."""
    from dp.rules import RECIPE
    from dp.store.read import recipe_programs

    rules = _matching_rules(conn, tool, text, words)
    recipes = [rule for rule in rules if rule.match_kind == RECIPE]
    if recipes:
        programs = recipe_programs(conn, [rule.to_name for rule in recipes])
        for rule in recipes:
            rule.program = programs.get(rule.to_name, "")
    return rules


def _matching_rules(conn, tool: str, text: str, words=None):
    from dp.store.read import rules_for_tool

    if not text:
        return rules_for_tool(conn, tool)
    if words is None:
        from dp.shell.words import command_words

        words = command_words(text)
    words = sorted(words)
    if len(words) <= _WORDS_PER_QUERY:
        return rules_for_tool(conn, tool, words)
    present = set()
    for start in range(0, len(words), _WORDS_PER_QUERY):
        chunk = words[start : start + _WORDS_PER_QUERY]
        present.update(rule.command for rule in rules_for_tool(conn, tool, chunk) if rule.command)
    return rules_for_tool(conn, tool, present)


def _response(options, tool_input: dict, result):
    """The Decision for a rewrite pass's ``result``: advice, a deny carrying the corrected call, or a rewrite."""
    from dp.agents.base import DENY, REWRITE, Decision, corrected_call, unrun

    notes = result.notes + (result.remarks if options.explains else [])
    if not notes:
        return Decision(NOTHING)  # only a translation held back, and this mode does not say so
    context = "dp: " + "; ".join(notes)
    if result.updated_input == tool_input:  # advice only (`pip install` in a uv project, `grep -P` left alone …)
        return Decision(CONTEXT, context)
    if options.mode == "advise":
        return Decision(DENY, f"{unrun(context)}. {corrected_call(tool_input, result.updated_input)}")
    return Decision(REWRITE, context, result.updated_input, options.permission)
