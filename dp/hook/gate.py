"""The hook's own front door: a call no rule, alias or paving can act on is answered before the store opens.

Most tool calls an agent makes (``ls``, ``git status``, a Read) meet no rule.
The full path still pays for them: SQLite's C module, the store's open and
two queries, the walk up to a project's layer files — about a tenth of a
hook run. So every rule change also writes, beside the store, what any rule
could be keyed on (``dp.db.hook-gate`` beside ``dp.db``): the command words
of every Bash rule, the tools with parameter rules — the store's and every
trusted project file's — the store's tool-name aliases and the names trusted
project files alias, and, while paving is on, paving's words. The hook reads
it first (``answer``): a call holding none of those is let through with
nothing more read, a store alias blocks from it, and a paving word outside
any project costs only paving's own marker walk. It is the superset the
Claude Code mod's front door uses (dp.agents.claude.mod_snapshot builds on
``contents``), matched against the same word scan the full path starts with
(dp.shell.words), so where the gate answers the full path would have
answered the same (integration_tests/test_hook_gate.py holds them side by
side in every agent).

Fail toward correctness, never toward skipping: the file records what it was
derived from — the rules stamp's token and time (dp.store.write, written on
every committed rule or trust change), the paving switch's time, every trusted
project file's time (present or missing) — and a gate whose sources read
otherwise, or that is missing, unreadable or of another version, sends the call
down the full path. A rule change whose sync never ran costs time, never a
missed rewrite. The token tells apart two changes within one tick of a coarse
file clock; the time catches a dp too old to write the token.

Beside it goes the same gate as one JSON object (``door``, ``<store>.hook-gate.json``) for the
front doors that run inside an agent and start no process to ask: dp's Claude Code mod and
its OpenCode plugin decide from it whether to start pave-check at all.

Format: a magic line, one JSON line (the sources, the aliases and tools, the
buckets' offsets), then the words in buckets of about ``BUCKET_WORDS``, one
per line: a word's lookup reads one bucket, whether the store holds ten rules
or a hundred thousand.
"""

import os

from dp.agents.base import NOTHING  # what ``answer`` returns for a call nothing can act on: the decision
from dp.store.location import RULES_STAMP, db_location, hook_gate

MAGIC = b"dp-hook-gate 2\n"
# A header longer than this is not read (the full path answers).
MAX_HEADER_BYTES = 16 << 20
# About this many words per bucket of the word list: a word's lookup reads one bucket.
BUCKET_WORDS = 128
# The JSON form of the gate (``door``) is this beside it.
DOOR_SUFFIX = ".json"


class Alias:
    """A tool-name alias of the store, as the gate holds it (what ``dp.hook`` blocks with)."""

    __slots__ = ("from_name", "to_name", "message")

    def __init__(self, from_name: str, to_name: str, message: str):
        self.from_name, self.to_name, self.message = from_name, to_name, message


def answer(db, event, words):
    """What the gate beside the store ``db`` (--db, else the default) proves for ``event``, whose
    command words (a Bash call's, dp.shell.words; None for any other call) are ``words``: ``NOTHING``
    when no rule, tool-name alias or paving could act on it, the store's ``Alias`` when one blocks it,
    None whenever it cannot tell (the full path decides)."""
    try:
        with open(hook_gate(db), "rb") as handle:
            return _answer(handle, os.path.dirname(handle.name), event, words)
    except Exception:  # noqa: BLE001 - a gate that cannot be read proves nothing: the full path decides
        return None


def _answer(handle, directory: str, event, words):
    from dp.rules import BASH_PARAM, BASH_TOOL

    header = _header(handle)
    if header is None:
        return None
    name = event.agent_tool
    if name in header["project_aliases"]:
        return None  # a trusted project's alias acts only in its repository: the walk decides
    alias = header["aliases"].get(name)
    if alias is not None and (event.agent is None or event.agent.corrects(name, alias[0])):
        return Alias(name, *alias) if _fresh(directory, header) else None
    if event.tool != BASH_TOOL:
        return None if event.tool in header["tools"] else _nothing(directory, header)
    if header["everything"]:
        return None
    if words is None:
        return _nothing(directory, header)  # no command: only parameter rules apply, and there are none
    listed = _Words(handle, header["buckets"])
    paving = [word for word in words if listed.has(word)]
    if any(word not in header["paving"] for word in paving):
        return None  # a rule's word
    if paving and event.cwd:
        from dp.paving import project_markers, wanted

        if wanted(paving, event.tool_input[BASH_PARAM]) and project_markers(event.cwd) is not None:
            return None  # paving may act here
    return _nothing(directory, header)


def _header(handle):
    """The gate's header line, read; None for a file of another format."""
    if handle.readline(64) != MAGIC:
        return None
    import json

    return json.loads(handle.readline(MAX_HEADER_BYTES))


