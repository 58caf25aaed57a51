"""The README's shell examples, run: every ```console block, in order, in one temporary HOME.

Each ``$ command`` runs with bash in a scratch project directory (stdout and
stderr together, as a terminal shows them) and what it prints must be the
lines the README shows under it, after the volatile parts are normalised
(times, durations, the temporary HOME shown as /tmp/alice, dp's install
directory shown as /tmp/venv/bin, the host name, backup file names, and dp init's
warning about the checkout's own .venv that the tests run from). Blocks run in README order
and share the store, as a reader following along would.

Markers, an HTML comment on the line before the block's fence (invisible on
GitHub):

* ``<!-- doctest: skip REASON -->`` — the block cannot run here; the reason says why;
* ``<!-- doctest: setup COMMAND -->`` — run COMMAND first (e.g. create a file the
  example reads); several may precede a block.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
MARKER = re.compile(r"^<!-- doctest: (skip|setup) (.*) -->$")
VOLATILE = [
    (re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\dZ?"), "<TIME>"),
    (re.compile(r"took \d+ ms"), "took <N> ms"),
    (re.compile(r"\(\d+\.\d+s\)"), "(<T>s)"),
    (re.compile(r"\b\d+\.\d+s\b"), "<T>s"),
    (re.compile(r"after \d+\.\d+ s"), "after <T> s"),
    (re.compile(r'"duration_ms": \d+'), '"duration_ms": <N>'),
    (re.compile(r'^source = ".*"$', re.M), 'source = "<HOST>"'),
    (re.compile(r"/tmp/alice/\.dp/backups/\S+?(?=\"|$| )", re.M), "<BACKUP>"),
    # The test runs the dp installed in this checkout's .venv, which dp rightly warns about.
    (re.compile(r"^ *warning: \S+/pave-check is inside the repository .*\n?", re.M), ""),
]


def blocks(text: str) -> list[dict]:
    """Every console block: its line number, markers, and (command, expected lines) pairs."""
    lines = text.splitlines()
    found, markers = [], []
    index = 0
    while index < len(lines):
        line = lines[index].strip()
        marker = MARKER.match(line)
        if marker:
            markers.append(marker.groups())
        elif line == "```console":
            end = next(i for i in range(index + 1, len(lines)) if lines[i].strip() == "```")
            body = [body_line[len(lines[index]) - len(lines[index].lstrip()):] for body_line in lines[index + 1:end]]
            found.append({"line": index + 1, "markers": markers, "steps": _steps(body)})
            markers, index = [], end
        elif line:
            markers = []
        index += 1
    return found


def _steps(body: list[str]) -> list[tuple[str, list[str]]]:
    steps: list[tuple[str, list[str]]] = []
    for line in body:
        if line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps:
            steps[-1][1].append(line)
    return steps


def normalise(text: str, home: Path, bin_dir: Path) -> str:
    text = text.replace(str(bin_dir), "/tmp/venv/bin").replace(str(home), "/tmp/alice")
    for pattern, replacement in VOLATILE:
        text = pattern.sub(replacement, text)
    return "\n".join(line.rstrip() for line in text.splitlines())


def test_every_block_is_run_or_says_why_not():
    for block in blocks(README.read_text(encoding="utf-8")):
        kinds = [kind for kind, _ in block["markers"]]
        for kind, value in block["markers"]:
            assert value.strip(), f"README.md:{block['line']}: a {kind} marker needs a reason or a command"
        assert kinds.count("skip") <= 1, f"README.md:{block['line']}"


def test_readme_examples_print_what_the_readme_shows(tmp_path):
    home = tmp_path / "alice"
    work = home / "project"
    work.mkdir(parents=True)
    (work / ".git").mkdir()
    bin_dir = Path(sys.executable).parent
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DP_", "CLAUDE"))}
    env.update({"HOME": str(home), "PATH": f"{bin_dir}:{env.get('PATH', '')}", "NO_COLOR": "1",
                "COLUMNS": "200", "XDG_CACHE_HOME": str(home / ".cache")})
    failures = []
    for block in blocks(README.read_text(encoding="utf-8")):
        if any(kind == "skip" for kind, _ in block["markers"]):
            continue
        for kind, command in block["markers"]:
            subprocess.run(["bash", "-c", command], cwd=work, env=env, capture_output=True, timeout=120)
        for command, expected in block["steps"]:
            proc = subprocess.run(["bash", "-c", command], cwd=work, env=env, timeout=120,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            shown = normalise("\n".join(expected), home, bin_dir)
            printed = normalise(proc.stdout, home, bin_dir)
            if expected and expected[-1].strip() == "…":  # the README shows only the start
                shown = "\n".join(shown.splitlines()[:-1])
                printed = "\n".join(printed.splitlines()[: len(shown.splitlines())])
            if printed != shown:
                failures.append(f"README.md:{block['line']}: $ {command}\n--- README shows:\n{shown}\n"
                                f"--- dp printed:\n{printed}\n")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("text, expected", [
    ("<!-- doctest: skip needs the network -->\n```console\n$ a\nb\n```\n", [("skip", "needs the network")]),
    ("<!-- doctest: skip x -->\n\nprose\n```console\n$ a\n```\n", []),
])
def test_markers_belong_to_the_next_block_only(text, expected):
    assert blocks(text)[0]["markers"] == expected
