"""``dp doctor``'s ``mcp`` check: is ``dp mcp`` registered with Claude Code, does it start, which tools.

Registration is optional, so its absence is fine. A project's ``.mcp.json``
comes with a checked-out repository and could name any program: doctor starts
a registered server only when its program is this dp's own ``dp``.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from dp.doctor.findings import ERROR, OK, WARNING, Finding
from dp.errors import DpError


def check_mcp(cwd: Path, home: Path | None = None) -> list[Finding]:
    from dp.install.mcp import registrations

    found = registrations(home, cwd)
    if not found:
        return [Finding("mcp", OK, "the dp MCP server is not registered (optional: dp pave --mcp)")]
    return [_check_registration(registration, cwd) for registration in found]


def _check_registration(registration: dict, cwd: Path) -> Finding:
    from dp.agents import get
    from dp.agents.executable import find_program
    from dp.mcp.probe import ProbeError, list_tools
    from dp.mcp.tools import TOOL_NAMES

    where = f"{registration['scope']} scope ({registration['config']})"
    fix = f"dp pave --mcp --scope {registration['scope']}"
    if "error" in registration:
        return Finding("mcp", ERROR, registration["error"], "fix the file by hand, then " + fix)
    argv = get().role("mcp_config").entry_argv(registration["entry"])
    if argv is None:
        return Finding("mcp", ERROR, f"dp's entry in {where} is not a stdio server command", fix)
    try:
        own = str(find_program("dp"))
    except DpError as exc:
        return Finding("mcp", ERROR, exc.message, "reinstall dp")
    if os.path.realpath(shutil.which(argv[0]) or argv[0]) != own or argv[1:2] != ["mcp"]:
        return Finding("mcp", WARNING, f"dp's entry in {where} runs `{' '.join(argv)}`, not this dp's "
                       f"`{own} mcp`; it was not started", fix, command=argv)
    try:
        names = list_tools(argv, cwd)
    except ProbeError as exc:
        return Finding("mcp", ERROR, f"registered in {where}, but the server did not start: {exc}", fix,
                       command=argv)
    missing = [name for name in TOOL_NAMES if name not in names]
    status = WARNING if missing else OK
    return Finding("mcp", status, f"registered in {where}; it starts and lists {len(names)} tools: "
                   f"{', '.join(names)}", "reinstall dp" if missing else "", command=argv, tools=names)
