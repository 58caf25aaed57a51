"""Wrappers that run another program: which word is the program, and where it runs."""

from __future__ import annotations

import pytest

from dp.shell.wrappers import changes_directory, is_assignment, program_index


@pytest.mark.parametrize("words, expected", [
    (["grep", "x"], 0),
    (["sudo", "-u", "bob", "grep", "x"], 3),
    (["env", "A=1", "B=2", "grep"], 3),
    (["timeout", "5", "grep"], 2),
    (["timeout", "-s", "KILL", "5", "grep"], 4),
    (["xargs", "-0", "-n", "1", "grep"], 4),
    (["command", "grep"], 1),
    (["command", "-v", "grep"], 0),  # only reports on grep
    (["sudo", "-l", "grep"], 0),
    (["nice", "--", "grep"], 2),
    (["/usr/bin/sudo", "grep"], 1),
    (["sudo"], 0),  # a bare wrapper is itself the command
    (["timeout", "5"], 0),
])
def test_program_index(words, expected):
    assert program_index(words) == expected


@pytest.mark.parametrize("word, expected", [
    ("A=1", True), ("_x=", True), ("A+=1", True), ("arr[2]=x", True),
    ("1A=1", False), ("=x", False), ("a-b=1", False), ("--flag=1", False), ("grep", False),
])
def test_is_assignment(word, expected):
    assert is_assignment(word) is expected


@pytest.mark.parametrize("words, expected", [
    (["env", "-C", "/tmp"], True),
    (["sudo", "--chdir=/srv"], True),
    (["sudo", "--chdir", "/srv"], True),
    (["env", "A=1"], False),
    (["timeout", "5"], False),
    ([], False),
])
def test_changes_directory(words, expected):
    assert changes_directory(words) is expected
