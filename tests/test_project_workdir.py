"""Working-directory validation and path confinement (dp.project.workdir)."""

from __future__ import annotations

import os

import pytest

from dp.errors import DpError
from dp.project.workdir import confine, working_directory


@pytest.fixture
def root(tmp_path):
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    (project / "src" / "app.py").write_text("print()\n")
    (tmp_path / "outside.txt").write_text("secret\n")
    return working_directory(project)


def test_accepts_own_writable_directory_and_returns_its_real_path(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert working_directory(tmp_path / "link") == (tmp_path / "real").resolve()


def test_defaults_to_the_current_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert working_directory() == tmp_path.resolve()


@pytest.mark.parametrize("directory", ["/", "/etc", "/usr", "/usr/share", "/var", "/proc", "/dev", "/bin"])
def test_refuses_root_and_system_directories(directory):
    if not os.path.isdir(directory):
        pytest.skip(f"{directory} does not exist here")
    with pytest.raises(DpError, match="system directory"):
        working_directory(directory)


def test_refuses_a_symlink_into_a_system_directory(tmp_path):
    (tmp_path / "etc-link").symlink_to("/etc")
    with pytest.raises(DpError, match="system directory"):
        working_directory(tmp_path / "etc-link")


def test_refuses_missing_directory_and_plain_file(tmp_path):
    with pytest.raises(DpError, match="does not exist"):
        working_directory(tmp_path / "nope")
    (tmp_path / "file").write_text("")
    with pytest.raises(DpError, match="not a directory"):
        working_directory(tmp_path / "file")


def test_refuses_directory_without_owner_write_bit(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        with pytest.raises(DpError, match="not writable"):
            working_directory(locked)
    finally:
        locked.chmod(0o755)


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a directory to another user")
def test_refuses_directory_owned_by_someone_else(tmp_path):
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    os.chown(theirs, 65534, 65534)
    with pytest.raises(DpError, match="owned by uid 65534"):
        working_directory(theirs)


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("src/app.py", "src/app.py"),
        ("./src/../src/app.py", "src/app.py"),
        (".", "."),
        ("src/", "src"),
        ("not-yet-created.txt", "not-yet-created.txt"),
    ],
)
def test_confine_returns_paths_relative_to_the_root(root, raw, expected):
    assert confine(root, raw) == expected


def test_confine_accepts_absolute_paths_inside(root):
    assert confine(root, str(root / "src" / "app.py")) == "src/app.py"


def test_confine_keeps_an_in_tree_symlink_as_named_and_resolves_linked_parents(root):
    (root / "alias.py").symlink_to("src/app.py")
    (root / "code").symlink_to("src")
    assert confine(root, "alias.py") == "alias.py"
    assert confine(root, "code/app.py") == "src/app.py"


@pytest.mark.parametrize("raw", ["..", "../outside.txt", "src/../../outside.txt", "/etc/passwd", "/"])
def test_confine_refuses_paths_outside(root, raw):
    with pytest.raises(DpError, match="is outside the working directory"):
        confine(root, raw)


def test_confine_refuses_symlinks_leading_out(root):
    (root / "escape.txt").symlink_to(root.parent / "outside.txt")
    (root / "up").symlink_to(root.parent)
    for raw in ("escape.txt", "up", "up/", "up/outside.txt"):
        with pytest.raises(DpError, match="through a symlink"):
            confine(root, raw)


def test_confine_refuses_empty_path(root):
    with pytest.raises(DpError, match="empty path"):
        confine(root, "")
