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

COMMIT = "commit"
HEAD = "head"
# How far back along first parents ``first_commit`` walks (about a second of reading).
MAX_WALK = 10_000
_SMALL = 4096  # HEAD, a .git file, commondir, a loose ref
_MAX_OBJECT = 1 << 20  # a commit is a few hundred bytes; one larger than this is not read
_MAX_FILE = 1 << 28  # packed-refs, shallow
_MAX_DELTA_DEPTH = 200  # git packs 50 deep by default; a deeper chain ends the walk there
_KEPT_BASES = 512  # unpacked entries a walk keeps, for the deltas based on them
_MAX_PACKS = 1000
_MAX_BUCKET = 1 << 24  # the index names sharing a first byte (Linux's: under 1 MiB)
_MAX_ALTERNATES = 8
_PER_WORKTREE = ("refs/bisect/", "refs/worktree/", "refs/rewritten/")
_IDX_V2 = b"\xfftOc"
_OFS_DELTA, _REF_DELTA = 6, 7
_KINDS = {1: COMMIT, 2: "tree", 3: "blob", 4: "tag"}
_CACHE_PREFIX = "git-packs"


class Unreadable(Exception):
    """An object or file that is missing, too large or not in the format git writes."""


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
    text = _small(dotgit)
    if text is None or not text.startswith("gitdir:"):
        return None
    gitdir = os.path.normpath(os.path.join(root, text[len("gitdir:"):].strip()))
    common = _small(os.path.join(gitdir, "commondir"))
    return gitdir, os.path.normpath(os.path.join(gitdir, common.strip())) if common else gitdir


