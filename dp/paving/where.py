"""Where a command of a Bash string runs: known through the forms dp follows exactly, else unknown.

Paving decides each rewrite by the directory the command will run in: its project, its package
manager, and whether its repository is trusted (dp.paving.reach). A directory read wrongly carries
one tree's decision into another: with the hook's cwd in a trusted repository, ``builtin cd
../evil && npm test`` was read as running in the trusted one and became ``… make test``, which ran
``../evil``'s Makefile. So the directory is known only through a whitelist:

* the hook's cwd, when nothing before the command could move the shell;
* after a bare ``cd DIR`` in a plain list from the start of the string to the command (``&&``,
  ``;``, newlines): no wrapper, assignment or redirection before ``cd``, one literal argument that
  is neither an option nor ``-``, no ``CDPATH`` lookup, and bash's logical reading of DIR (``..``
  taken off the path as written) and its physical one (after symlinks) reach the same directory.

Anything else before the command that could move the shell, or change what a later ``cd`` or
program name means, makes the directory unknown (None), and paving leaves the command as typed:
an unknown directory has no project to decide by, so nothing of any repository is run for it.
That is, every simple command before it is judged (``moves``), and any shell text the parse does
not show as one (``hidden``: ``\\cd``, an assignment standing alone, a function definition, a
loop) counts as one that moves. A ``cd`` dp does not follow — in a subshell, a condition, a
pipeline — makes the directory unknown too, even where it would not leak.
"""

from __future__ import annotations

import os

from dp.shell.wrappers import changes_directory

# Builtins that change the directory, run text as commands in this shell, or change what a later
# word means (an alias, a builtin loaded or hashed, a shell option such as cdable_vars).
_MOVES = frozenset({
    "cd", "pushd", "popd", "builtin", "eval", "source", ".", "trap", "alias", "unalias", "enable",
    "shopt", "hash", "mapfile", "readarray", "fc",
})
# Builtins that set variables: they move the shell when a variable they may set is one a later
# `cd` or program lookup reads (CDPATH, PATH, HOME, PWD, OLDPWD), or one dp cannot read.
_SETS_VARIABLES = frozenset({"export", "declare", "typeset", "local", "readonly", "unset", "read", "getopts", "let"})
_READ_LATER = ("PATH", "HOME", "PWD")
# Text of a word that bash expands: a word holding any of it is not the word dp reads.
_EXPANDS = frozenset("$`*?[{\\~")
# Shell syntax that may stand between simple commands without running or hiding one. Loops are
# left out: a command after the target in the text may run before its next pass.
_SYNTAX_WORDS = frozenset({"if", "then", "else", "elif", "fi", "{", "}", "!", "time"})
_OPERATOR_CHARS = ";&|()\n\t"


def directory(value: str, commands, command, cwd: str):
    """The real directory ``command`` (one of ``commands``, the simple commands of ``value``) runs
    in, or None when the command line does not say it exactly."""
    if changes_directory(value[command.start : command.word.start].split()):
        return None  # `env -C DIR`, `sudo --chdir DIR`: the wrapper runs it elsewhere
    before = sorted((other for other in commands if other.start < command.start), key=lambda other: other.start)
    text = _code(value)
    if hidden(text, before, command.start):
        return None
    moves = [other for other in before if _moves(other)]
    logical, physical = os.path.abspath(cwd), os.path.realpath(cwd)
    if not moves:
        return physical
    if not all(_bare_cd(other) for other in moves):
        return None
    position = 0
    for other in [*before, command]:
        if other.start < position and other in moves:
            return None  # a `cd` inside an earlier command (`echo $(cd x)`): a subshell dp does not follow
        if other.start >= position and not _plain_list(text[position : other.start]):
            return None  # a `cd` in a subshell, a pipeline, a condition: not followed
        if other is command:
            return physical
        if other in moves:
            followed = _cd(logical, physical, other.args[0].value)
            if followed is None:
                return None
            logical, physical = followed
        position = max(position, other.end)
    return None


