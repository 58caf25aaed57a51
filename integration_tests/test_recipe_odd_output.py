"""Whatever a step prints, the run goes on: output that only looks like JSON is text.

A step's output becomes its variable (as JSON when all of it is JSON). Output
nested deeper than Python's json reader can go used to end ``dp recipe run``
with "internal error: RecursionError"; brackets that never close made
``parse_json`` scan for a minute.
"""

from __future__ import annotations

import json


def test_deeply_nested_and_unclosed_brackets_are_plain_text(dp, tmp_path):
    (tmp_path / "odd.yaml").write_text("""
name: odd
steps:
  - {id: deep, command: "python3 -c 'print(\\"[\\" * 100000 + \\"]\\" * 100000)'"}
  - {id: open, command: "python3 -c 'print(\\"{\\" * 1000000)'", parse_json: true}
  - {id: after, command: "echo ok"}
""")
    proc = dp("recipe", "run", "odd.yaml", "--json", cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(proc.stdout)
    statuses = {step["id"]: step["status"] for step in report["steps"]}
    assert statuses == {"deep": "completed", "open": "degraded", "after": "completed"}
    assert report["context"]["deep"] == "[" * 100000 + "]" * 100000
