"""dp.files, the one reader and writer of user files, tested directly.

What the CLI tests (integration_tests/test_user_files.py) show through ``dp
pave`` is pinned here at the source, for every caller at once: which paths
are refused and with what words, that a read never blocks or grows without
bound, that a change lands whole or not at all, and how backups are kept.
"""

from __future__ import annotations

import os
import socket
import stat
import threading
import time

import pytest
from blocking_support import outcome_within

from dp import files
from dp.errors import DpError
from dp.files import (
    BACKUP_GENERATIONS,
    FileChanged,
    backups_of,
    read_bytes,
    read_regular,
    remove_file,
    replace_file,
    resolve,
    write_atomically,
)


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    """Backups go to ~/.dp/backups: a HOME of the test's own."""
    path = tmp_path / "home"
    path.mkdir()
    monkeypatch.setenv("HOME", str(path))
    return path


def leftovers(directory):
    """Temporary files a writer left behind (``.NAME.XXXX.tmp``)."""
    return [p.name for p in directory.iterdir() if p.name.endswith(".tmp")]


# -- what a path stands for ----------------------------------------------------


def special(tmp_path, kind):
    """A non-regular file of ``kind`` at tmp_path/special; returns its path and how it is named."""
    path = tmp_path / "special"
    if kind == "fifo":
        os.mkfifo(path)
        return path, "a FIFO (named pipe)"
    if kind == "directory":
        path.mkdir()
        return path, "a directory"
    if kind == "socket":
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(path))
        server.close()
        return path, "a socket"
    path.symlink_to("/dev/null")
    return path, "a character device"


@pytest.mark.parametrize("kind", ["fifo", "directory", "socket", "device"])
def test_resolve_refuses_anything_but_a_regular_file_naming_what_it_is(tmp_path, kind):
    path, what = special(tmp_path, kind)
    with pytest.raises(DpError) as caught:
        resolve(path)
    assert what in caught.value.message
    assert "dp reads and writes only regular files" in caught.value.message


def test_a_link_to_a_special_file_says_it_is_a_link_and_where_it_points(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "settings.json").symlink_to(tmp_path / "pipe")
    with pytest.raises(DpError) as caught:
        resolve(tmp_path / "settings.json")
    assert caught.value.message == (
        f"{tmp_path / 'settings.json'} is a symbolic link to a FIFO (named pipe) ({tmp_path / 'pipe'}), "
        "not a regular file; dp reads and writes only regular files"
    )


def test_resolve_follows_links_to_the_real_file_and_passes_a_new_path_through(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "AGENTS.md").write_text("x")
    (tmp_path / "CLAUDE.md").symlink_to("real/AGENTS.md")
    (tmp_path / "chain").symlink_to("CLAUDE.md")
    assert resolve(tmp_path / "chain") == tmp_path / "real" / "AGENTS.md"
    assert resolve(tmp_path / "new.json") == tmp_path / "new.json"


def test_a_dangling_link_is_neither_a_file_nor_no_file(tmp_path):
    link = tmp_path / "settings.json"
    link.symlink_to(tmp_path / "gone.json")
    expected = (f"{link} is a symbolic link to {tmp_path / 'gone.json'}, which does not exist; "
                "create the target or remove the link (nothing was changed)")
    with pytest.raises(DpError) as caught:
        resolve(link)
    assert caught.value.message == expected
    with pytest.raises(DpError) as caught:
        read_bytes(link)  # not None: "no file" would let a writer replace the link
    assert caught.value.message == expected


def test_a_link_loop_is_refused_by_every_entry_point(tmp_path):
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    for call in (lambda: resolve(tmp_path / "a"), lambda: read_bytes(tmp_path / "a"),
                 lambda: replace_file(tmp_path / "a", b"x", expected=None)):
        with pytest.raises(DpError, match="symbolic link loop"):
            call()


# -- reading -------------------------------------------------------------------


