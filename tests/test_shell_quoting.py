"""Bash quoting in both directions: the literal value of a word, and text fed as a heredoc."""

from __future__ import annotations

import subprocess

import pytest

from dp.shell.quoting import literal, with_heredoc


@pytest.mark.parametrize("raw, value", [
    ("plain", "plain"),
    ("'a b'\"c\"\\ d", "a bc d"),
    ('"\\$x \\a"', "$x \\a"),
    ("a$", "a$"),
    ("'$(x)'", "$(x)"),
])
def test_literal_reads_quotes_and_escapes(raw, value):
    assert literal(raw) == value


@pytest.mark.parametrize("raw", ["$x", '"$(ls)"', "`ls`", "~/f", "${a}", "$'x'", "'open"])
def test_literal_is_unknown_where_bash_would_expand(raw):
    assert literal(raw) is None


def test_literal_can_refuse_globs():
    assert literal("*.py") == "*.py" and literal("*.py", globs=False) is None


@pytest.mark.parametrize("text", [
    "",
    "no newline at the end",
    "$(touch pwned) `id` ${HOME} \\ 'q' \"d\"\n",
    "DP_STDIN\nDP_STDIN_\n\tDP_STDIN__\nlast",
])
def test_with_heredoc_feeds_the_text_unchanged_to_bash(text, tmp_path):
    script = with_heredoc("cat", text)
    ran = subprocess.run(["bash", "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=30)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout == (text if text.endswith("\n") or not text else text + "\n")
    assert list(tmp_path.iterdir()) == []  # nothing in the body ran


def test_with_heredoc_delimiter_grows_past_every_line_of_the_text():
    assert with_heredoc("cat", "DP_STDIN\nDP_STDIN_\n").endswith("\nDP_STDIN__")
