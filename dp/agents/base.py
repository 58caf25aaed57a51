"""The agent layer's interface: what dp needs to know about one coding agent.

dp's decision — rules, project paving, tool-name aliases, the corrections up
front — is the same for every agent. What differs is the wire: the hook JSON
an agent sends, the answer it understands, its tool names, its config files.
An adapter (one module per agent in ``dp/agents/``, subclassing ``Agent``)
translates exactly that and nothing else:

* ``read_event`` turns the agent's hook payload into an ``Event`` (dp's
  canonical tool names, so a rule written for ``Bash`` or ``Read`` applies in
  every agent);
* dp's core (``dp.hook``, ``dp.capture``) decides on the ``Event`` alone
  ("payload in, decision out"): any layer added to that core applies to every
  agent unchanged;
* ``answer`` writes the core's ``Decision`` in the agent's output contract.
  It is the one place that knows what the agent does with a rewritten call,
  so it is the one place that must never widen what the agent may do: when
  the contract cannot promise that, it turns a rewrite into a refusal
  carrying the corrected call (the agent re-issues it, and its own approval
  applies to what really runs);
* the install side (the agent's "hooks" role, ``dp/agents/<agent>/hooks.py``
  on ``dp.agents.hookbase``, never imported by the hook) names the agent's
  config files per scope and the hook entries dp keeps there;
  ``dp.install.hook`` writes them with the one lossless settings writer
  (``dp.agents.settings``), backups and install records, whatever the agent;
* ``promises`` says which of dp's promises the agent's contract lets dp keep,
  each "no" with its reason: ``dp doctor`` and the per-agent table in the
  docs are generated from it.

Imported on every hook call: stdlib only, no dataclasses (``inspect`` costs
milliseconds), nothing beyond plain classes.
"""

# -- events: what happened in the agent, in dp's terms ------------------------

PRE_TOOL = "pre_tool"  # before a tool runs: block, rewrite or advise
POST_TOOL = "post_tool"  # after a tool ran and succeeded: capture its shape
POST_FAILURE = "post_failure"  # after a tool failed (or a command exited non-zero): capture it
SESSION_START = "session_start"  # a session begins: the corrections up front
AFTER_BATCH = "after_batch"  # after a batch of calls, with their results (Claude Code's PostToolBatch)


class Event:
    """One hook call in dp's terms.

    ``tool`` is dp's canonical tool name (``Bash``, ``Read`` …; an unknown
    name is kept as the agent spelled it); ``agent_tool`` the name the agent
    used. ``hook`` is the agent's own event name (answers echo it).
    ``error`` holds a failure's text (``post_failure``); ``payload`` the
    agent's whole JSON, for the few events that need more (``after_batch``).
    ``agent`` is the adapter that read it (the core names tools in the
    agent's own words through it). ``approval`` is what the agent says about how the call is approved
    (Claude Code's ``permission_mode``, Gemini CLI's approval mode when it
    sends one; '' when unknown): ``answer`` reads it to stay within it.
    """

    __slots__ = ("kind", "hook", "tool", "agent_tool", "tool_input", "cwd", "session", "call_id", "error",
                 "approval", "payload", "agent")

    def __init__(self, kind: str, hook: str, payload: dict, tool: str = "", agent_tool: str = "", tool_input=None,
                 error=None):
        self.kind, self.hook, self.payload, self.tool, self.agent_tool, self.tool_input, self.error = (
            kind, hook, payload, tool, agent_tool or tool, tool_input, error)
        cwd, session = payload.get("cwd"), payload.get("session_id")
        self.cwd = cwd if isinstance(cwd, str) else ""
        self.session = session if isinstance(session, str) else ""
        self.call_id: str | None = None
        self.approval = ""
        self.agent = None  # the adapter that read it: how the core spells a tool name back to the agent


def hook_kind(payload: dict, events: dict, default: str | None = None) -> tuple:
    """``(hook, kind)``: the hook event an agent named in its payload (``default`` when it names none)
    and dp's kind for it, None when dp does not answer that event. Every adapter reads it first."""
    hook = payload.get("hook_event_name", default)
    return hook, events.get(hook) if isinstance(hook, str) else None


