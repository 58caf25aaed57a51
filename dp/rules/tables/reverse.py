"""A shipped translation table read backwards: ``rg`` → ``grep`` where ripgrep is missing (and
``fd`` → ``find``: ``_find_backwards``, whose engine is ``dp.rules.findexpr.translate_fd``).

Agents type ``rg`` where it is not installed and then run the ``grep`` that
means the same; ``dp.learn`` learns that rename. Its flags are translated by
the table that already translates ``grep`` into ``rg`` (a table with a
``[reverse]`` section), read backwards and kept to what reads the same both
ways:

* an rg flag is known only when some grep flag translates to exactly it, as
  one word (``-n`` → ``-n``, ``-h`` → ``-I``) or one word and its value
  (``-A 2``; ``--include=G`` → ``-g G``, ``--exclude=G`` → ``-g '!G'``: the
  rg value picks the grep flag whose template it fits, the most specific
  first, and is checked as the forward value is). A grep flag translated to
  nothing or to several words (``-r``, ``-E``, ``-c`` → ``-c --include-zero``)
  gives no rg flag back; every other rg flag (``-t``, ``--files``, ``-S`` …)
  is unknown, and a command using it is left alone;
* the pattern, a Rust regex, is given to grep as it is where grep's basic
  regexes read it the same, with ``-E`` where extended ones do, and refused
  otherwise (the same checks as forward, ``dp.rules.patterns``);
* rg searches directories recursively: ``-r`` is added unless every operand
  names a file, or the input is standard input; ``-I`` keeps grep from
  counting and listing binary files rg skips in directories;
* the forward table's ``[[refuse]]`` shapes refuse here too.

A table read backwards acts only where its source program is missing
(``dp.rules.apply``): grep is ripgrep's stand-in, never a preference.

What no flag can say: rg skips hidden files and those ``.gitignore``
ignores, ``grep -r`` searches them. The translation finds every line rg
finds, and those in the files rg skips (``integration_tests/test_rewrite_semantics.py``
runs both on a real tree and checks exactly that).
"""

from __future__ import annotations

# Marks a forward entry may set and still mean the same read backwards.
_SAME_BOTH_WAYS = frozenset({"fixed", "pattern-given", "pattern-file", "per-file", "any-match", "text", "recursive",
                             "file-filter"})


def reverse_data(forward) -> dict | None:
    """The table data translating ``forward.target`` back into ``forward.source``, or None when the table
    has no ``[reverse]`` section (only an options-style table can have one)."""
    section = forward.raw_reverse
    if not isinstance(section, dict) or forward.style not in ("options", "find"):
        return None
    if forward.style == "find":
        return _find_backwards(forward, section)
    flags: dict = {}
    for name, entry in forward.flags.items():
        for target, reversed_entry in _backwards(name, entry):
            flags.setdefault(target, []).append(reversed_entry)
    merged = _other_names({target: _merge(entries) for target, entries in flags.items()}, section)
    return {"source": forward.target, "target": forward.source, "style": "options", "backwards": True,
            "about": section.get("about", ""), "flags": merged,
            "operands": {"pattern": True, "check": {"default": "rust", "fixed": "any"},
                         "binary-names": forward.operands.get("binary-names", [])},
            "adjust": ADJUST, "refuse": [*map(_refuse_backwards, forward.refuse), *REFUSE]}


def _find_backwards(forward, section: dict) -> dict:
    """fd → find: each fd flag a find primary translates to one for one (``--type`` is ``-type``,
    ``--max-depth`` is ``-maxdepth``), the engine ``dp.rules.findexpr.translate_fd`` building the
    expression (fd's pattern, its smart case) around them."""
    flags = {}
    for name, entry in forward.flags.items():
        to = entry.get("to", [])
        if "unknown" in entry or "batch" in entry or not to or not name.startswith("-"):
            continue
        if entry.get("value") and len(to) == 2 and to[1] == "{}" and to[0] not in flags:
            flags[to[0]] = {"value": True, "to": [name, "{}"], "check": entry.get("check", "")}
        elif not entry.get("value") and len(to) == 1 and to[0] not in flags:
            flags[to[0]] = {"to": [name], "global": name in _FIND_OPTIONS}
    return {"source": forward.target, "target": forward.source, "style": "find-backwards", "backwards": True,
            "about": section.get("about", ""), "flags": _other_names(flags, section)}


