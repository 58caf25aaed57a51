"""The packages of dp form layers: no package imports one that imports it back.

ARCHITECTURE.md lists the packages in this dependency order; this test keeps
that list true. It reads every ``import`` in dp/ (module level and inside
functions alike: a lazy import is still a dependency) and also holds the
third-party rules — typer only in the CLI, the MCP SDK only in dp/mcp, Jinja2
only in the alias recipe modules.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "dp"
ARCHITECTURE = PACKAGE.parent / "ARCHITECTURE.md"


def _imports() -> dict[str, set[str]]:
    """``{"dp/rules/apply.py": {"dp.shell.segment", "re", …}}`` for every module."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        names = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == "dp":
                names.update(f"dp.{alias.name}" for alias in node.names)  # from dp import reaper
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module)
        found[str(path.relative_to(PACKAGE.parent))] = names
    return found


def _package(module_path: str) -> str:
    """``dp/rules/apply.py`` → ``rules``; a top-level module is its own package (``dp/files.py`` → ``files``)."""
    return Path(module_path).parts[1].removesuffix(".py")


def package_graph() -> dict[str, set[str]]:
    """``{"rules": {"shell", "errors", …}, …}``: which of dp's packages each one imports."""
    imports = {module: names for module, names in _imports().items() if module != "dp/__init__.py"}
    graph: dict[str, set[str]] = {_package(module): set() for module in imports}
    for module, names in imports.items():
        own = _package(module)
        graph[own].update(name.split(".")[1] for name in names
                          if name.startswith("dp.") and name.split(".")[1] in graph and name.split(".")[1] != own)
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One cycle of package imports, or [] when there is none."""
    done: set[str] = set()

    def visit(package: str, path: list[str]) -> list[str]:
        if package in path:
            return path[path.index(package):] + [package]
        if package in done:
            return []
        for dependency in sorted(graph.get(package, ())):
            cycle = visit(dependency, path + [package])
            if cycle:
                return cycle
        done.add(package)
        return []

    for package in sorted(graph):
        cycle = visit(package, [])
        if cycle:
            return cycle
    return []


def test_no_package_imports_a_package_that_imports_it_back():
    assert _cycle(package_graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) == []


def test_architecture_lists_the_packages_in_dependency_order():
    """Every package appears in ARCHITECTURE.md's table after everything it imports."""
    listed = re.findall(r"^\| `dp/([a-z_]+)(?:\.py|/)` \|", ARCHITECTURE.read_text(encoding="utf-8"), re.MULTILINE)
    graph = package_graph()
    assert sorted(listed) == sorted(graph), "ARCHITECTURE.md's package table must name every package once"
    position = {package: index for index, package in enumerate(listed)}
    late = [(package, dependency) for package in listed for dependency in graph[package]
            if position[dependency] > position[package]]
    assert late == [], "listed before a package it imports"


def _third_party_users(top_level: str) -> set[str]:
    return {module for module, names in _imports().items()
            if any(name == top_level or name.startswith(top_level + ".") for name in names)}


def test_typer_is_imported_only_by_the_cli():
    assert {module for module in _third_party_users("typer") if not module.startswith("dp/cli/")} == set()


def test_the_mcp_sdk_is_imported_only_by_the_mcp_server():
    assert {module for module in _third_party_users("mcp") if not module.startswith("dp/mcp/")} == set()


def test_jinja2_is_used_only_by_alias_recipes():
    """YAML recipes substitute variable paths without it; the hook loads it only for a recipe that needs it."""
    assert _third_party_users("jinja2") <= {"dp/rules/recipe.py", "dp/rules/recipe_sandbox.py", "dp/rules/jinja_import.py"}
