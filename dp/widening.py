"""The dp commands only a person runs: every command line that widens what dp does to later calls.

dp's promise is that a cloned repository's rules, plugin and programs act only
after the person trusts them. An agent dp serves reads what a repository, an
issue or a web page says, so whatever would let dp do more for later calls —
trust, a rule written, a collection imported, a suggestion applied, paving
switched on, dp installed, a team database connected — must come from the
person, never from the agent's tool call. ``COMMANDS`` classifies every dp
command (``tests/test_widening.py`` holds it against the typer app, so a new
command cannot be left out), and ``classify`` reads one command line the way
typer will: a command that ``WIDENS`` changes later calls; one that ``NARROWS``
takes something away (``dp untrust``, ``dp alias --delete``); one that
``READS`` changes nothing (a listing, ``--dry-run``, ``--help``); one that
``ACTS`` does something now and changes nothing dp decides later
(``dp run``, ``dp git commit``); one that ``LEARNS`` records the person's
captured sessions (``dp ingest``), whose answers ``dp.learn`` bounds.

Two places ask it, so the list is the one list:

* the hook (``dp.hook``): a Bash call that may run one of them (``in_command``:
  anywhere in the command, quoted, behind wrappers, through ``python -m dp``)
  is answered with the agent's own question to the person, or refused with the
  command to type in their own terminal;
* the command itself (``dp.cli.person``): started inside an agent's tool call,
  it asks on the person's terminal, or refuses where there is none.

Stdlib only, no ``re``: the hook imports it for a call whose text holds ``dp``.
"""

WIDENS = "widens"
NARROWS = "narrows"
READS = "reads"
ACTS = "acts"
LEARNS = "learns"
# How wide each kind is: where several marks of a command line apply, the widest counts.
_WIDTH = {READS: 0, NARROWS: 1, ACTS: 2, LEARNS: 3, WIDENS: 4}

# The names dp runs under (``dp``, a path ending in ``/dp``), and the modules that run its command
# line (``python -m dp.cli.main trust``).
NAMES = ("dp",)
CLI_MODULES = ("dp", "dp.cli", "dp.cli.main", "dp.__main__")
# What the hook's first look needs in a command (quotes and backslashes aside) before it reads more.
MENTION = "dp"

# Options of every command, before the command name too: those taking a value, the flags, the eager ones.
SHARED_VALUES = frozenset({"--db", "--cwd", "-C"})
SHARED_FLAGS = frozenset({"--json", "--quiet", "-q"})
HELP = frozenset({"-h", "--help", "--version"})
# Options with which a command only says what it would do.
DRY = frozenset({"--dry-run"})
# A word the shell fills in when it runs (a variable, a substitution, a glob): could be anything.
UNKNOWN = None
# ``Command.flags`` of a command whose flags are made elsewhere (none changes what it does).
ANY = "any"


class Command:
    """One dp command: what it does (``kind``) and ``why``; its options that take a value (``values``,
    besides ``SHARED_VALUES``); its flags that leave the kind as it is (``flags``, besides
    ``SHARED_FLAGS``: each is named, so a new flag is classified when it is added; ``ANY`` where the
    flags come from elsewhere and none changes it); the words that change what a command line does
    (``marks``: word → kind, a flag such as ``--apply`` or a positional word such as ``on``; the
    widest present counts, ``widens_why`` saying what one that widens does); the options that make
    it only say what it would do (``dry``)."""

    __slots__ = ("kind", "why", "values", "flags", "marks", "dry", "widens_why")

    def __init__(self, kind: str, why: str, values=(), flags=(), marks=None, dry=DRY, shared=True, widens_why=""):
        self.kind, self.why, self.widens_why = kind, why, widens_why
        self.values = frozenset(values) | (SHARED_VALUES if shared else frozenset())
        self.flags = flags if flags is ANY else frozenset(flags) | (SHARED_FLAGS if shared else frozenset())
        self.marks = dict(marks or {})
        self.dry = frozenset(dry)

    def widens_ever(self) -> bool:
        return self.kind == WIDENS or WIDENS in self.marks.values()


