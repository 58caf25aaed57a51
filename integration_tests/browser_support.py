"""A real headless Chromium (Debian's ``chromium``) opening a page from disk, with no way out to the network.

Every request the browser makes goes to a recording proxy on 127.0.0.1 that answers none (``Visit.requests``);
the page's console messages are read from the browser's log on stderr (``--enable-logging=stderr``, one
``CONSOLE`` line per message of any level, uncaught errors and Content-Security-Policy refusals included);
the document after its scripts ran comes from ``--dump-dom``; the picture from ``--screenshot``, decoded
here with zlib (``png_pixels``).
"""

from __future__ import annotations

import html.parser
import os
import re
import shutil
import socket
import struct
import subprocess
import threading
import zlib
from pathlib import Path

import pytest

# Requests the browser itself makes whatever page it shows (its component updater and account check, which
# no flag turns off in Chromium 156): only these exact hosts are left out of ``Visit.page_requests``.
BROWSER_OWN = ("update.googleapis.com", "accounts.google.com", "clients2.google.com")
FLAGS = ("--headless", "--disable-gpu", "--no-first-run", "--no-default-browser-check", "--disable-sync",
         "--disable-background-networking", "--disable-component-update", "--disable-default-apps", "--no-pings",
         "--disable-domain-reliability", "--disable-client-side-phishing-detection", "--hide-scrollbars",
         "--disable-features=NetworkTimeServiceQuerying,OptimizationHints,MediaRouter,Translate",
         "--proxy-bypass-list=<-loopback>", "--enable-logging=stderr", "--v=0")
_CONSOLE = re.compile(r":CONSOLE[:(]\d*\)?\] (.*)$")
_HOST = re.compile(rb"^(?:CONNECT ([^ :]+)|[A-Z]+ [a-z]+://([^/: ]+))")


class Document(html.parser.HTMLParser):
    """The dumped document: each element's attributes by id, table cells' text, script elements."""

    def __init__(self, text: str):
        super().__init__()
        self.by_id, self.cells, self.scripts, self._cell, self.body = {}, [], 0, None, {}
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.by_id[attrs["id"]] = attrs
        if tag == "body":
            self.body = attrs
        if tag == "script":
            self.scripts += 1
        if tag == "td":
            self._cell = []

    def handle_endtag(self, tag):
        if tag == "td" and self._cell is not None:
            self.cells.append("".join(self._cell))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def chromium() -> str:
    """The chromium binary; skips loudly when there is none (.ci/run installs Debian's package), and fails
    under CI, where a missing browser would otherwise hide that the page was never opened."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    message = ("SKIPPED LOUDLY: no chromium on PATH, so dp report's page was not opened in a browser; "
               "install Debian's package (apt-get install chromium), as .ci/run does")
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


class Visit:
    """What one run of the browser on a page gave: the DOM after load, console lines, requests."""

    def __init__(self, dom: str, console: list[str], requests: list[str], stderr: str):
        self.dom, self.console, self.requests, self.stderr = dom, console, requests, stderr

    @property
    def page_requests(self) -> list[str]:
        return [host for host in self.requests if host not in BROWSER_OWN]


class _Recorder:
    """A proxy on 127.0.0.1 that records the host of every request and answers none."""

    def __init__(self):
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port, self.hosts = self.server.getsockname()[1], []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            with conn:
                conn.settimeout(5)
                try:
                    head = conn.recv(4096)
                except OSError:
                    continue
                found = _HOST.match(head)
                self.hosts.append((found.group(1) or found.group(2)).decode("ascii", "replace") if found
                                  else repr(head[:60]))

    def close(self) -> list[str]:
        self.server.close()
        self.thread.join(timeout=5)
        return list(self.hosts)


def _run(page: Path, profile: Path, *args: str, size: str = "1280,2200") -> tuple[subprocess.CompletedProcess, list]:
    recorder = _Recorder()
    command = [chromium(), *FLAGS, f"--proxy-server=127.0.0.1:{recorder.port}", f"--user-data-dir={profile}",
               f"--window-size={size}", *args, page.resolve().as_uri()]
    if os.geteuid() == 0:
        command.insert(1, "--no-sandbox")  # Chromium refuses to start its sandbox as root (CI runs as root)
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    finally:
        hosts = recorder.close()
    return done, hosts


def visit(page: Path, profile: Path) -> Visit:
    """Open ``page`` and return its DOM once loaded (its scripts have run), its console lines and the requests."""
    done, hosts = _run(page, profile, "--dump-dom")
    assert done.returncode == 0, done.stderr[-2000:]
    console = [found.group(1) for line in done.stderr.splitlines() if (found := _CONSOLE.search(line))]
    return Visit(done.stdout, console, hosts, done.stderr)


def screenshot(page: Path, profile: Path, to: Path, size: str = "1280,2200") -> Path:
    done, _ = _run(page, profile, f"--screenshot={to}", size=size)
    assert done.returncode == 0 and to.is_file(), done.stderr[-2000:]
    return to


def png_pixels(path: Path) -> tuple[int, int, list[bytes]]:
    """``(width, height, rows)`` of an 8-bit RGB or RGBA PNG, each row its pixels' bytes (filters undone)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    at, chunks, header = 8, [], None
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        at += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, f"unexpected PNG format {header}"
    step = 3 if colour == 2 else 4
    raw, stride, rows, previous = zlib.decompress(b"".join(chunks)), width * step, [], bytearray(width * step)
    for row in range(height):
        kind, line = raw[row * (stride + 1)], bytearray(raw[row * (stride + 1) + 1:(row + 1) * (stride + 1)])
        if kind == 2:  # "up", most of a screenshot's rows: every byte plus the one above, all at once
            line = bytearray(_add_bytes(line, previous))
        elif kind != 0:
            for i in range(stride):
                left = line[i - step] if i >= step else 0
                up, corner = previous[i], previous[i - step] if i >= step else 0
                line[i] = (line[i] + _predict(kind, left, up, corner)) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, height, [_rgb(row, step) for row in rows]


def _add_bytes(one: bytes, other: bytes) -> bytes:
    """Byte-wise sum modulo 256 of two rows, as two big integers with no carry between bytes."""
    low = int.from_bytes(b"\x7f" * len(one), "big")
    a, b = int.from_bytes(one, "big"), int.from_bytes(other, "big")
    return (((a & low) + (b & low)) ^ ((a ^ b) & ~low & ((1 << (8 * len(one))) - 1))).to_bytes(len(one), "big")


def _predict(kind: int, left: int, up: int, corner: int) -> int:
    if kind == 0:
        return 0
    if kind == 1:
        return left
    if kind == 2:
        return up
    if kind == 3:
        return (left + up) // 2
    guess = left + up - corner
    near = min((abs(guess - left), 0, left), (abs(guess - up), 1, up), (abs(guess - corner), 2, corner))
    return near[2]


def _rgb(row: bytes, step: int) -> bytes:
    """A row as RGB triples (the alpha of an RGBA PNG dropped)."""
    return row if step == 3 else bytes(value for index, value in enumerate(row) if index % 4 != 3)


def colours(rows: list[bytes]) -> dict[tuple, int]:
    """How many pixels of each colour."""
    found: dict[tuple, int] = {}
    for row in rows:
        for at in range(0, len(row), 3):
            pixel = (row[at], row[at + 1], row[at + 2])
            found[pixel] = found.get(pixel, 0) + 1
    return found
