"""Which real Claude Code tool a hallucinated tool name meant.

Two kinds of evidence, both required:

* the **name**: split into tokens (``readFile``, ``read_file``, ``file-read``
  → read, file) and each token mapped to a concept through synonyms
  (``cat``, ``view``, ``open`` → read; ``shell``, ``run``, ``execute`` →
  bash), compared with the real tools' concepts; plain spelling similarity
  (``Reed`` → Read) counts too;
* the **input**: the call's keys, through key synonyms (``path``, ``filename``
  → ``file_path``; ``cmd`` → ``command``), must fit the tool's parameters and
  provide what it requires.

The Go tool scored ``read_file`` → ``Read`` 0.489 by spelling alone; here it is 1.0.
"""

from __future__ import annotations

from difflib import SequenceMatcher

from dp.agents.tools import BUILTIN_TOOLS, KEY_SYNONYMS, REQUIRED_PARAMS, is_possible_tool, tool_params

_CONCEPT_WORDS = {
    "read": ("read", "cat", "view", "open", "get", "show", "load", "readfile", "head", "tail"),
    "write": ("write", "create", "save", "put", "overwrite", "writefile"),
    "edit": ("edit", "modify", "update", "replace", "patch", "change", "str", "apply", "diff"),
    "bash": ("bash", "shell", "run", "exec", "execute", "command", "terminal", "cmd", "sh", "zsh", "system", "subprocess"),
    "search": ("grep", "search", "rg", "ripgrep", "ag"),
    "list": ("glob", "list", "ls", "dir", "directory", "directories", "find", "tree", "folder"),
    "fetch": ("fetch", "http", "url", "download", "curl", "browse", "request", "wget"),
    "web": ("web", "internet", "online", "google", "bing"),
    "todo": ("todo", "todos"),
    "notebook": ("notebook", "ipynb", "jupyter", "cell"),
}
CONCEPTS = {word: concept for concept, words in _CONCEPT_WORDS.items() for word in words}
TOOL_CONCEPTS = {
    "Read": {"read"},
    "Write": {"write"},
    "Edit": {"edit"},
    "Bash": {"bash"},
    "Grep": {"search"},
    "Glob": {"list"},
    "WebFetch": {"web", "fetch"},
    "WebSearch": {"web", "search"},
    "TodoWrite": {"todo", "write"},
    "NotebookEdit": {"notebook", "edit"},
}


def tokens(name: str) -> list[str]:
    """``readFile`` / ``read_file`` / ``file-read`` / ``ReadFILE2`` → lower-case word tokens."""
    found, word = [], ""
    for index, char in enumerate(name):
        if not char.isalnum():
            found.append(word)
            word = ""
            continue
        previous = name[index - 1] if index else ""
        following = name[index + 1] if index + 1 < len(name) else ""
        boundary = word and char.isupper() and (previous.islower() or (previous.isupper() and following.islower()))
        if boundary or (word and char.isdigit() != previous.isdigit()):
            found.append(word)
            word = ""
        word += char
    found.append(word)
    return [token.lower() for token in found if token]


def name_score(name: str, tool: str) -> float:
    """0–1: how well ``name`` says ``tool`` (concept overlap, or spelling for near-misses)."""
    concepts = {CONCEPTS[token] for token in tokens(name) if token in CONCEPTS}
    wanted = TOOL_CONCEPTS.get(tool, {tool.lower()})
    overlap = len(concepts & wanted) / len(concepts | wanted) if concepts else 0.0
    spelling = SequenceMatcher(None, name.lower(), tool.lower()).ratio()
    return max(overlap, spelling if spelling >= 0.75 else 0.0)


def schema_score(keys, tool: str) -> float | None:
    """0–1: how well the call's input keys fit ``tool``'s parameters (None when no keys are known).

    The share of keys that mean one of the tool's parameters, halved when
    the call lacks the tool's required ones (``list_dir {path}`` still fits
    Glob, which wants a pattern); 0 when no key fits at all
    (``read_file {command}`` is not a Read).
    """
    keys = [key for key in keys if isinstance(key, str)]
    if not keys:
        return None
    params = tool_params(tool)
    mapped = {key if key in params else KEY_SYNONYMS.get(key.lower(), key) for key in keys}
    required = REQUIRED_PARAMS.get(tool, ())
    present = sum(1 for name in required if name in mapped) / len(required) if required else 1.0
    return len(mapped & params) / len(mapped) * (0.5 + 0.5 * present)


def best_tool(name: str, keys) -> tuple[str, float, float | None, float] | None:
    """(tool, confidence, schema score, margin over the runner-up) for a hallucinated ``name``, or None.

    Never for a name that is a real tool: an alias away from a real tool would block it.
    """
    if is_possible_tool(name) or name in BUILTIN_TOOLS:
        return None
    scored = []
    for tool in BUILTIN_TOOLS:
        by_name = name_score(name, tool)
        if by_name < 0.5:
            continue
        by_schema = schema_score(keys, tool)
        if by_schema == 0.0:
            continue
        confidence = by_name * 0.6 + (0.5 if by_schema is None else by_schema) * 0.4
        scored.append((confidence, tool, by_schema))
    if not scored:
        return None
    scored.sort(reverse=True)
    confidence, tool, by_schema = scored[0]
    margin = confidence - (scored[1][0] if len(scored) > 1 else 0.0)
    return tool, round(confidence, 3), by_schema, round(margin, 3)
