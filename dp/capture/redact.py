"""Redaction before storage: secrets out, Write/Edit contents out, size bounded.

Three passes, each catching what the others cannot:

* **by position in a command** (``dp.shell.secrets``, the table of programs
  that take a password through an option and the names that say secret):
  ``mysql -pSECRET``, ``sshpass -p SECRET``, ``curl -u user:SECRET``,
  ``AWS_SECRET_ACCESS_KEY=SECRET``, ``npm config set …:_authToken SECRET``,
  quoted or not, behind ``sudo``/``env``/``docker exec``, and inside a quoted
  command (``bash -c "mysql -pSECRET"``, ``ssh host 'redis-cli -a SECRET'``);
* **by shape** in any text: GitHub, npm, AWS, OpenAI, Anthropic, Slack,
  GitLab, Stripe, Google, Hugging Face, Vault and PyPI tokens, JWTs,
  ``Authorization:``/``Bearer``/``Cookie:`` values, credentials in URLs,
  ``password=``/``token:`` pairs, private keys;
* **by value**: every secret the first two found in a call is also removed
  wherever else the call repeats it (its error echoing ``-pSECRET``, its
  description), so a program that prints what it was given leaks nothing.

Runs in the capture hook on every failed call (and, for the shape's sake, on
every command), so each pattern is compiled only when the text contains one of
the trigger words it needs; most texts never pay for any. Each string is read
up to ``MAX_SCAN_CHARS``: what is stored of it is a far shorter prefix.
"""

from __future__ import annotations

import json
import re

from dp.shell.secrets import is_reference, secret_parts
from dp.shell.shape import split_words

REDACTED = "[redacted]"
OMITTED = "[not stored]"
MAX_INPUT_BYTES = 4096
MAX_ERROR_CHARS = 4096
# Of each string, only this much is read (and kept): what is stored is a 4 KB prefix at most.
MAX_SCAN_CHARS = 1 << 16
# A secret found in a call this long or longer is removed wherever else the call repeats it
# (shorter ones would take ordinary letters out of the error with them).
MIN_ECHO_CHARS = 4
# How deep quoted commands are read for secrets (`bash -c "ssh h 'mysql -pX'"`).
MAX_DEPTH = 3
# A quoted word holding one of these may hold a command of its own (`bash -c "mysql -pX"`).
_COMMAND_MARKS = frozenset(" \t\n;|&")
# Tool parameters holding file contents: never stored, whatever the tool.
CONTENT_PARAMS = frozenset({"content", "old_string", "new_string", "edits", "new_source"})
# Input keys whose value is a secret by name.
_SECRET_KEYS = ("password", "passwd", "secret", "token", "api_key", "apikey", "authorization", "credential")
_VALUE = r"(?:\"[^\"]*\"|'[^']*'|[^\s\"'&;|,}]+)"
_NAMED = r"(?:password|passwd|passphrase|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credential)"
# (lower-case substrings without one of which the pattern cannot match, pattern, flags). The group
# ``s`` is the secret: it alone is replaced, so what names it stays readable.
_SECRETS = (
    (("private key",), r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?P<s>.*?)(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\Z)",
     re.S),
    (("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
     r"(?P<s>\b(?:gh[pousr]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{20,}))", 0),
    (("npm_",), r"(?P<s>\bnpm_[A-Za-z0-9]{20,})", 0),
    (("sk-",), r"(?P<s>\bsk-[A-Za-z0-9_\-]{16,})", 0),  # OpenAI (sk-proj-…), Anthropic (sk-ant-…)
    (("akia", "asia"), r"(?P<s>\b(?:AKIA|ASIA)[0-9A-Z]{16}\b)", 0),
    (("xox", "xapp-"), r"(?P<s>\b(?:xox[a-z]|xapp)-[A-Za-z0-9\-]+)", re.I),  # Slack
    (("glpat-",), r"(?P<s>\bglpat-[A-Za-z0-9_\-]{16,})", 0),  # GitLab
    (("_live_", "_test_"), r"(?P<s>\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,})", 0),  # Stripe
    (("aiza",), r"(?P<s>\bAIza[0-9A-Za-z_\-]{30,})", 0),  # Google
    (("hf_",), r"(?P<s>\bhf_[A-Za-z0-9]{30,})", 0),  # Hugging Face
    (("hvs.", "hvb.", "hvr."), r"(?P<s>\bhv[sbr]\.[A-Za-z0-9_\-]{20,})", 0),  # Vault
    (("pypi-",), r"(?P<s>\bpypi-[A-Za-z0-9_\-]{40,})", 0),
    (("dckr_pat_",), r"(?P<s>\bdckr_pat_[A-Za-z0-9_\-]{16,})", 0),  # Docker Hub
    (("eyj",), r"(?P<s>\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]*)", 0),  # JWT
    (("authorization",), r"\bauthorization[\"']?\s*[:=]\s*[\"']?(?P<s>[^\r\n\"']+)", re.I),
    (("cookie",), r"\bcookie\s*:\s*(?P<s>[^\r\n\"']+)", re.I),
    (("bearer",), r"\bbearer\s+(?P<s>[A-Za-z0-9._~+/=\-]{8,})", re.I),
    (("password", "passwd", "passphrase", "token", "secret", "key", "credential"),
     r"(?<![\w-])--(?!no-)(?![\w-]*(?:stdin|ask)\b)[\w-]*" + _NAMED + r"[\w-]*(?:=|\s+)(?P<s>" + _VALUE + ")", re.I),
    (("password", "passwd", "passphrase", "token", "secret", "key", "credential", "_auth"),
     r"(?<![A-Za-z0-9_.\-])[A-Za-z0-9_.\-]*(?:" + _NAMED + r"|_auth\b)[A-Za-z0-9_.\-]*[\"']?\s*[=:]\s*(?P<s>" + _VALUE + ")", re.I),
    (("://",), r"://[^/\s:@\"'<>]*:(?P<s>[^\s\"'<>]+)@", 0),  # [user]:password@host (redis://:PW@host too)
    (("://",), r"://(?P<s>[A-Za-z0-9_\-]{20,})@", 0),  # a token as the user: https://TOKEN@github.com
)
_compiled: dict[int, re.Pattern] = {}


