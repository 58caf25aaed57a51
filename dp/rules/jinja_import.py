"""Import Jinja2 without the parts a recipe never uses.

``import jinja2`` also imports its bytecode caches and template loaders
(``jinja2.bccache``, ``jinja2.loaders``), which bring ``pickle``, ``hashlib``,
``tempfile`` and ``zipimport`` along: about a fifth of Jinja2's import time,
paid by the hook on every recipe call. dp renders templates from strings in
its own sandbox and caches the compiled code itself (``dp.rules.recipe``), so
``load()`` imports Jinja2 with those two modules standing in as placeholders:
the names ``jinja2/__init__.py`` re-exports, as classes that refuse to be
used. If Jinja2 is already imported, or a release changes what it needs from
them, the real modules are imported instead.
"""

from __future__ import annotations

import sys
import types

# The names jinja2/__init__.py imports from each module it does not need.
_PLACEHOLDERS = {
    "jinja2.bccache": ("BytecodeCache", "FileSystemBytecodeCache", "MemcachedBytecodeCache"),
    "jinja2.loaders": (
        "BaseLoader", "ChoiceLoader", "DictLoader", "FileSystemLoader", "FunctionLoader", "ModuleLoader",
        "PackageLoader", "PrefixLoader",
    ),
}


def load():
    """Return the ``jinja2`` package, imported without its caches and loaders if it is not yet."""
    if "jinja2" in sys.modules:
        return sys.modules["jinja2"]
    placed = [name for name in _PLACEHOLDERS if name not in sys.modules]
    for name in placed:
        sys.modules[name] = _placeholder_module(name)
    try:
        import jinja2
    except ImportError:
        _forget(["jinja2", *placed])
        import jinja2  # a Jinja2 that needs more of them: the real modules
    return jinja2


def _placeholder_module(name: str) -> types.ModuleType:
    module = types.ModuleType(name, "A placeholder: dp's recipes use neither Jinja2's caches nor its loaders.")
    for attribute in _PLACEHOLDERS[name]:
        setattr(module, attribute, type(attribute, (_Unavailable,), {"__module__": name}))
    return module


class _Unavailable:
    def __init__(self, *args, **kwargs):
        raise RuntimeError(f"{type(self).__name__} is not loaded in dp (see dp.rules.jinja_import)")


def _forget(names) -> None:
    for name in [name for name in sys.modules if any(name == n or name.startswith(n + ".") for n in names)]:
        del sys.modules[name]
