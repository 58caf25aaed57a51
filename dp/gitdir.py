"""A repository's git directory, read as data: what the repository *is*, which trust is bound to.

Trust given to a repository must not pass to whatever is found at its path later: delete a
trusted repository, ``git init`` another one there (another origin, a hostile Makefile), and
that is a repository nobody trusted. So a trust record (``dp.store.trust``) carries the
repository's ``identity``, and ``matches`` checks it on every read:

* **Its first commit**: the commit reached from HEAD by first parents that has no parent (in
  a shallow clone, where the clone's history stops; past ``MAX_WALK`` first-parent steps, the
  commit that far back). A pull, a merge, a rebase of later work, a branch switch and ``git
  clean -fdx`` keep it; another project's history, or a fresh ``git init``, does not hold it.
  The check asks only whether that commit is still in the repository's object store: one
  ``access`` for a loose object, else a lookup in the pack indexes whose answer dp's cache keeps
  while the pack directory is unchanged (the hook reads trust on every call in a repository with
  a layer file). Rewriting the very first commit (``git rebase --root``, ``git filter-repo``)
  makes another history: it must be trusted again.
* **With no commit yet**, its ``HEAD`` file as ``git init`` wrote it: inode and change time,
  which no program can set back. Committing keeps that file, and the next dp command that writes
  the store binds the trust to the new first commit (``dp.store.trust.bind``); another ``git
  init`` at the path makes another repository, and so does a branch switch before that.

Not the git directory's inode: a directory made right after a deletion gets the number the
deleted one had (``rm -rf r && git init r`` kept it four times in five on ext4), and Python
reads no birth time on Linux.

No ``git`` runs: every file is read as data, each read bounded, so no hook, fsmonitor, pager
or other program a repository's config names can start, and the hook (stdlib only) can do the
check itself. ``.git`` files (linked worktrees, submodules) and ``commondir`` are followed, and
alternates one level deep.
"""

import os
import stat

from dp.gitobjects import COMMIT, Objects, Unreadable, has_object, read_small

HEAD = "head"
# How far back along first parents ``first_commit`` walks (about a second of reading).
MAX_WALK = 10_000
_MAX_FILE = 1 << 28  # packed-refs, shallow
_PER_WORKTREE = ("refs/bisect/", "refs/worktree/", "refs/rewritten/")


def identity(root: str) -> str | None:
    """What the repository whose work tree is ``root`` is (``COMMIT:oid`` or ``HEAD:stamp``);
    None when it has no git directory dp can read."""
    dirs = git_dirs(root)
    if dirs is None:
        return None
    commit = first_commit(*dirs)
    if commit:
        return f"{COMMIT}:{commit}"
    stamp = _head_stamp(dirs[0])
    return f"{HEAD}:{stamp}" if stamp else None


def matches(root: str, recorded: str) -> bool:
    """Whether the repository at ``root`` is still the one ``recorded`` (an ``identity``) names."""
    kind, _, value = recorded.partition(":")
    dirs = git_dirs(root) if value else None
    if dirs is None:
        return False
    if kind == COMMIT:
        return has_object(dirs[1], value)
    return kind == HEAD and _head_stamp(dirs[0]) == value


def has_commits(root: str) -> bool:
    """Whether HEAD at ``root`` names a commit (a repository past its ``git init``)."""
    dirs = git_dirs(root)
    return dirs is not None and _head_oid(*dirs) is not None


def git_dirs(root: str) -> tuple[str, str] | None:
    """``(git directory, common directory)`` of the work tree ``root``: ``.git`` itself, or the
    directory a ``.git`` file names (a linked worktree, a submodule); None when unreadable."""
    dotgit = os.path.join(root, ".git")
    try:
        info = os.stat(dotgit)
    except (OSError, ValueError):
        return None
    if stat.S_ISDIR(info.st_mode):  # a repository's own: only the git directory of a worktree has a commondir
        return dotgit, dotgit
    text = read_small(dotgit)
    if text is None or not text.startswith("gitdir:"):
        return None
    gitdir = os.path.normpath(os.path.join(root, text[len("gitdir:"):].strip()))
    common = read_small(os.path.join(gitdir, "commondir"))
    return gitdir, os.path.normpath(os.path.join(gitdir, common.strip())) if common else gitdir


def _head_stamp(gitdir: str) -> str:
    """``inode.ctime_ns`` of HEAD (of the git directory itself when it has none)."""
    for path in (os.path.join(gitdir, "HEAD"), gitdir):
        try:
            info = os.stat(path)
        except OSError:
            continue
        return f"{info.st_ino}.{info.st_ctime_ns}"
    return ""


# -- refs ------------------------------------------------------------------------------


def _is_oid(text: str) -> bool:
    return len(text) in (40, 64) and not text.strip("0123456789abcdef")


def _head_oid(gitdir: str, common: str) -> str | None:
    """The commit HEAD names, following symbolic refs (loose, then packed-refs); None when unborn."""
    text = read_small(os.path.join(gitdir, "HEAD"))
    for _ in range(5):
        if text is None:
            return None
        text = text.strip()
        if _is_oid(text):
            return text
        ref = text[len("ref:"):].strip() if text.startswith("ref:") else ""
        if not ref.startswith("refs/") or ".." in ref or "\0" in ref or "\\" in ref:
            return None
        text = read_small(os.path.join(gitdir if ref.startswith(_PER_WORKTREE) else common, ref))
        if text is None:
            text = _packed_ref(common, ref)
    return None


def _packed_ref(common: str, ref: str) -> str | None:
    """The object ``ref`` names in ``packed-refs``, or None."""
    suffix = f" {ref}".encode("utf-8", "surrogateescape")
    try:
        with open(os.path.join(common, "packed-refs"), "rb") as handle:
            read = 0
            for line in handle:
                read += len(line)
                if read > _MAX_FILE:
                    return None
                line = line.rstrip(b"\r\n")
                if line.endswith(suffix):
                    return line[: -len(suffix)].decode("ascii", "replace")
    except OSError:
        return None
    return None


# -- objects ---------------------------------------------------------------------------


def _first_parent(commit: bytes) -> str | None:
    for line in commit.partition(b"\n\n")[0].split(b"\n"):
        if line.startswith(b"parent "):
            return line[len(b"parent "):].decode("ascii", "replace").strip()
    return None


def first_commit(gitdir: str, common: str) -> str | None:
    """The first commit of HEAD's history along first parents (the oldest dp could read, at most
    ``MAX_WALK`` steps back, where the shallow boundary stops it); None when HEAD names no
    commit dp can read."""
    import zlib

    oid = _head_oid(gitdir, common)
    if oid is None:
        return None
    shallow = set((_small_file(os.path.join(common, "shallow")) or "").split())
    objects, reached = Objects(common), None
    try:
        for _ in range(MAX_WALK):
            kind, content = objects.read(oid)
            if kind != COMMIT:
                break
            reached = oid
            parent = _first_parent(content)
            if parent is None or oid in shallow or not _is_oid(parent):
                break
            oid = parent
    except (Unreadable, OSError, ValueError, IndexError, RecursionError, zlib.error):
        pass  # the oldest commit read so far is as stable a mark of this history
    finally:
        objects.close()
    return reached


def _small_file(path: str) -> str | None:
    try:
        with open(path, "rb") as handle:
            return handle.read(_MAX_FILE).decode("ascii", "replace")
    except OSError:
        return None
