"""GitHub Copilot CLI (``@github/copilot``): its hook files, payloads and answers.

Everything here was observed in the real binary, 1.0.102, run with
``copilot -p`` against a local fake model (integration_tests/real_client_copilot/);
where Copilot's docs or changelog say otherwise, the binary won.

**Which hook format.** Copilot loads two formats side by side. dp writes the
camelCase one (``preToolUse``, ``sessionStart``, ``postToolUse``,
``postToolUseFailure``), because there the payload names each tool exactly as
the model called it — ``bash``, ``view``, a hallucinated ``read_file`` — and
carries ``toolArgs`` as an object. The PascalCase (Claude-style) format renames
known tools to Claude Code's names (``view`` → ``Read``) but leaves unknown
ones alone, so a correction written from it could not tell the model the name
it must use (``view``). dp does the same renaming itself (``tool_names``:
rules written for ``Bash`` or ``Read`` apply here) and speaks back in
Copilot's names. The entries use the nested ``{"hooks": [{"type": "command",
"command": …}]}`` group form, which Copilot reads with camelCase event names
(payloads stay camelCase), so dp's one lossless settings writer keeps them.

**Answers** (stdout JSON, exit 0):

* a rewrite is ``modifiedArgs`` (the whole new arguments: Copilot replaces,
  it does not merge) plus ``additionalContext``, which reaches the model as a
  user message beside the result. **No ``permissionDecision``**: an ``allow``
  would suppress Copilot's approval of the new command (widening what the
  agent may do). Without one, Copilot judges the *rewritten* command by its
  own rules — in ``-p`` a rewritten write command with no ``--allow-all-tools``
  is denied ("no one to approve"), a ``--deny-tool 'shell(rm)'`` still stops a
  rewrite that introduces ``rm``. So no rewrite needs to become a refusal to
  stay within the user's permissions; ``--mode advise`` still answers with one.
* a refusal (a tool-name alias, ``--mode advise``) is ``permissionDecision:
  "deny"`` with ``permissionDecisionReason``: the model reads "Denied by
  preToolUse hook: <reason>". (Exit 2 also denies, but the model then reads
  only "hook exited with code 2", never dp's message.)
* session-start context is ``additionalContext``: the first user message.

**Unknown tool names reach the hook.** For a tool that does not exist the
pre-tool hook still fires (then ``postToolUseFailure`` with ``Tool 'x' does
not exist.``), so a tool-name alias blocks the call with dp's correction and
the model reissues it under the right name.

**Failing open where an error denies.** Copilot denies a call whose
preToolUse hook exits non-zero ("hook errored"), so each entry's command ends
in ``|| true``: dp's own errors already exit 0 with no output, and even a
pave-check that cannot start (uninstalled, broken interpreter) lets the call
through. Output that is not JSON is ignored by Copilot (observed), and a hook
that times out lets the call go ahead.

**Payloads** carry no event name, so ``read_event`` knows the event by its
fields: ``toolResult`` (postToolUse), ``error`` (postToolUseFailure),
``toolName`` alone (preToolUse), ``source`` without a tool (sessionStart).
A shell command that exits non-zero is a *success* for Copilot's hooks
(``postToolUse``, with ``<shellId: N completed with exit code K>`` at the
end of ``textResultForLlm``); dp reads that line and captures it as a
failure.

**Where hooks load.** ``~/.copilot/hooks/*.json`` (``$COPILOT_HOME/hooks``)
always; a repository's ``.github/hooks/*.json`` only once the folder is
trusted: interactively after the trust prompt (``trustedFolders`` in
``~/.copilot/config.json``), in ``-p`` only with ``--trust-folder``,
``COPILOT_ALLOW_ALL=true``, ``GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true`` or
a ``trustedFolders`` entry. ``dp doctor`` says which applies.

Imported only for ``--agent copilot`` (stdlib, no dataclasses).
"""

import json
import os
import re

from dp.agents import base
from dp.agents.base import Agent, Event

