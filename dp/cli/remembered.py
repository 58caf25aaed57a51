"""Command lines typer has parsed before, run again without importing typer.

Importing typer (and the click it vendors) costs about twice a bare Python
start: more than ``dp aliases`` needs to list 10,000 rules. The read-only
commands people run again and again with the same words — ``dp aliases``,
``dp tasks`` — hand their work to a plain function (``dp.cli.views``) through
``run``. The first time, typer parses the command line as always and ``run``
keeps the outcome: which function, its plain arguments and the shared
options. A later run with exactly the same words calls that function
straight away, without typer.

Only the parse is kept, never a result: the function reads the store and the
project afresh every time. The parse depends on nothing but the words and the
code that parsed them, so the kept one is stamped with both (``code_stamp``:
dp's and typer's files, Python) and is used only while the stamp is
unchanged. A command line that typer refused, that asked for help, or that
ran any other command is never kept.
"""

from __future__ import annotations

import os

# The commands whose command lines may be kept (each calls ``run`` when typer parsed it).
COMMANDS = ("aliases", "tasks")
# Where the functions they hand their work to live (typer-free).
VIEWS = "dp.cli.views."
_PREFIX = "argv"
_words: list[str] | None = None  # this run's command line, while typer parses it


def lookup(args: list[str]):
    """A call that runs ``dp ARGS`` as typer parsed the same words before, or None."""
    from dp.cli.help_cache import COMPLETION_VARIABLE  # a shell asking for completions: always typer

    if not any(word in COMMANDS for word in args) or COMPLETION_VARIABLE in os.environ:
        return None
    from dp.cachedir import read_stamped

    kept = read_stamped(_PREFIX, _stamp(args))
    if not (isinstance(kept, tuple) and len(kept) == 3):
        return None
    target, arguments, plain_opts = kept
    if not (isinstance(target, str) and target.startswith(VIEWS) and isinstance(arguments, dict)
            and isinstance(plain_opts, tuple) and len(plain_opts) == 4):
        return None  # only ever a listing view: a cache file is no way to call anything else
    return lambda: _call(target, arguments, plain_opts)


def listen(args: list[str]) -> None:
    """Remember this run's words, so that ``run`` can keep how typer parsed them."""
    global _words
    _words = list(args)


def run(function, opts, **arguments):
    """``function(opts=opts, **arguments)``, keeping this parse for the next run of the same words.

    ``function`` must not need typer, and the arguments must be plain values
    (text, numbers, booleans, None); anything else is run but not kept.
    """
    if _words is not None and function.__module__.startswith(VIEWS) and all(map(_plain, arguments.values())):
        from dp.cachedir import write_stamped

        target = f"{function.__module__}:{function.__qualname__}"
        write_stamped(_PREFIX, _stamp(_words), (target, arguments, opts.plain()))
    return function(opts=opts, **arguments)


def _call(target: str, arguments: dict, plain_opts: tuple):
    import importlib

    from dp.cli.shared import Shared

    module, _, name = target.partition(":")
    opts = Shared.from_plain(plain_opts)
    opts.enter(os.getcwd())
    if opts.quiet:
        from dp.cli.common import set_quiet

        set_quiet(True)
    return getattr(importlib.import_module(module), name)(opts=opts, **arguments)


def _plain(value) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _stamp(args: list[str]) -> str:
    from dp.cli.code_stamp import code_stamp

    return code_stamp("argv " + repr(list(args)))
