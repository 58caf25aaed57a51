"""Project paving: run the agent's command with the project's own tools.

An agent guesses ``npm install`` in a pnpm repository, ``pytest`` where the
tool lives in the project's uv environment, ``make test`` where there is no
Makefile. With no rule written by hand, the hook turns those into the
project's own command — the same decision ``dp tasks`` reports (dp.runners)
— through the translation tables under ``dp/rules/tables/``.

This module is imported by the hook on every Bash call, so it is stdlib-only
and cheap: ``gate`` answers from a set intersection (and, only when a word
matches, the marker stats up to the repository root, then one small read of
the switch file) whether paving could apply.
Detection, translation and bashlex load only after that.

* ``dp.paving.switch``   — on/off, globally and per project (``dp paving``)
* ``dp.paving.markers``  — the stat walk and the detection cache (hook path)
* ``dp.paving.detect``   — the decision per ecosystem, from dp.runners
* ``dp.paving.reach``    — what a rewrite may run: only the user's programs, unless
  the repository is trusted (``dp trust``)
* ``dp.paving.javascript``, ``.python``, ``.tasks`` — one translator each
* ``dp.paving.plan``     — the edits for one Bash string
* ``dp.paving.where``    — the directory each command runs in, known only through the forms dp
  follows exactly (a plain ``cd DIR``), else unknown and left as typed
* ``dp.paving.words``    — the command words paving acts on (a module of its own, so ``plan``
  reads them without importing this package back)
"""

from dp.paving.words import JAVASCRIPT_WORDS, PYTHON_WORDS, TASK_WORDS, WORDS  # noqa: F401 (dp.paving.WORDS …)


def filter_words(dp_dir: str) -> frozenset:
    """The command words paving needs the hook to see: all of them while it is on."""
    from dp.paving.switch import globally_enabled

    return WORDS if globally_enabled(dp_dir) else frozenset()


# Words that only matter with another word present: `python -m MODULE`, `pip install` (the mod's
# front door reads this too, through its snapshot: dp.agents.claude.mod_snapshot).
NEEDS = {"python": " -m", "python3": " -m", "pip": "install", "pip3": "install"}


def gate(words, command: str, dp_dir: str, cwd: str):
    """A ``Paving`` for this call when a paving word occurs, paving is on and the
    directory is inside some project (a marker file on the way up), else None."""
    if not cwd or not wanted(words, command):
        return None
    found = project_markers(cwd)
    if found is None:
        return None  # in no project: nothing to pave, and no parse (nor the switch file) to pay for
    directory, fp = found
    from dp.paving.switch import enabled_for

    if not enabled_for(dp_dir, directory):
        return None
    paving = Paving(dp_dir, directory)
    paving.fingerprints[directory] = fp
    return paving


def wanted(words, command: str) -> bool:
    """Whether the command holds a paving word, with the text it needs (``NEEDS``)."""
    return any(NEEDS.get(word, "") in command for word in WORDS.intersection(words))


def project_markers(cwd: str):
    """``(directory, markers)`` for a ``cwd`` inside some project (a marker file on the way up to the
    repository root; dp.paving.markers), else None: paving acts nowhere else."""
    import os

    from dp.paving.markers import fingerprint

    directory = os.path.realpath(cwd)
    fp = fingerprint(directory)
    if not any(not path.endswith("/.git") for path, _ in fp):
        return None
    return directory, fp


def _trusts_nothing(root: str) -> bool:
    return False


class Paving:
    """What paving needs to know about one hook call (filled in by the hook)."""

    __slots__ = ("dp_dir", "cwd", "session", "verbose", "user_commands", "fingerprints", "trusts")

    def __init__(self, dp_dir: str, cwd: str):
        self.dp_dir = dp_dir
        self.cwd = cwd
        self.session = ""
        self.verbose = False  # advise mode: say why a command was left alone
        self.user_commands: set = set()  # commands the user has rules for: theirs win
        self.fingerprints: dict = {}  # directory → markers found (dp.paving.markers)
        self.trusts = _trusts_nothing  # repository real root → whether the user trusts it (dp trust)

    def __call__(self, value: str, commands) -> tuple[list, list]:
        """(edits, notes) for the Bash string ``value`` and its simple commands."""
        from dp.paving.plan import pave

        return pave(self, value, commands)
