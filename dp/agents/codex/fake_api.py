"""A local stand-in for the OpenAI Responses API that follows a script.

Codex CLI (``codex exec``) with a custom provider (``wire_api = "responses"``)
sends each turn of its conversation as ``POST /v1/responses`` with
``stream: true`` and reads three server-sent events: ``response.created``,
one ``response.output_item.done`` per item the model says (a ``message`` with
``output_text``, or a ``function_call`` whose ``arguments`` is a JSON
*string*), and ``response.completed`` with ``usage``. The tool's result comes
back in the next request's ``input`` as a ``function_call_output`` item, and
hook context as separate ``developer`` messages. This module writes turns in
that format on the shared scripted server (``dp.live.model``) and reads back
what the model was shown.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass

from dp.live.model import Reply, ScriptedModel, Transcript, content_text

MODEL = "fake-model"
SHELL_TOOL = "exec_command"  # what Codex 0.169.0 offers the model for shell commands (hooks see "Bash")
_ids = itertools.count(1)


def message(value: str) -> dict:
    """A scripted assistant message."""
    return {"type": "message", "role": "assistant", "id": f"msg_dp{next(_ids):06d}",
            "content": [{"type": "output_text", "text": value, "annotations": []}]}


def function_call(name: str, arguments: dict, call_id: str | None = None) -> dict:
    """A scripted tool call; call ids are unique unless given."""
    number = next(_ids)
    return {"type": "function_call", "id": f"fc_dp{number:06d}", "call_id": call_id or f"call_dp{number:06d}",
            "name": name, "arguments": json.dumps(arguments)}


def shell(command: str, **extra) -> dict:
    """A scripted shell call as Codex's model makes it (``exec_command`` with ``cmd``)."""
    return function_call(SHELL_TOOL, {"cmd": command, **extra})


@dataclass
class FakeResponses(ScriptedModel):
    """The scripted model. ``turns`` is a list of turns, each a list of output
    items (``message(…)``, ``function_call(…)``, ``shell(…)``); after the last
    one the model answers ``final_text`` and stops."""

    def respond(self, path: str, body: dict | None, headers: dict) -> Reply:
        if not path.endswith("/responses") or body is None:
            return super().respond(path, body, headers)
        if body.get("tools"):
            turn = self.next_turn(path, body, headers)
            items = [message(self.final_text)] if turn is None else [dict(item) for item in turn]
        else:  # a side request (a title, a summary): not part of the script
            self.record(path, body, False, headers)
            items = [message("dp")]
        return Reply(events=_events(items, body.get("model") or MODEL))


def _events(items: list[dict], model: str) -> list[tuple[str, object]]:
    """The server-sent events of one streamed response."""
    response = {"id": f"resp_dp{next(_ids):08d}", "object": "response", "model": model, "status": "in_progress",
                "output": []}
    events: list[tuple[str, object]] = [("response.created", {"type": "response.created", "response": response})]
    for index, item in enumerate(items):
        events.append(("response.output_item.done",
                       {"type": "response.output_item.done", "output_index": index, "item": item}))
    usage: dict = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 10,
             "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 20}
    done = {**response, "status": "completed", "output": items, "usage": usage}
    events.append(("response.completed", {"type": "response.completed", "response": done}))
    return events


@dataclass
class Conversation(Transcript):
    """What the model was shown, read from the ``input`` of one request."""

    items: list[dict]

    def output(self, call_id: str) -> str:
        """The ``function_call_output`` text the model read for one call."""
        for item in self.items:
            if item.get("type") == "function_call_output" and item.get("call_id") == call_id:
                output = item.get("output")
                return output if isinstance(output, str) else content_text(output)
        raise AssertionError(f"no function_call_output for {call_id} in the conversation")

    def context(self, call_id: str) -> str:
        """The messages the model read around one call before its next turn: hook
        ``additionalContext`` arrives as ``developer`` messages, PreToolUse's between
        the call and its output, PostToolUse's after the output."""
        texts, seen = [], False
        for item in self.items:
            kind = item.get("type")
            if kind == "function_call" and item.get("call_id") == call_id:
                seen = True
            elif seen and kind == "message" and item.get("role") != "assistant":
                texts.append(content_text(item.get("content")))
            elif seen and kind in ("message", "function_call"):
                break
        return "\n".join(texts)

    def before_first_turn(self):
        """The messages before the model's first item (AGENTS.md, SessionStart context, the prompt)."""
        for item in self.items:
            if item.get("type") != "message" or item.get("role") == "assistant":
                return
            yield content_text(item.get("content"))

    @property
    def all_text(self) -> str:
        """Every non-assistant message and tool output, in order."""
        texts = []
        for item in self.items:
            if item.get("type") == "message" and item.get("role") != "assistant":
                texts.append(content_text(item.get("content")))
            elif item.get("type") == "function_call_output":
                texts.append(content_text(item.get("output")))
        return "\n".join(texts)
