"""dp on an older Claude Code (2.1.197, as many people still run): what works, what it lacks, said plainly.

2.1.197 runs dp's settings hooks (the rewrite, SessionStart, PostToolBatch) but loads no plugin mods
(those need 2.1.286, ``dp.agents.claude.client.MODS_SINCE``), and it hands a PreToolUse hook's context
to the model beside the tool's result as a system reminder, where 2.1.330 sends a ``role: system``
message after it: ``dp doctor --live`` must read both, or it reports a working hook as not firing.
"""

from __future__ import annotations

import json

from dp.agents.claude.fake_api import bash, tool_use
from real_client.test_plugin import release_client

OLD = "2.1.197"


def test_init_on_an_old_client_says_what_it_lacks_and_the_hook_works(tmp_path, warm_cache):
    client = release_client(tmp_path, warm_cache, OLD)
    proc = client.dp("init")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert ("Note:  Claude Code 2.1.197 is older than 2.1.286: it loads no plugin mods, so a made-up tool name is "
            "told to the model, not run as the right tool (upgrade: claude update)\n") in proc.stdout
    client.dp("alias", "--cmd", "oldtool", "--replace", "newtool")
    client.dp("alias", "read_file", "Read")
    client.program("newtool")

    call, made_up = bash("oldtool -x a.txt"), tool_use("read_file", {"file_path": "a.txt"})
    session = client.run([[call], [made_up]])
    assert session.tool_result(call["id"])["text"] == "newtool ran: -x a.txt"
    assert "dp: oldtool → newtool" in session.tool_result(call["id"])["context"]
    assert "read_file is not a valid tool. Use Read instead." in session.shown(made_up["id"])


def test_doctor_live_on_an_old_client_gives_a_verdict(tmp_path, warm_cache):
    client = release_client(tmp_path, warm_cache, OLD)
    client.init()
    client.dp("alias", "read_file", "Read")
    client.dp("alias", "--cmd", "oldtool", "--replace", "newtool")
    client.program("newtool")
    proc = client.dp("doctor", "--live", check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "reached the model: NO" not in proc.stdout
    assert proc.stdout.endswith("Verdict: dp works in Claude Code 2.1.197: every probe was corrected and the model "
                                "was told\n")

    report = json.loads(client.dp("doctor", "--live", "--json").stdout)
    bash_probe, alias_probe = report["probes"]
    assert bash_probe["fired"] and any("dp: oldtool → newtool" in line for line in bash_probe["told"])
    assert alias_probe["fired"] and report["fix"] is None


def test_doctor_live_names_the_missing_program_and_its_fix(tmp_path, warm_cache):
    client = release_client(tmp_path, warm_cache, OLD)
    client.init()
    client.dp("alias", "--cmd", "oldtool", "--replace", "newtool")  # newtool is not installed
    proc = client.dp("doctor", "--live", check=False)
    assert proc.returncode == 1
    assert ("    reached the model: NO\n" in proc.stdout
            and "    why: newtool is not installed here, so the hook leaves oldtool as typed\n"
                "    fix: install newtool\n" in proc.stdout), proc.stdout
    assert proc.stdout.endswith("Verdict: 1 of 1 probes did not reach the model: newtool is not installed here, so "
                                "the hook leaves oldtool as typed\n")
