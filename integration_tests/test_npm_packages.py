"""The shared npm installer: a registry that cannot be reached skips loudly, one that answers fails loudly.

Both are shown with the real npm against local stand-ins for the registry: a closed port (no
registry at all) and an HTTP server that answers 404 for everything (a registry without the
package). Each test uses its own empty cache, so nothing real is installed or reused.
"""

from __future__ import annotations

import http.server
import os
import re
import shutil
import socket
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest
from npm_packages import NpmTool, Unavailable, ensure

pytestmark = pytest.mark.skipif(shutil.which("npm") is None, reason="npm is not on PATH")
TOOL = NpmTool("@anthropic-ai/claude-code", "2.1.330", bin="claude")


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class NotFound(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 - the http.server hook's name
        body = b'{"error": "Not found"}'
        self.send_response(404)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def registry_env(tmp_path, monkeypatch):
    """An empty cache and npm's own config kept inside the test."""
    monkeypatch.setenv("DP_TESTS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("NPM_CONFIG_CACHE", str(tmp_path / "npm-cache"))
    monkeypatch.setenv("NPM_CONFIG_USERCONFIG", str(tmp_path / "npmrc"))
    return monkeypatch


def test_a_registry_that_cannot_be_reached_is_unavailable_naming_the_package(registry_env, tmp_path):
    registry_env.setenv("NPM_CONFIG_REGISTRY", f"http://127.0.0.1:{closed_port()}/")
    with pytest.raises(Unavailable, match="cannot be reached"):
        ensure(TOOL)
    assert not any((tmp_path / "cache").rglob("claude")), "nothing may be left behind"


def test_a_registry_without_the_package_is_an_error_not_a_skip(registry_env):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), NotFound)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        registry_env.setenv("NPM_CONFIG_REGISTRY", f"http://127.0.0.1:{server.server_address[1]}/")
        with pytest.raises(RuntimeError, match="answered but has no @anthropic-ai/claude-code@2.1.330"):
            ensure(TOOL)
    finally:
        server.shutdown()


def test_a_real_client_test_skips_loudly_when_the_registry_cannot_be_reached(tmp_path):
    """Run one real-client test in a pytest of its own: it is skipped, never an error, and says why."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST_")}
    env.update({"DP_TESTS_CACHE": str(tmp_path / "cache"), "NPM_CONFIG_CACHE": str(tmp_path / "npm-cache"),
                "NPM_CONFIG_USERCONFIG": str(tmp_path / "npmrc"),
                "NPM_CONFIG_REGISTRY": f"http://127.0.0.1:{closed_port()}/"})
    root = Path(__file__).resolve().parent.parent
    test = "integration_tests/real_client/test_capture.py"
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", test],
                          cwd=root, env=env, capture_output=True, text=True, timeout=600)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, textwrap.shorten(out, 2000)
    counts = out.strip().splitlines()[-1]
    assert re.fullmatch(r"\d+ skipped, \d+ warnings? in [\d.]+s", counts), counts
    assert "REAL CLIENT TESTS SKIPPED: @anthropic-ai/claude-code@2.1.330 cannot be installed from npm" in out
