"""What an alias rule is, how one is built from user input, and how rules apply.

A rule's vocabulary — its fields (the store's columns), its kinds, the Bash tool and parameter
— is defined here, and ``dp.rules.model`` (the ``Rule`` class, stdlib-only) builds on it: the
hook needs these names on every call, and the ``Rule`` class only when the store or a project
file has a rule for the call, which most calls do not (a module less to import on each of them).
"""

# match_kind values. The empty string is a tool-name alias (block + suggest).
TOOL_ALIAS = ""
FLAG = "flag"
COMMAND = "command"
LITERAL = "literal"
REGEX = "regex"
RECIPE = "recipe"

MATCH_KINDS = (TOOL_ALIAS, FLAG, COMMAND, LITERAL, REGEX, RECIPE)

# The order the hook applies Bash rules in, independent of their names.
APPLY_ORDER = (RECIPE, COMMAND, FLAG, LITERAL, REGEX)

# The tool and parameter every command-scoped rule targets.
BASH_TOOL = "Bash"
BASH_PARAM = "command"

FIELDS = ("from_name", "to_name", "tool", "param", "command", "match_kind", "message", "created_at")
KEY_FIELDS = ("from_name", "tool", "param", "command", "match_kind")