def redact_text(text: str, found: set | None = None) -> str:
    """``text`` with every secret the patterns know replaced by ``[redacted]`` (each added to ``found``).

    A pattern is compiled only when its trigger words occur in ``text`` (this
    runs in the capture hook on every failed call, and compiling all of them
    costs about a millisecond): most texts need none, a text with a token one.
    """
    lowered = text.lower()
    for number, (triggers, pattern, flags) in enumerate(_SECRETS):
        if any(trigger in lowered for trigger in triggers):
            if number not in _compiled:
                _compiled[number] = re.compile(pattern, flags)
            text = _compiled[number].sub(lambda match: _replaced(match, found), text)
    return text


def _replaced(match: re.Match, found: set | None) -> str:
    start, end = match.span("s")
    _remember(found, match.group("s"))
    whole = match.group(0)
    return whole[: start - match.start()] + REDACTED + whole[end - match.start():]


def _remember(found: set | None, secret: str) -> None:
    """Keep ``secret`` to remove it wherever else the call repeats it, and the parts a program may
    echo alone: each of its words (``Bearer TOKEN``), what follows a user, scheme, name or path part
    (``admin:PASS``, ``pass:PASS``, ``admin%PASS``), each without the quotes it was typed in."""
    if found is None or REDACTED in secret:
        return
    pieces = {secret, *secret.split()}
    for at, character in enumerate(secret):
        if character in ":%=/@":  # what follows a user, a scheme, a name or a path's part
            pieces.add(secret[at + 1:])
    # …and as it is without the quotes it was typed in (bash -c "PW='…' …", PW=$'…')
    pieces |= {piece.removeprefix("$").strip("'\"") for piece in pieces}
    found.update(piece for piece in pieces if len(piece) >= MIN_ECHO_CHARS)


