"""How many real one-liners would start the hook under dp's `if` filters.

Usage: python bench/nl2bash_spawns.py PATH/TO/nl2bash/data/bash/all.cm [--paving]

NL2Bash (github.com/TellinaTool/nl2bash, 12,607 commands, one per line) is
never committed: clone it and pass the file. The rules are the README's
examples (read_file → Read, grep → rg, the `gt await-signal` recipe, the two
scp rules, the Edit path regex); `--paving` adds project paving's command words,
as while `dp paving` is on.

Claude Code's own matcher is closed source; this script models what the
real-client tests observed (integration_tests/real_client/test_if_filters.py):
a condition is tested against each simple command (split at `|`, `&&`, `||`,
`;`, newlines, `$(`, backticks and parentheses) as a glob, and a command the
client cannot analyze statically (`${…}`, or a loop variable) starts every
handler. Quotes are not honoured, so the count errs towards spawning.
"""

from __future__ import annotations

import fnmatch
import re
import sys

from corpus import commands as read_commands  # bench/corpus.py, shared by the corpus benches

from dp.claude import filters
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
_SPLIT = re.compile(r"\|\||&&|[|;\n`()]|\$\(")
_UNANALYZABLE = re.compile(r"\$\{|\b(for|while|until)\b.*\$[A-Za-z_]")


def conditions(words) -> list[str]:
    return [condition[len("Bash("):-1] for word in words for condition in filters.conditions(word)]


def spawns(command: str, patterns: list[str]) -> bool:
    if _UNANALYZABLE.search(command):
        return True
    return any(fnmatch.fnmatchcase(part.strip(), pattern) for part in _SPLIT.split(command) for pattern in patterns)


def main(argv: list[str]) -> int:
    if not argv or argv[0].startswith("-"):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    corpus = read_commands(argv[0])
    words, _ = filters.bash_words(RULES)
    if "--paving" in argv:
        from dp.paving import WORDS

        words = sorted(set(words) | WORDS)
    patterns = conditions(words)
    spawned = [command for command in corpus if spawns(command, patterns)]
    needed = [command for command in corpus if command_words(command) & set(words)]
    needless = [command for command in spawned if command not in set(needed)]
    untouched = len(corpus) - len(needed)
    share = 100 * (len(corpus) - len(spawned)) / len(corpus)
    print(f"{len(corpus)} commands, filter words: {', '.join(words) if len(words) < 8 else f'{len(words)} words'}")
    print(f"spawn nothing:            {len(corpus) - len(spawned):6d} ({share:.1f} %)")
    print(f"spawn, a rule word occurs: {len(spawned) - len(needless):5d} ({100 * (len(spawned) - len(needless)) / len(corpus):.1f} %)")
    print(f"spawn needlessly:          {len(needless):5d} ({100 * len(needless) / len(corpus):.1f} %)")
    print(f"of the {untouched} commands without a rule word, {100 * (untouched - len(needless)) / untouched:.1f} % spawn nothing")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
