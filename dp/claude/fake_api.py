"""A local stand-in for the Anthropic Messages API that follows a script.

Claude Code is closed source; the only way to know what its hooks really do is
to run the real client and look at what reaches the model. This server plays
the model: each main-conversation request gets the next scripted turn (text
and ``tool_use`` blocks, streamed as server-sent events exactly like the real
API), every request body is recorded, and anything else (title generation,
token counting, a request after the script ran out) gets a short plain answer.
It serves 127.0.0.1 only and never forwards anything, so ``dp doctor --live``
and the real-client tests stay on the machine.

Two clients speak to it: Claude Code (its shell tool is ``Bash``) and GitHub
Copilot CLI in its own-provider mode (``COPILOT_PROVIDER_TYPE=anthropic``;
1.0.102 sends only ``POST /v1/messages``, streamed, with ``x-api-key`` and
``anthropic-version`` headers; its shell tool is ``bash``, whose input needs
``command`` and ``description``). Nothing here depends on which one calls:
each request's path, headers and body are recorded as they came.
"""

from __future__ import annotations

import itertools
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MAX_BODY = 64 * 1024 * 1024
MODEL = "claude-fake-model"
_ids = itertools.count(1)


def text(value: str) -> dict:
    """A scripted text block."""
    return {"type": "text", "text": value}


def tool_use(name: str, tool_input: dict, tool_id: str | None = None) -> dict:
    """A scripted tool call; ids are unique unless given."""
    return {"type": "tool_use", "id": tool_id or f"toolu_dp{next(_ids):06d}", "name": name, "input": tool_input}


def bash(command: str, **extra) -> dict:
    """A scripted Bash call (extra keys such as ``timeout`` or ``description`` go into its input)."""
    return tool_use("Bash", {"command": command, **extra})


def shell(command: str, description: str = "Run a command", **extra) -> dict:
    """A scripted call of Copilot CLI's shell tool ``bash`` (it requires a ``description``)."""
    return tool_use("bash", {"command": command, "description": description, **extra})


def block_text(content) -> str:
    """The text of a message content as the model reads it (a string, or blocks incl. tool results)."""
    if isinstance(content, str):
        return content
    parts = []
    for block in content or []:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text":
            parts.append(block.get("text", ""))
        elif block.get("type") == "tool_result":
            parts.append(block_text(block.get("content")))
    return "\n".join(parts)


@dataclass
class Recorded:
    """One request the client sent: path, parsed JSON body (None if it was not JSON) and headers
    (lower-case names; values of ``x-api-key`` and ``authorization`` are not kept)."""

    path: str
    body: dict | None
    main: bool
    headers: dict = field(default_factory=dict)


@dataclass
class FakeAnthropic:
    """The scripted model. ``turns`` is a list of turns, each a list of blocks
    (``text(…)``, ``tool_use(…)``, ``bash(…)``); after the last one the model
    answers ``final_text`` and stops."""

    turns: list[list[dict]] = field(default_factory=list)
    final_text: str = "Done."
    requests: list[Recorded] = field(default_factory=list)

    def __post_init__(self):
        self._lock = threading.Lock()
        self._served = 0
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -------------------------------------------------------------

    def start(self) -> str:
        """Serve on a free localhost port; returns the base URL."""
        handler = type("Handler", (_Handler,), {"fake": self})
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self.url

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> "FakeAnthropic":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    # -- what the model was shown --------------------------------------------

    @property
    def main_requests(self) -> list[dict]:
        """Bodies of the main-conversation requests, in order."""
        return [r.body for r in self.requests if r.main]

    # -- serving -------------------------------------------------------------

    def _next_turn(self, body: dict, headers: dict | None = None) -> tuple[list[dict], bool]:
        """(blocks, main) for a request: the next scripted turn, or plain text for a side request."""
        main = _is_main(body)
        with self._lock:
            self.requests.append(Recorded("/v1/messages", body, main, headers or {}))
            if not main:
                return [text("dp")], False
            index = self._served
            self._served += 1
        if index < len(self.turns):
            return [dict(block) for block in self.turns[index]], True
        return [text(self.final_text)], True


def _is_main(body: dict) -> bool:
    """The agent's own conversation carries tools; title and summary requests carry none."""
    return bool(body.get("tools"))


def _message(blocks: list[dict], model: str) -> dict:
    stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
    return {
        "id": f"msg_dp{next(_ids):08d}",  # each its own: the client merges turns sharing an id
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": blocks,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 10},
    }


def _events(message: dict):
    """The server-sent events of one streamed message."""
    head = {**message, "content": [], "stop_reason": None, "usage": {"input_tokens": 10, "output_tokens": 1}}
    yield "message_start", {"type": "message_start", "message": head}
    for index, block in enumerate(message["content"]):
        if block["type"] == "text":
            start, delta = {"type": "text", "text": ""}, {"type": "text_delta", "text": block["text"]}
        else:
            start = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        yield "content_block_start", {"type": "content_block_start", "index": index, "content_block": start}
        yield "content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}
        yield "content_block_stop", {"type": "content_block_stop", "index": index}
    yield "message_delta", {
        "type": "message_delta",
        "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
        "usage": {"output_tokens": 10},
    }
    yield "message_stop", {"type": "message_stop"}


_SECRET_HEADERS = ("x-api-key", "authorization")


def _kept_headers(headers) -> dict:
    """The request's headers by lower-case name, credentials reduced to whether they were sent."""
    return {name.lower(): ("<sent>" if name.lower() in _SECRET_HEADERS else value) for name, value in headers.items()}


class _Handler(BaseHTTPRequestHandler):
    fake: FakeAnthropic
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:  # quiet: the recorded bodies are the log
        pass

    def do_GET(self) -> None:
        self._json({})

    def do_HEAD(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self) -> None:
        length = min(int(self.headers.get("Content-Length") or 0), MAX_BODY)
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        path = self.path.split("?", 1)[0]
        headers = _kept_headers(self.headers)
        if path.endswith("/count_tokens"):
            return self._json({"input_tokens": 10})
        if not path.endswith("/v1/messages") or not isinstance(body, dict):
            with self.fake._lock:
                self.fake.requests.append(Recorded(path, body if isinstance(body, dict) else None, False, headers))
            return self._json({})
        blocks, _ = self.fake._next_turn(body, headers)
        message = _message(blocks, body.get("model") or MODEL)
        if body.get("stream"):
            self._stream(message)
        else:
            self._json(message)

    def _json(self, value: dict) -> None:
        data = json.dumps(value).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _stream(self, message: dict) -> None:
        chunks = b"".join(
            f"event: {name}\ndata: {json.dumps(data)}\n\n".encode() for name, data in _events(message)
        )
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Content-Length", str(len(chunks)))
        self.end_headers()
        self.wfile.write(chunks)
