"""A local stand-in for Augment's API that follows a script: what ``auggie --print`` talks to.

Auggie (``@augmentcode/auggie``) has no model provider of its own: every turn goes to the tenant
URL of its sign-in (``AUGMENT_SESSION_AUTH``: ``{"accessToken", "tenantURL", "scopes"}``), which it
takes as given, a local ``http://127.0.0.1:PORT/`` too (observed in 0.36.0, docs/agents/auggie.md).
What it asks there, and what this fake answers:

* ``POST /get-models``: the models and the **feature flags**. Auggie runs its hooks only where the
  flag ``enable_hooks`` is set (``featureFlagsV2.enableHooks``, off by default): the fake sets it, as
  Augment's service does for the accounts it enables hooks for;
* ``POST /chat-stream``: one turn. The request carries ``chat_history`` (the earlier exchanges, each
  with ``request_nodes`` and ``response_nodes``), this turn's ``nodes`` (the prompt as a text node,
  type 0; tool results as type 1, ``tool_result_node {tool_use_id, content, is_error}``) and the
  offered ``tool_definitions``. The answer is newline-delimited JSON (a line without its newline is
  never read), here one line ``{text, nodes, stop_reason}``; a tool call is a
  node of type 5, ``tool_use {tool_use_id, tool_name, input_json}`` (``input_json`` a JSON *string*);
* anything else (MCP settings, remote tools, error reports): an empty answer, recorded as a side request.

Turns are written with ``dp.live.openai_compat``'s ``text`` and ``tool_call`` items (one shape for every
scripted model); ``shell`` is Auggie's ``launch-process``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from dp.live.model import Reply, ScriptedModel, Transcript
from dp.live.openai_compat import text, tool_call

MODEL = "fake-model"
SHELL_TOOL = "launch-process"  # Auggie's shell tool (its hooks see the same name)
TEXT, TOOL_RESULT, TOOL_USE = 0, 1, 5  # node types of Augment's chat API
STOP_END, STOP_TOOL_USE = 1, 3  # stop reasons: the turn ended, the model called tools
MODELS = {"default_model": MODEL, "languages": [],
          "models": [{"name": MODEL, "suggested_prefix_char_count": 0, "suggested_suffix_char_count": 0}]}

__all__ = ["FakeAugment", "Conversation", "shell", "text", "tool_call", "session_auth"]


def shell(command: str, **extra) -> dict:
    """A scripted ``launch-process`` call that waits for the command (as Auggie's model calls it)."""
    return tool_call(SHELL_TOOL, {"command": command, "wait": True, "max_wait_seconds": 60, **extra})


def session_auth(url: str) -> str:
    """``AUGMENT_SESSION_AUTH`` signing Auggie in to the fake at ``url`` (no Augment account involved)."""
    return json.dumps({"accessToken": "dp-fake-not-a-token", "tenantURL": url + "/", "scopes": ["read", "write"]})


@dataclass
class FakeAugment(ScriptedModel):
    """The scripted model behind Augment's API. ``turns`` is a list of turns, each a list of ``text``/
    ``tool_call`` items; after the last one the model answers ``final_text`` and stops. ``hooks``: the
    feature flag that lets Auggie run its hooks at all (what Augment's service decides per account)."""

    hooks: bool = True

    def respond(self, path: str, body: dict | None, headers: dict) -> Reply:
        if path == "/get-models":
            self.record(path, body, False, headers)
            return Reply(json={**MODELS, "feature_flags": {"enable_hooks": self.hooks}})
        if path != "/chat-stream" or body is None or not body.get("tool_definitions"):
            return super().respond(path, body, headers)
        turn = self.next_turn(path, body, headers)
        items = [text(self.final_text)] if turn is None else [dict(item) for item in turn]
        return Reply(lines=[_turn(items)])


def _turn(items: list[dict]) -> dict:
    """One answer of ``/chat-stream``: the text, a tool-use node per call, why the turn stopped."""
    nodes = [{"id": index, "type": TOOL_USE, "content": "",
              "tool_use": {"tool_use_id": item["id"], "tool_name": item["name"], "input_json": item["arguments"]}}
             for index, item in enumerate(items, 1) if item["type"] == "tool_call"]
    return {"text": "".join(item["text"] for item in items if item["type"] == "text"), "nodes": nodes,
            "stop_reason": STOP_TOOL_USE if nodes else STOP_END}


class Conversation(Transcript):
    """What the model was shown in one ``/chat-stream`` request: its history's exchanges, then its own nodes."""

    def __init__(self, body: dict):
        self.requests: list[list] = [exchange.get("request_nodes") or [] for exchange in body.get("chat_history") or ()
                                     if isinstance(exchange, dict)]
        self.responses: list[list] = [exchange.get("response_nodes") or []
                                      for exchange in body.get("chat_history") or () if isinstance(exchange, dict)]
        self.requests.append(body.get("nodes") or [])

    def _nodes(self):
        """Every request node, in order, as the model read them."""
        for nodes in self.requests:
            yield from (node for node in nodes if isinstance(node, dict))

    def call(self, call_id: str) -> dict:
        """The call as the model's history keeps it: ``{"name", "arguments": dict}``."""
        for nodes in self.responses:
            for node in nodes:
                use = node.get("tool_use") or {}
                if use.get("tool_use_id") == call_id:
                    return {"name": use.get("tool_name"), "arguments": json.loads(use.get("input_json") or "{}")}
        raise AssertionError(f"no tool call {call_id} in the conversation")

    def output(self, call_id: str) -> str:
        """The tool result the model read for one call."""
        for node in self._nodes():
            result = node.get("tool_result_node") or {}
            if node.get("type") == TOOL_RESULT and result.get("tool_use_id") == call_id:
                return str(result.get("content") or "")
        raise AssertionError(f"no tool result for {call_id} in the conversation")

    def context(self, call_id: str) -> str:
        """The text nodes beside a call's result in the same request (where hook context would stand)."""
        for nodes in self.requests:
            if any((node.get("tool_result_node") or {}).get("tool_use_id") == call_id for node in nodes):
                return "\n".join(_text(node) for node in nodes if node.get("type") == TEXT)
        return ""

    def before_first_turn(self):
        """The text nodes of the first request (the prompt, anything put before it)."""
        yield from (_text(node) for node in (self.requests[0] if self.requests else ()) if node.get("type") == TEXT)

    @property
    def all_text(self) -> str:
        """Every text node and tool result the model read, in order."""
        return "\n".join(_text(node) or str((node.get("tool_result_node") or {}).get("content") or "")
                         for node in self._nodes())


def _text(node: dict) -> str:
    return str((node.get("text_node") or {}).get("content") or "")
