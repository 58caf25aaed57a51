"""dp.cachedir's stamped values and small JSON state files: a cache is never worth an error.

The hook keeps derived data (bashlex tables, compiled alias recipes, the help
page) in files named after a short checksum of what it was derived from. A
value must come back only for exactly its stamp, and anything wrong with the
file — missing, cut short, garbage, another stamp's, unwritable — must read
as "not cached", never as a crash or a stale value.
"""

from __future__ import annotations

import marshal
import os

import pytest

from dp.cachedir import MADE_ABOVE, cache_dir, made_above, read_json_object, read_stamped, stamped_path, write_stamped


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "dp"


@pytest.mark.parametrize("value", ["page", {"tables": [1, 2]}, (1, "x"), b"\x00bytes", None, 0])
def test_a_value_comes_back_for_its_stamp(value):
    write_stamped("tables", "bashlex 0.18\npython 3.11", value)
    assert read_stamped("tables", "bashlex 0.18\npython 3.11") == value


def test_the_file_lives_in_the_cache_dir_named_by_prefix_and_checksum(cache):
    path = stamped_path("help", "stamp")
    assert os.path.dirname(path) == str(cache) == cache_dir()
    assert os.path.basename(path).startswith("help-") and path.endswith(".marshal")
    assert stamped_path("help", "stamp") == path
    assert stamped_path("help", "stamp2") != path
    assert stamped_path("other", "stamp") != path


@pytest.mark.parametrize("value", ["", "relative/cache", "."])
def test_an_unset_or_relative_xdg_cache_home_means_the_home_cache(monkeypatch, tmp_path, value):
    monkeypatch.setenv("XDG_CACHE_HOME", value)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    assert cache_dir() == str(tmp_path / "home" / ".cache" / "dp")
    write_stamped("help", "stamp", "page")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home"]  # nothing in the working directory


def test_nothing_cached_reads_as_none():
    assert read_stamped("tables", "never written") is None


def test_another_stamps_value_in_the_same_file_is_not_returned():
    """File names carry only a checksum: a colliding stamp must not get the other's value."""
    write_stamped("tables", "stamp A", "value of A")
    os.replace(stamped_path("tables", "stamp A"), stamped_path("tables", "stamp B"))
    assert read_stamped("tables", "stamp B") is None


def test_a_new_stamp_replaces_nothing_of_the_old_one():
    write_stamped("help", "width 80", "narrow page")
    write_stamped("help", "width 120", "wide page")
    assert read_stamped("help", "width 80") == "narrow page"
    assert read_stamped("help", "width 120") == "wide page"


@pytest.mark.parametrize("content", [
    b"",                                   # empty (a crash before the first byte)
    marshal.dumps(("stamp", "value"))[:5],  # cut short
    b"not marshal data at all \xff\xfe",     # garbage
    marshal.dumps("just a string"),        # no (stamp, value) pair
    marshal.dumps(("stamp", "a", "b")),    # a tuple of the wrong size
])
def test_a_broken_cache_file_reads_as_not_cached(content):
    path = stamped_path("tables", "stamp")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(content)
    assert read_stamped("tables", "stamp") is None
    write_stamped("tables", "stamp", "rebuilt")  # and the next write repairs it
    assert read_stamped("tables", "stamp") == "rebuilt"


def test_a_directory_in_place_of_the_file_reads_as_not_cached_and_is_not_written_over():
    os.makedirs(stamped_path("tables", "stamp"))
    assert read_stamped("tables", "stamp") is None
    write_stamped("tables", "stamp", "value")  # skipped silently
    assert os.path.isdir(stamped_path("tables", "stamp"))


def test_a_cache_that_cannot_be_created_is_skipped(tmp_path, monkeypatch):
    (tmp_path / "file").write_text("XDG_CACHE_HOME points at a file")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))
    write_stamped("help", "stamp", "page")  # no error
    assert read_stamped("help", "stamp") is None


def test_a_value_marshal_cannot_write_is_skipped():
    write_stamped("tables", "stamp", object())
    assert read_stamped("tables", "stamp") is None
    assert not os.path.exists(stamped_path("tables", "stamp"))


def test_stamps_may_hold_any_text():
    stamp = "path/with/ünïcode\n\udcff surrogate from a file name"
    write_stamped("tables", stamp, 1)
    assert read_stamped("tables", stamp) == 1


def test_writes_leave_no_temporary_files(cache):
    for n in range(3):
        write_stamped("tables", f"stamp {n}", n)
    # Beside the three values, only the note of the directory dp made above the cache ($XDG_CACHE_HOME here).
    names = [name for name in os.listdir(cache) if name != MADE_ABOVE]
    assert all(name.endswith(".marshal") for name in names) and len(names) == 3


def test_the_directories_made_above_the_cache_are_noted_once_and_only_those(cache, tmp_path):
    write_stamped("tables", "one", 1)
    write_stamped("tables", "two", 2)
    assert made_above() == [str(tmp_path / "xdg")]
    assert (cache / MADE_ABOVE).read_text() == f"{tmp_path / 'xdg'}\n"


# -- read_json_object ----------------------------------------------------------


@pytest.mark.parametrize("content, expected", [
    (None, {}),
    (b"", {}),
    (b"{broken", {}),
    (b"[1, 2]", {}),
    (b'"text"', {}),
    (b"\xff\xfe", {}),
    (b'{"paving": true}', {"paving": True}),
])
def test_read_json_object_gives_an_object_or_an_empty_one(tmp_path, content, expected):
    path = tmp_path / "state.json"
    if content is not None:
        path.write_bytes(content)
    assert read_json_object(str(path), 1024) == expected


def test_read_json_object_ignores_a_file_over_its_limit(tmp_path):
    path = tmp_path / "state.json"
    path.write_text('{"key": "' + "x" * 100 + '"}')
    assert read_json_object(str(path), 50) == {}
    assert read_json_object(str(path), 200) == {"key": "x" * 100}


def test_read_json_object_of_a_directory_is_empty(tmp_path):
    assert read_json_object(str(tmp_path), 1024) == {}


def test_concurrent_writers_and_readers_of_one_stamp_never_see_a_partial_value():
    """Two hooks may rebuild the same cache at once: a reader gets a whole value or none."""
    import threading

    values = [list(range(n, n + 20_000)) for n in range(4)]
    seen, errors = [], []
    done = threading.Event()

    def write(value):
        for _ in range(20):
            write_stamped("tables", "shared stamp", value)

    def read():
        while not done.is_set():
            try:
                seen.append(read_stamped("tables", "shared stamp"))
            except Exception as exc:  # noqa: BLE001 (any exception is the failure)
                errors.append(exc)

    readers = [threading.Thread(target=read) for _ in range(2)]
    writers = [threading.Thread(target=write, args=(value,)) for value in values]
    for thread in readers + writers:
        thread.start()
    for thread in writers:
        thread.join()
    done.set()
    for thread in readers:
        thread.join()
    assert errors == []
    assert all(value is None or value in values for value in seen)
    assert read_stamped("tables", "shared stamp") in values
