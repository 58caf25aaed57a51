"""``dp suggest``: aliases proposed from what was captured, each with its evidence.

Four sources, each needing evidence of its own kind:

* **tool names** — a call to a tool Claude Code does not have (``read_file``),
  matched to a real tool by name and input schema (``dp.desires.similarity``);
* **learned answers** — fail→fix pairs generalised across sessions
  (``dp.learn``): a missing program renamed (``python`` → ``python3``, only
  where ``python`` is not on PATH and ``python3`` is), a command's first words
  (``pip`` → ``uv pip``, ``find.`` → ``find .``, a repository's ``./mvnw``)
  as a recipe, a flag renamed; each with what the agent ran instead;
* **subcommand typos** — the tool's own hint (``The most similar command is
  commit``) or a subcommand seen succeeding within a small edit distance;
* **unknown options** — then the same command succeeded with another flag in
  its place.

A suggestion needs ``min_count`` events. Left unset, the visible default is
two events, or one when its evidence is unambiguous on its own (the tool's
own "did you mean", a tool name whose words and input both fit exactly); an
explicit ``min_count`` is never undercut by that shortcut. Suggestions an existing rule already makes are left out.
"""

from __future__ import annotations

import hashlib
import json

from dp.desires import hints
from dp.desires.query import iso, parse_input
from dp.desires.similarity import best_tool
from dp.rules.model import BASH_PARAM, BASH_TOOL, FLAG, RECIPE, TOOL_ALIAS
from dp.store import desires

MAX_EVIDENCE = 3
FOLLOW_WINDOW = 10  # successes after a failure that may show what worked
MIN_TOOL_CONFIDENCE = 0.6
MIN_TOOL_MARGIN = 0.15


class Candidate:
    """One proposed rule and the events behind it."""

    def __init__(self, kind: str, alias: list[str], key: tuple, reason: str):
        self.kind = kind
        self.alias = alias
        self.key = key
        self.reason = reason
        self.events: list[dict] = []
        self.sessions: set[str] = set()
        self.confidence = 0.0
        self.unambiguous = False
        self.answered: dict | None = None  # for a learned change: {"told", "followed"}, the answers of it after a failure

    @property
    def id(self) -> str:
        return "s" + hashlib.sha1(json.dumps(self.alias).encode()).hexdigest()[:6]

    def add(self, event: dict, confidence: float, unambiguous: bool = False, then: str | None = None) -> None:
        self.events.append({**event, "then": then} if then else event)
        self.sessions.add(event["session_id"])
        self.confidence = max(self.confidence, confidence)
        self.unambiguous = self.unambiguous or unambiguous

    def to_dict(self) -> dict:
        count = len(self.events)
        # Repetition across sessions adds weight to evidence that is not conclusive alone.
        confidence = self.confidence if self.unambiguous else min(0.95, self.confidence + 0.05 * (len(self.sessions) - 1))
        return {
            "id": self.id,
            "kind": self.kind,
            "alias": self.alias,
            "confidence": round(confidence, 2),
            "count": count,
            "sessions": len(self.sessions),
            "reason": self.reason,
            "unambiguous": self.unambiguous,
            "evidence": self.events[-MAX_EVIDENCE:][::-1],
            **({"answered": self.answered} if self.answered is not None else {}),
        }


DEFAULT_MIN_COUNT = 2


def suggest(conn, rules, min_count: int | None = None) -> list[dict]:
    """Pending suggestions, best first: seen ``min_count`` times (None: the default, see above)."""
    chosen = [c.to_dict() for c in candidates(conn, rules) if _enough(c, min_count)]
    return sorted(chosen, key=lambda item: (-item["confidence"], -item["count"], item["id"]))


def candidates(conn, rules) -> list[Candidate]:
    """Every candidate the captured events support, with all its events, that no rule in ``rules``
    already makes (however little evidence it has: the caller weighs it; ``dp.team.views``)."""
    found: dict[tuple, Candidate] = {}
    for source in (_tool_names, _learned, _subcommand_typos, _unknown_options):
        source(conn, found)
    existing = {rule.key for rule in rules}
    return [candidate for candidate in found.values() if candidate.key not in existing]


def _enough(candidate, min_count: int | None) -> bool:
    """Whether a candidate has the evidence asked for: exactly ``min_count`` when the user set it."""
    if min_count is not None:
        return len(candidate.events) >= min_count
    return candidate.unambiguous or len(candidate.events) >= DEFAULT_MIN_COUNT


