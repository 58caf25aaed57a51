"""A local stand-in for the Gemini API that follows a script.

Gemini CLI (0.61.0) with ``GOOGLE_GEMINI_BASE_URL`` and an API key sends each
turn of its conversation as ``POST /v1beta/models/<model>:streamGenerateContent``
(``?alt=sse``) and reads bare ``data: <GenerateContentResponse>`` frames:
``candidates[0].content.parts`` holds ``text`` or ``functionCall {name, args}``
parts. A tool's result comes back in the next request's ``contents`` as a
``functionResponse`` part of a user turn; SessionStart context and the prompt
are the text of the first user turn. Requests without tools (``generateContent``
side calls such as the next-speaker check) are not part of the script and get a
short JSON answer. This module writes turns in that format on the shared
scripted server (``dp.live.model``) and reads back what the model was shown.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from dp.live.model import Reply, ScriptedModel

MODEL = "gemini-2.5-flash"
SHELL_TOOL = "run_shell_command"
# What a side call that wants JSON gets (the next-speaker check reads `next_speaker`).
SIDE_ANSWER = {"reasoning": "The model finished its turn.", "next_speaker": "user",
               "complexity_reasoning": "simple", "complexity_score": 1}


def text(value: str) -> dict:
    """A scripted text part."""
    return {"text": value}


def function_call(name: str, args: dict) -> dict:
    """A scripted tool call part."""
    return {"functionCall": {"name": name, "args": args}}


def shell(command: str, description: str = "dp test command") -> dict:
    """A scripted shell call as Gemini's model makes it."""
    return function_call(SHELL_TOOL, {"command": command, "description": description})


def part_text(part: dict) -> str:
    """What a request part shows the model: its text, or a function response's output as JSON text."""
    if isinstance(part.get("text"), str):
        return part["text"]
    response = part.get("functionResponse")
    if isinstance(response, dict):
        inner = response.get("response")
        if isinstance(inner, dict) and len(inner) == 1 and isinstance(next(iter(inner.values())), str):
            return next(iter(inner.values()))
        return json.dumps(inner, ensure_ascii=False)
    return ""


class Conversation:
    """The ``contents`` of one request, read as what the model was shown."""

    def __init__(self, contents: list):
        self.contents = [turn for turn in contents if isinstance(turn, dict)]

    @property
    def opening(self) -> str:
        """The text of the first user turn (SessionStart context, GEMINI.md, the prompt)."""
        for turn in self.contents:
            if turn.get("role") == "user":
                return "\n".join(part_text(part) for part in turn.get("parts") or [] if isinstance(part, dict))
        return ""

    def results(self, name: str) -> list[str]:
        """What the model read as the result of each call of tool ``name``, in order."""
        found = []
        for turn in self.contents:
            for part in turn.get("parts") or []:
                response = part.get("functionResponse") if isinstance(part, dict) else None
                if isinstance(response, dict) and response.get("name") == name:
                    found.append(part_text(part))
        return found

    @property
    def text(self) -> str:
        """Everything the user side of the conversation carried, as text."""
        return "\n".join(part_text(part) for turn in self.contents if turn.get("role") == "user"
                         for part in turn.get("parts") or [] if isinstance(part, dict))


@dataclass
class FakeGemini(ScriptedModel):
    """The scripted model. ``turns`` is a list of turns, each a list of parts
    (``text(…)``, ``function_call(…)``, ``shell(…)``); after the last one the
    model answers ``final_text`` and stops."""

    def respond(self, path: str, body: dict | None, headers: dict) -> Reply:
        if body is None or ":" not in path:
            return super().respond(path, body, headers)
        if path.endswith(":streamGenerateContent") and body.get("tools"):
            turn = self.next_turn(path, body, headers)
            parts = [text(self.final_text)] if turn is None else [dict(part) for part in turn]
            return Reply(events=[("", _response(parts))])
        self.record(path, body, False, headers)
        answer = _response([text(json.dumps(SIDE_ANSWER))])
        if path.endswith(":streamGenerateContent"):
            return Reply(events=[("", answer)])
        if path.endswith(":countTokens"):
            return Reply(json={"totalTokens": 1})
        return Reply(json=answer)

    @property
    def conversation(self) -> Conversation:
        """The whole conversation as the last scripted request carried it."""
        requests = self.main_requests
        return Conversation(requests[-1].get("contents") or [] if requests else [])


def _response(parts: list[dict]) -> dict:
    return {
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
        "modelVersion": MODEL,
    }
