"""How exactly dp finds and rewrites commands in a real corpus, judged by an independent parser.

    pip install tree-sitter tree-sitter-bash     # the judge (bench only)
    python bench/run_corpus_bench.py PATH/TO/all.cm [--show N]

Every command of the corpus (NL2Bash's 12,607 one-liners, or dp's own
``integration_tests/data/corpus.txt``; read by ``bench/corpus.py``) is
rewritten by ``dp.rules.apply`` under rename rules for common commands
(``grep → ggrep``, ``find → gfind`` …, no translation tables, so what is
measured is *where* dp acts). The judge is tree-sitter-bash, a parser that
shares no code with dp's: every ``command_name`` it finds for a renamed
command must be renamed, nothing else may change, and ``bash -n`` must accept
the result whenever it accepts the original.

* exact — dp renamed exactly tree-sitter's command names, nothing else changed;
* beyond — dp also renamed a command run by a wrapper (``xargs -0 grep``,
  ``sudo -u x ls``, ``find … -exec grep``), which tree-sitter sees as an argument;
* missed — a command name tree-sitter found that dp left alone;
* false — dp renamed a word that is not run as a command;
* corrupted — any other change, or output that ``bash -n`` rejects;
* unreadable — commands tree-sitter cannot parse without errors (not counted).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import commands as read_commands  # noqa: E402

from dp.rules.apply import rewrite  # noqa: E402
from dp.rules.model import BASH_PARAM, BASH_TOOL, COMMAND, Rule  # noqa: E402

RENAMES = {
    "grep": "ggrep", "find": "gfind", "ls": "gls", "cat": "gcat", "sed": "gsed", "awk": "gawk",
    "sort": "gsort", "wc": "gwc", "head": "ghead", "tail": "gtail", "rm": "grm", "cp": "gcp",
    "mv": "gmv", "chmod": "gchmod", "tar": "gtar", "echo": "gecho",
}
# Words after which a program (not the shell) runs the next command.
_WRAPPER_WORDS = {"sudo", "nohup", "nice", "command", "exec", "env", "xargs", "timeout", "time",
                  "-exec", "-execdir", "-ok", "-okdir", "coproc"}  # tree-sitter reads `coproc` as a command
_TOKEN = re.compile(r"[A-Za-z0-9_./+,:=@%^~-]+|\\S|\S")
_CLASSES = ("exact", "beyond", "missed", "false", "corrupted", "unreadable")


def rules() -> list[Rule]:
    return [Rule(source, target, BASH_TOOL, BASH_PARAM, source, COMMAND) for source, target in RENAMES.items()]


def dp_rewrite(command: str, rule_list) -> str:
    result = rewrite({"command": command}, rule_list)
    return command if result is None else result.updated_input["command"]


def _basename(word: str) -> str:
    return word.rsplit("/", 1)[-1]


def judged_names(parser, command: str) -> set[int] | None:
    """Character offsets of the command names tree-sitter finds for renamed commands (None: parse error)."""
    data = command.encode()
    tree = parser.parse(data)
    if tree.root_node.has_error:
        return None
    found = set()
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "command_name" and _basename(node.text.decode(errors="replace")) in RENAMES:
            found.add(len(data[: node.start_byte].decode(errors="replace")))
        stack.extend(node.children)
    return found


def classify(command: str, new: str, names: set[int], syntax_ok: bool) -> str:
    old_tokens = [(m.start(), m.group()) for m in _TOKEN.finditer(command)]
    new_tokens = [m.group() for m in _TOKEN.finditer(new)]
    if len(old_tokens) != len(new_tokens) or not syntax_ok:
        return "corrupted"
    kinds = set()
    renamed = set()
    for index, ((start, old), mine) in enumerate(zip(old_tokens, new_tokens)):
        if old == mine:
            continue
        if RENAMES.get(_basename(old)) != mine:
            return "corrupted"
        renamed.add(start)
        if start not in names:
            context = [word for _, word in old_tokens[max(0, index - 24) : index]]
            kinds.add("beyond" if _after_wrapper(context) else "false")
    if names - renamed:
        kinds.add("missed")
    for kind in ("false", "missed", "beyond"):
        if kind in kinds:
            return kind
    return "exact"


def _after_wrapper(words: list[str]) -> bool:
    for word in reversed(words):
        if word in (";", "|", "&", "(", ")", "`"):
            return False
        if _basename(word) in _WRAPPER_WORDS:
            return True
    return False


def syntax_checks(texts: list[str], directory: str) -> list[bool]:
    """``bash -n`` on each text, in one bash process."""
    for index, text in enumerate(texts):
        Path(directory, f"c{index}").write_text(text)
    script = (
        f'for i in $(seq 0 {len(texts) - 1}); do '
        f'if bash -n "{directory}/c$i" 2>/dev/null; then printf "1"; else printf "0"; fi; done'
    )
    out = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=3600).stdout
    return [flag == "1" for flag in out]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus")
    parser.add_argument("--show", type=int, default=5, help="examples to print per failing class")
    args = parser.parse_args(argv)
    try:
        import tree_sitter
        import tree_sitter_bash
    except ImportError:
        print("the judge is missing: pip install tree-sitter tree-sitter-bash", file=sys.stderr)
        return 2
    judge = tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))
    os.environ.setdefault("XDG_CACHE_HOME", tempfile.mkdtemp(prefix="dp-bench-cache-"))
    corpus = read_commands(args.corpus)
    rule_list = rules()
    rewritten = [dp_rewrite(command, rule_list) for command in corpus]
    with tempfile.TemporaryDirectory() as directory:
        before = syntax_checks(corpus, directory)
        after = syntax_checks(rewritten, directory)
    found: dict[str, list] = {kind: [] for kind in _CLASSES}
    for command, new, ok_before, ok_after in zip(corpus, rewritten, before, after):
        names = judged_names(judge, command)
        if names is None or not ok_before:
            found["unreadable"].append((command, new))
            continue
        found[classify(command, new, names, ok_after)].append((command, new))
    report(corpus, rewritten, found, args.show)
    return 1 if any(found[kind] for kind in ("missed", "false", "corrupted")) else 0


def report(corpus, rewritten, found: dict, show: int) -> None:
    readable = len(corpus) - len(found["unreadable"])
    touched = sum(1 for command, new in zip(corpus, rewritten) if command != new)
    print(f"{len(corpus)} commands, {readable} parsed by tree-sitter and bash, {touched} rewritten by dp")
    for kind in _CLASSES:
        items = found[kind]
        share = f" ({100 * len(items) / readable:.2f} % of parsed)" if kind != "unreadable" and readable else ""
        print(f"  {kind:11} {len(items):6}{share}")
        if kind not in ("exact", "unreadable"):
            for command, new in items[:show]:
                print(f"      {command!r}\n   →  {new!r}")


if __name__ == "__main__":
    sys.exit(main())
