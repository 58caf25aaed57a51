"""Claude Code settings files and dp's PreToolUse entry in them.

The user's settings.json is theirs: we read it keeping key order and every
field we do not know (prompt hooks, ``async``, ``once``, ``if``, future keys),
change only dp's own hook entry, and refuse to touch a file we cannot read
exactly (invalid JSON, duplicate keys) rather than guess.

dp's entry is recognised by its command, whatever the path and options:
``…/pave-check [options]`` or the Go tool's ``dp pave-check``.
"""

from __future__ import annotations

import json
import math
import os
import re
import shlex
from pathlib import Path

from dp.errors import DpError, did_you_mean

SCOPES = ("user", "project", "local")
EVENT = "PreToolUse"
DP_MATCHER = "*"
HOOK_PROGRAM = "pave-check"
# The ceiling an agent gives pave-check before it goes ahead without it: the same 5 s in every agent
# whose entries carry a timeout in seconds (the hook answers in milliseconds; a stuck one must not stall the agent).
HOOK_TIMEOUT_SECONDS = 5
# The capture hook: records failures and success shapes after each tool call.
# ``async`` so the agent never waits for it (it cannot change anything anyway).
CAPTURE_PROGRAM = "dp-capture"
CAPTURE_EVENTS = ("PostToolUseFailure", "PostToolUse")
CAPTURE_TIMEOUT_SECONDS = 60
# A handler for an event its client cannot filter (Claude Code's PostToolBatch): the shell reads the payload
# and starts the program only when it holds one of the marks; otherwise no dp process starts. POSIX sh.
_GUARD = 'p=$(cat); case "$p" in {patterns}) printf %s "$p" | {command};; esac'
_GUARDED = re.compile(r"""p=\$\(cat\); case "\$p" in (?:\*'[^']*'\*\|?)+\) printf %s "\$p" \| (.+);; esac""", re.S)
# Hook fields that would stop dp doing its job: an async hook cannot block
# or rewrite, a ``once`` hook removes itself after its first run.
DISABLING_FIELDS = ("async", "asyncRewake", "once")


def settings_path(scope: str, home: Path | None = None, project_dir: Path | None = None) -> Path:
    """Where Claude Code keeps the settings of ``scope``."""
    if scope == "user":
        return (home or Path.home()) / ".claude" / "settings.json"
    base = project_dir or Path.cwd()
    if scope == "project":
        return base / ".claude" / "settings.json"
    if scope == "local":
        return base / ".claude" / "settings.local.json"
    raise DpError(f"unknown scope {scope!r}{did_you_mean(scope, SCOPES)}: use one of {', '.join(SCOPES)}")


def managed_settings_paths() -> list[Path]:
    """Administrator-managed settings, which can add hooks or disable them all."""
    return [
        Path("/etc/claude-code/managed-settings.json"),
        Path("/Library/Application Support/ClaudeCode/managed-settings.json"),
    ]


def parse_settings(data: bytes | None, path: Path) -> dict:
    """The settings object in ``data`` (``{}`` for a missing or blank file).

    Raises DpError for anything that could not be written back unchanged.
    """
    if data is None:
        return {}
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DpError(f"{path} is not UTF-8 text; fix or move it aside (nothing was changed)") from None
    if not text.strip():
        return {}
    try:
        settings = json.loads(
            text, object_pairs_hook=_unique_keys, parse_constant=_reject_constant, parse_float=_finite_float
        )
    except json.JSONDecodeError as exc:
        raise DpError(
            f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
            "fix it or move it aside (nothing was changed)"
        ) from None
    except _Unrepresentable as exc:
        raise DpError(f"{path}: {exc}; fix it by hand (nothing was changed)") from None
    except RecursionError:
        raise DpError(f"{path} is nested too deeply to read (arrays or objects inside each other); "
                      "fix it or move it aside (nothing was changed)") from None
    if not isinstance(settings, dict):
        raise DpError(f"{path} must hold a JSON object, not {type(settings).__name__}; nothing was changed")
    return settings


