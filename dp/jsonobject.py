"""A JSON object out of text that may hold anything: ``{}`` for whatever is not one.

Hooks' answers, stored details, tool inputs and function-call arguments all arrive as text
someone else wrote; every reader wants an object or nothing, never an exception. One
definition, stdlib only (the hook's path may read it).
"""

import json


def json_object(value) -> dict:
    """``value`` read as a JSON object: text is parsed (empty text is ``{}``), an object is itself,
    anything else — another JSON value, text that is not JSON, nesting too deep — is ``{}``."""
    if isinstance(value, (str, bytes, bytearray)):
        try:
            value = json.loads(value) if value else {}
        except (ValueError, RecursionError):
            return {}
    return value if isinstance(value, dict) else {}
