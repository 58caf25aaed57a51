"""A local stand-in for an OpenAI-compatible Chat Completions API that follows a script.

Shared by every agent that talks to "an OpenAI-compatible provider with a
custom base URL" (an ``OPENAI_BASE_URL`` in the environment, OpenCode's
``@ai-sdk/openai-compatible`` provider …): no agent is named here, and each
agent's folder (``dp/agents/<agent>/``) and real-client harness build on it.

The wire format (what the ``openai`` npm SDK and the AI SDK send and read):

* each turn is ``POST <base>/chat/completions`` (the base URL usually ends in
  ``/v1``; any path ending in ``/chat/completions`` is served) with
  ``messages`` — ``system``/``user``/``assistant``/``tool`` roles; an assistant
  turn's calls in ``tool_calls[] {id, type: "function", function {name,
  arguments: <JSON string>}}``; a tool's result as a ``tool`` message with
  ``tool_call_id`` — and the offered ``tools``;
* with ``stream: true`` the answer is server-sent ``data:`` frames of
  ``chat.completion.chunk`` objects ending in ``data: [DONE]``; otherwise one
  ``chat.completion`` object. Both are written here.

Which requests are the conversation: those that offer ``tools``. A request
without tools (a session title, a summary, a next-speaker check) is a side
request: recorded with ``main=False`` and answered ``side_text`` without
consuming a scripted turn, so a client's extra calls cannot shift the script.

Use::

    from dp.live.openai_compat import FakeChat, Conversation, shell, text

    with FakeChat(turns=[[shell("grep -rn foo .")], [text("Done.")]]) as fake:
        run_agent(base_url=fake.url + "/v1", api_key="dummy", model=fake.model)
    seen = Conversation(fake.main_requests[-1]["messages"])
    seen.output(call_id)      # the tool result the model read for one call
    seen.context(call_id)     # hook context the agent put beside it
    seen.call(call_id)        # the call as the model's own history keeps it

A turn is a list of items: ``text(…)`` and ``tool_call(name, arguments)`` (or
``shell(command, tool=…)``, the shell tool under the agent's own name and
argument key). After the last turn the model answers ``final_text`` and stops.
"""

from __future__ import annotations

import itertools
import json
import time
from dataclasses import dataclass

from dp.live.model import Reply, ScriptedModel, Transcript, content_text

MODEL = "fake-model"
_ids = itertools.count(1)


def text(value: str) -> dict:
    """A scripted assistant text."""
    return {"type": "text", "text": value}


def tool_call(name: str, arguments: dict, call_id: str | None = None) -> dict:
    """A scripted tool call; ids are unique unless given (read them back with ``item["id"]``)."""
    return {"type": "tool_call", "id": call_id or f"call_dp{next(_ids):06d}", "name": name,
            "arguments": json.dumps(arguments)}


def shell(command: str, tool: str = "run_shell_command", key: str = "command", **extra) -> dict:
    """A scripted shell call: ``tool`` is the agent's shell tool (``run_shell_command`` in the
    Gemini CLI family, ``bash`` in OpenCode), ``key`` its command argument; ``extra`` adds the other arguments."""
    return tool_call(tool, {key: command, **extra})


@dataclass
class FakeChat(ScriptedModel):
    """The scripted model. ``turns`` is a list of turns, each a list of ``text``/``tool_call`` items."""

    model: str = MODEL
    side_text: str = "dp"

    def respond(self, path: str, body: dict | None, headers: dict) -> Reply:
        if not path.endswith("/chat/completions") or body is None:
            if path.endswith("/models"):
                self.record(path, body, False, headers)
                return Reply(json={"object": "list", "data": [{"id": self.model, "object": "model"}]})
            return super().respond(path, body, headers)
        if body.get("tools"):
            turn = self.next_turn(path, body, headers)
            items = [text(self.final_text)] if turn is None else [dict(item) for item in turn]
        else:
            self.record(path, body, False, headers)
            items = [text(self.side_text)]
        model = body.get("model") or self.model
        if body.get("stream"):
            usage = (body.get("stream_options") or {}).get("include_usage")
            return Reply(events=_chunks(items, model, bool(usage)))
        return Reply(json=_completion(items, model))


