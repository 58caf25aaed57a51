"""npm / npx / yarn / pnpm / bun commands in the project's own package manager.

The translation is the table ``dp/rules/tables/package-managers.toml``: the
agent's command is read with the SOURCE side of the manager it names (which
operation, which flags, where the script's arguments start) into a neutral
form, and written with the TARGET side of the project's manager. Anything the
table does not know leaves the command as it is (``Skip`` says why); a
half translation is never produced.
"""

from __future__ import annotations

import os

from dp.rules.tables import load

TABLE = "package-managers"
# Options that aim a command elsewhere: named in the reason, never translated.
ELSEWHERE = {"-g": "a global install", "--global": "a global install", "--location": "a global install",
             "--prefix": "another directory", "-C": "another directory", "--dir": "another directory",
             "--cwd": "another directory", "--filter": "other workspace packages", "-w": "a workspace",
             "--workspace": "a workspace", "-r": "every workspace package", "--recursive": "every workspace package"}


class Skip(Exception):
    """The command stays as it is; ``str(self)`` says why."""


class Reaches(Skip):
    """The rewrite would run a program the repository supplies (dp.paving.reach): ``str(self)``
    names it. Raised only for a repository the user has not trusted."""


class Operation:
    """A command read into the table's neutral form."""

    __slots__ = ("name", "words", "script", "args")

    def __init__(self, name: str, words=(), script: str = "", args=()):
        self.name = name
        self.words = list(words)  # (raw word, canonical flag or None for an operand)
        self.script = script
        self.args = list(args)


def translate(command, project: dict, trusted: bool = True) -> str:
    """The project's command for ``command`` (text from the command word to its last
    argument); raises Skip when it cannot or need not be translated, Reaches when it would
    run the repository's own program and the repository is not ``trusted``."""
    table = load(TABLE)
    name = command.name
    manager, forced = table["binaries"].get(name, (name, None))
    if manager == project["manager"]:
        raise Skip("")  # already the project's manager
    if any(arg.masked for arg in command.args):
        raise Skip("an argument dp cannot read safely")
    target = table["target"].get(project["flavour"])
    if target is None:
        raise Skip(f"the translation table has no commands for {project['flavour']}")
    operation = read(table["source"][manager], manager, forced, command.args, project)
    return write(target, operation, project, trusted)


def read(source: dict, manager: str, forced, args, project: dict) -> Operation:
    """The neutral operation of ``MANAGER ARGS…`` by the table's source side."""
    values = [arg.value for arg in args]
    raws = [arg.raw for arg in args]
    if forced:
        return _read_exec(source, forced, raws, values)
    if not values:
        if manager == "yarn":
            return Operation("install")
        raise Skip(f"`{manager}` alone is not a command the table knows")
    sub = values[0]
    if sub.startswith("-"):
        raise Skip(_flag_reason(sub, manager))
    operation = source["commands"].get(sub)
    if operation is None and sub in project["scripts"] and sub not in source["builtins"] and source["builtins"]:
        return _read_script(source, manager, sub, raws[0], raws[1:], values[1:], project)
    if operation is None:
        raise Skip(f"`{manager} {sub}` is not in the translation table")
    rest_raw, rest = raws[1:], values[1:]
    if operation in ("install", "remove", "update", "frozen"):
        return _read_packages(source, manager, operation, rest_raw, rest)
    if operation == "run":
        if not rest or rest[0].startswith("-"):
            raise Skip(f"`{manager} run` without a script name first")
        return _read_script(source, manager, rest[0], rest_raw[0], rest_raw[1:], rest[1:], project)
    if operation in ("test", "start"):
        return _read_script(source, manager, operation, operation, rest_raw, rest, project)
    return _read_exec(source, operation, rest_raw, rest)


def _flag_reason(flag: str, manager: str) -> str:
    where = ELSEWHERE.get(flag.split("=", 1)[0])
    if where:
        return f"`{flag}` aims the command at {where}"
    return f"{manager}'s option `{flag}` is not in the translation table"


def _read_packages(source, manager, operation, raws, values) -> Operation:
    """An install/add/remove/update: each word as a package or a flag the table knows."""
    words = []
    for raw, value in zip(raws, values):
        if value == "--" or (value.startswith("-") and value not in source["flags"]):
            raise Skip(_flag_reason(value, manager))
        canonical = source["flags"].get(value) if value.startswith("-") else None
        if canonical == "frozen":
            operation = "frozen" if operation == "install" else "?"
        words.append((raw, canonical))
    operands = [raw for raw, canonical in words if canonical is None]
    meanings = {canonical for _, canonical in words if canonical}
    operation = _package_operation(manager, operation, operands, meanings)
    return Operation(operation, [(raw, canonical) for raw, canonical in words if canonical != "frozen"])