PRE_TOOL_USE = "preToolUse"
SESSION_START_HOOK = "sessionStart"
# Copilot's tool names → dp's (Claude Code's), as Copilot's own Claude-style payloads map them (1.0.102;
# the model is offered bash, view, create, edit, grep, glob, task and the ones below).
TOOL_NAMES = {
    "bash": "Bash",
    "view": "Read",
    "create": "Write",
    "edit": "Edit",
    "grep": "Grep",
    "glob": "Glob",
    "task": "Agent",
    "web_fetch": "WebFetch",
    # Copilot's own tools without a Claude Code counterpart: real names here, never a hallucination.
    **{tool: tool for tool in ("read_bash", "write_bash", "stop_bash", "list_bash", "sql", "session_store_sql",
                               "skill", "fetch_copilot_cli_documentation", "read_agent", "list_agents",
                               "write_agent")},
}
# Copilot's argument names → dp's (Claude Code's), where they differ (the schemas 1.0.102 offers the model).
TOOL_ARGS = {
    "view": {"path": "file_path"},
    "create": {"path": "file_path", "file_text": "content"},
    "edit": {"path": "file_path", "old_str": "old_string", "new_str": "new_string"},
    "grep": {"paths": "path"},
    "glob": {"paths": "path"},
}
# The last line of a shell result: "<shellId: 3 completed with exit code 2>".
_EXIT_LINE = re.compile(r"<shellId: [^>]*? exit code (-?\d+)>\s*$")
# What makes a repository's hooks load in `copilot -p` (checked by dp doctor).
REPO_HOOK_VARIABLES = (("COPILOT_ALLOW_ALL", "true"), ("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS", "true"))


class CopilotCli(Agent):
    name = "copilot"
    display = "Copilot CLI"
    env_prefixes = ("COPILOT", "GITHUB_COPILOT", "GITHUB_TOKEN", "GH_TOKEN", "GH_HOST")  # its login and repo-hook switch
    child_markers = (("COPILOT_CLI", "1"),)  # 1.0.102 sets it for every shell command (and COPILOT_AGENT_SESSION_ID)
    asks_person = True
    pre_tool_hook = PRE_TOOL_USE
    tool_names = TOOL_NAMES
    tool_args = TOOL_ARGS
    instructions_file = ".github/copilot-instructions.md"
    # `allow` would make Copilot skip its approval of the rewritten command: dp never sends it here.
    permissions = ("none", "ask")

    # -- the hook side --

    def read_event(self, payload: dict) -> Event | None:
        if "hook_event_name" in payload:
            return None  # a Claude-style (PascalCase) entry: not what dp installs here
        tool = payload.get("toolName")
        if not isinstance(tool, str) or not tool:
            if "source" in payload:
                return self._event(base.SESSION_START, SESSION_START_HOOK, payload)
            return None
        args = _arguments(payload.get("toolArgs"))
        if "toolResult" in payload:
            failure = _shell_failure(tool, payload.get("toolResult"))
            kind = base.POST_TOOL if failure is None else base.POST_FAILURE
            return self._event(kind, "postToolUse", payload, tool, args, failure)
        if "error" in payload:
            return self._event(base.POST_FAILURE, "postToolUseFailure", payload, tool, args, payload.get("error"))
        return self._event(base.PRE_TOOL, PRE_TOOL_USE, payload, tool, args)

    def _event(self, kind: str, hook: str, payload: dict, tool: str = "", args=None, error=None) -> Event:
        event = Event(kind, hook, payload, self.canonical(tool) if tool else "", tool, args, error)
        session = payload.get("sessionId")
        event.session = session if isinstance(session, str) else ""
        return event

    def answer(self, event: Event, decision) -> tuple[int, str, str]:
        kind, text = decision.kind, decision.text
        if kind in (base.BLOCK, base.DENY, base.ASK):
            output = {"permissionDecision": "ask" if kind == base.ASK else "deny", "permissionDecisionReason": text}
        elif kind == base.REWRITE:
            # Never "allow": it would skip Copilot's approval of the new command.
            output = {"modifiedArgs": decision.updated_input, "additionalContext": text}
            if decision.permission == "ask":
                output = {"permissionDecision": "ask", "permissionDecisionReason": text, **output}
        elif kind == base.CONTEXT and text:
            output = {"additionalContext": text}
        else:
            return 0, "", ""
        return 0, json.dumps(output) + "\n", ""

    def installed_version(self) -> str | None:
        """The version of the ``copilot`` on PATH (``$DP_COPILOT`` names another), read from its npm
        package's ``package.json`` beside the loader: running ``copilot --version`` would unpack the app."""
        return installed_package_version(os.environ.get("DP_COPILOT") or "copilot")

    def load_requirement(self, scope: str, project_dir=None, environ=None) -> tuple[bool, str]:
        """(loads in ``copilot -p``, why) for dp's hooks file of ``scope``: ``dp doctor`` prints it."""
        return load_requirement(scope, project_dir, environ)


