"""Every module that can start a process, reachable from the hooks or the MCP server, is known and explained.

docs/security.md lists every program ``pave-check``, ``dp-capture`` and ``dp mcp``
may start and why each is safe. This test keeps that list honest: it follows
every import (module level and lazy alike) from the three entry points and
finds each reachable module that starts a process (``subprocess``,
``run_process``, ``os.exec*``/``spawn``/``system``). A new one fails here until
it is added below with its reason and named on the security page.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "dp"
SECURITY = ROOT / "docs" / "security.md"
ENTRY_POINTS = ("dp.hook", "dp.capture.hook", "dp.mcp.server")
STARTS = re.compile(r"\bsubprocess\.(?:run|Popen|call|check_call|check_output)\(|\brun_process\(|"
                    r"\bos\.(?:system|exec\w*|spawn\w*|posix_spawn\w*)\(")

# module → why it is safe where the hooks or the server can reach it (docs/security.md says the same).
KNOWN = {
    "dp.hook.session": "SessionStart's filter sync (only after a trusted file changed) and team sync (only for a store the "
               "person connected with dp team connect, detached): dp itself, isolated (-I) in /",
    "dp.runners.base": "tool listings (just, Task) only inside tools_asked: dp tasks, dp make, dp run",
    "dp.runners.make": "make -pRrq only inside tools_asked: dp tasks, dp make, dp run",
    "dp.agents.claude.client": "claude --version, called only by dp.install: in the SessionStart sync child, in /",
    "dp.project.command": "the one planned command an MCP tool was called to run (the agent asked for it)",
    "dp.recipes.steps.bash": "a recipe's bash step, when the MCP recipe tool was called to run it",
    "dp.recipes.steps.agent": "git in the directory of an agent step, only with dp mcp --allow-agent-steps",
    "dp.recipes.agents": "an agent step's agent, only with dp mcp --allow-agent-steps",
    "dp.live.probe": "the agent against dp's fake model, only for dp doctor --live (a person typed it)",
}


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _imports(path: Path, modules: dict) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    found = set()
    for name in names:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        parts = name.split(".")
        found.update(".".join(parts[:end]) for end in range(1, len(parts) + 1) if ".".join(parts[:end]) in modules)
    return found


def _by_name(modules: dict) -> set[str]:
    """The modules a registry imports by name (``dp.agents`` loads each agent's ``wire`` by its folder's name)."""
    from dp.agents import names

    return {f"dp.agents.{name}.wire" for name in names()} & set(modules)


def reachable() -> set[str]:
    modules = _modules()
    seen: set[str] = set()
    pending = list(ENTRY_POINTS)
    while pending:
        module = pending.pop()
        if module in seen:
            continue
        seen.add(module)
        pending.extend(_imports(modules[module], modules) - seen)
        if module == "dp.agents":
            pending.extend(_by_name(modules) - seen)
    return seen


def starting_processes(names) -> set[str]:
    modules = _modules()
    return {name for name in names if name != "dp.process" and STARTS.search(modules[name].read_text(encoding="utf-8"))}


def test_every_process_the_hooks_and_the_server_can_start_is_known():
    new = starting_processes(reachable()) - set(KNOWN)
    assert not new, f"{sorted(new)} can start a process: say why it is safe here and in docs/security.md"


def test_the_security_page_names_each_of_them():
    page = SECURITY.read_text(encoding="utf-8")
    missing = [module for module in KNOWN if f"`{module}`" not in page and f"`{module}." not in page]
    assert not missing, f"docs/security.md does not name {missing}"


def test_the_inventory_sees_a_process_where_one_is_started():
    assert "dp.process" in reachable() and "dp.agents.claude.plugin" not in reachable()  # the hook cannot import dp.install
    assert {"dp.runners.make", "dp.hook.session", "dp.agents.claude.client"} <= starting_processes(reachable())