_USAGE = {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20}


def _message(items: list[dict]) -> tuple[dict, str]:
    """The assistant message of one turn and its finish reason."""
    content = "".join(item["text"] for item in items if item["type"] == "text")
    calls = [{"id": item["id"], "type": "function",
              "function": {"name": item["name"], "arguments": item["arguments"]}}
             for item in items if item["type"] == "tool_call"]
    message: dict = {"role": "assistant", "content": content or None}
    if calls:
        message["tool_calls"] = calls
    return message, "tool_calls" if calls else "stop"


def _completion(items: list[dict], model: str) -> dict:
    """One non-streamed ``chat.completion``."""
    message, finish = _message(items)
    return {"id": f"chatcmpl-dp{next(_ids):08d}", "object": "chat.completion", "created": int(time.time()),
            "model": model, "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": _USAGE}


def _chunks(items: list[dict], model: str, usage: bool) -> list[tuple[str, object]]:
    """The ``data:`` frames of one streamed turn: the role, the text, each call whole (one
    chunk per call, as the SDKs accept), the finish reason, usage when asked, ``[DONE]``."""
    message, finish = _message(items)
    head = {"id": f"chatcmpl-dp{next(_ids):08d}", "object": "chat.completion.chunk", "created": int(time.time()),
            "model": model}

    def chunk(delta: dict, reason=None) -> tuple[str, object]:
        return "", {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": reason}]}

    frames = [chunk({"role": "assistant", "content": ""})]
    if message["content"]:
        frames.append(chunk({"content": message["content"]}))
    for index, call in enumerate(message.get("tool_calls", ())):
        frames.append(chunk({"tool_calls": [{"index": index, **call}]}))
    frames.append(chunk({}, finish))
    if usage:
        frames.append(("", {**head, "choices": [], "usage": _USAGE}))
    frames.append(("", "[DONE]"))
    return frames


class Conversation(Transcript):
    """The ``messages`` of one request, read as what the model was shown."""

    def __init__(self, messages: list):
        self.messages = [m for m in messages or () if isinstance(m, dict)]

    def call(self, call_id: str) -> dict:
        """The call as the model's history keeps it: ``{"name", "arguments": dict}``."""
        for message in self.messages:
            for call in message.get("tool_calls") or ():
                if call.get("id") == call_id:
                    function = call.get("function") or {}
                    try:
                        arguments = json.loads(function.get("arguments") or "{}")
                    except ValueError:
                        arguments = function.get("arguments")
                    return {"name": function.get("name"), "arguments": arguments}
        raise AssertionError(f"no tool call {call_id} in the conversation")

    def output(self, call_id: str) -> str:
        """The ``tool`` message the model read for one call."""
        for message in self.messages:
            if message.get("role") == "tool" and message.get("tool_call_id") == call_id:
                return content_text(message.get("content"))
        raise AssertionError(f"no tool result for {call_id} in the conversation")

    def context(self, call_id: str) -> str:
        """The non-assistant messages after a call's result, up to the model's next turn
        (where agents put hook context that is not inside the result itself)."""
        texts, seen = [], False
        for message in self.messages:
            role = message.get("role")
            if role == "tool" and message.get("tool_call_id") == call_id:
                seen = True
            elif seen and role == "assistant":
                break
            elif seen and role != "tool":
                texts.append(content_text(message.get("content")))
        return "\n".join(texts)

    def before_first_turn(self):
        """The messages before the model's first turn (system prompt, context files, the prompt)."""
        for message in self.messages:
            if message.get("role") == "assistant":
                return
            yield content_text(message.get("content"))

    @property
    def all_text(self) -> str:
        """Every non-assistant message, in order."""
        return "\n".join(content_text(m.get("content")) for m in self.messages if m.get("role") != "assistant")
