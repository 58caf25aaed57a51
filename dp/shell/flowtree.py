"""A script as ``dp.shell.codeflow`` judges it: its simple commands, read once from bashlex's tree.

Each ``Command`` keeps its words (as bash sees them, with their spans in the script), its
``NAME=value`` assignments, its redirections and the regions that feed its input (a pipe's
earlier commands, a here-string, a heredoc body, ``< <(…)``). ``for`` loops, functions and loop
variables are noted on the way. Kept apart from the taint (``codeflow.Flow``), which only reads
what this walk found.
"""

from __future__ import annotations

import re

from dp.shell.segment import Word

_ELEMENT_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\[[^\]]*\]\+?=")  # an array element's `a[k]=`
_REDIRECTS = ("<<<", "<<", "&>>", "&>", ">>", ">|", ">&", "<&", "<>", ">", "<")

class Command:
    """A simple command: its words, ``NAME=value`` assignments, redirections, and what feeds its input."""

    __slots__ = ("start", "end", "words", "assigns", "redirects", "stdin")

    def __init__(self, start, end, words, assigns, redirects, stdin):
        self.start, self.end = start, end
        self.words = words
        self.assigns = assigns  # (name, value start, value end)
        self.redirects = redirects  # (operator, start, end, target Word or None)
        self.stdin = stdin  # regions (start, end) whose values reach its input (any descriptor)


