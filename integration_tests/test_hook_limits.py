"""The hook's own time limits against the timeout dp installs for it.

Claude Code kills a hook that outlives the entry's ``timeout``; a killed hook
says nothing, so dp's own ceiling (store wait included) must end the work
well before, and the two numbers come from one constant.
"""

from __future__ import annotations

import json


def test_the_hooks_ceiling_is_well_below_the_installed_timeout(dp, home):
    from dp.hook import TIME_BUDGET_SECONDS, WALL_CEILING_SECONDS
    from dp.store.read import BUSY_TIMEOUT_MS

    assert dp("pave", "--hook").returncode == 0
    settings = json.loads((home / ".claude" / "settings.json").read_text())
    (entry,) = settings["hooks"]["PreToolUse"][0]["hooks"]
    installed = entry["timeout"]
    # Python start-up and writing the answer must still fit after the ceiling.
    assert WALL_CEILING_SECONDS <= installed * 0.75
    assert TIME_BUDGET_SECONDS <= WALL_CEILING_SECONDS
    assert BUSY_TIMEOUT_MS / 1000 < WALL_CEILING_SECONDS
