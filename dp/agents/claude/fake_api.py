"""A local stand-in for the Anthropic Messages API that follows a script.

Claude Code is closed source; the only way to know what its hooks really do is
to run the real client and look at what reaches the model. This server plays
the model: each main-conversation request gets the next scripted turn (text
and ``tool_use`` blocks, streamed as server-sent events exactly like the real
API), every request body is recorded, and anything else (title generation,
token counting, a request after the script ran out) gets a short plain answer.
It serves 127.0.0.1 only and never forwards anything, so ``dp doctor --live``
and the real-client tests stay on the machine (the server itself is
``dp.live.model``, shared with the other agents' fakes).

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
from dataclasses import dataclass

from dp.live.model import Reply, ScriptedModel

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
class FakeAnthropic(ScriptedModel):
    """The scripted model. ``turns`` is a list of turns, each a list of blocks
    (``text(…)``, ``tool_use(…)``, ``bash(…)``); after the last one the model
    answers ``final_text`` and stops."""

    def respond(self, path: str, body: dict | None, headers: dict) -> Reply:
        if path.endswith("/count_tokens"):
            return Reply(json={"input_tokens": 10})
        if not path.endswith("/v1/messages") or body is None:
            return super().respond(path, body, headers)
        if _is_main(body):
            turn = self.next_turn(path, body, headers)
            blocks = [text(self.final_text)] if turn is None else [dict(block) for block in turn]
        else:
            self.record(path, body, False, headers)
            blocks = [text("dp")]
        message = _message(blocks, body.get("model") or MODEL)
        return Reply(events=list(_events(message))) if body.get("stream") else Reply(json=message)


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
            start: dict = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
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