def _candidate(found: dict, kind: str, alias: list[str], key: tuple, reason: str) -> Candidate:
    if key not in found:
        found[key] = Candidate(kind, alias, key, reason)
    return found[key]


def _event(row) -> dict:
    row_id, tool, tool_input, error, *_rest, session, timestamp = row
    first_line = next((line for line in (error or "").splitlines() if line.strip() and not line.startswith("Exit code")), "")
    return {"id": row_id, "timestamp": iso(timestamp), "session_id": session, "tool_name": tool,
            "tool_input": parse_input(tool_input), "error": first_line[:200]}


# -- hallucinated tool names -------------------------------------------------


def _tool_names(conn, found: dict) -> None:
    for row_id, tool, tool_input, error, keys, session, timestamp in desires.unknown_tool_failures(conn):
        match = best_tool(tool, json.loads(keys))
        if match is None:
            continue
        target, confidence, by_schema, margin = match
        if confidence < MIN_TOOL_CONFIDENCE or margin < MIN_TOOL_MARGIN:
            continue
        reason = f"{tool} is not a Claude Code tool; its name and input fit {target}"
        candidate = _candidate(found, "tool-name", [tool, target], (tool, "", "", "", TOOL_ALIAS), reason)
        event = _event((row_id, tool, tool_input, error, session, timestamp))
        candidate.add(event, confidence, unambiguous=confidence >= 0.99 and by_schema == 1.0)


# -- Bash: what worked next ---------------------------------------------------


def _failures(conn, error_class: str):
    for row in desires.bash_failures(conn, error_class):
        yield row, {"command": row[4], "subcommand": row[5], "flags": json.loads(row[6])}


def _following(conn, row) -> list[dict]:
    """The Bash shapes that succeeded next in the failure's session."""
    session, timestamp = row[-2], row[-1]
    if not session:
        return []
    found = desires.bash_successes_after(conn, session, timestamp, row[0], FOLLOW_WINDOW)
    return [{"command": c, "subcommand": s, "flags": json.loads(f)} for c, s, f in found]


def _learned(conn, found: dict) -> None:
    """The answers ``dp.learn`` generalised from fail→fix pairs, as rules with their pairs as evidence."""
    from dp.desires.stats import answers_of
    from dp.learn.store import learn

    for item in learn(conn)[0]:
        proposal = _learned_rule(conn, item)
        if proposal is None:
            continue
        kind, alias, key, reason = proposal
        candidate = _candidate(found, kind, alias, key, reason)
        fared, before = answers_of(conn, f"{item.from_text} → {item.to_text}"), candidate.answered
        candidate.answered = {name: fared[name] + (before or {}).get(name, 0) for name in fared}
        for pair in item.pairs:
            event = {"id": pair.failed_id, "timestamp": iso(pair.timestamp), "session_id": pair.session, "tool_name": BASH_TOOL,
                     "tool_input": {"command": pair.failed}, "error": pair.error}
            candidate.add(event, 0.8, then=pair.fixed)


def _learned_rule(conn, item):
    """(kind, dp alias arguments, rule key, why) for one learned answer; None for a rename whose
    program is on this PATH or ran as typed in some session (or whose replacement is not on PATH), for a
    recipe likewise (``_recipe_fits_here``), and for a changed option (``_unknown_options`` reads those):
    they stay answers at the moment of failure. A rule acts on every later call, so one learned from a
    missing program must not reach the calls of a machine, or an activated virtualenv, where it is there
    and works as typed; the answer after a failure only ever follows a failure."""
    import shutil

    from dp.learn.answer import COMMAND
    from dp.learn.answer import FLAG as FLAG_CHANGE
    from dp.learn.tables import table_pair
    from dp.rules.build import recipe_command

    sessions = len(item.sessions)
    then = f"in {sessions} sessions the agent then ran"
    if item.kind == COMMAND:
        standing_in = table_pair(item.from_text, item.to_text)
        if _there(conn, item.from_text, standing_in) or shutil.which(item.to_text) is None:
            return None
        return ("command", ["--cmd", item.from_text, "--replace", item.to_text],
                (item.from_text, BASH_TOOL, BASH_PARAM, item.from_text, COMMAND),
                f"{item.from_text}: command not found (not on PATH here); {then} {item.to_text}, which is on PATH")
    if item.kind == FLAG_CHANGE:
        return None  # _unknown_options proposes flag renames, reading flag groups (-rP) letter by letter
    if not _recipe_fits_here(conn, item):
        return None
    prefix = item.from_text
    return ("recipe", ["--recipe", prefix, f"{item.to_text} {{{{ args }}}}"],
            (prefix, BASH_TOOL, BASH_PARAM, recipe_command(prefix), RECIPE),
            f"{prefix} failed ({', '.join(item.evidence()['error_classes'])}); {then} {item.to_text} instead"
            + (" (a program of the repository: apply it with --project)" if item.kind == "path" else ""))


