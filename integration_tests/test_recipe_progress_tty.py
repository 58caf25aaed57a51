"""``dp recipe run --progress`` on a terminal: the live table, not event lines.

When stderr is a terminal, ``--progress`` draws one row per step (its name,
status and elapsed time, sub-recipe steps indented) and redraws it as steps
finish; stdout still gets the plain summary, so a pipe on stdout is unaffected.
The event-line form (stderr not a terminal) is in test_recipe_cli.py.
"""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

DP_BIN = Path(sys.executable).parent / "dp"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")


def run_with_terminal_stderr(args, cwd: Path, env: dict, timeout: float = 60) -> tuple[int, str, str]:
    """Run ``dp ARGS`` with stderr on a pseudo-terminal; (exit code, stdout, what the terminal showed)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([str(DP_BIN), *args], cwd=cwd, env={**env, "TERM": "xterm", "COLUMNS": "100"},
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    shown = b""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # the terminal closed: every writer has exited
                    break
                if not chunk:
                    break
                shown += chunk
            elif proc.poll() is not None:
                break
        stdout, _ = proc.communicate(timeout=max(1.0, deadline - time.monotonic()))
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
    return proc.returncode, stdout.decode(), ANSI.sub("", shown.decode("utf-8", "replace"))


def test_a_terminal_gets_a_live_table_of_every_step(env, tmp_path):
    (tmp_path / "recipes").mkdir()
    (tmp_path / "recipes" / "child.yaml").write_text("name: child\nsteps: [{id: inner, command: echo in}]\n")
    (tmp_path / "recipes" / "table.yaml").write_text("""
name: table
steps:
  - {id: first, command: sleep 0.5}
  - {id: nested, recipe: child}
  - {id: gated, condition: 'false', command: echo never}
  - {id: broken, command: exit 4}
""")
    code, stdout, shown = run_with_terminal_stderr(["recipe", "run", "table", "--progress"], tmp_path, env)
    assert code == 1, shown
    assert "STEP" in shown and "STATUS" in shown and "ELAPSED" in shown
    final = shown[shown.rindex("STEP"):]
    rows = {line.split()[0]: line.split()[1:] for line in final.splitlines()[1:] if line.strip()}
    assert rows["first"][0] == "completed" and re.fullmatch(r"\d+\.\ds", rows["first"][1])
    assert rows["nested"][0] == "completed"
    assert rows["inner"][0] == "completed"
    assert rows["gated"][0] == "skipped"
    assert rows["broken"][0] == "failed"
    assert "  inner" in final  # a sub-recipe's step is indented under its parent
    assert "> first [bash] running" not in shown  # the table replaces the event lines
    assert stdout.startswith("Recipe 'table': FAILED")