def hidden(text: str, before: list, end: int) -> bool:
    """Whether ``text[:end]`` holds shell text outside the simple commands ``before`` (sorted by
    start) other than operators and the keywords of a condition or group: a command the parse
    leaves out (``\\cd``, ``NAME=value`` alone, a function definition, a loop's words)."""
    position = 0
    for other in before:
        if other.start > position and not _only_syntax(text[position : other.start]):
            return True
        position = max(position, other.end)
    return end > position and not _only_syntax(text[position:end])


def _code(value: str) -> str:
    """``value`` with its comments and heredoc bodies (delimiter lines too) blanked, same length:
    text that runs nothing in this shell (a body fed to ``source`` is judged by ``source``)."""
    if "#" not in value and "<<" not in value:
        return value  # the common case, and every string split without the parser
    from dp.shell.lexer import COMMENT, Unparseable, layout

    try:
        regions, heredocs = layout(value)
    except Unparseable:
        return value  # then every gap reads as hidden text: the directory is unknown
    spans = [(start, stop) for start, stop, kind in regions if kind == COMMENT]
    spans += [(heredoc[6], heredoc[8]) for heredoc in heredocs]  # body start, end of the delimiter line
    chars = list(value)
    for start, stop in spans:
        chars[start:stop] = [" "] * (stop - start)
    return "".join(chars)


def _only_syntax(text: str) -> bool:
    for char in _OPERATOR_CHARS:
        text = text.replace(char, " ")
    return all(word in _SYNTAX_WORDS for word in text.split())


def _plain_list(between: str) -> bool:
    """Only ``&&``, ``;``, newlines and blanks: the next command runs after the last one, in this
    shell, whether or not that one moved it."""
    for separator in ("&&", ";", "\n"):
        between = between.replace(separator, " ")
    return not between.strip()


def _moves(command) -> bool:
    """Whether ``command`` could move the shell or change how a later command is read."""
    word = command.word
    if word.masked or (word.raw != "[" and _EXPANDS.intersection(word.raw)):
        return True  # `$c ../evil`, `c? ../evil`, `{c,}d ../evil`: any command at all (`[` alone is test)
    name = command.name
    if name in _MOVES:
        return True
    if name == "printf":
        return any(arg.value.startswith("-v") for arg in command.args)
    if name in _SETS_VARIABLES:
        return any(arg.masked or "$" in arg.raw or "`" in arg.raw or any(part in arg.value for part in _READ_LATER)
                   for arg in command.args)
    return False


def _bare_cd(command) -> bool:
    """``cd DIR`` as typed: nothing before ``cd``, one literal argument dp can follow."""
    if command.word.raw != "cd" or command.start != command.word.start or len(command.args) != 1:
        return False
    arg = command.args[0]
    target = arg.value
    expanded = target[1:] if target.startswith("~") else target  # `~/x`: HOME, as os.path.expanduser reads it
    if arg.masked or arg.raw != target or not target or target[0] == "-" or _EXPANDS.intersection(expanded):
        return False  # quoted, escaped, expanded or globbed; an option; `cd -`
    return not (_uses_cdpath(target) and os.environ.get("CDPATH"))


def _uses_cdpath(target: str) -> bool:
    """Whether bash looks ``target`` up in CDPATH (a relative name not starting with . or ..)."""
    first = target.split("/", 1)[0]
    return not target.startswith(("/", "~")) and first not in (".", "..")


def _cd(logical: str, physical: str, target: str):
    """``(logical, physical)`` after ``cd target``, or None when bash's readings could differ or the
    ``cd`` could fail (then a command after ``;`` would run where it was)."""
    if target.startswith("~"):
        target = os.path.expanduser(target)
        if target.startswith("~"):
            return None
    moved = os.path.normpath(os.path.join(logical, target))
    real = os.path.realpath(os.path.join(physical, target))
    readings = {real, os.path.realpath(moved), os.path.realpath(os.path.normpath(os.path.join(physical, target)))}
    if len(readings) != 1 or not os.path.isdir(real) or not os.access(real, os.X_OK):
        return None
    return moved, real