def _other_names(flags: dict, section: dict) -> dict:
    """``flags`` with the target program's other names for them (``[reverse.long]``) and the flags that
    say what the source does anyway (``drop``: translated to nothing)."""
    for long, short in section.get("long", {}).items():
        if short in flags:
            flags[long] = flags[short]
    for word in section.get("drop", []):
        flags.setdefault(word, {"to": []})
    return flags


# find's options that go before the start points.
_FIND_OPTIONS = ("-L", "-P", "-H")


def _refuse_backwards(rule: dict) -> dict:
    """A forward ``[[refuse]]`` shape read backwards: rg is recursive wherever an operand is a directory,
    so grep's ``recursive`` reads as "not every operand a file" (or no operand at all)."""
    unless = rule.get("unless", [])
    if "recursive" not in unless:
        return rule
    return {**rule, "when": [*rule.get("when", []), "file-paths"],
            "unless": [mark for mark in unless if mark != "recursive"] + ["no-paths"]}


def _backwards(name: str, entry: dict):
    """(rg flag, its entry read backwards) for one grep flag's entry, when it reads the same both ways."""
    if "unknown" in entry or "choices" in entry or not name.startswith("-") or name.startswith("--") and "=" in name:
        return
    to, sets = entry.get("to", []), set(entry.get("sets", []))
    if sets - _SAME_BOTH_WAYS or not to or not to[0].startswith("-"):
        return
    if entry.get("value"):
        if len(to) == 2 and "{}" in to[1] and not to[0].count("{}"):
            before, _, after = to[1].partition("{}")
            yield to[0], {"value": True, "forms": [(before, after, name, entry.get("check", ""), sorted(sets))]}
    elif len(to) == 1:
        yield to[0], {"to": [name], "sets": sorted(sets), "rank": (not name.startswith("--"), -len(name))}


def _merge(entries: list[dict]) -> dict:
    """One rg flag's entry from every grep flag that translates to it: the shortest grep name of a plain
    flag; every value template of a flag with a value, the most specific first."""
    if all(entry.get("value") for entry in entries):
        forms = sorted((form for entry in entries for form in entry["forms"]),
                       key=lambda form: -(len(form[0]) + len(form[1])))
        unique: list = []
        for form in forms:
            if all(form[:2] != kept[:2] for kept in unique):
                unique.append(form)
        return {"value": True, "to": ["{}"], "forms": unique}
    plain = [entry for entry in entries if not entry.get("value")]
    best = max(plain, key=lambda entry: entry["rank"])
    return {"to": best["to"], "sets": best["sets"]}


# rg searches what it is given recursively; grep must be told. grep -r's stderr notices and its
# per-file answers on binary files differ from rg's silent skip: -I where files are counted or listed.
ADJUST = [
    {"unless": ["file-paths", "recursive"], "add": ["-r"], "note": "rg searches directories recursively"},
    {"when": ["no-paths"], "unless": ["stdin", "run-by", "recursive"], "add": ["-r"],
     "note": "rg without a path searches the current directory"},
    {"when": ["per-file"], "unless": ["file-paths", "text"], "add": ["-I"],
     "note": "rg skips binary files it finds in directories"},
    {"when": ["per-file", "no-paths"], "unless": ["stdin", "run-by", "text"], "add": ["-I"],
     "note": "rg skips binary files it finds in directories"},
    {"when": ["ere"], "add": ["-E"], "note": "the pattern reads the same as an extended regex"},
    {"unless": ["file-paths"], "note": "grep -r also searches hidden and .gitignored files, which rg skips"},
    {"when": ["no-paths"], "unless": ["stdin", "run-by"],
     "note": "grep -r also searches hidden and .gitignored files, which rg skips"},
]
REFUSE = [{"when": ["ere", "bre-only"],
           "reason": "one pattern reads the same only as a basic regex, another only as an extended one"}]
