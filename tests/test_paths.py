"""The one containment check and the one walk up to a project root (dp.paths)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dp.paths import MAX_DEPTH, confined, find_upwards, inside, walk_up


@pytest.fixture
def tree(tmp_path):
    root = tmp_path / "root"
    (root / "src" / "pkg").mkdir(parents=True)
    (root / "src" / "pkg" / "mod.py").write_text("")
    (tmp_path / "secret.txt").write_text("secret\n")
    (tmp_path / "root-sibling").mkdir()
    return root.resolve()


@pytest.mark.parametrize(
    "path, root, expected",
    [
        ("/srv/a", "/srv/a", True),
        ("/srv/a/b/c", "/srv/a", True),
        ("/srv/ab", "/srv/a", False),
        ("/srv", "/srv/a", False),
        ("/anything", "/", True),
        ("/srv/a/b", "/srv/a/", True),
    ],
)
def test_inside_compares_whole_components(path, root, expected):
    assert inside(path, root) is expected
    assert inside(Path(path), Path(root)) is expected


def test_confined_accepts_paths_inside_and_returns_them_resolved(tree):
    assert confined(tree / "src" / ".." / "src" / "pkg", tree) == tree / "src" / "pkg"
    assert confined(tree, tree) == tree
    assert confined(tree / "not-yet-there.txt", tree) == tree / "not-yet-there.txt"


@pytest.mark.parametrize("relative", ["..", "../secret.txt", "src/../../secret.txt", "../root-sibling", "/etc"])
def test_confined_refuses_escapes_through_dotdot_and_absolute_paths(tree, relative):
    assert confined(tree / relative, tree) is None


def test_confined_refuses_symlinks_that_lead_out_anywhere_along_the_path(tree):
    (tree / "leak.txt").symlink_to(tree.parent / "secret.txt")
    (tree / "src" / "up").symlink_to(tree.parent)
    (tree / "sibling").symlink_to(tree.parent / "root-sibling")
    for path in (tree / "leak.txt", tree / "src" / "up", tree / "src" / "up" / "secret.txt", tree / "sibling"):
        assert confined(path, tree) is None, path


def test_confined_follows_symlinks_that_stay_inside(tree):
    (tree / "code").symlink_to(tree / "src" / "pkg")
    assert confined(tree / "code" / "mod.py", tree) == tree / "src" / "pkg" / "mod.py"


def test_a_root_spelled_through_a_symlink_is_the_same_root(tree):
    link = tree.parent / "root-link"
    link.symlink_to(tree)
    assert confined(link / "src", link) == tree / "src"
    assert confined(link / ".." / "secret.txt", link) is None


def test_strict_confinement_needs_the_path_to_exist(tree):
    assert confined(tree / "missing", tree, strict=True) is None
    assert confined(tree / "src", tree, strict=True) == tree / "src"
    (tree / "loop").symlink_to(tree / "loop")
    assert confined(tree / "loop", tree, strict=True) is None


def test_walk_up_goes_from_start_to_stop_inclusive(tree):
    start = tree / "src" / "pkg"
    assert list(walk_up(start, tree)) == [start, tree / "src", tree]


def test_walk_up_without_stop_ends_at_the_filesystem_root(tree):
    walked = list(walk_up(tree))
    assert walked[0] == tree and walked[-1] == Path("/")
    assert walked == [tree, *tree.parents]


def test_walk_up_from_outside_stop_looks_at_start_only(tree):
    assert list(walk_up(tree.parent, tree)) == [tree.parent]
    assert list(walk_up(tree, tree)) == [tree]


def test_walk_up_is_bounded(tmp_path):
    deep = tmp_path.joinpath(*["d"] * (MAX_DEPTH + 5))
    walked = list(walk_up(deep))
    assert len(walked) == MAX_DEPTH
    assert list(walk_up(deep, limit=3)) == [deep, deep.parent, deep.parent.parent]


def test_find_upwards_finds_the_nearest_marker_within_stop(tree):
    (tree / ".git").mkdir()
    (tree / "src" / "package.json").write_text("{}")
    assert find_upwards(tree / "src" / "pkg", ".git") == tree
    assert find_upwards(tree / "src" / "pkg", "package.json") == tree / "src"
    assert find_upwards(tree / "src" / "pkg", ".git", stop=tree / "src") is None
    assert find_upwards(tree / "src" / "pkg", "nowhere") is None
