"""How many real one-liners would start the hook under dp's `if` filters.

Usage: python bench/nl2bash_spawns.py PATH/TO/nl2bash/data/bash/all.cm [--paving]

NL2Bash (github.com/TellinaTool/nl2bash, 12,607 commands, one per line) is
never committed: clone it and pass the file. The rules are the README's
examples (read_file → Read, grep → rg, the `gt await-signal` recipe, the two
scp rules, the Edit path regex); `--paving` adds project paving's command words,
as while `dp paving` is on.

Claude Code's own matcher is closed source; this script models what the
real client (2.1.330) was seen to do (integration_tests/real_client/test_if_filters.py):
a condition is tested against each simple command (split at `|`, `&&`, `||`,
`;`, newlines and parentheses) as a glob, and a command the client cannot
analyze statically — `$( )`, backticks, `${…}`, a `{ …; }` group or function
body, a heredoc, a redirected subshell, a loop variable — starts EVERY
filtered handler (a heredoc with a quoted delimiter is analyzed, but counted
here too). Quotes are not honoured, so the count errs towards spawning.
Besides the share of commands that start nothing it counts hook processes:
a command starts one per matching condition. The conditions are dp's own
(dp.agents.claude.filters.wanted): one per stem the words share.
"""

from __future__ import annotations

import fnmatch
import re
import sys

from corpus import commands as read_commands  # bench/corpus.py, shared by the corpus benches

from dp.agents.claude import filters
from dp.rules.model import Rule
from dp.shell.words import command_words

RULES = [
    Rule("read_file", "Read"),
    Rule("grep", "rg", "Bash", "command", "grep", "command"),
    Rule("gt await-signal", "while true; do gt mol status; done", "Bash", "command", "gt", "recipe"),
    Rule("r", "R", "Bash", "command", "scp", "flag"),
    Rule("user@old:", "user@new:", "Bash", "command", "scp", "literal"),
    Rule("^/tmp/(.*)", "/scratch/$1", "Edit", "file_path", "", "regex"),
]
_SPLIT = re.compile(r"\|\||&&|[|;\n()]")
_UNANALYZABLE = re.compile(r"\$\(|`|\$\{|(^|[;&|(\s])\{\s|<<|\)\s*[<>]|\b(for|while|until)\b.*\$[A-Za-z_]")


def bash_conditions(words) -> list[str] | None:
    """The globs of the Bash handlers dp installs for ``words``; None for the plain Bash handler."""
    rules = [Rule(word, word.upper(), "Bash", "command", word, "command") for word in words]
    groups = filters.wanted("pave-check", rules, True)[filters.PRE]
    handlers = [handler for group in groups if group["matcher"] == "Bash" for handler in group["hooks"]]
    if any("if" not in handler for handler in handlers):
        return None
    return [handler["if"][len("Bash("):-1] for handler in handlers]


def processes(command: str, patterns: list[str] | None) -> int:
    """How many hook processes the client starts for ``command``: one per matching condition."""
    if patterns is None:
        return 1
    if _UNANALYZABLE.search(command):
        return len(patterns)
    parts = [part.strip() for part in _SPLIT.split(command)]
    return sum(any(fnmatch.fnmatchcase(part, pattern) for part in parts) for pattern in patterns)


def main(argv: list[str]) -> int:
    if not argv or argv[0].startswith("-"):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    corpus = read_commands(argv[0])
    words, _ = filters.bash_words(RULES)
    if "--paving" in argv:
        from dp.paving import WORDS

        words = sorted(set(words) | WORDS)
    patterns = bash_conditions(words)
    started = [processes(command, patterns) for command in corpus]
    spawned = [command for command, count in zip(corpus, started) if count]
    unanalyzable = [command for command in corpus if _UNANALYZABLE.search(command)]
    needed = [command for command in corpus if command_words(command) & set(words)]
    needless = [command for command in spawned if command not in set(needed)]
    untouched = len(corpus) - len(needed)
    share = 100 * (len(corpus) - len(spawned)) / len(corpus)
    handlers = "the plain Bash handler" if patterns is None else f"{len(patterns)} conditions"
    print(f"{len(corpus)} commands, filter words: {', '.join(words) if len(words) < 8 else f'{len(words)} words'}")
    print(f"spawn nothing:            {len(corpus) - len(spawned):6d} ({share:.1f} %)")
    print(f"spawn, a rule word occurs: {len(spawned) - len(needless):5d} ({100 * (len(spawned) - len(needless)) / len(corpus):.1f} %)")
    print(f"spawn needlessly:          {len(needless):5d} ({100 * len(needless) / len(corpus):.1f} %)")
    print(f"of the {untouched} commands without a rule word, {100 * (untouched - len(needless)) / untouched:.1f} % spawn nothing")
    print(f"Claude Code cannot analyze {len(unanalyzable)} ({100 * len(unanalyzable) / len(corpus):.1f} %): "
          f"they start every handler")
    print(f"hook processes started:    {sum(started):5d} ({handlers})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
