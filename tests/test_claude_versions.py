"""One release for Claude Code's plugin mods, said the same way by dp init, dp doctor, the plugin and the docs.

Init and the README said the plugin's mod needs 2.1.286+, doctor said 2.1.287 (issue 49). The number
lives in ``dp.agents.claude.client.MODS_SINCE``; every text that names the first release with mods
must name that one.
"""

from __future__ import annotations

import re
from pathlib import Path

from dp.agents.claude.client import MODS_SINCE, lacks, spelled

ROOT = Path(__file__).resolve().parent.parent
# Where a person reads which release the mod needs.
TEXTS = [ROOT / "README.md", ROOT / "dp" / "agents" / "claude" / "mod" / "README.md", ROOT / "docs" / "plugin.md",
         *(ROOT / "dp").rglob("*.py")]
# A release named as the first one with mods: "2.1.286+", "2.1.286 or later", "2.1.286 and later".
FIRST_WITH = re.compile(r"(\d+\.\d+\.\d+)(?:\+| or later| and later)")


def test_every_text_names_the_one_release_mods_need():
    wrong = []
    for path in TEXTS:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"\bmods?\b|plugin", line):
                wrong += [(path.name, number, found) for found in FIRST_WITH.findall(line)
                          if found != spelled(MODS_SINCE)]
    assert wrong == []


def test_an_older_client_is_told_what_it_lacks_and_a_current_one_nothing():
    assert lacks("2.1.197") == ("Claude Code 2.1.197 is older than 2.1.286: it loads no plugin mods, so a made-up "
                                "tool name is told to the model, not run as the right tool (upgrade: claude update)")
    assert lacks(spelled(MODS_SINCE)) is None and lacks("2.1.330") is None and lacks(None) is None
