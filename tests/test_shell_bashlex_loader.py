"""bashlex imported from the table cache instead of regenerating its parser."""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys

PROBE = r"""
import json, sys
from dp.shell.bashlex_loader import load
bashlex = load()
tree = bashlex.parse("sudo grep -n x f && (ls | wc -l)")[0]
print(json.dumps({"dump": tree.dump(), "inspect": "inspect" in sys.modules}))
"""


def run_probe(cache_home) -> dict:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache_home)}
    proc = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def cache_files(cache_home):
    folder = cache_home / "dp"
    return sorted(folder.glob("bashlex-tables-*.marshal")) if folder.exists() else []


def test_first_import_writes_the_cache_and_later_imports_use_it(tmp_path):
    first = run_probe(tmp_path)
    [cache] = cache_files(tmp_path)
    data = marshal.loads(cache.read_bytes())
    assert set(data) == {"productions", "action", "goto"}
    second = run_probe(tmp_path)
    assert second["dump"] == first["dump"]
    # The cached path never runs PLY's generator, which is what imports inspect.
    assert first["inspect"] is True
    assert second["inspect"] is False


def test_a_corrupt_cache_is_rebuilt(tmp_path):
    reference = run_probe(tmp_path)
    [cache] = cache_files(tmp_path)
    cache.write_bytes(marshal.dumps({"productions": [["S'", 1, None]], "action": {}, "goto": 7}))
    assert run_probe(tmp_path)["dump"] == reference["dump"]
    assert marshal.loads(cache.read_bytes())["goto"] != 7


def test_a_cache_of_garbage_bytes_is_rebuilt(tmp_path):
    reference = run_probe(tmp_path)
    [cache] = cache_files(tmp_path)
    cache.write_bytes(b"\x00not marshal at all\xff" * 10)
    assert run_probe(tmp_path)["dump"] == reference["dump"]
    assert set(marshal.loads(cache.read_bytes())) == {"productions", "action", "goto"}


def test_an_unwritable_cache_still_parses(tmp_path):
    blocker = tmp_path / "blocked"
    blocker.write_text("a file where the cache directory should be")
    result = run_probe(blocker)
    assert "CommandNode" in result["dump"]