def _there(conn, program: str, standing_in: bool = False) -> bool:
    """Whether ``program`` is on this PATH or was seen running as typed in a call that succeeded. A rename
    through a table read backwards (``rg`` → ``grep``) is ``standing_in``: the hook itself leaves the call
    as typed wherever the program is there, so only this PATH is asked."""
    import shutil

    return shutil.which(program) is not None or not standing_in and desires.ran_as_typed(conn, program)


def _recipe_fits_here(conn, item) -> bool:
    """Whether a learned change of a command's first words may become a rule on this machine: one learned
    only from a missing program (``pip`` → ``uv pip``) never where that program is on PATH or ran as typed
    (``_there``): its calls succeed as typed there, and never towards a program PATH lacks (a repository's ``./mvnw`` is checked where
    the rule acts, in the project)."""
    import shutil

    if item.evidence()["error_classes"] == ["command not found"] and "/" not in item.command \
            and _there(conn, item.command):
        return False
    target = item.to_text.split(" ")[0]
    return "/" in target or shutil.which(target) is not None


def _subcommand_typos(conn, found: dict) -> None:
    known: dict = {}
    for row, shape in _failures(conn, "unknown subcommand"):
        command, typo = shape["command"], shape["subcommand"]
        if not command or not typo or _run_by_runner(command):
            continue
        hint = hints.suggested_word(row[3] or "")
        target: str | None
        if hint and hint != typo:
            target, confidence = hint, 0.95
        else:
            if command not in known:
                known[command] = desires.succeeded_subcommands(conn, command)
            target = hints.closest(typo, known[command])
            confidence = 0.7
        if not target:
            continue
        prefix = f"{command} {typo}"
        reason = f"{command}: {typo!r} is not a {command} command; " + (
            f"{command} itself suggests {target!r}" if confidence > 0.9 else f"{target!r} succeeded elsewhere")
        candidate = _candidate(found, "subcommand", ["--recipe", prefix, f"{command} {target} {{{{ args }}}}"],
                               (prefix, BASH_TOOL, BASH_PARAM, command, RECIPE), reason)
        candidate.add(_event(row), confidence, unambiguous=confidence > 0.9)


def _unknown_options(conn, found: dict) -> None:
    for row, shape in _failures(conn, "unknown option"):
        command = shape["command"]
        bad = hints.rejected_flag(row[3] or "")
        if not command or not bad or _run_by_runner(command):
            continue
        hinted = hints.suggested_flag(row[3] or "")
        then = None
        replacement: str | None
        if hinted:
            replacement = hinted
        else:
            replacement, then = _replacement_flag(conn, row, shape, bad)
        if not replacement or replacement == bad:
            continue
        reason = f"{command} rejected {bad}; " + (f"{command} itself suggests {replacement}" if hinted
                                                   else f"the same command then worked with {replacement}")
        candidate = _candidate(found, "flag", ["--cmd", command, "--flag", bad, replacement],
                               (bad.lstrip("-"), BASH_TOOL, BASH_PARAM, command, FLAG), reason)
        candidate.add(_event(row), 0.95 if hinted else 0.7, unambiguous=bool(hinted), then=then)


def _run_by_runner(command: str) -> bool:
    """A shape's command that is a runner and its program (``npx tsc``): no rule's command word."""
    return " " in command


def _replacement_flag(conn, row, shape: dict, bad: str) -> tuple[str | None, str | None]:
    """The flag that took ``bad``'s place when the same command next succeeded."""
    for success in _following(conn, row):
        if success["command"] != shape["command"] or success["subcommand"] != shape["subcommand"]:
            continue
        swapped = hints.swapped_flag(shape["flags"], success["flags"], bad)
        if swapped:
            label = " ".join(p for p in (success["command"], success["subcommand"], *success["flags"]) if p)
            return swapped, label
    return None, None