def _nothing(directory: str, header: dict):
    return NOTHING if _fresh(directory, header) else None


class _Words:
    """The gate's word list, read one bucket at a time."""

    def __init__(self, handle, buckets: list):
        self.handle, self.buckets, self.base = handle, buckets, handle.tell()
        self.read: dict = {}

    def has(self, word: str) -> bool:
        data = word.encode("utf-8", "surrogatepass")
        index = bucket(data, len(self.buckets) - 1)
        if index not in self.read:
            start, end = self.buckets[index], self.buckets[index + 1]
            self.handle.seek(self.base + start)
            self.read[index] = b"\n" + self.handle.read(end - start)
        return b"\n" + data + b"\n" in self.read[index]


def bucket(word: bytes, count: int) -> int:
    """The bucket of a word (UTF-8) among ``count``: stable across runs, and no import to compute."""
    return int.from_bytes(word, "little") % count


def _fresh(directory: str, header: dict) -> bool:
    """Whether every source the gate was derived from still reads as it did then."""
    token, stamp_time = _stamp(directory)
    if token != header["stamp"]:
        return False
    sources = header["sources"]
    if not sources or sources[0] != [os.path.join(directory, RULES_STAMP), stamp_time]:
        return False
    return all(_time(path) == time for path, time in sources[1:])


def _stamp(directory: str) -> tuple:
    """The rules stamp's token and time (``("", None)`` when there is none)."""
    try:
        with open(os.path.join(directory, RULES_STAMP), "rb") as handle:
            return handle.read(256).decode("ascii", "replace"), os.fstat(handle.fileno()).st_mtime_ns
    except FileNotFoundError:
        return "", None


def _time(path: str):
    try:
        return os.stat(path).st_mtime_ns
    except FileNotFoundError:
        return None


def contents(db_path) -> dict:
    """What any rule in effect could be keyed on: ``{"words", "paving", "needs", "everything",
    "aliases", "project_aliases", "tools", "mentions"}``.

    ``words``: the command word of every Bash rule (store and trusted project
    files: a superset, since a project's file acts only in its own repository)
    and paving's words while paving is on (a superset too: it may be off in a
    project). ``paving``: those of them no rule is keyed on, which act only in
    a project; ``needs``: those that act only with more text in the command
    (dp.paving.NEEDS). ``everything``: a Bash rule on no command word (fetched
    for every Bash call, dp.store.read.rules_for_tool). ``aliases``: the
    store's tool-name aliases, ``{name: [to, message]}``; ``project_aliases``:
    the names trusted project files alias (acting in their repository only);
    ``tools``: every tool with a rule on its input. ``mentions``: what the hook acts on wherever it
    stands in a Bash command, quoted or not, with no rule at all: dp's own name, for the commands
    only a person runs (dp.widening; the hook asks before this gate). Raises when the store
    cannot be read: a gate derived from fewer rules than the store holds would
    skip calls they rewrite.
    """
    from dp.layers.trusting import trusted_rules
    from dp.paving import NEEDS, filter_words
    from dp.rules import BASH_TOOL, TOOL_ALIAS
    from dp.store import read_rules
    from dp.store.read import read_store
    from dp.store.readers import read_shadow_rules
    from dp.widening import MENTION

    store = read_rules(db_path)
    project = read_store(db_path, trusted_rules)
    words, tools, everything = set(), set(), False
    for rule in store + project + read_shadow_rules(db_path):  # a shadow rule records, so the hook must see its calls
        if rule.match_kind == TOOL_ALIAS:
            continue
        tools.add(rule.tool)
        if rule.tool == BASH_TOOL:
            if rule.command:
                words.add(rule.command)
            else:
                everything = True
    paving = set(filter_words(_directory(db_path))) - words
    return {"words": sorted(words | paving), "paving": sorted(paving),
            "needs": {word: NEEDS[word] for word in sorted(paving) if word in NEEDS}, "everything": everything,
            "aliases": {rule.from_name: [rule.to_name, rule.message] for rule in store
                        if rule.match_kind == TOOL_ALIAS},
            "project_aliases": sorted({rule.from_name for rule in project if rule.match_kind == TOOL_ALIAS}),
            "tools": sorted(tools), "mentions": [MENTION]}


def sources(db_path) -> list[str]:
    """The files whose change makes the gate stale: the rules stamp, the paving switch, and every
    project file the user trusts (present or not: one edited back to its trusted text acts again
    with no dp run in between)."""
    from dp.paving.switch import state_path
    from dp.store.read import read_store
    from dp.store.trust import trusted_files

    directory = _directory(db_path)
    trusted = sorted({path for _, path, _ in read_store(db_path, trusted_files)})
    return [os.path.join(directory, RULES_STAMP), state_path(directory), *trusted]