def _small(path: str) -> str | None:
    """A small text file of the git directory (at most ``_SMALL`` bytes read), or None."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (OSError, ValueError):
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return os.read(fd, _SMALL).decode("utf-8", "surrogateescape")
    except OSError:
        return None
    finally:
        os.close(fd)


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
    text = _small(os.path.join(gitdir, "HEAD"))
    for _ in range(5):
        if text is None:
            return None
        text = text.strip()
        if _is_oid(text):
            return text
        ref = text[len("ref:"):].strip() if text.startswith("ref:") else ""
        if not ref.startswith("refs/") or ".." in ref or "\0" in ref or "\\" in ref:
            return None
        text = _small(os.path.join(gitdir if ref.startswith(_PER_WORKTREE) else common, ref))
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


def has_object(common: str, oid: str) -> bool:
    """Whether object ``oid`` is in the object store of ``common`` (or an alternate of it)."""
    objects = os.path.join(common, "objects")
    return _has(objects, oid) or any(_has(directory, oid) for directory in _alternates(objects))


def _has(objects: str, oid: str) -> bool:
    if os.access(os.path.join(objects, oid[:2], oid[2:]), os.F_OK):
        return True
    packs = os.path.join(objects, "pack")
    try:
        info = os.stat(packs)
    except OSError:
        return False
    from dp.cachedir import read_stamped, write_stamped

    stamp = "\0".join((packs, oid, str(info.st_mtime_ns), str(info.st_ino)))
    found = read_stamped(_CACHE_PREFIX, stamp)
    if found is None:
        found = _packed(packs, oid) is not None
        write_stamped(_CACHE_PREFIX, stamp, found)
    return found


def _alternates(objects: str) -> list[str]:
    """The object directories ``objects/info/alternates`` names (absolute, or relative to ``objects``)."""
    text = _small(os.path.join(objects, "info", "alternates"))
    lines = [line.strip() for line in (text or "").splitlines()]
    return [os.path.normpath(os.path.join(objects, line)) for line in lines if line and not line.startswith("#")][
        :_MAX_ALTERNATES]


def _packed(packs: str, oid: str):
    """``(pack path, offset)`` of ``oid`` in the packs of the directory ``packs``, or None."""
    wanted = bytes.fromhex(oid)
    for index in _indexes(packs):
        try:
            fd = os.open(index, os.O_RDONLY)
        except OSError:
            continue
        try:
            offset = _index_offset(fd, wanted)
        finally:
            os.close(fd)
        if offset is not None:
            return index[: -len(".idx")] + ".pack", offset
    return None


def _indexes(packs: str) -> list[str]:
    """The pack indexes in the directory ``packs`` (at most ``_MAX_PACKS``)."""
    try:
        names = sorted(name for name in os.listdir(packs) if name.endswith(".idx"))
    except OSError:
        return []
    return [os.path.join(packs, name) for name in names[:_MAX_PACKS]]


def _index_offset(fd: int, oid: bytes, header=None) -> int | None:
    """The pack offset of ``oid`` in the pack index open as ``fd`` (version 1 or 2), or None.

    Three reads whatever the index's size (one when ``header``, ``_index_header(fd)``, is
    kept): its header, its fan-out table, and the names that share ``oid``'s first byte,
    searched in memory.
    """
    version2, table = header or _index_header(fd)
    if len(table) != 1024:
        return None
    width = len(oid)
    names, stride, skip = (8 + 1024, width, 0) if version2 else (1024, 4 + width, 4)
    first = oid[0]
    low = int.from_bytes(table[4 * first - 4:4 * first], "big") if first else 0
    high, total = int.from_bytes(table[4 * first:4 * first + 4], "big"), int.from_bytes(table[1020:], "big")
    if not low <= high <= total or (high - low) * stride > _MAX_BUCKET:
        return None
    bucket = os.pread(fd, (high - low) * stride, names + low * stride)
    start, end = 0, high - low
    while start < end:
        middle = (start + end) // 2
        name = bucket[middle * stride + skip:middle * stride + skip + width]
        if name == oid:
            break
        start, end = (middle + 1, end) if name < oid else (start, middle)
    else:
        return None
    if not version2:
        return int.from_bytes(bucket[middle * stride:middle * stride + 4], "big")
    offsets = names + total * (width + 4)
    offset = int.from_bytes(os.pread(fd, 4, offsets + 4 * (low + middle)), "big")
    if offset & 0x80000000:
        offset = int.from_bytes(os.pread(fd, 8, offsets + 4 * total + 8 * (offset & 0x7FFFFFFF)), "big")
    return offset


def _index_header(fd: int) -> tuple[bool, bytes]:
    """``(version 2, fan-out table)`` of the pack index open as ``fd``."""
    version2 = os.pread(fd, 4, 0) == _IDX_V2
    return version2, os.pread(fd, 1024, 8 if version2 else 0)


class _Objects:
    """Reading objects of one repository (loose and packed, deltas resolved): ``first_commit``'s walk.

    Only a person's ``dp trust`` (and the binding after an upgrade) walks; the hook only asks
    ``has_object``.
    """

    def __init__(self, common: str):
        objects = os.path.join(common, "objects")
        self.directories = [objects, *_alternates(objects)]
        self.files: dict[str, int] = {}
        self.indexes: dict[str, list] = {}
        self.unpacked: dict[tuple, tuple[str, bytes]] = {}  # delta bases, by (pack, offset)

    def close(self) -> None:
        for fd in self.files.values():
            os.close(fd)
        self.files.clear()

    def read(self, oid: str, depth: int = 0) -> tuple[str, bytes]:
        """``(kind, content)`` of object ``oid``; Unreadable when it is missing or malformed."""
        if depth > _MAX_DELTA_DEPTH:
            raise Unreadable(f"delta chain deeper than {_MAX_DELTA_DEPTH}")
        for directory in self.directories:
            loose = os.path.join(directory, oid[:2], oid[2:])
            if os.access(loose, os.F_OK):
                return _loose(loose)
            found = self._packed(directory, bytes.fromhex(oid))
            if found is not None:
                return self._unpack(found[0], found[1], len(oid) // 2, depth)
        raise Unreadable(f"object {oid} is not in the repository")

    def _packed(self, directory: str, oid: bytes):
        """``_packed`` with every index of the walk opened once."""
        if directory not in self.indexes:
            self.indexes[directory] = []
            for index in _indexes(os.path.join(directory, "pack")):
                try:
                    fd = self._fd(index)
                    self.indexes[directory].append((fd, _index_header(fd), index[: -len(".idx")] + ".pack"))
                except OSError:
                    continue
        for fd, header, pack in self.indexes[directory]:
            offset = _index_offset(fd, oid, header)
            if offset is not None:
                return pack, offset
        return None

    def _fd(self, path: str) -> int:
        if path not in self.files:
            self.files[path] = os.open(path, os.O_RDONLY)
        return self.files[path]

    def _unpack(self, pack: str, offset: int, width: int, depth: int) -> tuple[str, bytes]:
        """The entry at ``offset`` of ``pack``; the bases of deltas are kept (commits one after
        another are often deltas against the same few)."""
        key = (pack, offset)
        if key not in self.unpacked:
            if len(self.unpacked) > _KEPT_BASES:
                self.unpacked.clear()
            self.unpacked[key] = self._entry(pack, offset, width, depth)
        return self.unpacked[key]

    def _entry(self, pack: str, offset: int, width: int, depth: int) -> tuple[str, bytes]:
        fd = self._fd(pack)
        head = os.pread(fd, 16 + width, offset)
        byte, at = head[0], 1
        kind, size, shift = (byte >> 4) & 7, byte & 15, 4
        while byte & 0x80:
            byte, at = head[at], at + 1
            size, shift = size | (byte & 0x7F) << shift, shift + 7
        if size > _MAX_OBJECT:
            raise Unreadable(f"an object of {size} bytes")
        if kind == _OFS_DELTA:
            byte, at = head[at], at + 1
            back = byte & 0x7F
            while byte & 0x80:
                byte, at = head[at], at + 1
                back = ((back + 1) << 7) | (byte & 0x7F)
            base = self._unpack(pack, offset - back, width, depth + 1)
        elif kind == _REF_DELTA:
            base, at = self.read(head[at:at + width].hex(), depth + 1), at + width
        elif kind not in _KINDS:
            raise Unreadable(f"pack entry of type {kind}")
        data = _inflate(fd, offset + at, size)
        if kind in (_OFS_DELTA, _REF_DELTA):
            return base[0], _patched(base[1], data)
        return _KINDS[kind], data


def _loose(path: str) -> tuple[str, bytes]:
    import zlib

    with open(path, "rb") as handle:
        data = zlib.decompressobj().decompress(handle.read(_MAX_OBJECT + 1024), _MAX_OBJECT + 64)
    header, _, content = data.partition(b"\0")
    kind, _, size = header.decode("ascii", "replace").partition(" ")
    if not size.isdigit() or int(size) != len(content):
        raise Unreadable(f"loose object {path} is truncated or too large")
    return kind, content


def _inflate(fd: int, start: int, size: int) -> bytes:
    """The zlib stream at ``start`` of the pack ``fd``, which must inflate to ``size`` bytes."""
    import zlib

    stream, out, position = zlib.decompressobj(), b"", start
    while not stream.eof:
        chunk = os.pread(fd, 16384, position)
        if not chunk:
            raise Unreadable("a pack entry runs past the end of its pack")
        position += len(chunk)
        out += stream.decompress(chunk)
        if len(out) > size:
            raise Unreadable("a pack entry larger than its header says")
    if len(out) != size:
        raise Unreadable("a pack entry smaller than its header says")
    return out


def _varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte, at = data[at], at + 1
        value, shift = value | (byte & 0x7F) << shift, shift + 7
        if not byte & 0x80:
            return value, at


def _patched(base: bytes, delta: bytes) -> bytes:
    """``base`` with git's delta ``delta`` applied (copy and insert instructions)."""
    source, at = _varint(delta, 0)
    target, at = _varint(delta, at)
    if source != len(base) or target > _MAX_OBJECT:
        raise Unreadable("a delta for another base")
    out = bytearray()
    while at < len(delta):
        op, at = delta[at], at + 1
        if op & 0x80:
            start = length = 0
            for bit in range(7):
                if op & (1 << bit):
                    value, at = delta[at], at + 1
                    if bit < 4:
                        start |= value << (8 * bit)
                    else:
                        length |= value << (8 * (bit - 4))
            length = length or 0x10000
            if start + length > len(base):
                raise Unreadable("a delta copying past its base")
            out += base[start:start + length]
        elif op:
            out += delta[at:at + op]
            at += op
        else:
            raise Unreadable("a delta with a reserved instruction")
    if len(out) != target:
        raise Unreadable("a delta of the wrong size")
    return bytes(out)


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
    objects, reached = _Objects(common), None
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