UTF8_BOM = b"\xef\xbb\xbf"


def dump_settings(settings: dict, original: bytes | None = None) -> bytes:
    """The settings as JSON written in the ``original`` file's own style.

    Indentation (spaces or tabs, any width), key separators, ``\\uXXXX``
    escapes versus raw non-ASCII, line endings, the trailing newline(s) and a
    UTF-8 byte-order mark are all taken from the file dp is rewriting, so
    ``dp pave --hook`` then ``--unhook`` gives back the same bytes. A new or
    blank file gets two-space JSON and a newline, as Claude Code writes it.
    """
    style = _json_style(original)
    text = json.dumps(
        settings,
        indent=style["indent"],
        separators=style["separators"],
        ensure_ascii=style["ensure_ascii"],
    )
    text = text.replace("\n", style["newline"]) + style["trailing"]
    return style["bom"] + text.encode("utf-8")


def _json_style(original: bytes | None) -> dict:
    """How ``original`` lays its JSON out (defaults for a missing, blank or ``{}`` file)."""
    style = {"indent": 2, "separators": (",", ": "), "ensure_ascii": False, "newline": "\n", "trailing": "\n"}
    style["bom"] = UTF8_BOM if original and original.startswith(UTF8_BOM) else b""
    text = (original or b"").decode("utf-8-sig", errors="replace")
    if not text.strip():
        return style
    style["trailing"] = text[len(text.rstrip()) :]
    style["newline"] = "\r\n" if "\r\n" in text else "\n"
    style["ensure_ascii"] = text.isascii() and re.search(r"\\u[0-9a-fA-F]{4}", text) is not None
    key_space = re.search(r'"[ \t]*:([ \t]?)', text)
    key_separator = ":" + (key_space.group(1) if key_space else " ")
    indented = re.search(r"[\[{,][ \t]*\r?\n([ \t]*)[^\s\]}]", text)
    if indented:
        style["indent"] = indented.group(1)
        style["separators"] = (",", key_separator)
    elif re.search(r"[\[{]\s*[^\s\]}]", text):  # one line with content: keep it compact
        style["indent"] = None
        style["separators"] = ("," + (" " if re.search(r",[ \t]", text) else ""), key_separator)
    return style


class _Unrepresentable(ValueError):
    pass


def _unique_keys(pairs):
    result = {}
    for key, value in pairs:
        if key in result:
            raise _Unrepresentable(f"key {key!r} appears twice in one object")
        result[key] = value
    return result


def _reject_constant(name):
    raise _Unrepresentable(f"{name} is not valid JSON")


def _finite_float(text: str) -> float:
    # 1e400 parses as infinity, which would be written back as the invalid
    # token ``Infinity``: refuse rather than corrupt the file.
    value = float(text)
    if math.isinf(value):
        raise _Unrepresentable(f"the number {text} is too large to keep exactly")
    return value


# -- recognising hooks -------------------------------------------------------


def after_batch(command: str, marks) -> str:
    """``command`` behind a shell guard that starts it only for a payload holding one of ``marks``
    (``unguarded`` reads it back)."""
    return _GUARD.format(patterns="|".join(f"*{shlex.quote(mark)}*" for mark in marks), command=command)


def unguarded(command: str) -> str:
    """The command an ``after_batch`` guard starts; any other command as it is."""
    found = _GUARDED.fullmatch(command)
    return found.group(1) if found else command


def command_words(command) -> list[str]:
    """The hook command as argv words ([] when it cannot be split); of a guarded one, its program's."""
    if not isinstance(command, str):
        return []
    try:
        words = shlex.split(unguarded(command))
    except ValueError:
        return []
    from dp.shell.wrappers import is_assignment

    while words and is_assignment(words[0]):
        words.pop(0)  # VAR=value prefixes
    return words