class Tree:
    """The walk of one script's bashlex trees: ``commands``, ``loops``, ``functions`` and the loop
    variables (``split``: they may hold a piece of a value)."""

    def __init__(self, text: str, heredocs):
        self.text, self.heredocs = text, heredocs
        self.commands: list[Command] = []
        self.loops: list[tuple[str, int, int]] = []
        self.functions: set[str] = set()
        self.split: set[str] = set()

    def read(self) -> None:
        from dp.shell.bashlex_loader import load
        from dp.shell.guard import Timeout, deadline
        from dp.shell.lexer import Unparseable, prepare
        from dp.shell.segment import MAX_PARSE_CHARS, PARSE_SECONDS

        if len(self.text) > MAX_PARSE_CHARS:
            raise Unparseable("too long to judge")
        prepared = prepare(self.text)
        try:
            with deadline(PARSE_SECONDS * 3):
                trees = load().parse(prepared.text)
            for tree in trees:
                self._walk(tree, prepared, [])
        except (Timeout, RecursionError, Exception) as exc:  # bashlex raises its own errors
            if isinstance(exc, Unparseable):
                raise
            raise Unparseable("the parser could not read it") from None

    def _walk(self, node, prepared, stdin: list) -> None:
        kind = node.kind
        if kind == "command":
            self._command(node, prepared, stdin)
        elif kind == "pipeline":
            parts = [part for part in node.parts if part.kind != "pipe"]
            for i, part in enumerate(parts):
                self._walk(part, prepared, stdin + [tuple(earlier.pos) for earlier in parts[:i]])
        else:
            self._compound(node, prepared, stdin)

    def _compound(self, node, prepared, stdin: list) -> None:
        if node.kind == "function":
            self.functions.add(node.parts[0].word)
        if node.kind == "for" and len(node.parts) > 1 and node.parts[1].kind == "word":
            words = [part for part in node.parts[3:] if part.kind == "word"]
            if words:
                self.loops.append((node.parts[1].word, words[0].pos[0], words[-1].pos[1]))
                self.split.add(node.parts[1].word)
        redirects = getattr(node, "redirects", None) or ()
        own = stdin + self._redirect_sources(redirects)
        children = [*(getattr(node, "parts", None) or ()), *(getattr(node, "list", None) or ()),
                    getattr(node, "command", None), getattr(node, "output", None)]
        for child in children:
            if child is not None and hasattr(child, "kind") and child.kind != "redirect":
                self._walk(child, prepared, own)
        for redirect in [*redirects, *(child for child in children if getattr(child, "kind", "") == "redirect")]:
            self._substitutions(redirect, prepared, own, tuple(node.pos))

    def _command(self, node, prepared, stdin) -> None:
        if prepared.literal(node.pos[0]):
            return  # bashlex reads `$( … )` inside some '…' strings: nothing there runs
        words, assigns, redirects = [], [], []
        for part in node.parts:
            start, end = part.pos
            raw = self.text[start:end]
            if part.kind == "word":
                masked = prepared.masked(start, end)
                words.append(Word(start, end, raw if masked else part.word, raw, masked))
            elif part.kind == "assignment":
                name = raw.split("=", 1)[0].rstrip("+").split("[", 1)[0]  # m[k]=… gives to m
                assigns.append((name, start + raw.index("=") + 1, end))
            elif part.kind == "redirect":
                redirects.append(self._redirect(part, raw, start, end))
        while words and _ELEMENT_ASSIGNMENT.match(words[0].raw):  # bashlex reads `m[k]=v` as a word
            word = words.pop(0)
            assigns.append((word.raw.split("[", 1)[0], word.start + word.raw.index("=") + 1, word.end))
        own = stdin + self._redirect_sources([part for part in node.parts if part.kind == "redirect"])
        self.commands.append(Command(node.pos[0], node.pos[1], words, assigns, redirects, own))
        for part in node.parts:  # substitutions inside the words and redirections run with this command's stdin
            self._substitutions(part, prepared, own, tuple(node.pos))

    def _redirect(self, part, raw: str, start: int, end: int):
        bare = raw.lstrip("0123456789")
        operator = next((op for op in _REDIRECTS if bare.startswith(op)), "")
        target = part.output if hasattr(part.output, "kind") and part.output.kind == "word" else None
        if target is None and isinstance(part.output, int):  # `>&3`: the descriptor, as its text
            return operator, start, end, Word(end - len(str(part.output)), end, str(part.output), str(part.output))
        if target is None:
            return operator, start, end, None
        return operator, start, end, Word(target.pos[0], target.pos[1], target.word, self.text[target.pos[0]:target.pos[1]])

    def _substitutions(self, node, prepared, stdin, writer: tuple, descriptor: tuple = ()) -> None:
        """The commands inside ``$( )``, ``<( )`` and ``>( )`` of a word or a redirection's target. Each
        runs with the command's input; a ``>( )`` also reads what the command (at ``writer``) writes to
        it, and one opened as descriptor N (``exec 3> >(sh)``) what any later command writes to N."""
        if getattr(node, "kind", "") == "redirect":
            number = self.text[node.pos[0]:node.pos[1]][:1]
            descriptor = (("file", f"/dev/fd/{number}"),) if number.isdigit() else ()
        for child in [*(getattr(node, "parts", None) or ()), getattr(node, "output", None)]:
            if not hasattr(child, "kind"):
                continue  # a redirection's descriptor number (`>&2`)
            if child.kind == "processsubstitution" and self.text.startswith(">(", child.pos[0]):
                self._walk(child.command, prepared, [*stdin, writer, *descriptor])
            elif child.kind in ("commandsubstitution", "processsubstitution"):
                self._walk(child.command, prepared, stdin)
            else:
                self._substitutions(child, prepared, stdin, writer, descriptor)

    def _redirect_sources(self, redirects) -> list[tuple]:
        """The regions a command's (or compound's) own redirections feed to its input, on any
        descriptor (``3<<< …`` is read as ``/dev/fd/3``)."""
        sources = []
        for redirect in redirects:
            start, end = redirect.pos
            operator = self.text[start:end].lstrip("0123456789")
            if operator.startswith("<<<"):
                sources.append((start, end))
            elif operator.startswith("<<"):
                body = self._heredoc_at(start, end)
                if body:
                    sources.append(body)
            elif operator.startswith("<") and not operator.startswith("<&"):
                target = self.text[start:end].lstrip("0123456789<").strip().strip("'\"")
                # `< <(echo {{v}})`: what the process substitution prints is the input
                sources.append((start, end) if target.startswith("<(") else ("file", target))
        return sources

    def _heredoc_at(self, start: int, end: int):
        for operator, *_, body_start, body_end, _line_end in self.heredocs:
            if start <= operator < end:
                return body_start, body_end
        return None
