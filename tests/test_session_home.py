"""The test session itself is isolated (root conftest.py), and CI runs the README's command as written."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_session_runs_in_a_temporary_home_of_its_own():
    home = Path.home()
    assert home.name.startswith("dp-tests-home-") and home.parent == Path(tempfile.gettempdir())
    for key in ("XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
        assert Path(os.environ[key]).is_relative_to(home), key
    assert not [key for key in os.environ if key.startswith(("DP_", "CLAUDE")) and not key.startswith("DP_TESTS_")]
    # The tool cache the tests install into lives on, outside the temporary HOME.
    assert not Path(os.environ["DP_TESTS_CACHE"]).is_relative_to(home)


def test_dp_itself_sees_the_temporary_home(tmp_path):
    code = "from dp.cachedir import cache_dir; from dp.store.location import db_location; print(cache_dir()); print(db_location())"
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True)
    cache, store = proc.stdout.splitlines()
    assert Path(cache).is_relative_to(Path.home()) and Path(store).is_relative_to(Path.home())


def test_ci_runs_the_readme_test_command_exactly_as_written():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = re.search(r"exactly what CI runs\):\n\n```sh\n(.+)\n```", readme).group(1)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert shown in ci.splitlines()
