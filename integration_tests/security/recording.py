"""Recording every program the hook and the MCP server start: wrappers on PATH and an audit hook.

Two records, because a program can be started two ways:

* by name through PATH: ``recording_bin`` puts a wrapper for each tool first
  on PATH; it writes its name, directory and arguments to ``path.log`` and
  then runs the real tool (or exits 127 when there is none on this machine:
  the record is the evidence either way);
* by absolute path (``sys.executable``, a repository's ``.venv/bin/python``):
  ``audit_site`` is a ``sitecustomize`` that every dp process loads through
  ``PYTHONPATH`` and that writes each ``subprocess.Popen``, ``os.exec*``,
  ``os.posix_spawn`` and ``os.system`` of that process to ``audit.log``
  (Python's audit hooks, PEP 578). An isolated child (``-I``) ignores
  PYTHONPATH; its parent has recorded starting it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from security.repository import executable

SITECUSTOMIZE = '''\
import json, os, sys

_LOG = os.environ.get("SECURITY_AUDIT_LOG")
_EVENTS = {"subprocess.Popen", "os.exec", "os.posix_spawn", "os.spawn", "os.system"}


def _record(event, args):
    if event in _EVENTS and _LOG:
        program = args[0] if event != "os.system" else args[0]
        argv = list(args[1]) if event != "os.system" and len(args) > 1 and args[1] is not None else []
        cwd = args[2] if event == "subprocess.Popen" and len(args) > 2 else None
        with open(_LOG, "a") as log:
            log.write(json.dumps({"event": event, "program": os.fsdecode(program) if program else None,
                                  "argv": [os.fsdecode(a) if isinstance(a, (bytes, os.PathLike)) else str(a) for a in argv],
                                  "cwd": os.fsdecode(cwd) if cwd else None, "pid": os.getpid()}) + "\\n")


sys.addaudithook(_record)
'''


def recording_bin(directory: Path, tools, search_path: str) -> Path:
    """Wrappers for ``tools`` in ``directory``: each logs to ``directory/path.log``, then runs the real one."""
    directory.mkdir(parents=True, exist_ok=True)
    log = directory / "path.log"
    for tool in tools:
        real = shutil.which(tool, path=search_path)
        run = f'exec {json.dumps(real)} "$@"' if real else "exit 127"
        executable(directory / tool, (
            "#!/bin/sh\n"
            f'printf "%s\\t%s\\t%s\\n" {tool} "$PWD" "$*" >> {json.dumps(str(log))}\n'
            f"{run}\n"
        ))
    return directory


def path_log(directory: Path) -> list[str]:
    log = directory / "path.log"
    return log.read_text().splitlines() if log.exists() else []


def audit_site(directory: Path) -> dict:
    """The environment additions that make every dp process record what it starts."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "sitecustomize.py").write_text(SITECUSTOMIZE)
    return {"PYTHONPATH": str(directory), "SECURITY_AUDIT_LOG": str(directory / "audit.log")}


def audit_log(directory: Path) -> list[dict]:
    log = directory / "audit.log"
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