class Group:
    """A command with subcommands (``dp aliases import``); ``own`` is the group run alone."""

    __slots__ = ("own", "commands")

    def __init__(self, own: Command, commands: dict):
        self.own, self.commands = own, commands


_RULES = "writes a rule, which rewrites the agent's later calls in every repository"
_LISTS = "lists or explains; changes nothing"
_RECIPES = ("--output-format", "--recipe-dir", "-R", "--set", "--working-dir")

# Every dp command, by name (the typer app's; tests/test_widening.py compares the two, option by option).
COMMANDS: dict[str, Command | Group] = {
    "trust": Command(WIDENS, "lets this repository's rules, and paving its own programs, act for later calls",
                     dry=DRY | {"--show"}),
    "untrust": Command(NARROWS, "takes a repository's trust back"),
    # --shadow: a rule that only records what it would do (dp stats) and rewrites nothing
    "alias": Command(WIDENS, _RULES, ("--cmd", "--file", "--flag", "--message", "-m", "--origin", "--param", "--replace", "--tool"),
                     ("--force", "--project", "--recipe", "--regex"), {"--delete": NARROWS, "--shadow": LEARNS}),
    "aliases": Group(Command(READS, _LISTS, ("--cmd", "--kind", "--tool"), dry=()), {
        "export": Command(READS, "prints the rules, or writes them to the file named",
                          ("--author", "--description", "--format", "--name", "--output", "-o")),
        "import": Command(WIDENS, "writes every rule of a collection", ("--conflict",), ("--force", "--project")),
    }),
    "suggest": Command(LEARNS, "learns from the captured failures and lists suggestions", ("--apply", "--min-count"),
                       ("--act", "--project", "--shadow", "--team"), {"--apply": WIDENS},  # a shadow too: may act later
                       widens_why="with --apply " + _RULES),
    "paving": Command(READS, "says what paving does here", flags=("--explain", "--verbose", "-v", "--project"),
                      marks={"on": WIDENS, "off": NARROWS},
                      widens_why="with on lets paving turn the agent's commands into the project's own"),
    "init": Command(WIDENS, "installs dp's hooks (and may register a repository's plugin)",
                    ("--agent", "--mode", "--permission", "--scope", "--settings"),
                    ("--mcp", "--no-capture", "--no-plugin", "--plugin", "--yes")),
    "pave": Command(READS, "prints or writes the instructions an agent reads",
                    ("--agent", "--mode", "--output", "-o", "--permission", "--scope", "--settings"),
                    ("--agents-md", "--claude-md", "--include-personal", "--tasks", "--yes"),
                    {"--hook": WIDENS, "--mcp": WIDENS, "--plugin": WIDENS, "--unhook": NARROWS, "--unmcp": NARROWS},
                    widens_why="with --hook, --mcp or --plugin installs what acts on the agent's later calls"),
    "uninstall": Command(NARROWS, "takes dp's hooks out (and with --purge its data)", flags=("--purge", "--yes", "-y")),
    "team": Group(Command(READS, _LISTS, dry=(), shared=False), {
        "connect": Command(WIDENS, "sends what this store captured to a database at every session start"),
        "disconnect": Command(NARROWS, "stops sending to the team database"),
        "status": Command(READS, _LISTS, dry=()),
        "sync": Command(ACTS, "uploads to the databases already connected, now", ("--batch-size",)),
        "migrate": Command(ACTS, "creates the team schema in the database named, now", dry=()),
    }),
    "desires": Command(READS, _LISTS, ("--before", "--limit", "--since", "--tool"), ("--team", "--yes", "-y"),
                       {"--purge": NARROWS}),
    "paths": Command(READS, _LISTS, ("--since",), ("--team",), dry=()),
    "doctor": Command(READS, "checks the setup (--live runs the agent against a fake model in a scratch HOME)",
                      ("--agent", "--settings"), ("--live",), {"--fix": WIDENS}, dry=(),
                      widens_why="with --fix rewrites dp's hook entries and files"),
    "tasks": Command(READS, _LISTS, dry=()),
    "stats": Command(READS, "counts what dp did and what followed (the notes of the hook moved into the store)",
                     ("--agent", "--project", "--since"), ("--team",), dry=()),
    "report": Command(READS, "writes a page of the captured paths and dp's outcomes (dp-report.html or the file named)",
                      ("--agent", "--output", "-o", "--project", "--since"), ("--team",), dry=()),
    "ingest": Command(LEARNS, "records the person's agent sessions and learns from them", ("--desire-path-db",),
                      ANY),  # one flag per agent's session files, from the registry
    "run": Command(ACTS, "runs a task of the project, now", ("--runner", "--timeout")),
    "script": Command(ACTS, "runs a package.json script, now", ("--timeout",)),
    "make": Command(ACTS, "runs a Makefile target, now", ("--generate", "--timeout"), ("--force", "--list", "-l")),
    "git": Group(Command(READS, _LISTS, dry=(), shared=False), {
        "add": Command(ACTS, "stages paths, now"),
        "commit": Command(ACTS, "commits, now", ("--file", "-F", "--message", "-m")),
    }),
    "recipe": Group(Command(READS, _LISTS, dry=(), shared=False), {
        "run": Command(ACTS, "runs a YAML recipe, now",
                       ("--agent-binary", "-A", "--agent-dir", "--audit-dir", "--exclude-tags", "--include-tags",
                        *_RECIPES), ("--explain", "--no-auto-stage", "--progress", "--validate-only")),
        "list": Command(READS, _LISTS, ("--recipe-dir", "-R", "--working-dir"), dry=()),
        "validate": Command(READS, _LISTS, _RECIPES, dry=()),
        "explain": Command(READS, _LISTS, _RECIPES, dry=()),
    }),
    "mcp": Command(ACTS, "serves the project tools to the agent that started it", flags=("--allow-agent-steps",),
                   dry=()),
    "pave-check": Command(ACTS, "the hook itself: answers one tool call", dry=(), shared=False),
}


