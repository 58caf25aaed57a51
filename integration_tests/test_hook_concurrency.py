"""Hook processes reading while `dp alias` writes: every call still answers correctly."""

from __future__ import annotations

import json
import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor

from hook_support import BIN, build_store, dp_alias

CALLS = 50
# Hook processes alive at once. More than a 2-core CI machine runs in parallel, so reads and writes
# interleave; few enough that none reaches the hook's own 3 s ceiling (it would then fail open).
AT_ONCE = 12


def test_fifty_hook_calls_twelve_at_a_time_while_dp_alias_writes(tmp_path):
    env = build_store(tmp_path, [["--cmd", "scp", "--flag", "r", "R"], ["read_file", "Read"]])
    payload = json.dumps({"tool_name": "Bash", "tool_input": {"command": "scp -r a h:/", "timeout": 9}})
    subprocess.run([str(BIN / "pave-check")], input=payload, text=True, env=env, capture_output=True)  # warm cache

    stop = threading.Event()
    writes = []

    def writer():
        n = 0
        while not stop.is_set() and n < 40:
            proc = dp_alias(env, "--cmd", f"tool{n}", "--flag", "a", "b")
            writes.append(proc.returncode)
            n += 1

    def call(_):
        return subprocess.run(
            [str(BIN / "pave-check")], input=payload, text=True, env=env, capture_output=True, timeout=60
        )

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        with ThreadPoolExecutor(max_workers=AT_ONCE) as pool:
            results = list(pool.map(call, range(CALLS)))
    finally:
        stop.set()
        thread.join()

    assert writes and all(code == 0 for code in writes)
    for proc in results:
        assert proc.returncode == 0, proc.stderr
        assert proc.stderr == ""
        assert json.loads(proc.stdout)["hookSpecificOutput"]["updatedInput"] == {"command": "scp -R a h:/", "timeout": 9}
    blocked = subprocess.run(
        [str(BIN / "pave-check")], input='{"tool_name": "read_file", "tool_input": {}}', text=True, env=env,
        capture_output=True,
    )
    assert blocked.returncode == 2
