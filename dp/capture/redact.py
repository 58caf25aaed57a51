"""Redaction before storage: secrets out, Write/Edit contents out, size bounded.

Runs in the capture hook on every failed call, so each pattern is compiled
only when the text contains one of the trigger words it needs; most failures
never pay for any.
"""

from __future__ import annotations

import json
import re

REDACTED = "[redacted]"
OMITTED = "[not stored]"
MAX_INPUT_BYTES = 4096
MAX_ERROR_CHARS = 4096
# Tool parameters holding file contents: never stored, whatever the tool.
CONTENT_PARAMS = frozenset({"content", "old_string", "new_string", "edits", "new_source"})
# Input keys whose value is a secret by name.
_SECRET_KEYS = ("password", "passwd", "secret", "token", "api_key", "apikey", "authorization", "credential")
_VALUE = r"(?:\"[^\"]*\"|'[^']*'|[^\s\"'&;|,}]+)"
# (lower-case substrings without one of which the pattern cannot match, pattern, flags, replacement).
_SECRETS = (
    (("private key",), r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\Z)", re.S,
     REDACTED),
    (("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
     r"\b(?:gh[pousr]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{20,})", 0, REDACTED),
    (("sk-",), r"\bsk-[A-Za-z0-9_\-]{16,}", 0, REDACTED),
    (("akia", "asia"), r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b", 0, REDACTED),
    (("xox",), r"\bxox[a-z]-[A-Za-z0-9\-]+", re.I, REDACTED),
    (("authorization",), r"(\bauthorization\s*:\s*)[^\r\n\"']+", re.I, r"\1" + REDACTED),
    (("bearer",), r"(\bbearer\s+)[A-Za-z0-9._~+/=\-]{8,}", re.I, r"\1" + REDACTED),
    (("password", "passwd", "token", "secret", "api-key", "api_key"),
     r"(--(?:password|passwd|token|secret|api-key|api_key|auth-token)(?:=|\s+))" + _VALUE, re.I, r"\1" + REDACTED),
    (("password", "passwd", "secret", "token", "api_key", "apikey"),
     r"([A-Za-z_\-]*(?:password|passwd|secret|token|api_?key)[\"']?\s*[=:]\s*)" + _VALUE, re.I, r"\1" + REDACTED),
    (("://",), r"(://[^/\s:@]+:)[^@\s/]+@", 0, r"\1" + REDACTED + "@"),
)
_compiled: dict[int, re.Pattern] = {}


def redact_text(text: str) -> str:
    """``text`` with every secret the patterns know replaced by ``[redacted]``.

    A pattern is compiled only when its trigger words occur in ``text`` (this
    runs in the capture hook on every failed call, and compiling all of them
    costs about a millisecond): most texts need none, a text with a token one.
    """
    lowered = text.lower()
    for number, (triggers, pattern, flags, replacement) in enumerate(_SECRETS):
        if any(trigger in lowered for trigger in triggers):
            if number not in _compiled:
                _compiled[number] = re.compile(pattern, flags)
            text = _compiled[number].sub(replacement, text)
    return text


def redact_value(value, key: str = ""):
    """A JSON value with its strings redacted; a value stored under a secret's name is dropped whole."""
    if key and any(word in key.lower() for word in _SECRET_KEYS) and not isinstance(value, (dict, list)):
        return REDACTED
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, dict):
        return {k: redact_value(v, str(k)) for k, v in value.items()}
    if isinstance(value, list):
        return [redact_value(item) for item in value]
    return value


def clean_input(tool_input: dict) -> dict:
    """What may be stored of a failed call's input: contents dropped, secrets redacted, ≤ 4 KB."""
    kept = {key: (OMITTED if key in CONTENT_PARAMS else value) for key, value in tool_input.items()}
    return truncate(redact_value(kept))


def clean_error(error) -> str | None:
    if error is None:
        return None
    text = redact_text(error if isinstance(error, str) else json.dumps(error, ensure_ascii=False))
    return text if len(text) <= MAX_ERROR_CHARS else text[:MAX_ERROR_CHARS] + f"…[truncated {len(text) - MAX_ERROR_CHARS} chars]"


def truncate(value: dict, limit: int = MAX_INPUT_BYTES) -> dict:
    """Shorten the longest strings until the JSON fits in ``limit`` bytes (each cut says so)."""
    for _ in range(64):
        size = len(json.dumps(value, ensure_ascii=False).encode("utf-8"))
        if size <= limit:
            return value
        path, text = _longest_string(value)
        if path is None or len(text) <= 64:
            break
        keep = max(32, len(text) - (size - limit) - 40)
        _set(value, path, text[:keep] + f"…[truncated {len(text) - keep} chars]")
    return _first_keys(value, limit)


def _first_keys(value: dict, limit: int) -> dict:
    """The leading keys that fit (with short values), and how many were left out."""
    kept = {}
    for key, item in value.items():
        trial = {**kept, key: item, "truncated": f"{len(value)} keys"}
        if len(json.dumps(trial, ensure_ascii=False).encode("utf-8")) > limit:
            break
        kept[key] = item
    kept["truncated"] = f"{len(value) - len(kept)} more keys not stored"
    return kept


def _longest_string(value, path=()):
    best_path, best = None, ""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        if isinstance(item, str):
            found_path, found = path + (key,), item
        else:
            found_path, found = _longest_string(item, path + (key,))
        if found_path is not None and len(found) > len(best):
            best_path, best = found_path, found
    return best_path, best


def _set(value, path, text):
    for key in path[:-1]:
        value = value[key]
    value[path[-1]] = text
