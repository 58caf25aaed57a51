"""The packages of dp form layers: no package imports one that imports it back.

ARCHITECTURE.md lists the packages in this dependency order; this test keeps
that list true. It reads every ``import`` in dp/ (module level and inside
functions alike: a lazy import is still a dependency) and also holds the
third-party rules — typer only in the CLI, the MCP SDK only in dp/mcp, Jinja2
only in the alias recipe modules, psycopg only in dp/team/server.py.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "dp"
ARCHITECTURE = PACKAGE.parent / "ARCHITECTURE.md"


def _module_files() -> dict[str, Path]:
    """``{"dp.install.hook": path, "dp.agents": path/__init__.py, …}``."""
    names = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return names


@functools.cache
def _imports() -> dict[str, set[str]]:
    """``{"dp/rules/apply.py": {"dp.shell.segment", "re", …}}`` for every module (``from dp.agents.claude import
    filters`` is ``dp.agents.claude.filters``: the module, where a module is what it names)."""
    modules = _module_files()
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
                names.update(f"{node.module}.{alias.name}" for alias in node.names
                             if f"{node.module}.{alias.name}" in modules)
        found[str(path.relative_to(PACKAGE.parent))] = names
    return found


AGENT_FOLDERS = "agents/<agent>"


def _listed() -> list[str]:
    """The packages in ARCHITECTURE.md's table, in its order."""
    return re.findall(r"^\| `dp/([a-z_]+|agents/<agent>)(?:\.py|/)` \|", ARCHITECTURE.read_text(encoding="utf-8"),
                      re.MULTILINE)


@functools.cache
def _folder_layers() -> dict[str, str]:
    """``{"dp.agents.claude.doctor": "agents/<agent>", "dp.agents.claude.wire": "agents", …}``: an agent's folder
    is two layers (``dp.agents.roles.UPPER``). The modules of the roles that build on capture, install and
    doctor, and the helpers that need a package listed after ``dp/agents/`` (or an upper module), form the
    layer ``agents/<agent>``, high up; the wire, the other roles and their helpers are part of ``agents``."""
    from dp.agents.roles import UPPER

    imports = _imports()
    above = set(_listed()[_listed().index("agents") + 1:])
    modules = {name: str(path.relative_to(PACKAGE.parent)) for name, path in _module_files().items()
               if name.startswith("dp.agents.") and name.count(".") == 3}
    upper = {name for name in modules if name.rsplit(".", 1)[1] in UPPER}
    grown = True
    while grown:
        grown = False
        for name, path in modules.items():
            needs = {imported for imported in imports[path] if imported.startswith("dp.")}
            if name not in upper and (needs & upper or {imported.split(".")[1] for imported in needs} & above):
                upper.add(name)
                grown = True
    return {name: AGENT_FOLDERS if name in upper else "agents" for name in modules}


def _package(module_path: str, folders: dict[str, str]) -> str:
    """``dp/rules/apply.py`` → ``rules``; a top-level module is its own package (``dp/files.py`` → ``files``);
    a module of an agent's folder is in its layer (``_folder_layers``)."""
    parts = Path(module_path).with_suffix("").parts
    return folders.get(".".join(parts), parts[1])


def _module(name: str, folders: dict[str, str]) -> str:
    """``dp.agents.claude.doctor`` → its package in the graph (``agents/<agent>``), ``dp.rules.apply`` → ``rules``."""
    parts = name.split(".")
    return folders.get(".".join(parts[:4]), parts[1])


@functools.cache
def _role_lookups(package: Path = PACKAGE) -> dict[str, set[str]]:
    """``{"dp/doctor/agents.py": {"install"}, …}``: the roles each module looks up by name (``agent.role("x")``,
    ``with_role("x")``), which import the module named after the role: a dependency like any import."""
    found: dict[str, set[str]] = {}
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)):
                continue
            called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if called in ("role", "with_role") and isinstance(node.args[0].value, str):
                found.setdefault(str(path.relative_to(package.parent)), set()).add(node.args[0].value)
    return found