def test_a_missing_file_reads_as_none_but_read_regular_raises(tmp_path):
    assert read_bytes(tmp_path / "absent") is None
    with pytest.raises(FileNotFoundError):
        read_regular(tmp_path / "absent")


@pytest.mark.parametrize("size, limit, readable", [(0, 0, True), (10, 10, True), (11, 10, False)])
def test_the_read_limit_is_inclusive(tmp_path, size, limit, readable):
    path = tmp_path / "f"
    path.write_bytes(b"x" * size)
    if readable:
        assert read_bytes(path, limit) == b"x" * size
    else:
        with pytest.raises(DpError, match=f"is {size} bytes; dp reads at most {limit} bytes"):
            read_bytes(path, limit)


def test_read_regular_can_take_the_head_of_a_long_file_and_names_what_it_reads(tmp_path):
    path = tmp_path / "MSG"
    path.write_bytes(b"0123456789")
    assert read_regular(path, 4, whole=False) == b"0123"
    with pytest.raises(DpError) as caught:
        read_regular(path, 4, what="commit message file")
    assert caught.value.message == f"commit message file {path} is 10 bytes; dp reads at most 4 bytes from it"


def test_reading_a_fifo_fails_at_once_instead_of_waiting_for_a_writer(tmp_path):
    os.mkfifo(tmp_path / "settings.json")
    error = outcome_within(lambda: read_bytes(tmp_path / "settings.json"))
    assert isinstance(error, DpError) and "is a FIFO (named pipe), not a regular file" in error.message


def test_reading_a_directory_names_it_with_what_it_was_read_as(tmp_path):
    with pytest.raises(DpError) as caught:
        read_regular(tmp_path, what="recipe")
    assert caught.value.message == (
        f"recipe {tmp_path} is a directory, not a regular file; dp reads and writes only regular files")


# -- replacing -----------------------------------------------------------------


def test_a_new_file_gets_the_umask_mode_and_an_existing_one_keeps_its_own(tmp_path):
    old_umask = os.umask(0o027)
    try:
        replace_file(tmp_path / "new.json", b"{}", expected=None)
    finally:
        os.umask(old_umask)
    assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o640
    kept = tmp_path / "kept.json"
    kept.write_text("{}")
    kept.chmod(0o604)
    replace_file(kept, b"[]", expected=b"{}")
    assert stat.S_IMODE(kept.stat().st_mode) == 0o604 and kept.read_bytes() == b"[]"