def tool_call_event(kind: str, hook: str, payload: dict, error=None) -> Event | None:
    """The Event of a tool call sent in Claude Code's shape (``tool_name``, ``tool_input``,
    ``tool_use_id``, ``permission_mode``), which Codex CLI sends too; None without a tool name."""
    tool = payload.get("tool_name")
    if not isinstance(tool, str) or not tool:
        return None
    event = Event(kind, hook, payload, tool, tool, payload.get("tool_input"), error)
    event.call_id = payload.get("tool_use_id")
    mode = payload.get("permission_mode")
    event.approval = mode if isinstance(mode, str) else ""
    return event


# -- decisions: what dp's core wants done -----------------------------------

NOTHING = "nothing"  # let the call go ahead untouched, say nothing
CONTEXT = "context"  # say ``text`` to the model (advice, the corrections up front)
REWRITE = "rewrite"  # run ``updated_input`` instead; ``text`` says what changed
DENY = "deny"  # refuse the call; ``text`` holds the corrected call to issue instead
BLOCK = "block"  # refuse the call because its tool name is wrong; ``text`` names the right one
# Only the person decides this call (it may run a dp command that widens what dp does, dp.widening):
# the agent's own question to the person where it has one, else a refusal; ``text`` names the command
# to type in their own terminal.
ASK = "ask"


class Decision:
    """dp's answer to one event, before any agent's wire format.

    ``permission`` is the user's explicit ``--permission`` for rewrites
    (``none`` / ``ask`` / ``allow``, Claude Code's vocabulary); an adapter
    whose agent has no such thing ignores it.
    """

    __slots__ = ("kind", "text", "updated_input", "permission", "told")

    def __init__(self, kind: str, text: str = "", updated_input: dict | None = None, permission: str = "none"):
        self.kind = kind
        self.text = text
        # Another pave-check of the same call gave this rewrite's note already (dp.hook.notes._first_to_tell):
        # an agent that shows every handler's note leaves it out; one that refuses with the text keeps it.
        self.told = False
        self.updated_input = updated_input
        self.permission = permission


def unrun(note: str) -> str:
    """A rewrite's note for a refusal, where nothing ran: paving's "ran `pnpm install` instead of
    `npm install`" (dp.paving.plan) says what the rewrite ran; a refused call ran nothing, so the
    model is told to use it instead (``--mode advise``, and an adapter refusing a rewrite)."""
    import re

    return re.sub(r"\bran (`[^`]*`) instead of\b", r"use \1 instead of", note)


def corrected_call(tool_input: dict, updated_input: dict) -> str:
    """What a refusal tells the model to issue instead of ``tool_input``
    (``--mode advise``, and an adapter turning a rewrite it cannot keep within
    the agent's approvals into a refusal)."""
    import json

    changed = {key: value for key, value in updated_input.items() if tool_input.get(key) != value}
    if set(changed) == {"command"}:
        return "Run this instead:\n" + changed["command"]
    return "Re-issue the call with " + json.dumps(changed, ensure_ascii=False)


def refused_rewrite(event: Event, decision: Decision, note: str, why: str) -> str:
    """A rewrite the agent cannot take as it is, as the refusal the model reads: ``note`` (what dp would
    have changed), the call to issue instead, and ``why`` dp did not run it (Codex CLI, Qwen Code)."""
    tool_input = event.tool_input if isinstance(event.tool_input, dict) else {}
    return f"{note}. {corrected_call(tool_input, decision.updated_input or {})}\n(dp did not run it for you: {why})"


# -- the adapter --------------------------------------------------------------


