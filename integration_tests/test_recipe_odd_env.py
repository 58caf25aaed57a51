"""``dp recipe run`` under odd environment values: the output stays the size of what happened."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("value", ["0", "-1", "nan"])
def test_a_nonsense_progress_interval_falls_back_to_the_default(dp, tmp_path, value):
    (tmp_path / "nap.yaml").write_text("name: nap\nsteps: [{id: a, command: sleep 1}]\n")
    proc = dp("recipe", "run", "nap.yaml", cwd=tmp_path, extra_env={"DP_PROGRESS_SECONDS": value})
    assert proc.returncode == 0, proc.stderr
    assert "still running" not in proc.stdout + proc.stderr  # the default 10 s never came
    assert len((proc.stdout + proc.stderr).splitlines()) < 10