def test_a_file_that_appeared_since_it_was_read_as_missing_is_left_alone(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text("theirs")
    with pytest.raises(FileChanged, match="changed while dp was editing it; nothing was written"):
        replace_file(path, b"ours", expected=None)
    assert path.read_text() == "theirs" and leftovers(tmp_path) == []


def test_a_file_deleted_since_it_was_read_is_not_recreated(tmp_path):
    with pytest.raises(FileChanged):
        replace_file(tmp_path / "settings.json", b"ours", expected=b"theirs")
    assert not (tmp_path / "settings.json").exists()


def test_of_two_creators_exactly_one_wins(tmp_path):
    """Exclusive creation links the finished file into place: a racing writer gets FileChanged."""
    path = tmp_path / "AGENTS.md"
    results = []
    barrier = threading.Barrier(8)

    def create(n):
        barrier.wait()
        try:
            replace_file(path, f"writer {n}\n".encode(), expected=None)
            results.append(n)
        except FileChanged:
            results.append(None)

    threads = [threading.Thread(target=create, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    winners = [n for n in results if n is not None]
    assert len(winners) == 1
    assert path.read_text() == f"writer {winners[0]}\n"
    assert leftovers(tmp_path) == []


def test_without_backup_nothing_goes_to_the_backups_directory(tmp_path, home):
    path = tmp_path / "settings.json"
    path.write_text("{}")
    assert replace_file(path, b"[]", expected=b"{}") is None
    assert not (home / ".dp" / "backups").exists()


def test_backups_keep_the_newest_generations_named_after_the_real_file(tmp_path, home):
    real = tmp_path / "dotfiles" / "settings.json"
    real.parent.mkdir()
    real.write_text("v0")
    link = tmp_path / "settings.json"
    link.symlink_to(real)
    for n in range(BACKUP_GENERATIONS + 2):
        backup = replace_file(link, f"v{n + 1}".encode(), expected=f"v{n}".encode(), backup=True)
        assert backup.read_text() == f"v{n}"
        assert backup.name.startswith(str(real).strip("/").replace("/", "%") + ".")
    kept = backups_of(link)
    assert [p.read_text() for p in kept] == [f"v{n}" for n in range(BACKUP_GENERATIONS + 1, 1, -1)]
    assert backups_of(real) == kept  # the link and its target share their backups
    backups = home / ".dp" / "backups"
    assert stat.S_IMODE(backups.stat().st_mode) == 0o700
    assert {stat.S_IMODE(p.stat().st_mode) for p in kept} == {0o600}


def test_backups_of_a_file_are_not_confused_with_those_of_a_longer_name(tmp_path):
    for name in ("a.json", "a.json.old"):
        (tmp_path / name).write_text("1")
        replace_file(tmp_path / name, b"2", expected=b"1", backup=True)
    assert [p.read_text() for p in backups_of(tmp_path / "a.json")] == ["1"]
    assert len(backups_of(tmp_path / "a.json.old")) == 1
    assert backups_of(tmp_path / "never-written") == []


def test_a_file_that_cannot_be_written_is_an_error_and_stays_as_it_was(tmp_path):
    (tmp_path / "blocker").write_text("a file where a directory should be")
    with pytest.raises(DpError) as caught:
        replace_file(tmp_path / "blocker" / "settings.json", b"{}", expected=None)
    assert caught.value.message == f"cannot use {tmp_path / 'blocker' / 'settings.json'}: Not a directory"
    assert (tmp_path / "blocker").read_text() == "a file where a directory should be"


# -- removing ------------------------------------------------------------------


def test_remove_keeps_a_backup_then_deletes(tmp_path):
    path = tmp_path / "CLAUDE.md"
    path.write_text("notes")
    backup = remove_file(path, expected=b"notes")
    assert not path.exists() and backup.read_text() == "notes"
    assert backups_of(path) == [backup]


def test_remove_refuses_a_changed_file_and_a_link(tmp_path):
    path = tmp_path / "CLAUDE.md"
    path.write_text("edited by the user")
    with pytest.raises(FileChanged):
        remove_file(path, expected=b"notes")
    link = tmp_path / "AGENTS.md"
    link.symlink_to(path)
    with pytest.raises(FileChanged):
        remove_file(link, expected=b"edited by the user")
    assert path.read_text() == "edited by the user" and link.is_symlink()


# -- the atomic writer -----------------------------------------------------------


def test_exclusive_write_never_replaces_an_existing_file(tmp_path):
    path = tmp_path / "f"
    path.write_text("first")
    with pytest.raises(FileExistsError):
        write_atomically(path, b"second", exclusive=True)
    assert path.read_text() == "first" and leftovers(tmp_path) == []


def test_readers_see_the_old_or_the_new_content_never_a_mix(tmp_path):
    path = tmp_path / "settings.json"
    old, new = b"a" * 200_000, b"b" * 200_000
    path.write_bytes(old)
    seen = set()
    done = threading.Event()

    def read():
        while not done.is_set():
            seen.add(path.read_bytes())

    reader = threading.Thread(target=read)
    reader.start()
    try:
        for n in range(20):
            write_atomically(path, new if n % 2 == 0 else old)
            time.sleep(0.001)
    finally:
        done.set()
        reader.join()
    assert seen <= {old, new}


def test_default_mode_follows_the_umask():
    old_umask = os.umask(0o077)
    try:
        assert files.default_mode() == 0o600
    finally:
        os.umask(old_umask)
    assert os.umask(old_umask) == old_umask  # default_mode put the umask back