def package_graph(with_lookups: bool = True) -> dict[str, set[str]]:
    """``{"rules": {"shell", "errors", …}, …}``: which of dp's packages each one imports, or reaches through a
    role it looks up."""
    from dp.agents.roles import UPPER

    folders = _folder_layers()
    imports = {module: names for module, names in _imports().items() if module != "dp/__init__.py"}
    graph: dict[str, set[str]] = {_package(module, folders): set() for module in imports}
    for module, names in imports.items():
        own = _package(module, folders)
        graph[own].update(_module(name, folders) for name in names if name.startswith("dp.")
                          and _module(name, folders) in graph and _module(name, folders) != own)
    for module, roles in _role_lookups().items() if with_lookups else ():
        own = _package(module, folders)
        graph[own].update(AGENT_FOLDERS if role in UPPER else "agents" for role in roles)
        graph[own].discard(own)
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


def _reach(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every package ``start`` imports, directly or through others."""
    seen, pending = set(), [start]
    while pending:
        for dependency in graph.get(pending.pop(), ()):
            if dependency not in seen:
                seen.add(dependency)
                pending.append(dependency)
    return seen


def test_an_upper_role_is_looked_up_only_from_above_it():
    """The roles that build on capture, install and doctor are looked up only where no arrow runs back up:
    never from a package the upper layer builds on (a lookup there is an arrow back up: the layer above hands
    the role's function in instead, as ``dp.refresh`` and the command line do)."""
    from dp.agents.roles import UPPER

    folders = _folder_layers()
    below = _reach(package_graph(with_lookups=False), AGENT_FOLDERS)
    found = {(module, role) for module, roles in _role_lookups().items() for role in roles
             if role in UPPER and _package(module, folders) in below}
    assert found == set()


def test_an_agents_folder_is_two_layers():
    """Each wire sits with the registry (the hook imports it); a role in ``UPPER`` and a helper that needs a
    package above ``dp/agents/`` sit high up, with what they build on below them."""
    from dp.agents import NAMES
    from dp.agents.roles import UPPER

    folders = _folder_layers()
    assert {folders[f"dp.agents.{name}.wire"] for name in NAMES} == {"agents"}
    assert {layer for module, layer in folders.items() if module.rsplit(".", 1)[1] in UPPER} == {AGENT_FOLDERS}
    graph = package_graph()
    assert {"install", "doctor", "capture"} <= _reach(graph, AGENT_FOLDERS)
    assert AGENT_FOLDERS not in _reach(graph, "agents")


def test_the_lookup_finder_sees_a_role_looked_up(tmp_path):
    """``agent.role("doctor")`` and ``with_role("sync")`` count as a dependency; other calls do not."""
    folder = tmp_path / "dp"
    folder.mkdir()
    (folder / "example.py").write_text('def f(agent):\n    agent.role("doctor").check()\n    with_role("sync")\n'
                                       '    agent.has_role("plugin")\n', encoding="utf-8")
    assert _role_lookups(folder) == {"dp/example.py": {"doctor", "sync"}}


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) == []


def test_architecture_lists_the_packages_in_dependency_order():
    """Every package appears in ARCHITECTURE.md's table after everything it imports."""
    listed = _listed()
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


def test_psycopg_is_imported_only_by_the_team_server():
    """The team extra's driver: only dp/team/server.py imports it, so no other command (and no hook) loads it."""
    assert _third_party_users("psycopg") == {"dp/team/server.py"}


def test_jinja2_is_used_only_by_alias_recipes():
    """YAML recipes substitute variable paths without it; the hook loads it only for a recipe that needs it."""
    assert _third_party_users("jinja2") <= {"dp/rules/recipe.py", "dp/rules/recipe_sandbox.py", "dp/rules/jinja_import.py"}


# -- one agent, one folder ------------------------------------------------------------------------------------------

AGENTS = PACKAGE / "agents"


def _agent_names() -> tuple[str, ...]:
    """The registry's agent names (``dp.agents.NAMES``): a new agent's line brings its name into the check."""
    from dp.agents import NAMES

    return NAMES


def _namings(path: Path, names: tuple[str, ...]) -> list[str]:
    """Where module ``path`` names an agent in code: an import of an agent's folder, an identifier
    spelling an agent's name (``find_claude``, ``check_codex``), a string that *is* one (``== "gemini"``).
    Docstrings, comments and the words of messages are prose, not dispatch, and are not counted."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        modules = []
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        for module in modules:
            parts = module.split(".")
            if parts[:2] == ["dp", "agents"] and len(parts) > 2 and parts[2] in names:
                found.append(f"line {node.lineno}: imports {module}")
        identifiers = []
        if isinstance(node, ast.Name):
            identifiers = [node.id]
        elif isinstance(node, ast.Attribute):
            identifiers = [node.attr]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            identifiers = [node.name]
        elif isinstance(node, ast.arg):
            identifiers = [node.arg]
        elif isinstance(node, ast.alias) and node.asname:
            identifiers = [node.asname]
        for identifier in identifiers:
            if any(name in identifier.lower() for name in names):
                found.append(f"line {getattr(node, 'lineno', '?')}: the identifier {identifier}")
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.lower() in names:
            found.append(f"line {node.lineno}: the string {node.value!r}")
    return found


def test_no_module_outside_the_agent_layer_names_an_agent():
    """Capture, doctor, install, the live probe and the CLI ask the registry for the agents and call
    the interface (``dp/agents/base.py``); what dp knows about one agent lives in its folder, so an
    agent is added in ``dp/agents/<agent>/`` and one registry line."""
    names = _agent_names()
    offenders = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if AGENTS in path.parents:
            continue
        relative = str(path.relative_to(PACKAGE.parent))
        if any(name in part.lower() for part in path.relative_to(PACKAGE).parts for name in names):
            offenders[relative] = ["its path names an agent"]
            continue
        found = _namings(path, names)
        if found:
            offenders[relative] = found
    assert offenders == {}


def test_the_naming_check_sees_an_agent_named_in_code():
    """The check above would catch the ways code names an agent (and lets prose be)."""
    import tempfile

    source = ('"""Claude Code\'s settings (prose is fine)."""\n'
              "from dp.agents.codex import trust\n"
              "def find_claude():\n"
              "    return agent.name == 'gemini' or print('Copilot CLI says')\n")
    with tempfile.TemporaryDirectory() as scratch:
        module = Path(scratch) / "module.py"
        module.write_text(source, encoding="utf-8")
        found = _namings(module, _agent_names())
    assert found == ["line 2: imports dp.agents.codex", "line 2: imports dp.agents.codex.trust",
                     "line 3: the identifier find_claude", "line 4: the string 'gemini'"]


