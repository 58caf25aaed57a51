"""The worst inputs pave-check can be given: hook payloads just under its 1 MiB input limit.

Each is built so that the cheap paths cannot skip it (every one holds a word
RULES has a rule for) and so that a step that is linear on ordinary commands would show if it were not on these:
the word scan on a million empty quotes, bashlex on a pipeline of 50,000
commands or on nesting thousands deep, the JSON decoder on 60,000 keys.
Used by bench/run_hook_bench.py (their time) and
integration_tests/test_hook_worst_case.py (exit 0, and the correct answer or
none, in every agent). ``expected`` is the rewrite under RULES, for the test
to compare with when the hook answers in time.
"""

from __future__ import annotations

import json

# The hook reads at most dp.hook.MAX_INPUT_BYTES (1 MiB): stay just under it, envelope included.
TARGET_BYTES = (1 << 20) - 4096


def _fill(head: str, unit: str, tail: str = "", room: int = TARGET_BYTES - 2048) -> str:
    """``head`` + as many ``unit`` as fit in ``room`` bytes of JSON + ``tail``."""
    size = len(json.dumps(unit)) - 2
    return head + unit * ((room - len(json.dumps(head + tail))) // size) + tail


def _nested(open_: str, close: str, inner: str) -> str:
    """``inner`` inside as many ``open_`` … ``close`` as fit."""
    depth = (TARGET_BYTES - 2048) // (len(json.dumps(open_ + close)) - 2)
    return open_ * depth + inner + close * depth


# The rules these inputs are for: the case is grep's (a translation table), the rest
# use a plain rename, whose exact answer is the command with the word replaced.
RULES = (("grep", "rg"), ("ag", "rg"))

COMMANDS = {
    "grep x + empty quote pairs": _fill("grep x ", "''"),
    "quoted words": _fill("ag x", " 'a b' \"c\" d\\ e"),
    "long pipeline": _fill("ag x f", " | ag x"),
    "deep $( ) nesting": _nested("echo $(", ")", "ag x f"),
    "deep ( ) nesting": _nested("(", ")", "ag x f"),
    "long here-doc": _fill("cat <<'EOF'\n", "ag x 'a' \"b\" $(c) `d` ${e}\n", "EOF\nag x f"),
}
SMALL = "ag x f"  # the command of the many-keys payload


def expected(name: str, command: str) -> str:
    """What RULES make of ``command`` when dp rewrites it."""
    if name == "grep x + empty quote pairs":  # grep without -r: rg must not descend either
        return "rg --max-depth 0" + command[len("grep"):]
    if name in ("quoted words", "long pipeline", "many JSON keys"):
        return command.replace("ag x", "rg x")
    if name == "long here-doc":  # the here-doc's body is data
        return command[: -len(SMALL)] + "rg x f"
    return command.replace("ag x f", "rg x f")  # nesting: the one command inside


def many_keys(payload: dict) -> dict:
    """``payload`` (a plain ``ag x f``) with as many extra keys in its tool input as fit."""
    room = TARGET_BYTES - len(json.dumps(payload)) - 64
    keys = {f"k{n}": n for n in range(room // len('"k99999": 99999, '))}
    return _with_extra(payload, keys)


def _with_extra(payload: dict, keys: dict) -> dict:
    """Extra keys where the agent keeps its tool input (``tool_input``, ``toolArgs``, ``args``)."""
    for field in ("tool_input", "toolArgs", "args"):
        if isinstance(payload.get(field), dict):
            return {**payload, field: {**payload[field], **keys}}
    return {**payload, **keys}


def payloads(agent, cwd: str) -> dict[str, tuple[bytes, str]]:
    """name → (``agent``'s before-tool payload, the expected command) for every worst case."""
    shell = agent.agent_tool("Bash")
    built = {name: (agent.hooks().sample_payload(shell, {"command": command}, cwd), expected(name, command))
             for name, command in COMMANDS.items()}
    built["many JSON keys"] = (many_keys(agent.hooks().sample_payload(shell, {"command": SMALL}, cwd)),
                               expected("many JSON keys", SMALL))
    out = {}
    for name, (payload, answer) in built.items():
        data = json.dumps(payload).encode()
        assert len(data) <= TARGET_BYTES + 4096, (name, len(data))
        out[name] = (data, answer)
    return out
