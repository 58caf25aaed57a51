"""The set of hook entries dp wants in a settings file, given the rules.

Claude Code (2.1.85+) lets a hook handler carry an ``if`` condition in
permission-rule syntax; the handler's process is started only when the
condition matches. dp uses that so a Bash call no rule or paving word can
touch starts no dp process. What the binary does with a condition was read in
its code and observed through the real client against the fake model with a
recording handler (2.1.197, 2.1.240 and 2.1.330 alike;
integration_tests/real_client/test_if_filters.py, test_paving_filters.py):

* an ``if`` is ONE permission rule: ``Bash(PATTERN)``, the pattern a glob
  whose only wildcard is ``*`` (``\\*`` a literal star). There is no
  alternation and no list: ``Bash(npm *|pnpm *)``, ``Bash(npm *, pnpm *)``,
  ``Bash(npm *) Bash(pnpm *)``, ``[np]`` and ``?`` are literal text and match
  neither ``npm test`` nor ``pnpm test``. One condition covers several words
  only through a piece they share: ``Bash(*npm*)`` sees npm and pnpm;
* the glob is tested against each simple command the client parsed (``|``,
  ``&&``, ``;``, newlines, subshells, ``VAR=1`` prefixes, redirections, a
  heredoc with a quoted delimiter — the ``git commit -m "$(cat <<'EOF' …)"``
  agents write — all analyzed), so ``*word*`` also sees ``sudo word``,
  ``/usr/bin/word`` and ``xargs -0 word`` (``word *`` does not);
* a command the client cannot analyze statically — a loop variable
  (``for f in *; do wc "$f"; done``), ``${X:-y}``, ``x=$(pwd); echo $x``, an
  unquoted heredoc, ``{ …; }``, a redirected subshell — starts EVERY filtered
  handler, whatever its condition; ``$( )`` and backticks elsewhere start
  every ``*word*`` handler too (only a bare ``word *`` prefix is checked
  against the commands inside them);
* there is no limit on the number of handlers or conditions: 200 handlers
  with 200 conditions were each evaluated, and all 200 started for ``{ ls; }``;
* handlers are merged only when command AND condition are equal, so a call
  matching k conditions starts k processes;
* an ``if`` on a non-tool event (SessionStart, PostToolBatch) is never
  evaluated: the handler is skipped ("cannot be evaluated for non-tool
  event"), and PostToolBatch has no matcher query either.

So dp writes one ``*stem*`` condition per group of words: the fewest stems
(a word's first ``MIN_STEM`` or more characters, or a shorter word whole)
such that every word contains one (``stems``). Paving's 39 words and dp's own
name need 32 conditions, not 40; ``*py*`` would need nine fewer but starts the
hook for every ``cat app.py``. A Bash call without a word starts nothing; one
the client cannot analyze starts one process per condition: on the NL2Bash
corpus (12 % such commands; 42 words with the README's rules, 34 conditions)
77 % of the commands start nothing, and 54,430 processes start in all where the
plain handler starts 12,607 (bench/nl2bash_spawns.py --paving) — the price of
starting none for ordinary calls. Above ``MAX_CONDITIONS`` conditions that
price is too high and dp writes the plain Bash handler, and so where a rule can
match any Bash command or the client has no ``if``: ``bash_filter`` says why,
and ``dp init`` and ``dp doctor`` print it (``starts``), never a silent fallback.

PostToolBatch cannot be filtered by the client, and pave-check has something to
say there only after a batch in which the client refused a tool name: its
handler is a shell guard (``dp.agents.settings.after_batch``) that starts
pave-check only when the payload holds the client's refusal, so an ordinary
batch costs the client's shell and a ``cat``, no dp process.
"""

from __future__ import annotations

import re

from dp import agents
from dp.agents.settings import HOOK_TIMEOUT_SECONDS, after_batch
from dp.rules.model import BASH_PARAM, BASH_TOOL, TOOL_ALIAS

