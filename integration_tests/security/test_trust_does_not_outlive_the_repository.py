"""Issue 46, finding 4: trust outlived the repository.

Trust was keyed by the repository's root path alone: delete a trusted repository, ``git
init`` a different one at the same path (another origin, a hostile Makefile) and ``npm
test`` was still paved to ``make test``, running the newcomer's recipe; a rules file copied
byte for byte into it acted too. Now a record carries what the repository is (dp.gitdir:
its first commit, or before it has one its HEAD as ``git init`` wrote it), so the newcomer
is a repository nobody trusted, while a pull, a rebase, a branch switch, ``git gc`` and
``git clean -fdx`` keep the trusted one the same repository. A store from before the change
is read by its paths until the first dp command binds each record to the repository there.

Every repository is real (``git`` history, ``node_modules``, a committed ``.venv``); the
real ``pave-check`` answers Claude Code's JSON, and what it lets through runs with the real
``make``.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from security.agent import Agent, as_let_through
from security.repository import GIT_IDENTITY, cloned_repository, commit

TRUSTED_MAKEFILE = ".PHONY: test\ntest:\n\t@echo tested\n"


def rules(markers) -> str:
    """A rules file whose recipe marks when it rewrites `echo ready` (so a rule acting shows)."""
    return ("[meta]\nversion = 1\n\n[[aliases]]\n"
            f'from = "echo ready"\nto = "{markers.touch("rules-recipe")}"\n'
            'tool = "Bash"\nparam = "command"\ncommand = "echo"\nmatch_kind = "recipe"\n')


class Person(Agent):
    """The agent's side (security.agent) and the person's: git, and what their store trusts."""

    def __init__(self, root: Path):
        super().__init__(root, [])
        self.env.update(GIT_IDENTITY)

    @property
    def db(self) -> Path:
        return self.home / ".dp" / "dp.db"

    def let_through(self, command: str, cwd: Path) -> str:
        """The command the agent runs after the hook: the rewrite, else as typed."""
        return as_let_through(self, command, cwd)[0]

    def git(self, *args, cwd: Path) -> None:
        subprocess.run(["git", *args], cwd=cwd, env=self.env, check=True, capture_output=True, timeout=120)

    def trusted_as(self) -> list:
        return sorted(sqlite3.connect(self.db).execute("SELECT DISTINCT root, identity FROM project_trust"))


def replace_with(path: Path, files: dict, how: str, person: Person, tmp_path: Path) -> None:
    """Delete the repository at ``path`` and put another one there, made ``how``."""
    shutil.rmtree(path)
    if how == "another project cloned there":
        other = tmp_path / "elsewhere" / "other-project"
        initialised(other, files, person, commit=True)
        person.git("clone", "-q", str(other), str(path), cwd=tmp_path)
        return
    initialised(path, files, person, commit=how == "git init and a commit")
    person.git("remote", "add", "origin", "https://example.com/mallory/widget.git", cwd=path)


def initialised(path: Path, files: dict, person: Person, commit: bool) -> None:
    """``git init`` at ``path`` holding ``files``, committed or not."""
    path.mkdir(parents=True)
    for name, content in files.items():
        (path / name).parent.mkdir(parents=True, exist_ok=True)
        (path / name).write_text(content)
    person.git("init", "-q", "-b", "main", cwd=path)
    if commit:
        person.git("add", "-A", cwd=path)
        person.git("commit", "-q", "-m", "Initial commit", cwd=path)


@pytest.mark.parametrize("how", ["git init, no commit", "git init and a commit", "another project cloned there"])
def test_a_repository_replaced_at_a_trusted_path_is_one_nobody_trusted(tmp_path, markers, how):
    person = Person(tmp_path)
    widget = cloned_repository(tmp_path / "widget", {"Makefile": TRUSTED_MAKEFILE, ".dp/rules.toml": rules(markers)},
                               markers)
    person.dp("trust", cwd=widget)
    assert person.let_through("npm test", widget) == "make test"  # trusted: the one runner that has it
    assert person.let_through("echo ready", widget) == markers.touch("rules-recipe")

    hostile = {"Makefile": f".PHONY: test\ntest:\n\t{markers.touch('hostile-make-test')}\n",
               ".dp/rules.toml": rules(markers)}  # the trusted rules file, byte for byte
    replace_with(widget, hostile, how, person, tmp_path)
    for command in ("npm test", "echo ready"):
        ran = person.let_through(command, widget)
        assert ran == command, (how, ran)
        person.run(ran, widget)  # npm without package.json runs nothing of the repository
    markers.assert_none(f"the repository replaced by {how}")
    assert "(not trusted)" in person.dp("trust", "--show", cwd=widget)
    assert "(this repository, not trusted)" in person.dp("trust", "--show", cwd=widget)

    person.dp("trust", cwd=widget)  # the person trusts the newcomer: now it is theirs
    assert person.let_through("npm test", widget) == "make test"
    assert [root for root, _ in person.trusted_as()] == [str(widget)]  # the old repository's records went


def test_a_pull_a_rebase_a_branch_switch_gc_and_git_clean_keep_the_trust(tmp_path, markers):
    person = Person(tmp_path)
    origin = cloned_repository(tmp_path / "origin", {"Makefile": TRUSTED_MAKEFILE, ".dp/rules.toml": rules(markers)},
                               markers)
    clone = tmp_path / "clone"
    person.git("clone", "-q", str(origin), str(clone), cwd=tmp_path)
    person.dp("trust", cwd=clone)

    def still_trusted(after: str) -> None:
        assert person.let_through("npm test", clone) == "make test", after
        assert person.let_through("echo ready", clone) == markers.touch("rules-recipe"), after

    still_trusted("dp trust")
    commit(origin, {"src/widget/feature.py": "FEATURE = 1\n"})
    person.git("pull", "-q", "--ff-only", cwd=clone)
    still_trusted("a pull")
    (clone / "notes.txt").write_text("my work\n")
    person.git("add", "notes.txt", cwd=clone)
    person.git("commit", "-q", "-m", "My work", cwd=clone)
    commit(origin, {"src/widget/other.py": "OTHER = 1\n"})
    person.git("pull", "-q", "--rebase", cwd=clone)
    still_trusted("a rebase onto a new upstream")
    person.git("switch", "-q", "-c", "topic", cwd=clone)
    still_trusted("a branch switch")
    person.git("gc", "-q", "--aggressive", "--prune=now", cwd=clone)
    still_trusted("git gc")
    (clone / "build" / "out.o").parent.mkdir(exist_ok=True)
    (clone / "build" / "out.o").write_bytes(bytes(64))
    (clone / "scratch.tmp").write_text("untracked\n")
    person.git("clean", "-q", "-fdx", cwd=clone)
    assert not (clone / "scratch.tmp").exists()
    still_trusted("git clean -fdx")
    person.dp("aliases", cwd=clone)  # a dp command binds nothing new: the record already names the first commit
    still_trusted("a dp command")
    markers.path.joinpath("rules-recipe").unlink(missing_ok=True)
    markers.assert_none("the trusted repository")


def test_a_repository_trusted_before_its_first_commit_keeps_it_through_the_commit(tmp_path, markers):
    person = Person(tmp_path)
    fresh = tmp_path / "fresh"
    initialised(fresh, {"Makefile": TRUSTED_MAKEFILE}, person, commit=False)
    person.dp("trust", cwd=fresh)
    assert person.let_through("npm test", fresh) == "make test"
    [(_, before)] = person.trusted_as()
    assert before.startswith("head:")
    person.git("add", "-A", cwd=fresh)
    person.git("commit", "-q", "-m", "First", cwd=fresh)
    assert person.let_through("npm test", fresh) == "make test"  # HEAD is the file git init wrote
    person.dp("alias", "--cmd", "grep", "--replace", "rg", cwd=fresh)  # a write binds the trust to the first commit
    [(_, after)] = person.trusted_as()
    first = subprocess.run(["git", "rev-list", "--max-parents=0", "HEAD"], cwd=fresh, capture_output=True,
                           text=True, env=person.env).stdout.strip()
    assert after == f"commit:{first}"
    person.git("switch", "-q", "-c", "topic", cwd=fresh)  # HEAD rewritten: the first commit holds the trust
    assert person.let_through("npm test", fresh) == "make test"

    shutil.rmtree(fresh)
    initialised(fresh, {"Makefile": f".PHONY: test\ntest:\n\t{markers.touch('hostile-make-test')}\n"}, person,
                commit=False)
    ran = person.let_through("npm test", fresh)
    assert ran == "npm test"
    person.run(ran, fresh)
    markers.assert_none("a fresh git init at a path trusted before")


def test_an_empty_repository_made_again_at_its_path_is_another(tmp_path, markers):
    """Trusted before any commit, deleted, ``git init`` again (the file system may hand the new
    git directory the old one's inode number): another HEAD, another repository."""
    person = Person(tmp_path)
    fresh = tmp_path / "fresh"
    initialised(fresh, {"Makefile": TRUSTED_MAKEFILE}, person, commit=False)
    person.dp("trust", cwd=fresh)
    assert person.let_through("npm test", fresh) == "make test"
    shutil.rmtree(fresh / ".git")
    person.git("init", "-q", "-b", "main", cwd=fresh)
    (fresh / "Makefile").write_text(f".PHONY: test\ntest:\n\t{markers.touch('hostile-make-test')}\n")
    ran = person.let_through("npm test", fresh)
    assert ran == "npm test"
    person.run(ran, fresh)
    markers.assert_none("an empty repository made again")


OLD_STORE = """
import sqlite3, sys
from dp.store.migrations import load_migrations, migrate
conn = sqlite3.connect(sys.argv[1])
every = load_migrations()
migrate(conn, every[:next(index for index, (_, name, _) in enumerate(every) if name.endswith("_trust_by_identity.sql"))])
for root in sys.argv[2:]:
    conn.execute("INSERT INTO project_trust VALUES (?, '', '', '2026-01-01T00:00:00Z')", (root,))
    conn.execute("INSERT INTO project_trust VALUES (?, ?, 'abc123', '2026-01-02T00:00:00Z')",
                 (root, root + "/.dp/rules.toml"))
conn.commit()
"""


def test_records_from_before_the_identity_are_bound_to_the_repository_there_by_the_first_dp_command(
        tmp_path, markers):
    """A store from before the identity trusts two roots by path: the widget, and a repository since deleted.
    Read as it is (the hook never migrates), the widget is trusted; the first dp command migrates
    and binds each record to the repository at its root then (the gone one to none), losing no
    record; from then on a repository made at either path is one nobody trusted."""
    person = Person(tmp_path)
    widget = cloned_repository(tmp_path / "widget", {"Makefile": TRUSTED_MAKEFILE}, markers)
    gone = tmp_path / "gone"
    subprocess.run([sys.executable, "-c", OLD_STORE, str(person.db), str(widget), str(gone)], check=True,
                   env=person.env)
    assert person.let_through("npm test", widget) == "make test"  # not migrated: read by its paths

    person.dp("aliases", cwd=tmp_path)  # any dp command migrates the store and binds its records
    rows = sqlite3.connect(person.db).execute(
        "SELECT root, path, sha256, trusted_at, kind, identity FROM project_trust ORDER BY root, path").fetchall()
    first = subprocess.run(["git", "rev-list", "--max-parents=0", "HEAD"], cwd=widget, capture_output=True,
                           text=True, env=person.env).stdout.strip()
    assert rows == [  # every record kept, each bound: the widget to its first commit, the gone one to none
        (str(gone), "", "", "2026-01-01T00:00:00Z", "repository", "none:"),
        (str(gone), f"{gone}/.dp/rules.toml", "abc123", "2026-01-02T00:00:00Z", "file", "none:"),
        (str(widget), "", "", "2026-01-01T00:00:00Z", "repository", f"commit:{first}"),
        (str(widget), f"{widget}/.dp/rules.toml", "abc123", "2026-01-02T00:00:00Z", "file", f"commit:{first}")]
    assert person.let_through("npm test", widget) == "make test"

    hostile = {"Makefile": f".PHONY: test\ntest:\n\t{markers.touch('hostile-make-test')}\n"}
    shutil.rmtree(widget)
    for path in (widget, gone):
        initialised(path, hostile, person, commit=False)
        ran = person.let_through("npm test", path)
        assert ran == "npm test", path
        person.run(ran, path)
    markers.assert_none("a repository made at a path an old store trusted")