class Invocation:
    """One dp command line as classified: its ``kind``, the command's ``path`` (``("aliases",
    "import")``), the ``Command``, and the ``words`` the agent wrote from ``dp`` on (for the person)."""

    __slots__ = ("kind", "path", "command", "words")

    def __init__(self, kind: str, path: tuple, command, words: list):
        self.kind, self.path, self.command, self.words = kind, path, command, words

    @property
    def widens(self) -> bool:
        return self.kind == WIDENS

    @property
    def name(self) -> str:
        """``dp aliases import``: the command as people name it."""
        return " ".join(("dp", *self.path))

    @property
    def why(self) -> str:
        if self.command is None:
            return "may run any dp command"
        return self.command.widens_why if self.widens and self.command.kind != WIDENS else self.command.why

    def __repr__(self) -> str:
        return f"Invocation({self.kind!r}, {self.path!r})"


def classify(argv) -> Invocation:
    """What ``dp ARGV`` does, read as typer reads it (``UNKNOWN`` words: anything, so a command that
    can widen does). An unknown command does nothing (dp refuses it); help and version read."""
    words = list(argv)
    shown = ["dp", *("…" if word is UNKNOWN else word for word in words)]
    found = _classify(words)
    found.words = shown
    return found


def _classify(words: list) -> Invocation:
    i = _past_options(words, 0, SHARED_VALUES)
    if i is None:
        return Invocation(READS, (), None, words)
    if i >= len(words):
        return Invocation(READS, (), None, words)
    name = words[i]
    if name is UNKNOWN:
        return Invocation(WIDENS, ("?",), None, words)
    entry = COMMANDS.get(name)
    if entry is None:
        return Invocation(READS, (name,), None, words)
    path = (name,)
    if isinstance(entry, Group):
        j = _past_options(words, i + 1, entry.own.values)
        if j is None:
            return Invocation(READS, path, entry.own, words)
        if j >= len(words):
            return Invocation(entry.own.kind, path, entry.own, words)
        sub = words[j]
        if sub is UNKNOWN:
            widest = max((command.kind for command in entry.commands.values()), key=_WIDTH.__getitem__)
            return Invocation(widest, (*path, "?"), None, words)
        command = entry.commands.get(sub)
        if command is None:
            return Invocation(READS, (*path, sub), None, words)
        return Invocation(_kind(command, words[j + 1:]), (*path, sub), command, words)
    return Invocation(_kind(entry, words[i + 1:]), path, entry, words)


