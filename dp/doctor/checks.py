"""The checks behind ``dp doctor``; each finding says what is wrong and the one command that fixes it.

Read-only: the store is opened the way the hook opens it (never created or
migrated) and settings files are only parsed.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sqlite3
from pathlib import Path

from dp.claude import settings as claude_settings
from dp.claude import tools
from dp.doctor import reach
from dp.claude.executable import find_pave_check, hook_argv, hook_command, hook_options, shim_reason
from dp.errors import DpError
from dp.files import read_bytes
from dp.rules.model import COMMAND, FLAG, RECIPE, REGEX, TOOL_ALIAS, Rule

OK, WARNING, ERROR = "ok", "warning", "error"
FAST_SECONDS = 0.2
MAX_SANE_TIMEOUT = 60


class Finding:
    """One line of the report."""

    __slots__ = ("check", "status", "message", "fix", "details")

    def __init__(self, check: str, status: str, message: str, fix: str = "", **details):
        self.check = check
        self.status = status
        self.message = message
        self.fix = fix
        self.details = details

    def to_dict(self) -> dict:
        result = {"check": self.check, "status": self.status, "message": self.message, "fix": self.fix or None}
        if self.details:
            result["details"] = self.details
        return result


class SettingsFile:
    """One Claude Code settings file as doctor sees it."""

    def __init__(self, scope: str, path: Path):
        self.scope = scope
        self.path = path
        self.data: dict = {}
        self.error = ""
        self.exists = False
        try:
            raw = read_bytes(path)
            self.exists = raw is not None
            self.data = claude_settings.parse_settings(raw, path)
        except DpError as exc:
            self.error = exc.message

    @property
    def where(self) -> str:
        return f"{self.scope} scope ({self.path})"


def settings_files(cwd: Path, extra: Path | None = None) -> list[SettingsFile]:
    """Every settings file Claude Code reads here, each once.

    Run from the home directory, the project scope's ``.claude/settings.json``
    is the user's file: counting it twice would report the hook as installed
    in two scopes and suggest removing it from one, which removes it from both.
    """
    places = [(scope, claude_settings.settings_path(scope, project_dir=cwd)) for scope in claude_settings.SCOPES]
    places += [("managed", path) for path in claude_settings.managed_settings_paths() if path.exists()]
    if extra is not None:
        places.append(("custom", Path(extra).expanduser().absolute()))
    files, seen = [], set()
    for scope, path in places:
        real = os.path.realpath(path)
        if real not in seen:
            seen.add(real)
            files.append(SettingsFile(scope, path))
    return files


# -- store ------------------------------------------------------------------


def check_store(db_path: Path) -> tuple[list[Finding], list[Rule] | None]:
    from dp.store import SCHEMA_VERSION, all_rules, open_readonly, schema_version

    try:
        conn = open_readonly(db_path)
    except sqlite3.Error as exc:
        return [
            Finding("store", ERROR, f"cannot open {db_path}: {exc}", "move the file aside, then run: dp init")
        ], None
    if conn is None:
        return [Finding("store", WARNING, f"{db_path} does not exist yet", "dp init")], None
    try:
        version = schema_version(conn)
        rules = all_rules(conn)
    except sqlite3.Error as exc:
        return [
            Finding("store", ERROR, f"{db_path} is not a dp store: {exc}", "move the file aside, then run: dp init")
        ], None
    finally:
        conn.close()
    if version > SCHEMA_VERSION:
        found = Finding(
            "store",
            ERROR,
            f"{db_path} has schema {version}, newer than this dp ({SCHEMA_VERSION})",
            "upgrade dp: pip install -U dp",
        )
    elif version < SCHEMA_VERSION:
        found = Finding(
            "store",
            WARNING,
            f"{db_path} has schema {version}, current is {SCHEMA_VERSION}",
            "dp init (migrates the store)",
        )
    else:
        found = Finding("store", OK, f"{db_path} opens, schema {version} (current)")
    return [found, _rule_counts(rules)], rules


def _rule_counts(rules: list[Rule]) -> Finding:
    if not rules:
        return Finding(
            "rules",
            WARNING,
            "the store has no rules yet, so the hook changes nothing",
            "dp alias read_file Read (see dp alias --help)",
        )
    counts: dict[str, int] = {}
    for rule in rules:
        counts[rule.kind_label] = counts.get(rule.kind_label, 0) + 1
    by_kind = ", ".join(f"{kind} {count}" for kind, count in sorted(counts.items()))
    return Finding("rules", OK, f"{len(rules)} rule{'s' if len(rules) != 1 else ''}: {by_kind}", counts=counts)


# -- settings and the hook --------------------------------------------------


def check_settings(files: list[SettingsFile]) -> list[Finding]:
    findings = []
    for file in files:
        if file.scope == "custom" and not file.exists and not file.error:
            # Named on the command line: a typo must not pass as "no problems".
            findings.append(
                Finding("settings", ERROR, f"{file.path} does not exist", "check the path given to --settings")
            )
        elif file.error:
            findings.append(
                Finding(
                    "settings",
                    ERROR,
                    f"{file.where}: {file.error}",
                    f"fix {file.path} by hand; Claude Code cannot read it either",
                )
            )
        elif file.data.get("disableAllHooks") is True:
            findings.append(
                Finding(
                    "settings",
                    ERROR,
                    f"{file.where} sets disableAllHooks: no hook runs, dp's included",
                    f'remove "disableAllHooks" from {file.path}',
                )
            )
    return findings


def check_hook(files: list[SettingsFile], db_path: Path) -> list[Finding]:
    installed = _installed(files)
    if not installed:
        return [Finding("hook", ERROR, "the dp hook is not installed in any Claude Code settings", "dp pave --hook")]
    findings = []
    for file, event, group, hook in _one_per_file(installed):
        findings += _check_entry(file, event, group, hook, db_path)
    findings += _misplaced(installed)
    locked = [file for file in files if file.scope == "managed" and file.data.get("allowManagedHooksOnly") is True]
    if locked and not any(file.scope == "managed" for file, _, _, _ in installed):
        findings.append(
            Finding(
                "hook",
                ERROR,
                f"{locked[0].path} sets allowManagedHooksOnly: hooks from user and "
                "project settings, dp's included, do not run",
                "ask your administrator to add the pave-check hook to the managed settings",
            )
        )
    pre_tool = sorted({file.scope for file, _, _, _ in installed})
    if len(pre_tool) > 1:
        extra = [scope for scope in pre_tool if scope != "user"] or pre_tool[1:]
        findings.append(
            Finding(
                "hook",
                WARNING,
                f"the dp hook is installed in {len(pre_tool)} scopes "
                f"({', '.join(pre_tool)}): it runs more than once per tool call",
                (
                    f"dp pave --unhook --scope {extra[0]}"
                    if extra[0] in claude_settings.SCOPES
                    else "remove the extra entry"
                ),
            )
        )
    return findings


def _check_entry(file: SettingsFile, event: str, group: dict, hook: dict, db_path: Path) -> list[Finding]:
    reinstall = _reinstall_command(file)
    command = hook.get("command", "")
    words = claude_settings.command_words(command)
    where = file.where
    program = os.path.expanduser(os.path.expandvars(words[0]))  # as the shell would
    if os.path.basename(program) == "dp":
        return [
            Finding(
                "hook",
                WARNING,
                f"{where} runs '{command}': dp is looked up on PATH and loads its whole CLI on every tool call",
                reinstall,
            )
        ]
    resolved = program if os.path.isabs(program) else shutil.which(program)
    if not resolved or not os.path.exists(resolved):
        return [Finding("hook", ERROR, f"{where}: hook program {program} does not exist", reinstall)]
    if not os.access(resolved, os.X_OK) or os.path.isdir(resolved):
        return [Finding("hook", ERROR, f"{where}: hook program {resolved} is not executable", reinstall)]
    findings = [Finding("hook", OK, f"installed in {where}: {command}")]
    if not os.path.isabs(program):
        findings.append(
            Finding("hook", WARNING, f"{where}: hook program '{program}' is looked up on PATH at every call", reinstall)
        )
    reason = shim_reason(resolved)
    if reason:
        findings.append(Finding("hook", WARNING, f"{where}: {reason}; it adds ~100 ms to every tool call", reinstall))
    disabling = [key for key in claude_settings.DISABLING_FIELDS if hook.get(key)]
    if disabling:
        findings.append(
            Finding(
                "hook",
                ERROR,
                f"{where}: the dp hook has {disabling[0]!r} set, so it cannot block or rewrite tool calls",
                reinstall,
            )
        )
    timeout = hook.get("timeout")
    if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or not 0 < timeout <= MAX_SANE_TIMEOUT:
        shown = "missing (Claude Code waits up to 600 s)" if timeout is None else f"{timeout!r} s"
        findings.append(
            Finding("hook", WARNING, f"{where}: hook timeout is {shown}; a stuck hook would stall the agent", reinstall)
        )
    hook_db = hook_options(words).get("db")
    expected = Path(db_path).expanduser().absolute()
    actual = Path(hook_db).expanduser().absolute() if hook_db else _default_db()
    if actual != expected:
        findings.append(
            Finding(
                "hook",
                WARNING,
                f"{where}: the hook reads {actual} but dp here uses {expected}",
                f"{reinstall} (with the --db / DP_DB you want the hook to use)",
            )
        )
    return findings


def _one_per_file(installed):
    """The entry that speaks for each file: its first PreToolUse handler, else its first dp entry
    (the others share its command; whether they are the right set is the ``entries`` check)."""
    chosen = {}
    for entry in installed:
        file, event = entry[0], entry[1]
        if id(file) not in chosen or (event == claude_settings.EVENT and chosen[id(file)][1] != event):
            chosen[id(file)] = entry
    return list(chosen.values())


def _misplaced(installed) -> list[Finding]:
    """pave-check registered for an event it does not answer."""
    from dp.claude.filters import EVENTS

    return [
        Finding(
            "hook",
            WARNING,
            f"pave-check is registered for {event} in {file.where}, where it does nothing",
            f"dp pave --unhook{_scope_option(file)} && {_reinstall_command(file)}",
        )
        for file, event, _, _ in installed
        if event not in EVENTS
    ]


def _default_db() -> Path:
    from dp.store import DEFAULT_DB

    return DEFAULT_DB.expanduser().absolute()


def _scope_option(file: SettingsFile) -> str:
    if file.scope == "user":
        return ""
    if file.scope in claude_settings.SCOPES:
        return f" --scope {file.scope}"
    return f" --settings {shlex.quote(str(file.path))}"


def _reinstall_command(file: SettingsFile) -> str:
    return f"dp pave --hook{_scope_option(file)}"


def check_colliding_hooks(files: list[SettingsFile]) -> list[Finding]:
    """Other PreToolUse hooks that also see Bash: only one updatedInput survives."""
    findings = []
    for file in files:
        for event, group, hook in claude_settings.iter_hooks(file.data):
            if event != claude_settings.EVENT or claude_settings.is_dp_hook(hook):
                continue
            if not claude_settings.matcher_matches(group.get("matcher"), "Bash"):
                continue
            kind = hook.get("type", "command") if isinstance(hook, dict) else "?"
            what = (
                hook.get("command") or hook.get("prompt") or hook.get("url") or kind if isinstance(hook, dict) else hook
            )
            findings.append(
                Finding(
                    "other-hooks",
                    WARNING,
                    f"{file.where}: {kind} hook {str(what)[:80]!r} (matcher {group.get('matcher', '')!r}) also runs on "
                    "Bash; Claude Code keeps only one updatedInput, so it can undo dp's rewrites",
                    'narrow its matcher (e.g. "Edit|Write") or make sure it never returns updatedInput',
                )
            )
    if not findings:
        findings.append(Finding("other-hooks", OK, "no other PreToolUse hook runs on Bash"))
    return findings


# -- rules -------------------------------------------------------------------


def check_rules(rules: list[Rule]) -> list[Finding]:
    from dp.rules.build import rule_problem
    from dp.rules.tables.pairs import renames_only

    findings = []
    alias_names = {rule.from_name for rule in rules if rule.match_kind == TOOL_ALIAS}
    for rule in rules:
        delete = delete_command(rule)
        problem = rule_problem(rule)
        if problem:
            findings.append(Finding("rules", ERROR, f"can never fire: {problem}", f"{delete}, then add it again fixed"))
        if rule.match_kind == RECIPE:
            findings += _check_raw(rule)
        if rule.match_kind == TOOL_ALIAS:
            findings += _check_alias(rule, alias_names, delete)
        elif not rule.command:
            findings += _check_tool_param(rule, delete)
        elif renames_only(rule):
            findings.append(
                Finding(
                    "rules",
                    WARNING,
                    f"command {rule.command} → {rule.to_name} only renames: dp has no translation table for "
                    f"this pair, so every flag passes through unchanged ({rule.to_name} must accept "
                    f"{rule.command}'s flags)",
                    f"{delete} (if {rule.to_name} reads some flags differently)",
                )
            )
    if not findings and rules:
        findings.append(Finding("rules", OK, f"all {len(rules)} rules can fire"))
    return findings


def _check_raw(rule: Rule) -> list[Finding]:
    """Every ``|raw`` in a recipe: text spliced where dp does not check what bash makes of it."""
    from dp.rules.recipe import raw_uses

    return [
        Finding("rules", WARNING, f"recipe {rule.from_name!r} splices the agent's text unchecked: {tag}",
                "make sure no quotes, heredoc or arithmetic surround it, or drop |raw")
        for tag in raw_uses(rule.to_name)
    ]


def _check_alias(rule: Rule, alias_names: set[str], delete: str) -> list[Finding]:
    name, target = rule.from_name, rule.to_name
    if tools.is_builtin(name):
        return [
            Finding(
                "rules",
                ERROR,
                f"alias {name} → {target} shadows the real tool {name}: every {name} call is blocked",
                delete,
            )
        ]
    findings = []
    if target in alias_names and not tools.is_builtin(target):
        findings.append(
            Finding(
                "rules",
                WARNING,
                f"alias {name} → {target} points to another alias: the agent is sent "
                f"to {target}, which is blocked too",
                f"{delete}, then: dp alias {shlex.quote(name)} <real tool>",
            )
        )
    elif target in tools.RETIRED_TOOLS:
        findings.append(
            Finding(
                "rules",
                WARNING,
                f"alias {name} → {target}: current Claude Code calls it {tools.RETIRED_TOOLS[target]}",
                f"dp alias {shlex.quote(name)} {tools.RETIRED_TOOLS[target]}",
            )
        )
    elif not tools.is_possible_tool(target):
        findings.append(
            Finding(
                "rules",
                WARNING,
                f"alias {name} → {target}: Claude Code has no tool named {target}",
                f"dp alias {shlex.quote(name)} <real tool name>",
            )
        )
    return findings


def _check_tool_param(rule: Rule, delete: str) -> list[Finding]:
    tool, param = rule.tool, rule.param
    if tool in tools.RETIRED_TOOLS:
        return [
            Finding(
                "rules",
                WARNING,
                f"rule for {tool}.{param} targets a tool current Claude Code calls {tools.RETIRED_TOOLS[tool]}",
                f"{delete}, then add it for --tool {tools.RETIRED_TOOLS[tool]}",
            )
        ]
    if not tools.is_possible_tool(tool):
        return [
            Finding(
                "rules",
                ERROR,
                f"can never fire: Claude Code has no tool {tool!r} (rule {rule.from_name!r} on {tool}.{param})",
                f"{delete}, then add it for a real tool (Read, Edit, Write, Bash, …)",
            )
        ]
    known = tools.TOOL_PARAMS.get(tool)
    if known and param not in known:
        return [
            Finding(
                "rules",
                WARNING,
                f"rule {rule.from_name!r}: {tool} has no text parameter {param!r} (it has {', '.join(known)})",
                f"{delete}, then add it for the right --param",
            )
        ]
    return []


# The options that identify a rule of each kind to ``dp alias --delete``.
_DELETE_OPTIONS = {
    TOOL_ALIAS: "{old}",
    RECIPE: "--recipe {old}",
    FLAG: "--cmd {command} --flag {old} {new}",
    COMMAND: "--cmd {command} --replace {new}",
}


def delete_command(rule: Rule) -> str:
    """The ``dp alias --delete …`` that removes ``rule``."""
    template = _DELETE_OPTIONS.get(rule.match_kind)
    if template is None:  # literal / regex, on a command or on a tool parameter
        target = "--cmd {command}" if rule.command else "--tool {tool} --param {param}"
        regex = " --regex" if rule.match_kind == REGEX else ""
        separator = "-- " if rule.from_name.startswith("-") else ""
        template = f"{target}{regex} {separator}{{old}}"
    values = {
        "old": rule.from_name,
        "new": rule.to_name,
        "command": rule.command,
        "tool": rule.tool,
        "param": rule.param,
    }
    return "dp alias --delete " + template.format(**{key: shlex.quote(value) for key, value in values.items()})


# -- a real call -----------------------------------------------------------------


def check_latency(files: list[SettingsFile], db_path: Path, cwd: Path) -> Finding:
    """Time one call of the installed hook command (after one warm-up call)."""
    from dp.pave.hook import call, db_option, sample_payload

    try:
        own = find_pave_check()
    except DpError as exc:
        own, missing = None, exc.message
    command, label, skipped = None, "", ""
    for file, event, _, hook in _installed(files):
        if event != claude_settings.EVENT:
            continue
        argv = hook_argv(hook.get("command"))
        if argv is None:
            skipped = skipped or f"the entry in {file.where} is not a plain pave-check command, so it was not run"
        elif file.scope in ("project", "local") and _real_program(argv[0]) != str(own):
            # A checked-out repository's settings could name any program.
            skipped = skipped or f"the entry in {file.where} names a program other than this dp's, so it was not run"
        else:
            command, label = argv, "the installed hook"
            break
    if command is None:
        if own is None:
            return Finding("latency", ERROR, missing, "reinstall dp")
        command = shlex.split(hook_command(own, db_option(db_path)))
        label = "pave-check" + (f" ({skipped})" if skipped else " (not installed)")
    payload = sample_payload("Bash", {"command": "git status", "description": "dp doctor latency probe"}, cwd)
    call(command, payload, cwd)
    result = call(command, payload, cwd)
    millis = round(result.seconds * 1000)
    command = shlex.join(command)
    if result.error:
        return Finding("latency", ERROR, f"{label} {result.error}", "dp pave --hook (reinstall)", command=command)
    if result.returncode not in (0, 2):
        last = (result.stderr.strip().splitlines() or [""])[-1]
        return Finding(
            "latency",
            ERROR,
            f"{label} failed with exit {result.returncode}: {last}".rstrip(": "),
            "dp pave --hook (reinstall); if it persists, reinstall dp",
            command=command,
        )
    if result.stdout.strip() and result.output is None:
        return Finding(
            "latency", ERROR, f"{label} printed output that is not a JSON object", "reinstall dp", command=command
        )
    if result.seconds > FAST_SECONDS:
        return Finding(
            "latency",
            WARNING,
            f"one call of {label} took {millis} ms (every tool call pays this)",
            "make sure the hook command is not a shim and the store is on a local disk",
            milliseconds=millis,
            command=command,
        )
    return Finding("latency", OK, f"one call of {label} took {millis} ms", milliseconds=millis, command=command)


def _installed(files: list[SettingsFile]):
    """(file, event, group, hook) of every dp hook entry, user scope first."""
    return [(file, event, group, hook) for file in files for event, group, hook in claude_settings.dp_hooks(file.data)]


def _real_program(program: str) -> str:
    return os.path.realpath(shutil.which(program) or program)


def run_all(db_path: Path, cwd: Path, extra_settings: Path | None = None) -> list[Finding]:
    findings, rules = check_store(db_path)
    files = settings_files(cwd, extra_settings)
    findings += check_settings(files)
    findings += check_hook(files, db_path)
    findings += check_colliding_hooks(files)
    findings += reach.check_entries(files, db_path)
    if rules:
        findings += check_rules(rules)
        findings += reach.check_reach(rules)
    findings.append(check_latency(files, db_path, cwd))
    from dp.doctor.paving import check_paving

    findings += check_paving(db_path, cwd)
    from dp.doctor.mcp_check import check_mcp  # it builds on this module's Finding

    findings += check_mcp(cwd)
    from dp.doctor.capture import check_capture

    findings += check_capture(files, db_path, rules)
    return findings


def summary(findings: list[Finding]) -> dict:
    """How many findings of each status; any error makes ``dp doctor`` exit 1."""
    return {status: sum(1 for f in findings if f.status == status) for status in (OK, WARNING, ERROR)}
