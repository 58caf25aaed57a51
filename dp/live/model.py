"""The scripted model server every agent's fake endpoint is built on.

dp proves what an agent does with its hooks by running the agent's real binary
against a model that follows a script and writes down what it was sent. The
agents speak different wire formats (Anthropic Messages, the OpenAI Responses
API, …) but the server around the format is the same: 127.0.0.1 only, never
forwarding anything; every request recorded; the agent's own conversation
served the next scripted turn and everything else a short plain answer; the
turn written as one JSON body or as server-sent events. That part lives here
once. A format module (``dp/agents/claude/fake_api.py``, ``dp/agents/codex/fake_api.py``, ``dp/agents/gemini/fake_api.py``)
subclasses ``ScriptedModel`` and says only which requests are the
conversation and how a turn is written in its format (``respond``).
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MAX_BODY = 64 * 1024 * 1024


@dataclass
class Recorded:
    """One request the client sent: path, parsed JSON body (None if it was not JSON) and headers
    (lower-case names; values of ``x-api-key`` and ``authorization`` are not kept)."""

    path: str
    body: dict | None
    main: bool
    headers: dict = field(default_factory=dict)


@dataclass
class Reply:
    """What the server answers one request with: a JSON body, server-sent
    events (``(event name, data)`` pairs) when ``events`` is set, or
    newline-delimited JSON (one object a line, each ending in a newline, which
    streaming readers that split on newlines need) when ``lines`` is set."""

    json: dict | None = None
    events: list[tuple[str, object]] | None = None
    lines: list[dict] | None = None


def content_text(content) -> str:
    """A message's text as the model APIs carry it: a string, or the ``text`` of its content parts
    (Chat Completions' parts and the Responses API's ``input_text``/``output_text`` alike)."""
    if isinstance(content, str):
        return content
    return "\n".join(part["text"] for part in content or ()
                     if isinstance(part, dict) and isinstance(part.get("text"), str))


class Transcript:
    """What the model was shown in one request, read back by the real-client tests and the live probe.
    Each API's ``Conversation`` says where a call's ``output`` and the ``context`` after it stand, and
    the texts before the model's first turn (``before_first_turn``)."""

    def output(self, call_id: str) -> str:
        raise NotImplementedError

    def context(self, call_id: str) -> str:
        raise NotImplementedError

    def before_first_turn(self):
        raise NotImplementedError

    def shown(self, call_id: str) -> str:
        """Everything the model read about one call: its output and the context around it."""
        return self.output(call_id) + "\n" + self.context(call_id)

    @property
    def opening(self) -> str:
        """Everything before the model's first turn: the system prompt or AGENTS.md, session-start context,
        the prompt."""
        return "\n".join(self.before_first_turn())


@dataclass
class ScriptedModel:
    """A scripted model on a free localhost port. ``turns`` is a list of turns
    in the format module's own shape; after the last one the model answers
    ``final_text`` and stops."""

    turns: list = field(default_factory=list)
    final_text: str = "Done."
    requests: list[Recorded] = field(default_factory=list)

    def __post_init__(self):
        self._lock = threading.Lock()
        self._served = 0
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- what a format module says ----------------------------------------------

    def respond(self, path: str, body: dict | None, headers: dict) -> Reply:
        """The answer to one POST (``path`` without its query). The default
        records the request as a side request and answers ``{}``."""
        self.record(path, body, False, headers)
        return Reply(json={})

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
        assert self._server is not None, "the fake serves only between start() and stop()"
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    # -- what the model was shown --------------------------------------------

    @property
    def main_requests(self) -> list[dict]:
        """Bodies of the main-conversation requests, in order."""
        return [r.body for r in self.requests if r.main and r.body is not None]


    # -- for the format modules ------------------------------------------------

    def record(self, path: str, body: dict | None, main: bool, headers: dict | None = None) -> None:
        with self._lock:
            self.requests.append(Recorded(path, body, main, headers or {}))

    def next_turn(self, path: str, body: dict, headers: dict | None = None):
        """Record a main-conversation request and hand out its turn: the next
        scripted one, or None once the script ran out (the format module then
        answers ``final_text``). Concurrent requests each get their own turn."""
        with self._lock:
            self.requests.append(Recorded(path, body, True, headers or {}))
            index = self._served
            self._served += 1
        return self.turns[index] if index < len(self.turns) else None


_SECRET_HEADERS = ("x-api-key", "authorization")


def kept_headers(headers) -> dict:
    """The request's headers by lower-case name, credentials reduced to whether they were sent."""
    return {name.lower(): ("<sent>" if name.lower() in _SECRET_HEADERS else value) for name, value in headers.items()}


def sse(events: list[tuple[str, object]]) -> bytes:
    """Server-sent events as Anthropic and OpenAI stream them; an event without a name
    (``""``) is a bare ``data:`` frame, as the Gemini API streams its chunks; data given
    as a string is sent as it is (Chat Completions' closing ``data: [DONE]``)."""
    return b"".join((f"event: {name}\n" if name else "").encode()
                    + f"data: {data if isinstance(data, str) else json.dumps(data)}\n\n".encode()
                    for name, data in events)


class _Handler(BaseHTTPRequestHandler):
    fake: ScriptedModel
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:  # quiet: the recorded bodies are the log
        pass

    def do_GET(self) -> None:
        self._send("application/json", b"{}")

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
        reply = self.fake.respond(self.path.split("?", 1)[0], body if isinstance(body, dict) else None,
                                  kept_headers(self.headers))
        if reply.events is not None:
            self._send("text/event-stream", sse(reply.events), stream=True)
        elif reply.lines is not None:
            self._send("application/json", b"".join(json.dumps(line).encode() + b"\n" for line in reply.lines))
        else:
            self._send("application/json", json.dumps(reply.json or {}).encode())

    def _send(self, content_type: str, data: bytes, stream: bool = False) -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        if stream:
            self.send_header("Cache-Control", "no-cache")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