PRE = "PreToolUse"
SESSION_START = "SessionStart"
POST_TOOL_BATCH = "PostToolBatch"
EVENTS = (PRE, SESSION_START, POST_TOOL_BATCH)
TIMEOUT_SECONDS = HOOK_TIMEOUT_SECONDS
PLAIN_MATCHER = "*"
# More conditions than this: a command the client cannot analyze would start more processes at once
# than the plain Bash handler saves (see above); dp writes that handler and says so.
MAX_CONDITIONS = 48
# The shortest stem one condition may stand for: two letters (``*py*``) would also match file names.
MIN_STEM = 3
# More stems than this are counted, not listed, where dp says which calls start the hook.
LISTED_STEMS = 8
# A word Claude Code's permission syntax can hold without quoting or wildcards.
_SAFE_WORD = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.+@%:=,-]*$")


def conditions(stem: str) -> list[str]:
    """The ``if`` conditions that together see every word holding ``stem`` wherever dp's parser would
    (one: see above)."""
    return [f"Bash(*{stem}*)"]


def stems(words, limit: int | None = None) -> list[str]:
    """The fewest stems (a word's first ``MIN_STEM`` or more characters; a shorter word whole) such that
    each of ``words`` contains one, greedily: the stem in most words first, then a whole word, then the
    longer. Every word holding its stem, a ``*stem*`` condition sees it wherever ``*word*`` would.
    With ``limit``, the search ends once it has chosen more than ``limit`` (enough to know it is too many)."""
    held = _held_stems(set(words))
    holders: dict[str, set] = {}
    for word, within in held.items():
        for stem in within:
            holders.setdefault(stem, set()).add(word)
    chosen: list[str] = []
    while held and (limit is None or len(chosen) <= limit):
        best = max(holders, key=lambda stem: (len(holders[stem]), stem in held, len(stem), stem))
        chosen.append(best)
        for word in list(holders[best]):
            for stem in held.pop(word):
                holders[stem].discard(word)
                if not holders[stem]:
                    del holders[stem]
    return sorted(chosen)


def _held_stems(words: set) -> dict[str, set]:
    """For each word, the candidate stems (any word's first ``MIN_STEM`` or more characters) it contains."""
    candidates = {word[:end] for word in words for end in range(min(MIN_STEM, len(word)), len(word) + 1)}
    return {word: {word[start:end] for start in range(len(word)) for end in range(start + 1, len(word) + 1)} & candidates
            for word in words}


def bash_words(rules) -> tuple[list[str], bool]:
    """(command words Bash rules are keyed on, whether some Bash rule needs every call)."""
    words, everything = set(), False
    for rule in rules:
        if rule.tool != BASH_TOOL or rule.match_kind == TOOL_ALIAS:
            continue
        if rule.param == BASH_PARAM and rule.command and _SAFE_WORD.match(rule.command):
            words.add(rule.command)
        else:
            everything = True  # a parameter rule on the whole command, or a word `if` cannot spell
    return sorted(words), everything


def other_tools(rules) -> list[str]:
    """Tools other than Bash's command words that have rules: parameter rules and tool-name
    aliases (an alias of a name Claude Code does not know never reaches PreToolUse; its entry
    costs nothing and starts working if the name ever becomes a real tool, e.g. an MCP one)."""
    names = {rule.tool for rule in rules if rule.tool and rule.tool != BASH_TOOL}
    names |= {rule.from_name for rule in rules if rule.match_kind == TOOL_ALIAS}
    return sorted(names)


def wanted(command: str, rules, filtered: bool, extra_words=()) -> dict[str, list[dict]]:
    """Every dp hook group per event, for ``command`` (the pave-check command line).

    ``filtered``: write ``if`` conditions (Claude Code ≥ 2.1.85); otherwise one
    plain PreToolUse handler for every tool. SessionStart and PostToolBatch
    are always there: they carry the corrections that reach the model.
    ``extra_words`` are command words the hook acts on without a rule (project
    paving's package managers and runners, while paving is on).
    """
    rules = list(rules)
    return {
        PRE: _pre_tool_use(command, rules, extra_words) if filtered else [_group(PLAIN_MATCHER, [_handler(command)])],
        SESSION_START: [{"hooks": [_handler(command)]}],
        POST_TOOL_BATCH: [{"hooks": [_handler(after_batch(command, agents.get("claude").unknown_tool_marks))]}],
    }