class Agent:
    """One coding agent. Subclasses set the class attributes and implement the methods.

    Class attributes:

    * ``name`` — the ``--agent`` value (``claude``, ``gemini`` …);
    * ``display`` — how people call it (``Claude Code``);
    * ``version_command`` — argv that prints the installed client's version
      (``NAME --version`` unless set);
    * ``capture_source`` — the ``source`` of rows its capture hook stores
      (the agent's name unless set; dp paths / suggest group by the call,
      whatever the source);
    * ``tool_names`` — the agent's tool name → dp's canonical one, for the
      tools whose names differ (Claude Code's names are dp's own);
    * ``tool_args`` — per tool of the agent, its argument name → dp's canonical
      one (Claude Code's), for the arguments whose names differ (Copilot CLI's
      ``view``: ``path`` → ``file_path``), so a rule on ``Read``'s
      ``file_path`` acts on that argument in every agent;
    * ``pre_tool_hook`` — the agent's name for the event before a tool runs;
    * ``scopes`` — the config scopes ``dp pave --hook --scope`` accepts;
    * ``instructions_file`` — the file the agent reads instructions from
      (where ``dp pave --agents-md`` output can go).
    """

    name = ""
    display = ""
    # ``dp ingest`` option reading the agent's session files (its "sessions" role), its report key, the
    # word for one file and the option's help: ("--codex-sessions", "codex_sessions", "session", "Read …").
    session_option: tuple = ()
    pre_tool_hook = ""
    # The agent's hook event names → dp's kinds, and the event a payload naming none is (``read_event``).
    events: dict = {}
    default_hook: str | None = None
    tool_names: dict = {}
    # Shell commands models run that are a tool, not a program (``apply_patch``: the patch tool of OpenAI's
    # agents), → dp's canonical tools that do the same here (``own_tools`` spells them in the agent's names).
    tool_commands: dict = {"apply_patch": ("Edit", "Write")}
    tool_args: dict = {}
    scopes: tuple = ("user", "project")
    instructions_file = "AGENTS.md"
    # The --permission values dp can honour in the agent's contract without widening beyond the user's choice.
    permissions: tuple = ("none", "ask", "allow")

    # What the agent writes in a tool result when it rejected a tool name it does not know: an after-batch
    # event whose call carries one of these is corrected with the tool-name alias (dp.hook.events).
    unknown_tool_marks: tuple = ()
    # Whether ``dp init``'s demonstration also shows the correction right after a rejected tool name, sent
    # as Claude Code's PostToolBatch (observed in 2.1.330). Whether it shows the corrections at session
    # start instead of a block is the ``tool_alias_block`` promise (dp.install.demo.told_up_front).
    demo_rejects_unknown_tools = False
    # The client version dp's facts about the agent were observed in (docs/agents/<agent>.md).
    observed = ""
    # The prefixes of the agent's own environment variables (its login, model endpoint, config
    # directory): a live probe and the real-client tests keep the user's out of their scratch HOME.
    env_prefixes: tuple = ()
    # How the commands its tools run know they run inside it: (variable, value) pairs the agent sets in
    # their environment, observed in its binary (docs/agents/<agent>.md). A dp command that widens what
    # dp does refuses to act, or asks on the person's terminal, where one is set (dp.cli.person).
    child_markers: tuple = ()
    # The agent this one is built on whose child markers it sets too (a fork's parent): a command carrying
    # both agents' markers runs inside this one (``dp.agents.marking``).
    marks_like = ""
    # Whether a before-tool hook can put a call to the person in the agent's own words (its "ask"), observed
    # in its binary: a dp command only the person runs is asked about there, and refused elsewhere, with the
    # command to type in their own terminal (``answer``, for the decision ``ASK``).
    asks_person = False
    # Whether the agent may start several of dp's handlers for one call and shows the model each one's note
    # (Claude Code's ``if`` filters): only there does a rewrite claim its call, so its note is told once
    # (``dp.hook.notes._first_to_tell``); elsewhere the rewrite path does no such I/O.
    many_handlers_per_call = False

    @property
    def version_command(self) -> tuple:
        """``NAME --version``: how every agent's client so far says its version (an agent whose does not
        sets the attribute)."""
        return (self.name, "--version")

    @property
    def capture_source(self) -> str:
        """The agent's name: the ``source`` of the rows dp-capture stores for it (Claude Code's, from
        before there were other agents, is ``hook``)."""
        return self.name

    @property
    def docs_page(self) -> str:
        """Its page of observed facts, relative to docs/: the site's nav and the agents' overview link it
        from here (mkdocs_agents.py), so a new agent's page needs no line in mkdocs.yml or an index."""
        return f"agents/{self.name}.md"

    def installed_version(self) -> str | None:
        """The version of the client installed here ("2.1.330"), None when it is not found or does not say."""
        return None

    def lacks(self, version: str | None) -> str | None:
        """What the agent's release ``version`` lacks of what dp can do in it, with the upgrade, in one
        line for ``dp init`` and ``dp doctor``; None when nothing (the default: no release is known to)."""
        return None

    def is_present(self) -> bool:
        """Whether this machine has the agent (``dp init`` with no agent named writes the default
        agent's settings only then)."""
        return self.installed_version() is not None

    def answered_events(self) -> tuple:
        """The agent's hook events ``pave-check`` answers (an entry for another event does nothing)."""
        return (self.pre_tool_hook, "SessionStart")

    def has_role(self, role: str) -> bool:
        """Whether the agent plays ``role`` (``dp/agents/roles.py``): its folder has the module named after it.
        Nothing is imported, so listing the agents that play a role costs a ``stat`` each."""
        import os

        return os.path.isfile(os.path.join(os.path.dirname(__file__), self.name, role + ".py"))

    def role(self, role: str):
        """The module playing ``role`` (one of ``dp.agents.roles.CATALOGUE``) for this agent,
        ``dp.agents.<agent>.<role>``, imported now; None when the agent does not play it."""
        from dp.agents.roles import CATALOGUE

        if role not in CATALOGUE:
            raise ValueError(f"{role!r} is no role of dp/agents/roles.py")
        return __import__(f"dp.agents.{self.name}.{role}", fromlist=["_"]) if self.has_role(role) else None

    def hooks(self):
        """The agent's install side: ``HOOKS`` of its "hooks" role (``dp/agents/<agent>/hooks.py``, on
        ``dp.agents.hookbase.Hooks``), its config files, hook entries, sample payload and answers read back.
        Imported only when asked for: ``dp init``, ``dp pave --hook`` and ``dp doctor`` ask, the hook never."""
        return self.role("hooks").HOOKS

    @property
    def plugin(self) -> bool:
        """Whether the agent's extension point is a file dp puts in place (OpenCode's plugin), not hook entries
        in a settings file: its "install" role (``dp.install.agent_plugin``)."""
        return self.has_role("install")

    def canonical(self, tool: str) -> str:
        """dp's name for the agent's tool ``tool`` (unknown names stay as they are)."""
        return self.tool_names.get(tool, tool)

    def agent_tool(self, canonical: str) -> str:
        """The agent's name for dp's tool ``canonical`` (the first one, when several map to it)."""
        for agent_name, name in self.tool_names.items():
            if name == canonical:
                return agent_name
        return canonical

    def agent_param(self, agent_tool: str, param: str) -> str:
        """The agent's name for dp's parameter ``param`` of its tool ``agent_tool``."""
        for name, canonical in self.tool_args.get(agent_tool, {}).items():
            if canonical == param:
                return name
        return param

    def spelled_params(self, agent_tool: str, rules) -> list:
        """``rules`` about a tool's parameters, each naming the parameter as this agent's
        ``agent_tool`` does, so the rewrite reads and writes the agent's own arguments."""
        if not rules or not self.tool_args.get(agent_tool):
            return rules
        spelled = []
        for rule in rules:
            param = self.agent_param(agent_tool, rule.param) if rule.param and not rule.command else rule.param
            spelled.append(rule.replace(param=param) if param != rule.param else rule)
        return spelled

    def renamed_arguments(self, canonical_tool: str, keys) -> list:
        """``(key, the agent's argument)`` for each key of a call that the tool ``canonical_tool``
        takes under another name in this agent (``file_path`` → Copilot's ``path``): what a
        correction of a wrong tool name tells the model to write instead."""
        from dp.agents.tools import KEY_SYNONYMS, tool_params

        params = tool_params(canonical_tool)
        agent_tool = self.agent_tool(canonical_tool)
        own = {self.agent_param(agent_tool, param) for param in params}
        renamed = []
        for key in keys:
            canonical = key if key in params else KEY_SYNONYMS.get(str(key).lower())
            if key in own or canonical is None or canonical not in params:
                continue
            renamed.append((key, self.agent_param(agent_tool, canonical)))
        return renamed

    def own_tools(self, command: str) -> tuple:
        """The agent's own tools, in its names, that do what the shell command ``command`` was believed to do
        (``apply_patch``, an OpenAI model's patch tool: Edit and Write in Claude Code); () when none. Said
        after ``command: command not found`` (``dp.learn.known``)."""
        return tuple(dict.fromkeys(self.agent_tool(tool) for tool in self.tool_commands.get(command, ())))

    def is_own_tool(self, name: str) -> bool:
        """Whether ``name`` is one of this agent's real tool names."""
        return name in self.tool_names

    def corrects(self, from_name: str, to_name: str) -> bool:
        """Whether a tool-name alias ``from_name → to_name`` is a correction in this agent.

        Aliases are written once for every agent, mostly against names models
        bring from another agent. One whose two names are the same tool (in
        any agent's naming) corrects only where ``from_name`` is not a real
        tool: ``read_file → Read`` corrects Claude Code, but in Gemini CLI
        ``read_file`` *is* Read, so there it neither blocks nor is mentioned;
        ``Bash → run_shell_command`` the other way round.
        """
        if not self.is_own_tool(from_name):
            return True
        canonical = self.canonical(from_name)
        if to_name == canonical:  # dp's own name for this very tool: no other name to look up
            return False
        from dp.agents import canonical_anywhere

        return canonical != canonical_anywhere(to_name)

    def spelled_rules(self, rules) -> list:
        """``rules`` as this agent reads them: tools in its own names, aliases that are no correction here left out."""
        from dp.rules import TOOL_ALIAS

        spelled = []
        for rule in rules:
            if rule.match_kind == TOOL_ALIAS:
                if not self.corrects(rule.from_name, rule.to_name):
                    continue
                from dp.agents import canonical_anywhere

                to_name = self.agent_tool(canonical_anywhere(rule.to_name))
                if to_name != rule.to_name:
                    rule = rule.replace(to_name=to_name)
            elif rule.tool and self.agent_tool(rule.tool) != rule.tool:
                rule = rule.replace(tool=self.agent_tool(rule.tool))
            spelled.append(rule)
        return spelled

    def promises(self) -> tuple:
        """One ``Promise`` per entry of ``PROMISES`` (``dp.agents.promises``): data for the docs' tables, ``dp init``
        and ``dp doctor``, never the hook's path."""
        from dp.agents.promises import promises_of

        return promises_of(self)

    def read_event(self, payload: dict) -> Event | None:
        """The agent's hook JSON as an Event; None for anything dp does not act on. An event that is no tool
        call (a session's start, after a batch) reads alike in every agent; a tool call is ``tool_event``'s."""
        hook, kind = hook_kind(payload, self.events, self.default_hook)
        if kind in (SESSION_START, AFTER_BATCH):
            return Event(kind, hook, payload)
        return None if kind is None else self.tool_event(kind, hook, payload)

    def tool_event(self, kind: str, hook: str, payload: dict) -> Event | None:
        """The Event of the tool call in the agent's ``payload`` of dp's ``kind``; None without a tool."""
        raise NotImplementedError

    def answer(self, event: Event, decision: Decision) -> tuple[int, str, str]:
        """(exit status, stdout, stderr) for ``decision`` in the agent's contract.

        Must never widen: a rewrite the agent would run with less confirmation
        than the original call had is answered as a refusal carrying the
        corrected call instead.
        """
        raise NotImplementedError