def is_dp_command(command) -> bool:
    """Whether a hook command runs pave-check, whatever its path and options (or the Go tool's ``dp pave-check``)."""
    words = command_words(command)
    if not words:
        return False
    program = os.path.basename(words[0])
    if program in (HOOK_PROGRAM, HOOK_PROGRAM + ".exe"):
        return True
    return program == "dp" and len(words) > 1 and words[1] == HOOK_PROGRAM


def is_dp_hook(hook) -> bool:
    """A command hook running pave-check; prompt/http/agent hooks are never dp's."""
    return isinstance(hook, dict) and hook.get("type", "command") == "command" and is_dp_command(hook.get("command"))


def is_capture_hook(hook) -> bool:
    """A command hook running dp-capture, whatever its path and options."""
    if not (isinstance(hook, dict) and hook.get("type", "command") == "command"):
        return False
    words = command_words(hook.get("command"))
    return bool(words) and os.path.basename(words[0]) in (CAPTURE_PROGRAM, CAPTURE_PROGRAM + ".exe")


def capture_hooks(settings: dict) -> list[tuple[str, dict, dict]]:
    """(event, group, hook) of every dp-capture entry, in file order."""
    return [(event, group, hook) for event, group, hook in iter_hooks(settings) if is_capture_hook(hook)]


def matcher_matches(matcher, tool_name: str) -> bool:
    """Whether a hook group's matcher selects ``tool_name`` (exact name, ``*``/empty, or a regex)."""
    if matcher is None or matcher in ("", "*"):
        return True
    if not isinstance(matcher, str):
        return False
    if matcher == tool_name:
        return True
    try:
        return re.fullmatch(matcher, tool_name) is not None
    except re.error:
        return False


def iter_hooks(settings: dict):
    """Every (event, group, hook) in well-formed parts of the settings."""
    hooks = settings.get("hooks")
    if not isinstance(hooks, dict):
        return
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            continue
        for group, hook in _hooks_in(groups):
            yield event, group, hook


def dp_hooks(settings: dict) -> list[tuple[str, dict, dict]]:
    """(event, group, hook) of every dp entry, in file order."""
    return [(event, group, hook) for event, group, hook in iter_hooks(settings) if is_dp_hook(hook)]


# -- changing dp's entry ------------------------------------------------------


def sync_entries(settings: dict, wanted: dict[str, list[dict]], is_mine=is_dp_hook) -> str:
    """Make dp's hooks in ``settings`` exactly ``wanted`` (event → hook groups).

    The one path for installing, updating and pruning dp's entries: for each
    event in ``wanted``, the hooks that ``is_mine`` are taken out and the
    wanted groups put back where dp's first group was (appended when there
    was none); fields the user added to a dp handler (other than ones that
    would disable it) are carried over to the handler with the same ``if``.
    Everything else — other events, the user's own hooks and groups, key
    order — stays as it was. Events not named in ``wanted`` are not touched.

    Returns ``configured`` (dp had no entry before), ``updated`` or
    ``already_configured`` (nothing changed).
    """
    before = json.dumps(settings)
    hooks = _hooks_object(settings)
    had_any = any(is_mine(hook) for _, _, hook in iter_hooks(settings))
    for event, groups in wanted.items():
        _sync_event(hooks, event, groups, is_mine)
    if not hooks and "hooks" not in json.loads(before):
        del settings["hooks"]
    if json.dumps(settings) == before:
        return "already_configured"
    return "updated" if had_any else "configured"


