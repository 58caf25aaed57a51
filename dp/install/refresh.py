"""``main([STORE])``: bring dp's hook entries in line with the rules and trusted project files;
``main([STORE, "--gate"])``: only the hook's gate beside the store (dp.hook.gate).

The SessionStart answer runs this (``dp.hook._refresh_filters``, in an isolated
Python started in ``/``: ``dp.hook.own_python``) when a trusted
project file changed since the last sync (``dp.layers.synced``), or, with
``--gate``, when only the gate is missing or stale (a dp that never wrote one,
a rule change whose sync never ran): the hook cannot import ``dp.install``
(which imports the hook), and the per-call path never pays for it. Exits 0
whatever happens: a failed sync is retried at the next SessionStart, and
``dp doctor`` reports entries out of line.
"""

from __future__ import annotations

import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    from dp.errors import DpError
    from dp.install.hook import sync_installed

    if len(argv) == 2 and argv[1] == "--gate":
        from dp.hook import gate

        gate.write(Path(argv[0]))
        return 0
    if len(argv) != 1:
        return 0
    try:
        sync_installed(Path(argv[0]))
    except (DpError, OSError):
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