def _past_options(words: list, i: int, values) -> int | None:
    """The index of the first word at or after ``i`` that is no option (nor an option's value);
    None when help or the version comes first (click answers those at once)."""
    while i < len(words):
        word = words[i]
        if word is UNKNOWN or not word.startswith("-") or word == "-":
            return i
        if word in HELP:
            return None
        i += 2 if _takes_value(word, values) else 1
    return i


def _takes_value(word: str, values) -> bool:
    """Whether option ``word`` takes the next word as its value (``--db x``, ``-qC dir``)."""
    if word in values:
        return True
    if word.startswith("--") or "=" in word:
        return False
    # a cluster of short options: the last one may take the next word (`-qC DIR`); one before it takes the rest
    return len(word) > 2 and f"-{word[-1]}" in values and not any(f"-{c}" in values for c in word[1:-1])


def _kind(command: Command, args: list) -> str:
    """The kind of one command line of ``command`` with ``args`` after its name."""
    flags: set[str] = set()
    positionals: set[str] = set()
    unknown = False
    i = 0
    while i < len(args):
        word = args[i]
        if word is UNKNOWN:
            unknown = True
        elif word == "--":
            positionals.update(w for w in args[i + 1:] if w is not UNKNOWN)
            unknown = unknown or UNKNOWN in args[i + 1:]
            break
        elif word in HELP:
            return READS
        elif word.startswith("-") and word != "-":
            name = word.partition("=")[0]
            flags.add(name)
            if _takes_value(word, command.values):
                i += 1
        else:
            positionals.add(word)
        i += 1
    if unknown and command.widens_ever():
        return WIDENS
    if flags & command.dry:
        return READS
    marked = [kind for word, kind in command.marks.items() if word in (flags if word.startswith("-") else positionals)]
    return max(marked, key=_WIDTH.__getitem__) if marked else command.kind


# -- finding dp in a Bash command ---------------------------------------------

# What ends a command in the text as dp reads it: the shell's operators, a substitution's ends, a newline.
_BREAKS = str.maketrans(dict.fromkeys(";&|()<>`", "\n"))
# A word the shell changes before the program sees it.
_EXPANDS = frozenset("$*?[{~")
# Programs that add words of their own to the command they run (read from stdin or a file).
_ADDERS = frozenset({"xargs", "parallel"})
_INTERPRETERS = ("python", "pypy", "ipython")


def mentions(text: str) -> bool:
    """Whether ``text`` names dp as written (the hook's first look, on every Bash call, is this
    substring: a spelling that hides the word, ``d''p`` or ``$(printf d)p``, is built to get past
    a reader, and the command's own guard, dp.cli.person, is there for it)."""
    return MENTION in text


def in_command(text: str) -> Invocation | None:
    """The first command line in the Bash ``text`` that may run a dp command that widens, or None.

    Read generously, as the shell might: quotes are taken out (``bash -c 'dp trust'``, ``eval "dp
    trust"`` and a heredoc's body count), every operator and substitution ends a command, a word the
    shell expands is ``UNKNOWN``; ``dp`` counts anywhere in a command (behind ``env``, ``sudo``,
    ``timeout``, ``nohup``, as ``/usr/local/bin/dp`` or ``python -m dp``), with no arguments it
    knows when another program adds them (``xargs dp``) or it is stored for later (``D=dp``). Code
    of an interpreter that names dp's own modules (``from dp.layers import …``) may do anything. A
    spelling that hides the word (``d''p``, ``$(printf d)p``) is the command's own guard's
    (``dp.cli.person``).
    """
    if not mentions(text):
        return None
    flat = text.replace("'", "").replace('"', "").replace("\\", "")
    interpreted = any(word.rpartition("/")[2].startswith(_INTERPRETERS) for word in flat.split())
    for line in flat.translate(_BREAKS).split("\n"):
        found = _in_words(line.split(), interpreted)
        if found is not None:
            return found
    return None


