"""The paving edits for one Bash string: which commands, in which directory, how.

Each simple command (found by dp.shell.segment, the parse the user's rules
use) whose word paving knows is looked at in the directory it runs in
(dp.paving.where: the hook's ``cwd``, or where a plain ``cd DIR &&`` before it
leads). A command whose directory the command line does not say exactly
(``builtin cd``, ``eval``, ``source``, ``cd $VAR``, ``pushd`` …) is left
alone. Commands the user has rules for are theirs: paving does not touch them.

Whether that directory's repository is trusted (``Paving.trusts``, asked once
per repository root) decides what a rewrite may reach (dp.paving.reach): a
rewrite that would run the repository's own programs is checked for trust
before anything else about it is worked out.
"""

from __future__ import annotations

from dp.paving import reach, where
from dp.paving.javascript import Reaches, Skip
from dp.paving.markers import Cache, fingerprint
from dp.paving.words import JAVASCRIPT_WORDS, PYTHON_WORDS, TASK_WORDS

_MAX_SHOWN = 80


def pave(paving, value: str, commands) -> tuple[list, list]:
    """(edits, notes) for ``value``: ``(start, end, replacement)`` spans and what to tell."""
    state = _State(paving)
    edits: list = []
    notes: list = []
    for command in commands:
        name = command.name
        if name not in JAVASCRIPT_WORDS | TASK_WORDS | PYTHON_WORDS or name in paving.user_commands:
            continue
        if command.run_by:
            continue  # `xargs npm …`, `find -exec`: the program is run by another one
        directory = where.directory(value, commands, command, paving.cwd)
        if directory is None:
            _explain(paving, notes, name, "the command runs in a directory dp cannot tell from the command line")
            continue
        try:
            edit, note = _pave_one(state, command, value, directory)
        except Skip as reason:
            _explain(paving, notes, name, str(reason))
            continue
        except Exception:  # paving fails open on its own: the user's rules still apply
            continue
        if edit is not None:
            edits.append(edit)
        if note:
            notes.append(note)
    state.save()
    return edits, notes


def _explain(paving, notes: list, name: str, reason: str) -> None:
    if paving.verbose and reason:
        notes.append(f"left `{name}` as it is: {reason}")


def _pave_one(state, command, value: str, directory: str):
    name = command.name
    start, end = command.word.start, (command.args[-1].end if command.args else command.word.end)
    if any(start < redirect_start < end for redirect_start, _ in command.redirects):
        raise Skip("a redirection between its words")
    original = value[start:end]
    if name in ("pip", "pip3"):
        return None, _python_advice(state, command, directory)
    if name in PYTHON_WORDS:
        from dp.paving import python

        project = state.decision(directory)["python"]
        if project is None:
            raise Skip("")
        prefix = python.pave(command, project)
        where = project["environment"]
        state.require_trust(directory, original, reach.PYTHON, f"`{prefix}{name}` runs {name} from {where}")
        why = f"{project['manager']} project ({project['reason']}), {name} is in {_short(where)} and you trust this repository"
        return (start, start, prefix), state.tell(project["directory"], "python", why, original, prefix + original)
    project = state.decision(directory)["javascript"]
    if name in JAVASCRIPT_WORDS and project is not None:
        replacement = _javascript(state, directory, project, command, original)
        why = f"this repository uses {project['manager']} ({project['reason']})"
        return (start, end, replacement), state.tell(project["package_dir"], "javascript", why, original, replacement)
    from dp.paving import javascript, tasks

    if not state.trust(directory)[1] and tasks.own_runner(name, directory, state.fingerprint(directory)):
        raise Skip("")  # `make test` beside a Makefile: the command is the project's own, nothing to say
    state.require_trust(directory, original, reach.TASKS)
    found = state.tasks(directory)
    replacement, owner = tasks.pave(command, found, javascript.script_call)
    missing = tasks.RUNNER_OF.get(name) or "package.json"
    why = f"this project has no {missing}, and only {owner} defines that task"
    return (start, end, replacement), state.tell(found["directory"], "tasks", why, original, replacement)


def _javascript(state, directory: str, project: dict, command, original: str) -> str:
    """The project's manager's command for ``command``, within what this repository's trust allows."""
    from dp.paving.javascript import translate

    if not project["manager"]:
        raise Skip(project.get("error", ""))
    if project["ambiguity"]:
        raise Skip(f"the package manager is ambiguous: {project['ambiguity']}")
    root, trusted = state.trust(directory)
    try:
        replacement = translate(command, project, trusted)
    except Reaches as reason:
        raise Skip(reach.untrusted(root, original, str(reason))) from None
    if project.get("supplied"):
        state.require_trust(directory, original, project["supplied"])
    _, missing = reach.installed(replacement.split()[0], None if trusted else root)
    if missing:
        raise Skip(missing)
    return replacement


def _python_advice(state, command, directory: str) -> str:
    from dp.paving.python import advice

    project = state.decision(directory)["python"]
    return advice(command, project) if project else ""


def _short(text: str) -> str:
    return text if len(text) <= _MAX_SHOWN else text[: _MAX_SHOWN - 1] + "…"


class _State:
    """Decisions per directory for this call (cached across calls), and the session log."""

    def __init__(self, paving):
        self.paving = paving
        self.cache = Cache(paving.dp_dir)
        self.decided: dict = {}
        self.trusted: dict = {}  # repository root → trusted

    def _entry(self, directory: str):
        if directory not in self.decided:
            fp = self.paving.fingerprints.get(directory) or fingerprint(directory)
            decision = self.cache.get(directory, fp)
            if decision is None:
                from dp.paving.detect import decide

                decision = decide(directory)
                self.cache.put(directory, fp, decision)
            self.decided[directory] = (fp, decision)
        return self.decided[directory]

    def decision(self, directory: str) -> dict:
        return self._entry(directory)[1]

    def tasks(self, directory: str):
        fp, decision = self._entry(directory)
        if "tasks" not in decision:
            from dp.paving.detect import tasks

            decision["tasks"] = tasks(directory)
            self.cache.put(directory, fp, decision)
        return decision["tasks"]

    def fingerprint(self, directory: str) -> list:
        return self._entry(directory)[0]

    def trust(self, directory: str) -> tuple:
        """``(repository root, whether the user trusts it)`` for ``directory`` (root None: in none)."""
        root = next((path[: -len("/.git")] for path, _ in self.fingerprint(directory) if path.endswith("/.git")), None)
        if root not in self.trusted:
            self.trusted[root] = bool(root) and self.paving.trusts(root)
        return root, self.trusted[root]

    def require_trust(self, directory: str, original: str, reaches: str, detail: str = "") -> None:
        """Skip, saying why, unless ``directory``'s repository is trusted: the rewrite would run
        ``reaches`` (dp.paving.reach), which the agent's command would not."""
        root, trusted = self.trust(directory)
        if not trusted:
            raise Skip(reach.untrusted(root, original, reaches, detail))

    def tell(self, project: str, ecosystem: str, why: str, original: str, replacement: str) -> str:
        """The note for one paved command: the reason once per session and project, then short."""
        from dp.paving.session import first_time

        done = f"ran `{_short(replacement)}` instead of `{_short(original)}`"
        if first_time(self.paving.dp_dir, self.paving.session, f"{ecosystem}:{project}"):
            return f"{why}: {done}"
        return done

    def save(self) -> None:
        self.cache.save()
