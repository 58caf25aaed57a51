"""Kilo Code in the shared real-client contract (real_client_contract/): its user and its harness. Built on
OpenCode's plugin hooks, it makes every promise OpenCode makes (``like``), in the same words (observed in 7.7.7),
but two: Kilo shows the model its call as the model wrote it (no history to read), and it answers a made-up tool
name itself, before any plugin hook (no ``made_up_answer``)."""

from __future__ import annotations

from npm_packages import installed_or_skip
from plugin_users import bash, harness_words
from real_client_contract.harnesses import Harness, Suite

from real_client_kilo import kilo_install
from real_client_kilo.kilo_support import KiloUser

SUITE = Suite(KiloUser, lambda: installed_or_skip(kilo_install.tool(), "REAL CLIENT TESTS (Kilo Code)"))
# 7.7.7 answers a made-up tool name itself ("Model tried to call unavailable tool …"): no plugin sees it.
HARNESS = Harness("kilo", "kilo", bash, **harness_words(like="opencode", made_up_answer=""))