def _in_words(words: list, interpreted: bool) -> Invocation | None:
    for index, word in enumerate(words):
        runs = _runs_dp(words, index, interpreted)
        if runs is None:
            continue
        if runs is not True:
            return runs
        rest = [UNKNOWN if _expands(w) else w for w in words[index + 1:]]
        if any(w.rpartition("/")[2] in _ADDERS for w in words[:index]):
            rest.append(UNKNOWN)
        found = classify(rest)
        if found.widens:
            return found
    return None


def _runs_dp(words: list, index: int, interpreted: bool):
    """True when ``words[index]`` runs dp's command line; an Invocation when it is Python naming dp's
    modules (which may do anything); None for any other word."""
    word = words[index]
    before = words[index - 1] if index else ""
    if interpreted and (word.startswith("dp.") and before != "-m" or word == "dp" and before in ("import", "from")):
        return Invocation(WIDENS, ("?",), None, [word])  # Python reaching into dp's modules
    name, _, value = word.partition("=")
    if value and name.isidentifier() and value.rpartition("/")[2] in NAMES:
        return Invocation(WIDENS, ("?",), None, [word])  # `D=dp`, `alias d=dp`: run later, with any words
    if word.rpartition("/")[2] in NAMES or (word in CLI_MODULES and before == "-m"):
        return True
    return None


def _expands(word: str) -> bool:
    return any(c in _EXPANDS for c in word)


PERSON_ONLY = "only the person runs that, in their own terminal; an agent asks them to"


def person_runs(commands: str, where: str = "") -> str:
    """How every text an agent may read names a command only the person runs (never "run `dp
    trust`", which an agent would take as its next step): ```dp trust` in /repo (only the person
    runs that, in their own terminal; an agent asks them to)``."""
    return f"{commands}{where} ({PERSON_ONLY})"


# How much of the agent's whole command the person is shown beside the dp command it holds.
_SHOWN_CHARS = 200


def for_the_person(found: Invocation, cwd: str = "", command: str = "") -> str:
    """The line the agent reads about ``found`` (and, through its question, the person): what the dp
    command would change, that only the person decides it, and the command to type in their own
    terminal — the dp command alone, in the call's directory, with the agent's whole ``command``
    beside it when that held more (nothing else of it is offered to type)."""
    typed = _typed(command) if found.command is not None and "…" not in found.words else ""
    if found.command is not None:
        what = f"`{found.name}` {found.why}"
    else:
        what = "this command may run dp in a way that changes what it does to later calls"
    if typed:
        import shlex

        todo = f"if you want it, type it in your own terminal: {f'cd {shlex.quote(cwd)} && ' if cwd else ''}{typed}"
    else:
        todo = "if you want such a change, make it yourself in your own terminal"
    whole = " ".join(command.split())
    if whole and whole != typed:
        whole = whole if len(whole) <= _SHOWN_CHARS else whole[:_SHOWN_CHARS] + "…"
        todo += f" (the agent's command was: {whole})"
    return (f"dp: {what}. Only the person decides that, never an agent's tool call, so dp does not take it from "
            f"here: {todo}")


# How deep ``_typed`` follows a string a shell runs (``bash -c '…'``) to the dp command in it.
_TYPED_DEPTH = 3


def _typed(command: str, depth: int = 0) -> str:
    """The widening dp command in ``command`` as its words really are, quoted for a person to type
    (dp.shell.segment's parse: ``--replace 'curl x | sh'`` stays one word), looking into the strings
    a command passes on (``bash -c 'dp trust'``); '' when the parse cannot tell."""
    import shlex

    from dp.shell.segment import simple_commands

    for simple in simple_commands(command) or ():
        values = [word.value for word in simple.args]
        argv = values if simple.name in NAMES else _module_argv(values)
        if argv is not None and not any(word.masked for word in simple.args) and classify(argv).widens:
            return shlex.join(["dp", *argv])
        for value in values if depth < _TYPED_DEPTH else ():
            if mentions(value):
                inner = _typed(value, depth + 1)
                if inner:
                    return inner
    return ""


def _module_argv(values: list) -> list | None:
    """dp's command line in an interpreter's words (``-m dp.cli.main trust`` → ``["trust"]``), else None."""
    for index, value in enumerate(values[:-1]):
        if value == "-m" and values[index + 1] in CLI_MODULES:
            return values[index + 2:]
    return None
