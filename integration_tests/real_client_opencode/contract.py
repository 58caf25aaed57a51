"""OpenCode in the shared real-client contract (real_client_contract/): its user and its harness."""

from __future__ import annotations

from npm_packages import installed_or_skip
from plugin_users import harness_words
from real_client_contract.harnesses import Harness, Suite

from real_client_opencode import opencode_install
from real_client_opencode.opencode_support import OpenCodeUser, bash

SUITE = Suite(OpenCodeUser,
              lambda: installed_or_skip(opencode_install.tool(), "REAL CLIENT TESTS (OpenCode)"))
HARNESS = Harness("opencode", "opencode", bash, **harness_words(history=lambda s, c: s.call(c)["arguments"]))
