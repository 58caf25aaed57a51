"""dp.mcp.probe against real child processes that play MCP servers, well and badly.

``dp doctor`` starts whatever server is registered and must come back with
either the tool names or one sentence saying what went wrong — within its
time limit, with a bounded read, and without leaving the server (or anything
it started) running.
"""

from __future__ import annotations

import os
import sys
import textwrap
import time

import pytest
from process_support import wait_gone

from dp.mcp.probe import MAX_LINE_BYTES, ProbeError, list_tools

PRELUDE = """
import json, sys
def answer(request_id, result=None, error=None):
    message = {"jsonrpc": "2.0", "id": request_id}
    message.update({"error": error} if error else {"result": result})
    print(json.dumps(message), flush=True)
def requests():
    for line in sys.stdin:
        request = json.loads(line)
        if "id" in request:  # notifications get no answer
            yield request
"""


def server(tmp_path, body: str) -> list[str]:
    script = tmp_path / "server.py"
    script.write_text(PRELUDE + textwrap.dedent(body))
    return [sys.executable, str(script)]


GOOD = """
for request in requests():
    if request.get("method") == "initialize":
        print(json.dumps({"jsonrpc": "2.0", "method": "notifications/message", "params": {}}), flush=True)
        answer(request["id"], {"protocolVersion": request["params"]["protocolVersion"], "capabilities": {}})
    elif request.get("method") == "tools/list":
        answer(request["id"], {"tools": [{"name": "tasks"}, {"name": "recipe"}, "not a tool"]})
"""


def test_a_server_that_follows_the_protocol_lists_its_tools(tmp_path):
    assert list_tools(server(tmp_path, GOOD), tmp_path) == ["tasks", "recipe"]


def test_the_server_runs_in_the_directory_it_is_probed_for(tmp_path):
    (tmp_path / "project").mkdir()
    body = """
import os
for request in requests():
    answer(request["id"], {"tools": [{"name": os.getcwd()}]} if request.get("method") == "tools/list" else {})
"""
    assert list_tools(server(tmp_path, body), tmp_path / "project") == [str(tmp_path / "project")]


@pytest.mark.parametrize("body, message", [
    ("print('Starting server...', flush=True)\nsys.stdin.read()",
     "it printed something that is not JSON-RPC on stdout: b'Starting server...'"),
    ("sys.stderr.write('error: no such option --bogus\\n')\nsys.exit(2)",
     "it exited without answering: error: no such option --bogus"),
    ("sys.exit(0)", "it exited without answering"),
    ("for request in requests():\n    answer(request['id'], error={'code': -32601, 'message': 'unsupported version'})",
     "it answered with an error: unsupported version"),
    (f"sys.stdout.write('x' * {MAX_LINE_BYTES + 10}); sys.stdout.flush(); sys.stdin.read()",
     "it sent an oversized message"),
    ("print('[' * 100000 + ']' * 100000, flush=True)\nsys.stdin.read()",
     f"it printed something that is not JSON-RPC on stdout: {b'[' * 80!r}"),
])
def test_a_broken_server_is_one_sentence(tmp_path, body, message):
    with pytest.raises(ProbeError) as caught:
        list_tools(server(tmp_path, body), tmp_path, timeout=20)
    assert str(caught.value) == message


def test_a_silent_server_is_given_up_on_at_the_time_limit(tmp_path):
    started = time.monotonic()
    with pytest.raises(ProbeError, match="^it did not answer within the time limit$"):
        list_tools(server(tmp_path, "sys.stdin.read()"), tmp_path, timeout=1)
    assert time.monotonic() - started < 15


def test_a_server_that_ignores_the_closed_stdin_is_killed_with_what_it_started(tmp_path):
    pid_file = tmp_path / "child.pid"
    body = f"""
import signal, subprocess, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
child = subprocess.Popen(["sleep", "300"])
open({str(pid_file)!r}, "w").write(str(child.pid))
for request in requests():
    answer(request["id"], {{"tools": []}} if request.get("method") == "tools/list" else {{}})
    if request.get("method") == "tools/list":
        break
time.sleep(300)
"""
    started = time.monotonic()
    assert list_tools(server(tmp_path, body), tmp_path) == []
    assert time.monotonic() - started < 30
    child = int(pid_file.read_text())
    assert wait_gone(child, 10), "the server's own child outlived the probe"




@pytest.mark.parametrize("argv, message", [
    (["/nonexistent/dp", "mcp"], "cannot start /nonexistent/dp: No such file or directory"),
    ([os.devnull, "mcp"], f"cannot start {os.devnull}: Permission denied"),
])
def test_a_program_that_cannot_start_is_named(tmp_path, argv, message):
    with pytest.raises(ProbeError) as caught:
        list_tools(argv, tmp_path)
    assert str(caught.value) == message