def write(db_path) -> bool:
    """Bring the gate beside the store at ``db_path`` in line with the rules; whether it now stands.

    The sources are read before the rules, so a change landing in between
    leaves a gate that reads as stale. Where the rules cannot be read, or
    anything else fails, the gate is removed: the hook then takes the full path.
    Nothing is written in a dry run.
    """
    from dp.cachedir import write_atomically
    from dp.files import rehearsing

    if rehearsing() is not None:
        return False
    try:
        token, stamp_time = _stamp(_directory(db_path))
        files = sources(db_path)
        times = [[files[0], stamp_time], *([path, _time(path)] for path in files[1:])]
        found = contents(db_path)
        words = [word.encode("utf-8", "surrogatepass") for word in found["words"]]
        if any(not word or b"\n" in word for word in words):
            found["everything"] = True  # a word the list cannot hold: every Bash call takes the full path
        offsets, block = _buckets([word for word in words if word and b"\n" not in word])
        header = {"stamp": token, "sources": times, "buckets": offsets,
                  **{key: found[key] for key in ("everything", "paving", "aliases", "project_aliases", "tools")}}
        write_atomically(hook_gate(db_path), MAGIC + json_line(header) + block)
        write_atomically(door_path(db_path), json_line({**door(found, times), "stamp": token}))
        return True
    except Exception:  # noqa: BLE001 - no gate is always correct; a wrong one never is
        remove(db_path)
        return False


def door_path(db_path) -> str:
    """The gate as JSON (``door``), beside it: what an agent's in-process plugin reads."""
    return hook_gate(db_path) + DOOR_SUFFIX


def front_door(db_path) -> dict:
    """``door`` for the rules now (sources read first), or one that sends every call to dp when
    the rules cannot be read."""
    try:
        files = sources(db_path)
        return door(contents(db_path), [[path, _time(path)] for path in files])
    except Exception:  # noqa: BLE001 - rules that cannot be read: every call goes to dp
        return {"words": [], "needs": {}, "everything": True, "mentions": [], "tools": [], "aliases": [],
                "sources": []}


def door(found: dict, times: list) -> dict:
    """The gate in the terms of an agent's in-process front door (dp's Claude Code mod, its OpenCode
    plugin), which decides only WHETHER to start dp, never what dp answers.

    ``words``, ``needs`` and ``mentions`` are ``contents``'; matched against the hook's first word scan
    (dp.shell.words, ported) a Bash command holding none of them gets no answer from pave-check.
    ``everything``: some rule needs every Bash call (a rule on no command word, an alias of the name
    Bash). ``tools``: every tool a call of which dp may act on besides Bash's words (parameter rules)
    and ``aliases`` the tool names an alias of the store or of a trusted project names. ``sources``:
    the files the gate derives from, with their times (ms; None: missing) as read before the rules: a
    front door sends every call to dp while one reads otherwise, so a change whose sync did not run
    costs processes, never a missed rewrite.
    """
    from dp.rules.model import BASH_TOOL

    aliases = sorted(set(found["aliases"]) | set(found["project_aliases"]))
    return {"words": found["words"], "needs": found["needs"],
            "everything": bool(found["everything"]) or BASH_TOOL in aliases, "mentions": found["mentions"],
            "tools": found["tools"], "aliases": aliases,
            "sources": [{"path": path, "mtime_ms": None if time is None else time / 1e6} for path, time in times]}


def _buckets(words: list[bytes]) -> tuple[list[int], bytes]:
    """The word list as buckets (``bucket``), each word followed by a newline, and the offset of
    each bucket's start in it (plus the end)."""
    count = max(1, len(words) // BUCKET_WORDS)
    buckets: list[list[bytes]] = [[] for _ in range(count)]
    for word in words:
        buckets[bucket(word, count)].append(word)
    offsets, parts, at = [0], [], 0
    for members in buckets:
        part = b"".join(word + b"\n" for word in members)
        parts.append(part)
        at += len(part)
        offsets.append(at)
    return offsets, b"".join(parts)


def _directory(db_path) -> str:
    """The directory of the store at ``db_path`` (a path as the CLI holds it), absolute."""
    return os.path.dirname(os.path.abspath(db_location(db_path)))


def json_line(value) -> bytes:
    import json

    return json.dumps(value, ensure_ascii=True, separators=(",", ":")).encode() + b"\n"


def remove(db_path) -> None:
    """Take the gate away (best effort): every call takes the full path until the next write."""
    for path in (hook_gate(db_path), door_path(db_path)):
        try:
            os.unlink(path)
        except OSError:
            pass


def state(db_path) -> str:
    """``fresh``, ``stale`` or ``missing``: what ``dp doctor`` says of the gate."""
    try:
        with open(hook_gate(db_path), "rb") as handle:
            header = _header(handle)
            return "fresh" if header is not None and _fresh(_directory(db_path), header) else "stale"
    except FileNotFoundError:
        return "missing"
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return "stale"