def installed_package_version(program: str) -> str | None:
    """``version`` of the ``@github/copilot`` package ``program`` (a name on PATH or a path) belongs to."""
    import shutil
    from pathlib import Path

    found = shutil.which(program)
    if found is None:
        return None
    for directory in Path(os.path.realpath(found)).parents:
        manifest = directory / "package.json"
        if manifest.is_file():
            try:
                data = json.loads(manifest.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                return None
            if isinstance(data, dict) and data.get("name") == "@github/copilot":
                version = data.get("version")
                return version if isinstance(version, str) else None
            if data.get("name") if isinstance(data, dict) else None:
                return None  # another package's manifest: not an npm-installed Copilot CLI
    return None


def copilot_home(home=None):
    """``$COPILOT_HOME``, else ``~/.copilot`` (``home`` given: that home's, for tests and doctor)."""
    from pathlib import Path

    explicit = os.environ.get("COPILOT_HOME") if home is None else None
    return Path(explicit) if explicit else Path(home or Path.home()) / ".copilot"


def load_requirement(scope: str, project_dir=None, environ=None) -> tuple[bool, str]:
    """Whether Copilot loads dp's hooks of ``scope`` in ``-p`` here, and the sentence saying why (not)."""
    if scope != "project":
        return True, "user hooks (~/.copilot/hooks/) load in every session"
    environ = os.environ if environ is None else environ
    for variable, value in REPO_HOOK_VARIABLES:
        if environ.get(variable, "").strip() == value:
            return True, f"repository hooks load: {variable}={value} is set"
    if trusted_folder(project_dir):
        return True, "repository hooks load: this folder is in trustedFolders (~/.copilot/config.json)"
    return False, ("repository hooks (.github/hooks/) load only in a trusted folder: accept Copilot's trust "
                   "prompt once (interactive), or run `copilot -p` with --trust-folder, COPILOT_ALLOW_ALL=true or "
                   "GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true")


def trusted_folder(project_dir=None) -> bool:
    """Whether ``project_dir`` is listed in ``trustedFolders`` of Copilot's config.json (which
    Copilot writes with ``//`` comment lines at the top)."""
    from pathlib import Path

    from dp.errors import DpError
    from dp.runners.base import read_jsonc

    path = copilot_home() / "config.json"
    try:
        config = read_jsonc(path) if path.is_file() else {}
    except (DpError, OSError):
        return False
    folders = config.get("trustedFolders") if isinstance(config, dict) else None
    here = os.path.realpath(Path(project_dir or Path.cwd()))
    return isinstance(folders, list) and any(
        isinstance(folder, str) and os.path.realpath(folder) == here for folder in folders)


def _arguments(args):
    """``toolArgs`` as an object (1.0.102 sends one; a JSON string is read too)."""
    if isinstance(args, str):
        try:
            args = json.loads(args)
        except ValueError:
            return None
    return args if isinstance(args, dict) else None


def _shell_failure(tool: str, result) -> str | None:
    """The output of a shell call that exited non-zero (None for anything else: a success)."""
    if not isinstance(result, dict):
        return None
    text = result.get("textResultForLlm")
    text = text if isinstance(text, str) else ""
    if result.get("resultType") not in (None, "success"):
        return text or str(result.get("resultType"))
    if tool != "bash":
        return None
    found = _EXIT_LINE.search(text)
    return text if found and found.group(1) != "0" else None


ADAPTER = CopilotCli
# The session-start JSON this agent sends its hook (as observed in its binary; the tests send it).
SESSION_START_SAMPLE = {"sessionId": "p1", "timestamp": 1, "source": "new", "initialPrompt": "Go"}
