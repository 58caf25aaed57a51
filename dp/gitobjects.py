"""git's object store, read as data: loose objects, pack indexes and packs, delta chains.

``dp.gitdir`` asks two questions of it — is this commit still here (``has_object``), and
which commit has no parent on HEAD's first-parent line (``Objects``) — so trust can be
bound to a repository's first commit without running git. Every read is bounded (object
size, delta depth, packs, index buckets, alternates one level deep); what cannot be read
within them is ``Unreadable``, and the caller treats the repository as unknown.
"""

import os
import stat

_SMALL = 4096  # HEAD, a .git file, commondir, a loose ref
_IDX_V2 = b"\xfftOc"
_MAX_OBJECT = 1 << 20  # a commit is a few hundred bytes; one larger than this is not read
_MAX_DELTA_DEPTH = 200  # git packs 50 deep by default; a deeper chain ends the walk there
_KEPT_BASES = 512  # unpacked entries a walk keeps, for the deltas based on them
_MAX_PACKS = 1000
_MAX_BUCKET = 1 << 24  # the index names sharing a first byte (Linux's: under 1 MiB)
_MAX_ALTERNATES = 8
COMMIT = "commit"
_OFS_DELTA, _REF_DELTA = 6, 7
_KINDS = {1: COMMIT, 2: "tree", 3: "blob", 4: "tag"}
_CACHE_PREFIX = "git-packs"

class Unreadable(Exception):
    """An object or file that is missing, too large or not in the format git writes."""


def read_small(path: str) -> str | None:
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
    text = read_small(os.path.join(objects, "info", "alternates"))
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


class Objects:
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
