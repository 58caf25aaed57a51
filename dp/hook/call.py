"""One tool call on pave-check's full path: the store and project layers opened once, and the decision.

The gate (dp.hook.gate) answers most calls before this module is imported. The ones it cannot answer come
here: a ``Call`` holds what every step reads — the options, the neutral event, the command's words, the
read-only store and the project layers of the call's directory — so the steps take one argument, not five.
"""

from __future__ import annotations

import os

from dp.agents.base import BLOCK, CONTEXT, DENY, NOTHING, REWRITE, Decision, corrected_call, unrun
from dp.hook import lookup
from dp.hook.notes import blocked
from dp.layers.locate import layer_files
from dp.rules import BASH_PARAM, BASH_TOOL, COMMAND
from dp.store.read import db_location, open_readonly, shadow_rules_for_tool, tool_alias


class Call:
    """What the full path knows about one call; a context manager that closes the store."""

    __slots__ = ("options", "event", "words", "conn", "project")

    def __init__(self, options, event, words=None):
        self.options, self.event, self.words = options, event, words
        self.conn = _open_store(options)
        try:
            self.project = _project(self.conn, event.cwd)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def __enter__(self) -> Call:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _project(conn, cwd: str):
    """The project layers of the call's directory (dp.layers), whatever the agent;
    None when there is no layer file there, or no ``cwd``."""
    if not cwd:
        return None
    located = layer_files(cwd)
    if not located[1]:
        return None  # most calls: the stats of the walk up, and not even dp.layers.effective imported
    from dp.layers.effective import project_layers

    return project_layers(conn, cwd, located)


def _open_store(options):
    """The store, read-only; None when there is none (no user rules). Raises when it is unreadable."""
    path = db_location(options.db)
    conn = open_readonly(path)
    if conn is None:
        options.say(f"no store at {path}: no user rules (dp alias creates it)")
    return conn


def decide(call: Call):
    """The decision for one call: ``call.conn`` is None when there is no store (no user rules),
    ``call.words`` the command words of a Bash call, ``call.project`` the project layers of the
    call's directory (dp.layers), None when it has none."""
    options, event, conn, words, project = call.options, call.event, call.conn, call.words, call.project
    tool, tool_input = event.tool, event.tool_input
    alias = _tool_alias(call)
    if alias is not None:
        from dp.hook.correction import correction  # a block's text: loaded only for a block

        options.acted.append(blocked(alias))
        return Decision(BLOCK, alias.message or correction(event, alias))
    if not isinstance(tool_input, dict):  # a block depends on the name alone; a rewrite needs input
        options.say(f"the {event.agent_tool} call's input is not an object: nothing to rewrite")
        return Decision(NOTHING)

    command = tool_input.get(BASH_PARAM) if tool == BASH_TOOL else None

    def fetch(text):
        user = lookup.for_text(conn, tool, text, words if text == command else None) if conn is not None else []
        found = lookup.with_project(user, project, tool, text, words if text == command else None)
        return event.agent.spelled_params(event.agent_tool, found) if event.agent is not None else found

    rules = fetch(command if isinstance(command, str) else "")
    cwd = event.cwd
    if conn is not None:
        _shadow(call)
    paving = _paving(call, command, rules) if words and isinstance(command, str) else None
    if paving is None and not any(rule.match_kind for rule in rules):
        if options.verbose:
            from dp.hook.verbose import say_no_rule

            say_no_rule(call, command)
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


def _shadow(call: Call) -> None:
    """What the store's shadow rules (dp alias --shadow) would have done to this call, alone on its input,
    into ``options.shadowed``; the call's answer never depends on them. One indexed query for the call's
    words, none in a store from before them (0011)."""
    options, event = call.options, call.event
    found = shadow_rules_for_tool(call.conn, event.tool, call.words or ())
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
    from dp.rules.apply import label

    acts = [(label(rule), rule.source, rule.command, rule.to_name if rule.match_kind == COMMAND else rule.command)
            for rule in result.fired]
    if result.paved:
        acts.append(("project paving", "paving", "", ""))
    return acts


def _tool_alias(call: Call):
    """The alias of the tool's name as the agent spelled it, when it is a correction in that agent;
    an acting project layer's alias (dp.layers) over the store's.

    An alias leading to the very tool called is none (``read_file → Read`` is
    meant for Claude Code; in Gemini CLI ``read_file`` *is* Read) and never blocks.
    """
    event, project = call.event, call.project
    alias = None
    if project is not None:
        from dp.layers.effective import tool_alias as project_alias

        alias = project_alias(project, event.agent_tool)
    if alias is None and call.conn is not None:
        alias = tool_alias(call.conn, event.agent_tool)
    if alias is not None and event.agent is not None and not event.agent.corrects(alias.from_name, alias.to_name):
        return None
    return alias


def _paving(call: Call, command: str, rules):
    """Project paving for this Bash call, when one of its words is a paving word and it is on."""
    from dp.paving import gate

    paving = gate(call.words, command, os.path.dirname(db_location(call.options.db)), call.event.cwd)
    if paving is not None:
        paving.session = call.event.session
        paving.verbose = call.options.explains
        paving.user_commands = {rule.command for rule in rules if rule.match_kind and rule.command}
        paving.trusts = _trusts(call)
    return paving


def _trusts(call: Call):
    """Whether the user trusts a repository (by its real root), for paving: the answer the project
    layers already read for the call's own repository, else one lookup (dp.store.trust)."""

    def trusts(root: str) -> bool:
        project = call.project
        if project is not None and project.real_root == root:
            return project.trusted
        from dp.store.trust import repository_trusted

        return repository_trusted(call.conn, root)

    return trusts


def _response(options, tool_input: dict, result):
    """The Decision for a rewrite pass's ``result``: advice, a deny carrying the corrected call, or a rewrite."""
    notes = result.notes + (result.remarks if options.explains else [])
    if not notes:
        return Decision(NOTHING)  # only a translation held back, and this mode does not say so
    context = "dp: " + "; ".join(notes)
    if result.updated_input == tool_input:  # advice only (`pip install` in a uv project, `grep -P` left alone …)
        return Decision(CONTEXT, context)
    if options.mode == "advise":
        return Decision(DENY, f"{unrun(context)}. {corrected_call(tool_input, result.updated_input)}")
    return Decision(REWRITE, context, result.updated_input, options.permission)
