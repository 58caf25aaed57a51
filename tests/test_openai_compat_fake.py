"""The shared OpenAI-compatible fake over real HTTP: the streamed and whole answers a
Chat Completions client parses, the script advanced only by conversation requests."""

from __future__ import annotations

import json
import urllib.request

from dp.live.openai_compat import Conversation, FakeChat, shell, text


def _post(url: str, body: dict) -> bytes:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.read()


def _frames(raw: bytes) -> list:
    return [line[len("data: "):] for line in raw.decode().splitlines() if line.startswith("data: ")]


TOOLS = [{"type": "function", "function": {"name": "run_shell_command", "parameters": {"type": "object"}}}]


def test_a_streamed_turn_carries_the_call_whole_and_ends_with_done():
    call = shell("grep -rn foo .", is_background=False)
    with FakeChat(turns=[[text("Looking."), call]]) as fake:
        raw = _post(fake.url + "/v1/chat/completions",
                    {"model": "m", "stream": True, "stream_options": {"include_usage": True},
                     "messages": [{"role": "user", "content": "hi"}], "tools": TOOLS})
    frames = _frames(raw)
    assert frames[-1] == "[DONE]"
    chunks = [json.loads(frame) for frame in frames[:-1]]
    deltas = [chunk["choices"][0]["delta"] for chunk in chunks if chunk["choices"]]
    assert "".join(delta.get("content") or "" for delta in deltas) == "Looking."
    [sent] = [delta["tool_calls"][0] for delta in deltas if delta.get("tool_calls")]
    assert sent["id"] == call["id"] and sent["function"]["name"] == "run_shell_command"
    assert json.loads(sent["function"]["arguments"]) == {"command": "grep -rn foo .", "is_background": False}
    assert [chunk["choices"][0]["finish_reason"] for chunk in chunks if chunk["choices"]][-1] == "tool_calls"
    assert chunks[-1]["usage"]["total_tokens"] == 20
    assert fake.main_requests[0]["messages"][0]["content"] == "hi"


def test_side_requests_do_not_use_up_the_script_and_the_end_answers_final_text():
    with FakeChat(turns=[[text("first")]], final_text="All done.") as fake:
        side = json.loads(_post(fake.url + "/v1/chat/completions", {"messages": []}))
        first = json.loads(_post(fake.url + "/v1/chat/completions", {"messages": [], "tools": TOOLS}))
        last = json.loads(_post(fake.url + "/v1/chat/completions", {"messages": [], "tools": TOOLS}))
    assert side["choices"][0]["message"]["content"] == "dp"
    assert first["choices"][0]["message"]["content"] == "first"
    assert last["choices"][0]["message"]["content"] == "All done."
    assert [request.main for request in fake.requests] == [False, True, True]


def test_the_conversation_reads_what_the_model_was_shown():
    messages = [{"role": "system", "content": "sys"}, {"role": "user", "content": [{"type": "text", "text": "go"}]},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "run_shell_command",
                                                                  "arguments": "{\"command\": \"ls\"}"}}]},
                {"role": "tool", "tool_call_id": "c1", "content": "a.txt"},
                {"role": "user", "content": "hook context"}, {"role": "assistant", "content": "ok"}]
    seen = Conversation(messages)
    assert seen.call("c1") == {"name": "run_shell_command", "arguments": {"command": "ls"}}
    assert seen.output("c1") == "a.txt" and seen.context("c1") == "hook context"
    assert seen.opening == "sys\ngo"