def redact_command(text: str, found: set | None = None) -> str:
    """``text`` read as Bash: the secrets in it by position (``dp.shell.secrets``), then by shape."""
    return redact_text(_redact_words(text[:MAX_SCAN_CHARS], found, 0), found)


def _redact_words(text: str, found: set | None, depth: int) -> str:
    """Each word holding a secret keeps what names it (``-p``, ``--password=``, ``TOKEN=``) and loses the
    rest; a quoted word that holds a command of its own is read the same way, ``MAX_DEPTH`` deep."""
    edits = []
    for words in split_words(text):
        secret = secret_parts([value for value, _, _ in words])
        for index, (value, start, end) in enumerate(words):
            if index in secret:
                _remember(found, value[secret[index]:])
                edits.append((start, end, value[: secret[index]] + REDACTED))
            elif depth < MAX_DEPTH and not _COMMAND_MARKS.isdisjoint(value):
                inner: set = set()
                if _redact_words(value, inner, depth + 1) != value:
                    edits.append((start, end, _without(text[start:end], inner)))
                    for item in inner:
                        _remember(found, item)
    for start, end, replacement in reversed(edits):
        text = text[:start] + replacement + text[end:]
    return text


def _without(text: str, secrets) -> str:
    """``text`` with each of ``secrets`` replaced; all of it when one is not there as typed (escaped)."""
    for secret in sorted(secrets, key=len, reverse=True):
        if secret not in text:
            return REDACTED
        text = text.replace(secret, REDACTED)
    return text


def scrub(text: str, found) -> str:
    """``text`` without any of the secrets ``found`` elsewhere in the same call (longest first)."""
    for secret in sorted(found, key=len, reverse=True):
        if secret in text:
            text = text.replace(secret, REDACTED)
    return text


def redact_value(value, key: str = "", found: set | None = None):
    """A JSON value with its strings redacted; a value stored under a secret's name is dropped whole.
    A list of strings is read as a command's words too (``["mysql", "-pSECRET"]``)."""
    if key and any(word in key.lower() for word in _SECRET_KEYS) and not isinstance(value, (dict, list)):
        if isinstance(value, str):
            _remember(found, value)
        return REDACTED
    if isinstance(value, str):
        return redact_command(value, found)
    if isinstance(value, dict):
        return {k: redact_value(v, str(k), found) for k, v in value.items()}
    if isinstance(value, list):
        words = value if all(isinstance(item, str) for item in value) else []
        secret = secret_parts(words) if words else {}
        return [_argument(item, secret.get(index), found) for index, item in enumerate(value)]
    return value


def _argument(item, at: int | None, found: set | None):
    if at is None or is_reference(item[at:]):
        return redact_value(item, found=found)
    _remember(found, item[at:])
    return item[:at] + REDACTED


def _scrubbed(value, found):
    if isinstance(value, str):
        return scrub(value, found)
    if isinstance(value, dict):
        return {k: _scrubbed(v, found) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrubbed(item, found) for item in value]
    return value


def clean_input(tool_input: dict, found: set | None = None) -> dict:
    """What may be stored of a call's input: contents dropped, secrets redacted, ≤ 4 KB.
    The secrets found are added to ``found`` (for ``clean_error``); once some are, the input is
    redacted again with them taken out first, so one repeated elsewhere in it goes too."""
    found = set() if found is None else found
    kept = {key: (OMITTED if key in CONTENT_PARAMS else value) for key, value in tool_input.items()}
    cleaned = redact_value(kept, found=found)
    if found:
        cleaned = redact_value(_scrubbed(kept, set(found)), found=found)
    return truncate(cleaned)


def clean_error(error, found=()) -> str | None:
    """What may be stored of a call's error: the secrets of its input (``found``) taken out wherever
    it repeats them, then its own redacted, at most ``MAX_ERROR_CHARS``."""
    if error is None:
        return None
    text = error if isinstance(error, str) else json.dumps(error, ensure_ascii=False)
    found = set(found)
    text = scrub(redact_command(scrub(text[:MAX_SCAN_CHARS], found), found), found)
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
    kept: dict = {}
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