def test_each_agent_has_one_folder_and_one_registry_line():
    """Every name in ``NAMES`` is a folder of dp/agents holding its ``wire`` (the registry imports
    ``dp.agents.<name>.wire`` by that convention), every folder there is an agent's, and no agent module
    lies loose in dp/agents."""
    from dp.agents import NAMES

    folders = {path.name for path in AGENTS.iterdir() if (path / "__init__.py").is_file()}
    assert sorted(folders) == sorted(NAMES)
    for name in NAMES:
        assert (AGENTS / name / "wire.py").is_file()
        assert not (AGENTS / f"{name}.py").exists()


def test_no_agent_folder_imports_another_agents_folder():
    """What two agents share lives in ``dp/agents/`` itself (``answers.hook_specific_answer``,
    ``settings.user_entries``, ``live``), not in one agent's folder that the other reaches into: taking an
    agent out (its folder and its registry line) must leave every other agent whole."""
    names = _agent_names()
    offenders = {}
    for name in names:
        for path in sorted((AGENTS / name).rglob("*.py")):
            others = tuple(other for other in names if other != name)
            found = [line for line in _namings(path, others) if " imports " in line]
            if found:
                offenders[str(path.relative_to(PACKAGE.parent))] = found
    assert offenders == {}


# -- no module imports one that imports it back -------------------------------------------------------------------


def module_graph() -> dict[str, set[str]]:
    """Which of dp's modules each module imports (``from dp.agents import settings`` is ``dp.agents.settings``,
    ``from dp.agents import get`` is ``dp.agents``), lazy imports included."""
    names = _module_files()
    graph = {}
    for name, path in names.items():
        imported = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                for alias in node.names:
                    submodule = f"{node.module}.{alias.name}"
                    imported.add(submodule if submodule in names else node.module)
        graph[name] = {module for module in imported if module in names and module != name and module != "dp"}
    return graph


def test_no_module_imports_a_module_that_imports_it_back():
    """Not only packages: two modules of one package importing each other (``install/hook`` ⇄
    ``install/plugin`` was one) are a circle too. An agent's parts reach back into install through the
    registry (``Agent.part``), never by a static import the other way."""
    assert _cycle(module_graph()) == []
