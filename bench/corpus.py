"""Read one-line shell command corpora (NL2Bash's ``all.cm``, dp's own corpus files).

Reusable by every bench script that needs real agent-like commands: the
rewrite bench (``bench/run_corpus_bench.py``) and any script measuring which
commands would reach the hook. NL2Bash is never committed: fetch it yourself
(``git clone https://github.com/TellinaTool/nl2bash`` → ``data/bash/all.cm``,
12,607 commands, one per line) and pass the path.

Format: one command per line, UTF-8; blank lines and lines starting with
``#`` are skipped (NL2Bash has neither). A line may carry an expected result
after the separator ``" ⟶ "`` (dp's own corpus: ``COMMAND ⟶ EXPECTED``, where
``=`` means "left as it is"); ``entries`` returns both, ``commands`` only the
commands.
"""

from __future__ import annotations

import sys
from pathlib import Path

SEPARATOR = " ⟶ "


def entries(path) -> list[tuple[str, str | None]]:
    """(command, expected or None) for every line of the corpus at ``path``."""
    found = []
    for line in Path(path).read_text(encoding="utf-8", errors="replace").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        command, separator, expected = line.partition(SEPARATOR)
        if separator and expected == "=":
            expected = command
        found.append((command, expected if separator else None))
    return found


def commands(path) -> list[str]:
    """The commands of the corpus at ``path``, in file order."""
    return [command for command, _ in entries(path)]


if __name__ == "__main__":
    corpus = commands(sys.argv[1])
    print(f"{len(corpus)} commands; first: {corpus[0] if corpus else '-'}")
