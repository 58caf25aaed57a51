"""Parsing one project rule file: its bytes into validated rules, each with its line.

The file is the collection format ``dp aliases export`` writes, so an export
can be committed as is, and every entry passes the store's own validation
(``dp.rules.collection``): the same refusals, worded the same, plus the line
of the entry's ``[[aliases]]`` header. A file that fails validation as a
whole is one problem for its layer: the layer is inert (fails open) and the
user's rules still apply.

The hook parses a file only on the first call after it changed: what the parse
gives is kept in dp's cache and read from there (``dp.layers.effective``), so
this module, TOML and the recipe compiler stay off its path otherwise.
"""

from dp.rules import RECIPE


def parse(data: bytes) -> list:
    """The rules in a project file's bytes, each with its ``line``; DpError naming the line of what is wrong."""
    from dp.errors import DpError
    from dp.layers.tomlscan import entry_blocks
    from dp.rules import collection

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise DpError(f"line {line}: not UTF-8 text") from None
    lines = text.splitlines(keepends=True)
    headers = [first + 1 for first, _, _ in entry_blocks(lines)]
    try:
        rules = collection.parse(text, "toml")
    except collection.EntryError as exc:
        where = f"line {headers[exc.index - 1]}: " if len(headers) >= exc.index else ""
        raise DpError(f"{where}entry {exc.index}: {exc.reason}") from None
    except DpError as exc:
        raise DpError(exc.message.replace("; nothing was imported", "")) from None
    numbered = len(headers) == len(rules)
    seen: dict = {}
    for index, rule in enumerate(rules):
        rule.line = headers[index] if numbered else 0
        first = seen.setdefault(rule.key, rule)
        if first is not rule:
            raise DpError(f"line {rule.line}: entry {index + 1} is the same rule as line {first.line} "
                          "(same kind, command and from); keep one of them")
    return rules


def _program(rule) -> str:
    """A recipe's compiled program (what the store keeps beside a recipe rule), '' when Jinja2 must render it."""
    if rule.match_kind != RECIPE:
        return ""
    from dp.rules.recipe import program_for

    try:
        return program_for(rule.to_name) or ""
    except Exception:  # noqa: BLE001 - a template the compiler cannot take is rendered by Jinja2
        return ""