def _sync_event(hooks: dict, event: str, wanted_groups: list[dict], is_mine) -> None:
    groups = hooks.get(event)
    if groups is None:
        groups = []
    if not isinstance(groups, list):
        raise DpError(f'"hooks.{event}" is not a list; fix it by hand (nothing was changed)')
    extras: dict = {}
    position = None
    kept = []
    for group in groups:
        mine = [hook for _, hook in _hooks_in([group]) if is_mine(hook)]
        if not mine:
            kept.append(group)
            continue
        for hook in mine:
            extra = {k: v for k, v in hook.items() if k not in _WRITTEN_FIELDS and k not in DISABLING_FIELDS}
            extras.setdefault(hook.get("if"), extra)
        group["hooks"] = [hook for hook in group["hooks"] if not is_mine(hook)]
        if group["hooks"]:
            kept.append(group)  # shared with the user's hooks: theirs stay, dp's follow
        if position is None:
            position = len(kept)
    fresh = [_with_extras(group, extras) for group in wanted_groups]
    position = len(kept) if position is None else position
    kept[position:position] = fresh
    if kept:
        hooks[event] = kept
    elif event in hooks:
        del hooks[event]


_WRITTEN_FIELDS = ("type", "command", "timeout", "if")


def _with_extras(group: dict, extras: dict) -> dict:
    handlers = [{**extras.get(h.get("if"), {}), **h} for h in group["hooks"]]
    ordered = []
    for handler in handlers:
        # dp's fields first, in a fixed order, then the user's own.
        head = {k: handler[k] for k in _WRITTEN_FIELDS if k in handler}
        ordered.append({**head, **{k: v for k, v in handler.items() if k not in head}})
    return {**group, "hooks": ordered}


def _hooks_object(settings: dict) -> dict:
    hooks = settings.get("hooks")
    if hooks is None:
        hooks = settings["hooks"] = {}
    if not isinstance(hooks, dict):
        raise DpError('"hooks" is not an object; fix it by hand (nothing was changed)')
    return hooks


def capture_entries(command: str, timeout: int = CAPTURE_TIMEOUT_SECONDS) -> dict[str, list[dict]]:
    """dp-capture's entries for sync_entries: one handler for every tool in each of CAPTURE_EVENTS,
    async after a success (the agent never waits), in line after a failure, whose learned answer
    (``dp.capture.answer``) must reach the model with the failed call's result."""
    entries = {}
    for event in CAPTURE_EVENTS:
        handler = {"type": "command", "command": command, "timeout": timeout}
        if event != "PostToolUseFailure":
            handler["async"] = True
        entries[event] = [{"matcher": DP_MATCHER, "hooks": [handler]}]
    return entries


def remove_entries(settings: dict) -> int:
    """Remove dp's hooks (pave-check and dp-capture) from every event; returns how many were removed.

    A group left with no hooks goes, and so do an event array and a
    ``"hooks"`` object left empty (dp added them): no ``{"hooks": {}}``
    residue. Everything else stays as it was.
    """
    hooks = settings.get("hooks")
    if not isinstance(hooks, dict):
        return 0
    removed = 0
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        mine = [(group, hook) for group, hook in _hooks_in(groups) if is_dp_hook(hook) or is_capture_hook(hook)]
        for group, hook in mine:
            _remove_hook(groups, group, hook)
        removed += len(mine)
        if mine and not groups:
            del hooks[event]
    if removed and not hooks:
        del settings["hooks"]
    return removed


def _hooks_in(groups: list):
    """(group, hook) pairs of the well-formed groups of one event."""
    for group in groups:
        if isinstance(group, dict) and isinstance(group.get("hooks"), list):
            for hook in group["hooks"]:
                yield group, hook


def _remove_hook(groups: list, group: dict, hook: dict) -> None:
    group["hooks"] = [other for other in group["hooks"] if other is not hook]
    if not group["hooks"]:
        groups[:] = [other for other in groups if other is not group]


def user_entries(path: Path) -> dict:
    """dp's hook groups in the settings file at ``path``, per event, each group holding only dp's hook:
    what a live probe copies into its scratch HOME (nothing else of the user's settings is read)."""
    import json

    try:
        settings = json.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, ValueError):
        return {}
    entries: dict = {}
    for event, group, hook in dp_hooks(settings):
        entries.setdefault(event, []).append({**{k: v for k, v in group.items() if k != "hooks"}, "hooks": [hook]})
    return entries
