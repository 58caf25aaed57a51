"""``dp doctor --live --agent NAME``: the one probe runner each agent's ``live`` role configures.

The check is the same in every agent: find the user's own binary, see that dp is installed
in it, script a model that makes the calls dp's rules should correct (a shell command a rule
rewrites, a tool name an alias corrects), run the binary once in a temporary project and HOME
against that model on 127.0.0.1 with ``DP_DB`` naming the user's store (nothing of the user's
agent state is read or written, none of the agent's own variables ``env_prefixes`` leak in, and
nothing leaves the machine), and report from what the model was sent whether dp acted and what
the model read. What differs — the program and its package, how the model's calls look, which
alias the agent can show, the scratch HOME's files, how the model's transcript reads — is a
``Probe`` subclass in the agent's folder; its ``run`` is the part's ``run``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from dp.agents.settings import user_entries
from dp.errors import DpError
from dp.live.openai_compat import Conversation, FakeChat, shell, tool_call
from dp.rules.model import BASH_TOOL, TOOL_ALIAS, probe_command

RUN_TIMEOUT_SECONDS = 120
VERSION_TIMEOUT_SECONDS = 60
CONTEXT_START = "dp (desire paths)"
CONTEXT_END = "</hook_context>"
PROMPT = "dp doctor --live probe"


class Probe:
    """One agent's live probe. A subclass sets the class attributes and the methods marked *agent*."""

    program = ""  # the binary's name on PATH; ``$DP_<PROGRAM>`` names another
    package = ""  # its npm package, for the install hint
    oldest = ""  # the oldest release dp's hooks are checked with (a failure below it: upgrade)
    timeout = RUN_TIMEOUT_SECONDS
    signs: tuple[str, ...] = ("dp:",)  # a line of a tool result holding one of these is dp's

    def __init__(self, agent):
        self.agent = agent
        self.entries: dict = {}
        self.db_path = None  # the user's store, once run

    # -- the agent's side (override) --

    def shell_call(self, command: str) -> dict:
        """*agent*: the model's call of its shell tool running ``command``."""
        raise NotImplementedError

    def alias_call(self, name: str) -> dict:
        """*agent*: the model's call of the tool ``name`` (which an alias corrects)."""
        raise NotImplementedError

    def fake(self, turns):
        """*agent*: the scripted model (a context manager with ``url``) playing ``turns``."""
        raise NotImplementedError

    def prepare(self, home: Path, project: Path, url: str) -> dict:
        """*agent*: write the scratch HOME's files; the variables the run adds (model endpoint, sign-in)."""
        raise NotImplementedError

    def command(self, binary: str) -> list:
        """*agent*: the one-shot, non-interactive run of ``binary`` on ``PROMPT``."""
        raise NotImplementedError

    def transcript(self, fake):
        """*agent*: what the model was sent, read from the fake (None when nothing reached it)."""
        raise NotImplementedError

    def results(self, transcript, calls: list) -> list[str]:
        """*agent*: what the model read as the result of each scripted call ('' where it read none)."""
        raise NotImplementedError

    def opening(self, transcript) -> str:
        """*agent*: the text the model read before its first turn (where session-start context goes)."""
        raise NotImplementedError

    def called(self, call: dict) -> tuple[str, dict]:
        """A scripted call's tool name and input, as the report shows them."""
        return call["name"], call["input"]

    def shows_alias(self, rule) -> bool:
        """Whether the agent lets a hook show the tool-name alias ``rule`` (the probe scripts the first such)."""
        return self.agent.corrects(rule.from_name, rule.to_name)

    def not_installed(self) -> str | None:
        """Why the check cannot run with the user's dp install, or None: by default, dp's hook entries
        must be in the agent's user settings (they are copied into the scratch HOME)."""
        path = self.agent.hooks().config_path("user")
        self.entries = user_entries(path)
        if self.agent.pre_tool_hook not in self.entries:
            return f"no dp hook entries in {path}; install them with: dp pave --hook --agent {self.agent.name}"
        return None

    def told(self, call: dict, shown: str) -> list[str]:
        """dp's words in what the model read for ``call``."""
        return [line.strip() for line in shown.splitlines() if any(sign in line for sign in self.signs)]

    # -- the one flow --

    def find(self) -> str | None:
        """The user's binary: ``$DP_<PROGRAM>``, else the one on PATH."""
        return os.environ.get(f"DP_{self.program.upper()}") or shutil.which(self.program)

    def not_found(self) -> str:
        """The error when the user has no binary."""
        return (f"dp doctor --live --agent {self.agent.name} runs your installed {self.agent.display}, but "
                f"`{self.program}` is not on PATH; install it (npm install -g {self.package}) or name it "
                f"with DP_{self.program.upper()}=PATH")

    def no_calls(self) -> str:
        """The error when no rule of the store gives the probe a call to make."""
        return (f"the store has no rule {self.agent.display} can show; add one (dp alias --cmd grep --replace rg) "
                "and run again")

    def version(self, binary: str) -> str | None:
        return version_of(binary)

    def session_start(self, transcript) -> str:
        """dp's session-start context as the model read it ('' when none reached it)."""
        return session_context(self.opening(transcript))

    def upgrade(self) -> str:
        """How the user upgrades the agent (the fix when it is older than ``oldest``)."""
        return f"npm install -g {self.package}@latest"

    def calls(self, rules) -> list[tuple[str, dict, object]]:
        """(what it probes, scripted call, its rule): a shell command a rule rewrites, a tool name an alias corrects."""
        calls = []
        bash_rule = next((r for r in rules if r.tool == BASH_TOOL and r.command and r.match_kind != TOOL_ALIAS), None)
        if bash_rule is not None:
            calls.append((f"Bash rule for {bash_rule.command}", self.shell_call(probe_command(bash_rule)), bash_rule))
        alias = next((r for r in rules if r.match_kind == TOOL_ALIAS and self.shows_alias(r)), None)
        if alias is not None:
            calls.append((f"tool-name alias {alias.from_name} → {alias.to_name}", self.alias_call(alias.from_name),
                          alias))
        return calls

    def run(self, db_path: Path, rules) -> dict:
        """Run the check; raises DpError when it cannot run at all (no binary, dp not installed, no rule)."""
        agent, binary = self.agent, self.find()
        if binary is None:
            raise DpError(self.not_found())
        self.db_path = db_path
        problem = self.not_installed()
        if problem:
            raise DpError(problem)
        calls = self.calls(rules)
        if not calls:
            raise DpError(self.no_calls())
        with tempfile.TemporaryDirectory(prefix="dp-live-") as scratch, self.fake([[c] for _, c, _ in calls]) as fake:
            proc = self._run(binary, Path(scratch), db_path, fake.url)
            transcript = self.transcript(fake)
        shown = self.results(transcript, [call for _, call, _ in calls]) if transcript is not None else [""] * len(calls)
        version = self.version(binary)
        probes = [self._report(label, call, text) for (label, call, _), text in zip(calls, shown)]
        for probe, (_, _, rule) in zip(probes, calls):
            probe.update(self.verdict(probe, rule, proc, transcript is not None, version))
        return {"client": agent.display, "binary": binary, "version": version, "exit_code": proc.returncode,
                "probes": probes, "session_start": self.session_start(transcript) if transcript is not None else "",
                **self.summary(probes, version)}

    # -- the verdict: what each outcome means, and its fix --

    def verdict(self, probe: dict, rule, proc, reached: bool, version: str | None) -> dict:
        """``{"verdict", "fix"}`` of one probe: why dp's words did or did not reach the model, from what can be
        checked here (the client's exit, the hook's program, the rule's programs, the client's age)."""
        client = f"{self.agent.display} {version or ''}".rstrip()
        if probe["fired"]:
            return {"verdict": "works: dp acted and the model read what it changed", "fix": None}
        if not reached or proc.returncode not in (0, None) and not probe["result"]:
            last = (proc.stderr or proc.stdout or "").strip().splitlines()[-1:] or ["no output"]
            return {"verdict": f"{client} did not get as far as the call (exit {proc.returncode}: {last[0][:200]})",
                    "fix": f"run `{self.program}` by hand once: its sign-in, settings or network stopped it"}
        gone = self._missing_hook_program()
        if gone:
            return {"verdict": f"dp's hook entries run {gone}, which is not there (dp was uninstalled or moved)",
                    "fix": "dp doctor --fix (or dp init again)"}
        from dp.rules.programs import missing_programs

        missing = missing_programs(rule)
        if missing:
            return {"verdict": f"{', '.join(missing)} is not installed here, so the hook leaves "
                               f"{rule.command or rule.from_name} as typed",
                    "fix": f"install {', '.join(missing)}"}
        if self.oldest and version and _release(version) < _release(self.oldest):
            return {"verdict": f"this {client} is older than {self.oldest}, the oldest release dp is checked with",
                    "fix": f"upgrade it: {self.upgrade()}"}
        return {"verdict": f"the hook ran, but nothing of dp's reached the model in {client}",
                "fix": "dp doctor (it checks the install); if it finds nothing, report this with dp doctor --live --json"}

    def summary(self, probes: list[dict], version: str | None) -> dict:
        """The run's verdict in one line, and the first fix."""
        client = f"{self.agent.display} {version or ''}".rstrip()
        failed = [probe for probe in probes if not probe["fired"]]
        if not failed:
            return {"verdict": f"dp works in {client}: every probe was corrected and the model was told", "fix": None}
        return {"verdict": f"{len(failed)} of {len(probes)} probes did not reach the model: {failed[0]['verdict']}",
                "fix": failed[0]["fix"]}

    def _missing_hook_program(self) -> str:
        """The program of dp's copied hook entries when it does not exist ('' when it does, or is not plain)."""
        from dp.agents.executable import hook_argv

        for groups in self.entries.values():
            for group in groups if isinstance(groups, list) else ():
                for hook in group.get("hooks", []) if isinstance(group, dict) else ():
                    argv = hook_argv(hook.get("command")) if isinstance(hook, dict) else None
                    if argv and not os.path.exists(argv[0]):
                        return argv[0]
        return ""

    def _run(self, binary: str, scratch: Path, db_path: Path, url: str) -> subprocess.CompletedProcess:
        home, project = scratch / "home", scratch / "project"
        (home / "tmp").mkdir(parents=True)
        project.mkdir()
        extra = self.prepare(home, project, url)
        env = {key: value for key, value in os.environ.items()
               if not key.startswith(("XDG_", *self.agent.env_prefixes))}
        env.update({"HOME": str(home), "TMPDIR": str(home / "tmp"),
                    "DP_DB": str(Path(db_path).expanduser().absolute()), **extra})
        try:
            return subprocess.run(self.command(binary), cwd=project, env=env, capture_output=True, text=True,
                                  timeout=self.timeout, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise DpError(f"{self.program} did not finish within {self.timeout} s against the local fake model") from None

    def _report(self, label: str, call: dict, shown: str) -> dict:
        tool, tool_input = self.called(call)
        told = self.told(call, shown)
        return {"probe": label, "tool": tool, "input": tool_input, "fired": bool(told), "told": told,
                "result": shown[:500]}


class CompatProbe(Probe):
    """A probe whose model is dp's OpenAI-compatible fake (dp/live/openai_compat.py): calls carry ids,
    and the model reads each result in the ``tool`` message for that id."""

    shell_tool = "run_shell_command"

    def shell_call(self, command: str) -> dict:
        return shell(command, tool=self.shell_tool)

    def alias_call(self, name: str) -> dict:
        return tool_call(name, {})

    def called(self, call: dict) -> tuple[str, dict]:
        return call["name"], json.loads(call["arguments"])

    def fake(self, turns):
        return FakeChat(turns)

    def transcript(self, fake):
        requests = fake.main_requests
        return Conversation(requests[-1]["messages"]) if requests else None

    def results(self, transcript, calls: list) -> list[str]:
        shown = []
        for call in calls:
            try:
                shown.append(transcript.output(call["id"]))
            except AssertionError:  # the call never got a result: the agent stopped before it
                shown.append("")
        return shown

    def opening(self, transcript) -> str:
        return transcript.opening


def _release(version: str) -> tuple:
    """``2.1.197 (Claude Code)`` → (2, 1, 197): the numbers a release is ordered by."""
    import re

    return tuple(int(part) for part in re.findall(r"\d+", version.split()[0])) if version.strip() else ()


def version_of(binary: str) -> str | None:
    """What ``binary --version`` prints, None when it fails."""
    try:
        proc = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=VERSION_TIMEOUT_SECONDS,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout.strip() or None if proc.returncode == 0 else None


def session_context(opening: str) -> str:
    """dp's session-start context in what the model read first ('' when it is not there)."""
    if CONTEXT_START not in opening:
        return ""
    return opening[opening.index(CONTEXT_START):].split(CONTEXT_END)[0].strip()
