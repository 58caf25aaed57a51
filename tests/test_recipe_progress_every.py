"""How often a silent recipe step gets a "still running" line: $DP_PROGRESS_SECONDS, within sense.

0, a negative number or nan made the ticker print a line on every pass of
its loop without waiting — hundreds of thousands of lines per second of a
silent step (integration_tests/test_recipe_odd_env.py shows it through
``dp recipe run``).
"""

from __future__ import annotations

import math

import pytest

from dp.cli.recipe_progress import MIN_PROGRESS_EVERY, PROGRESS_EVERY, progress_every


@pytest.mark.parametrize("value, every", [
    (None, PROGRESS_EVERY),
    ("2.5", 2.5),
    (str(MIN_PROGRESS_EVERY), MIN_PROGRESS_EVERY),
    ("inf", math.inf),           # never
    ("0", PROGRESS_EVERY),
    ("-1", PROGRESS_EVERY),
    ("1e-9", PROGRESS_EVERY),
    ("nan", PROGRESS_EVERY),
    ("ten", PROGRESS_EVERY),
    ("", PROGRESS_EVERY),
])
def test_only_a_sensible_number_of_seconds_is_taken(monkeypatch, value, every):
    if value is None:
        monkeypatch.delenv("DP_PROGRESS_SECONDS", raising=False)
    else:
        monkeypatch.setenv("DP_PROGRESS_SECONDS", value)
    assert progress_every() == every