def bash_filter(rules, extra_words=()) -> tuple[list[str] | None, str]:
    """(the command words the Bash handler's conditions name, or None for the plain Bash handler;
    why, in words, when it is the plain one). ``wanted`` writes from this, and init and doctor
    say it, so what they describe is what the settings hold."""
    words, everything = bash_words(rules)
    words = sorted(set(words) | {word for word in extra_words if _SAFE_WORD.match(word)})
    if everything:
        return None, "a rule can match any Bash command"
    if len(stems(words, MAX_CONDITIONS)) > MAX_CONDITIONS:
        paving = " (with project paving's words; `dp paving off` drops them)" if extra_words else ""
        return None, (f"the rules' {len(words)} command words{paving} need more than the {MAX_CONDITIONS} `if` "
                      "conditions dp writes: a command Claude Code cannot analyze would start one process each")
    return words, ""


def starts(entries: dict, why: str = "") -> str:
    """Which tool calls start pave-check under ``entries`` (``wanted``'s), in words; ``why`` says
    why the Bash handler is the plain one (``bash_filter``), when it is."""
    parts = []
    for group in entries.get(PRE, []):
        matcher = group.get("matcher")
        if matcher in (None, "", PLAIN_MATCHER):
            parts.append("every tool call (no `if` filters)")
            continue
        named = [handler["if"][len("Bash(*"):-len("*)")] for handler in group["hooks"] if handler.get("if")]
        if matcher == BASH_TOOL:
            parts.append(_naming(named) if named else "every Bash command" + (f": {why}" if why else ""))
        else:
            parts.append("calls of " + ", ".join(re.sub(r"\\(.)", r"\1", name) for name in matcher.split("|")))
    said = "pave-check starts for " + ("; ".join(parts) if parts else "no tool call")
    if POST_TOOL_BATCH in entries:
        said += "; and after a batch in which Claude Code refused a tool name (PostToolBatch)"
    return said


def _naming(named: list[str]) -> str:
    """Bash commands under the ``named`` stems' conditions, in words, with what the conditions cost."""
    listed = ", ".join(named) if len(named) <= LISTED_STEMS else f"one of {len(named)} word stems ({', '.join(named[:4])}, …)"
    return (f"Bash commands naming {listed} ({len(named)} `if` condition{'s' if len(named) > 1 else ''}: a command "
            f"Claude Code cannot analyze, such as a loop over `$f`, starts {f'all {len(named)}' if len(named) > 1 else 'it'})")


def _pre_tool_use(command: str, rules, extra_words) -> list[dict]:
    groups = []
    words, _ = bash_filter(rules, extra_words)
    if words is None:
        groups.append(_group(BASH_TOOL, [_handler(command)]))
    elif words:
        groups.append(_group(BASH_TOOL, [_handler(command, condition) for stem in stems(words)
                                         for condition in conditions(stem)]))
    tools = other_tools(rules)
    if tools:
        groups.append(_group("|".join(re.escape(name) for name in tools), [_handler(command)]))
    return groups


def _group(matcher: str, handlers: list[dict]) -> dict:
    return {"matcher": matcher, "hooks": handlers}


def _handler(command: str, condition: str | None = None) -> dict:
    handler = {"type": "command", "command": command, "timeout": TIMEOUT_SECONDS}
    if condition:
        handler["if"] = condition
    return handler


def plain_installed(groups: list) -> bool:
    """Whether PreToolUse groups hold dp's plain every-tool handler (installed without filters)."""
    return any(isinstance(g, dict) and g.get("matcher") in (None, "", PLAIN_MATCHER) for g in groups)
