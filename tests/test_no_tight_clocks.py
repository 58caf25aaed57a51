"""No test in tests/ bounds wall-clock time below the hook's installed timeout.

A bound like ``elapsed < 1.0`` measures the machine, not dp: on two cores shared
with a build it fails while dp is right. Speed is measured in ``bench/`` (ratios
against a floor taken in the same run); a test may bound time only to catch a
hang, and then no tighter than the timeout the client itself gives the hook.
"""

from __future__ import annotations

import ast
from pathlib import Path

from dp.hook import HOOK_TIMEOUT_SECONDS

TESTS = Path(__file__).resolve().parent
CLOCKS = {"monotonic", "perf_counter", "time", "monotonic_ns", "perf_counter_ns"}


def _reads_a_clock(node: ast.AST) -> bool:
    return any(isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in CLOCKS
               for call in ast.walk(node))


def _tight_bounds(tree: ast.AST):
    """Yield the line of every ``<clock expression> < N`` (or ``<=``) with N below the hook's timeout."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare) or not _reads_a_clock(node.left):
            continue
        for op, right in zip(node.ops, node.comparators):
            if (isinstance(op, (ast.Lt, ast.LtE)) and isinstance(right, ast.Constant)
                    and isinstance(right.value, (int, float)) and right.value < HOOK_TIMEOUT_SECONDS):
                yield node.lineno


def test_no_test_asserts_a_wall_clock_bound_below_the_hook_timeout():
    found = [f"{path.name}:{line}" for path in sorted(TESTS.glob("test_*.py"))
             for line in _tight_bounds(ast.parse(path.read_text()))]
    assert found == [], (f"wall-clock bounds below {HOOK_TIMEOUT_SECONDS} s (use a rendezvous, or bound by "
                         f"dp.hook.HOOK_TIMEOUT_SECONDS to catch a hang; speed belongs in bench/): {found}")


def test_the_scan_finds_a_tight_bound():
    """The check itself can fail: a one-second bound in a test body is found."""
    sample = "import time\nstarted = time.monotonic()\nassert time.monotonic() - started < 1.0\n"
    assert list(_tight_bounds(ast.parse(sample))) == [3]