def _package_operation(manager: str, operation: str, operands: list, meanings: set) -> str:
    """What the words amount to (an install with packages is an add), or Skip when unclear."""
    if operation == "install" and operands:
        return "add"
    if operation == "frozen" and (operands or meanings - {"frozen"}):
        raise Skip("a frozen install with packages or save flags")
    if operation in ("remove", "update") and meanings:
        raise Skip(f"`{manager}` options in a {operation}")
    if operation == "remove" and not operands:
        raise Skip("nothing to remove")
    if operation == "install" and meanings:
        raise Skip("save flags without packages")
    if operation == "?":
        raise Skip("a frozen-lockfile flag outside an install")
    return operation


def _read_script(source, manager, script, script_raw, raws, values, project) -> Operation:
    """A script and the arguments that reach it, by the manager's ``script_args`` rule."""
    if script not in project["scripts"]:
        raise Skip(f"package.json has no script {script!r}")
    style = source["script_args"]
    if style == "dashdash":
        if "--" in values:
            cut = values.index("--")
            before, after = raws[:cut], raws[cut + 1 :]
        else:
            before, after = raws, []
        own = [value for value in values[: len(before)] if value.startswith("-")]
        if own:
            raise Skip(f"`{own[0]}` before `--` is {manager}'s own option, not the script's")
        if manager == "yarn" and "--" in values:
            raise Skip("yarn 1 drops that `--`, yarn 2+ passes it on: which one the agent meant is unclear")
        return Operation("run", script=script_raw, args=before + after)
    if style == "strip" and values[:1] == ["--"]:
        raws = raws[1:]
    return Operation("run", script=script_raw, args=raws)


def _read_exec(source, operation, raws, values) -> Operation:
    """``npx [-y] BIN ARGS…`` and friends: the program and its own arguments."""
    i = 0
    while i < len(values) and values[i].startswith("-"):
        if values[i] == "--":
            i += 1
            break
        if source["flags"].get(values[i]) != "":
            raise Skip(f"the exec option `{values[i]}` is not in the translation table")
        i += 1
    if i >= len(values):
        raise Skip("no program to run")
    return Operation(operation, script=raws[i], args=raws[i + 1 :])


def write(target: dict, operation: Operation, project: dict, trusted: bool = True) -> str:
    """The operation in the target flavour's words (by the table's target side)."""
    name = operation.name
    if name == "dlx" and target.get("dlx_looks_local") and not trusted:
        from dp.paving.reach import LOCAL_FIRST

        raise Reaches(f"{LOCAL_FIRST} (`{target['dlx']}` runs node_modules/.bin/{operation.script} before a download)")
    if name == "run":
        return _write_run(target, operation)
    if name in ("exec", "exec_local", "dlx"):
        return _write_exec(target, operation, project)
    if name == "update" and not any(canonical is None for _, canonical in operation.words):
        name = "update_all"
    command = target.get(name)
    if not command:
        raise Skip(f"{project['flavour']} has no equivalent of this command")
    flags = target.get("target_flags", {})
    words = [raw if canonical is None else flags.get(canonical, "") for raw, canonical in operation.words]
    return " ".join([command, *[word for word in words if word]])


def _is_local(program: str, project: dict) -> bool:
    """Is ``program`` the project's own (a dependency, or in node_modules/.bin)?"""
    if "@" in program.lstrip("@") or "/" in program:
        return False  # a version or a scoped package: the agent asked for a download
    if program in project["dependencies"]:
        return True
    return any(os.path.exists(os.path.join(folder, program)) for folder in project["bin_dirs"])


class _AnyScript:
    """Stands in for a package.json's scripts where there is none (task paving)."""

    def __contains__(self, name) -> bool:
        return True


def script_call(command) -> tuple[str, list]:
    """``npm test`` / ``npm run T -- ARGS`` / ``yarn T`` as (task name, raw arguments)."""
    table = load(TABLE)
    project = {"scripts": _AnyScript(), "manager": ""}
    operation = read(table["source"][command.name], command.name, None, command.args, project)
    if operation.name != "run" or not operation.script.replace("-", "").replace(":", "").isalnum():
        raise Skip("")
    return operation.script, operation.args


def _write_run(target: dict, operation: Operation) -> str:
    """``run SCRIPT ARGS`` in the target's words, with the separator its run needs before the arguments."""
    parts = [target["run"], operation.script]
    if operation.args:
        separator = target.get("run_separator", "")
        if not separator and target.get("strips_leading_dashdash") and operation.args[0] == "--":
            separator = "--"
        parts += [separator] if separator else []
        parts += operation.args
    return " ".join(parts)


def _write_exec(target: dict, operation: Operation, project: dict) -> str:
    """A program run through the manager: the project's own copy (exec_local) or a download (dlx)."""
    name = operation.name
    if name == "exec":
        name = "exec_local" if _is_local(operation.script, project) else "dlx"
    if name == "exec_local" and target.get("exec_local_runs_scripts") and operation.script in project["scripts"]:
        raise Skip(f"`{target[name]} {operation.script}` would run the package.json script "
                   f"{operation.script!r}, not the program")
    command = target.get(name)
    if not command:
        raise Skip(f"{project['flavour']} has no equivalent of this command")
    return " ".join([command, operation.script, *operation.args])
