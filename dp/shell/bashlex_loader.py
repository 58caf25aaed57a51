"""Import bashlex without paying for its parser generator on every run.

bashlex 0.18 runs PLY's ``yacc.yacc()`` when ``bashlex.parser`` is imported:
it reflects over the grammar functions (importing ``inspect``), validates
them and regenerates the LALR tables — about 150 ms, on every import (its
shipped ``parsetab`` is never read). The hook is a new process per tool call,
so ``load()`` imports bashlex with ``yacc.yacc`` replaced by a function that
builds the parser straight from a cache of the tables and productions,
written (atomically) the first time. The cache is in ``marshal`` format, like
Python's own ``.pyc`` files in the user's cache: it loads in a third of the
time JSON takes and keeps the integer state numbers as they are. The cache is keyed by the size and mtime
of bashlex's ``yacc.py`` and ``parser.py`` and the Python version; any problem
with it falls back to the real ``yacc.yacc()``.
"""

from __future__ import annotations

import marshal
import os
import sys
import types

from dp.cachedir import cache_dir, write_atomically

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing stays off the hook's import path
    from typing import Any



def load():
    """Return the ``bashlex`` module, importing it from the table cache if needed."""
    if "bashlex.parser" in sys.modules:
        return sys.modules["bashlex"]
    spec, package = _spec_and_module("bashlex")
    sys.modules["bashlex"] = package
    try:
        yacc = _import_yacc()
        original = yacc.yacc
        yacc.yacc = _cached_yacc(yacc, original, _cache_path(spec.submodule_search_locations[0]))
        try:
            spec.loader.exec_module(package)
        finally:
            yacc.yacc = original
    except BaseException:
        for name in [name for name in sys.modules if name == "bashlex" or name.startswith("bashlex.")]:
            del sys.modules[name]
        raise
    return package


def _spec_and_module(name: str):
    """``importlib.util.find_spec`` and ``module_from_spec``, without importing ``importlib.util``.

    ``importlib.util`` pulls in ``contextlib`` and ``warnings`` (about 1 ms, a
    fifth of bashlex's cached import); the import system's own frozen module
    has both functions. Should a Python release rename them, the public ones serve.
    """
    bootstrap: Any = sys.modules.get("_frozen_importlib")
    try:
        spec = bootstrap._find_spec(name, None)
        make_module = bootstrap.module_from_spec
    except AttributeError:
        import importlib.util

        spec, make_module = importlib.util.find_spec(name), importlib.util.module_from_spec
    if spec is None:
        raise ImportError(f"No module named {name!r}", name=name)
    return spec, make_module(spec)


def _import_yacc():
    """Import ``bashlex.yacc`` without its ``import inspect`` (only the generator needs it)."""
    stubbed = "inspect" not in sys.modules
    if stubbed:
        sys.modules["inspect"] = types.ModuleType("inspect")
    try:
        from bashlex import yacc
    finally:
        if stubbed:
            del sys.modules["inspect"]
    return yacc


def _cache_path(package_dir: str) -> str:
    stamps = []
    for name in ("yacc.py", "parser.py"):
        stat = os.stat(os.path.join(package_dir, name))
        stamps.append(f"{stat.st_size:x}-{stat.st_mtime_ns:x}")
    version = "{}{}".format(*sys.version_info[:2])
    return os.path.join(cache_dir(), f"bashlex-tables-py{version}-{'-'.join(stamps)}.marshal")


class _Production:
    """What PLY's parse loop needs of a grammar production."""

    __slots__ = ("name", "len", "func", "callable", "str")

    def __init__(self, name: str, length: int, func, grammar_functions: dict):
        self.name = name
        self.len = length
        self.func = func
        self.callable = grammar_functions[func] if func else None
        self.str = name


def _cached_yacc(yacc, original, path: str):
    def cached(*args, **kwargs):
        parser_module = sys.modules["bashlex.parser"]  # the caller, mid-import
        grammar_functions = vars(parser_module)
        try:
            with open(path, "rb") as handle:
                data = marshal.loads(handle.read())
            tables = types.SimpleNamespace(
                lr_productions=[_Production(*entry, grammar_functions) for entry in data["productions"]],
                lr_action=_int_keyed(data["action"]),
                lr_goto=_int_keyed(data["goto"]),
            )
            return yacc.LRParser(tables, grammar_functions["p_error"])
        except (OSError, ValueError, EOFError, KeyError, TypeError, AttributeError):
            pass
        import inspect

        yacc.inspect = inspect
        parser = original(*args, module=parser_module, **kwargs)
        try:
            _write(path, parser)
        except (OSError, TypeError, ValueError):
            pass  # read-only home: keep working, just slower
        return parser

    return cached


def _int_keyed(table) -> dict:
    """A state table as the parse loop indexes it: {state number: {symbol: entry}}."""
    if not all(isinstance(state, int) and isinstance(row, dict) for state, row in table.items()):
        raise ValueError("not a table of parser states")
    return table


def _write(path: str, parser) -> None:
    data = {
        "productions": [[p.name, p.len, p.func] for p in parser.productions],
        "action": {state: dict(row) for state, row in parser.action.items()},
        "goto": {state: dict(row) for state, row in parser.goto.items()},
    }
    write_atomically(path, marshal.dumps(data))
