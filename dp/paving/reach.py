"""What a paved command may reach: paving never widens what the agent's command would run.

Every paving rule is one of two kinds, and this module is where each is named.

**The same program, the user's manager** — acts in every repository:

* ``npm``/``yarn``/``pnpm``/``bun`` install, ci, add, remove, update, run SCRIPT,
  test, start → the project's manager: the same package.json scripts (lifecycle
  scripts included) run under either manager, and nothing else of the
  repository does — provided the project's manager is one the user installed
  (PATH finds it, outside the repository: ``installed``) and the repository
  does not configure it to run a program of its own (``supplied``: yarn's
  ``yarnPath`` and plugins, yarn 1's ``yarn-path``, pnpm's ``.pnpmfile.cjs``,
  bun's ``preload``, a ``packageManager`` that names a URL or path for
  Corepack to fetch);
* ``npx``/``bunx``/``npm exec`` BIN → ``pnpm exec`` / ``yarn exec`` / ``bun x``
  BIN: these look in ``node_modules/.bin`` first exactly as the original does,
  so they run the program the original would have run.

**The repository's own programs** — act only after ``dp trust`` in that
repository (``Paving.trusts``), because the original ran none of them:

* a Python tool or ``python -m`` through ``uv run`` / ``poetry run`` / ``pdm
  run`` / ``hatch run`` (``PYTHON``): the project's environment (a committed
  ``.venv`` is the repository's program; ``uv run`` also builds the project),
  where the agent's ``ruff`` was "command not found";
* a task through another runner (``TASKS``: ``npm test`` → ``make test``,
  ``make test`` → ``pnpm run test``): a recipe of the repository, where the
  original found no Makefile or package.json and ran nothing;
* a download-only exec (``pnpx``, ``pnpm dlx``, ``yarn dlx``) written as
  ``npx`` or ``bun x``, which prefer ``node_modules/.bin`` (``LOCAL_FIRST``);
* a manager the repository configures to run its own code, or that PATH finds
  inside the repository.

``yarn run BIN`` for a yarn 1 project's ``npx BIN`` is refused everywhere when
BIN is also a script name: it would run the script, a different program.
"""

from __future__ import annotations

import os

# The kinds, as dp paving --explain names them.
SAME = "same"
REPOSITORY = "repository"

PYTHON = "the project's own environment"
TASKS = "a recipe of the repository's own task runner"
LOCAL_FIRST = "a program of the repository's node_modules/.bin"

# Files in a package's directory (or above it, up to the repository root) that make a
# manager run a program the repository supplies on its own, and the setting that does it
# (None: the file's presence). Every name is a marker (dp.paving.markers), so a change is seen.
HOOK_FILES = {
    "yarn": ((".yarnrc.yml", ("yarnPath", "plugins")), (".yarnrc", ("yarn-path",))),
    "pnpm": ((".pnpmfile.cjs", None), (".pnpmfile.mjs", None), (".npmrc", ("pnpmfile",)),
             ("pnpm-workspace.yaml", ("pnpmfile",))),
    "bun": (("bunfig.toml", ("preload",)),),
}
_MAX_READ = 1 << 16


def supplied(manager: str, folders, package_manager) -> str:
    """Why ``manager`` would run a program the repository supplies in this project ('' when it
    would not): the first file of ``HOOK_FILES`` in ``folders`` (package directory first) that
    says so, or a ``packageManager`` value that makes Corepack fetch it from elsewhere."""
    if isinstance(package_manager, str) and ("/" in package_manager or ":" in package_manager):
        return f"the {manager} Corepack fetches from {package_manager} (packageManager in package.json)"
    for folder in folders:
        for name, settings in HOOK_FILES.get(manager, ()):
            path = os.path.join(str(folder), name)
            if not os.path.isfile(path):
                continue
            found = "" if settings is None else _setting(path, settings)
            if settings is None or found:
                return f"code the repository gives {manager} ({found + ' in ' if found else ''}{path})"
    return ""


def _setting(path: str, settings) -> str:
    """The first of ``settings`` that starts a line of ``path`` (a file too big or unreadable counts)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(_MAX_READ + 1)
    except OSError:
        return settings[0]
    if len(data) > _MAX_READ:
        return settings[0]
    for line in data.decode("utf-8", "replace").splitlines():
        stripped = line.strip().lstrip("\"'")
        for setting in settings:
            if stripped.startswith(setting):
                return setting
    return ""


def installed(program: str, root) -> tuple[str, str]:
    """``(path, why not)`` of ``program`` as PATH finds it: ``why not`` is '' for a program the user
    installed, else says it is missing or inside the repository ``root`` (its real path; None: none)."""
    import shutil

    found = shutil.which(program)
    if found is None:
        return "", f"{program} is not installed here (PATH has no {program})"
    real = os.path.realpath(found)
    if root and (real == root or real.startswith(root.rstrip(os.sep) + os.sep)):
        return found, f"PATH finds {program} at {found}, inside the repository"
    return found, ""


def untrusted(root, original: str, reaches: str, detail: str = "") -> str:
    """The note for a command left as typed because it would reach the repository's own programs
    (the agent reads it: the command that would change this is one only the person runs)."""
    from dp.widening import person_runs

    detail = f" ({detail})" if detail else ""
    return (f"this repository is not trusted, and paving would run {reaches}{detail} where `{original}` runs none "
            f"of it; paving does that after {person_runs('`dp trust`', f' in {root}' if root else ' in a git repository')}")


# Each paving rule and its kind, as ``dp paving --explain`` lists them (the module docstring says why).
RULES = (
    (SAME, "npm/yarn/pnpm/bun install, ci, add, remove, update, run, test, start → the project's manager",
     "the same package.json scripts, through a manager you installed"),
    (SAME, "npx/bunx/npm exec BIN → the project's manager's exec", "the program the agent's command would run"),
    (REPOSITORY, "pytest, ruff, mypy … and python -m MODULE → uv run / poetry run / pdm run / hatch run", PYTHON),
    (REPOSITORY, "a task through the one other runner that has it (npm test → make test)", TASKS),
    (REPOSITORY, "pnpm dlx / pnpx / yarn dlx BIN → npx / bun x BIN", LOCAL_FIRST),
    (REPOSITORY, "any rewrite into a manager the repository gives code to run (yarnPath, .pnpmfile.cjs, preload)",
     "code the repository gives the manager"),
)


def explain_lines(root, trusted: bool) -> list:
    """Which case applies here and what each paving rule does in it (``dp paving --explain``)."""
    from dp.widening import person_runs

    if root is None:
        head = "Trust: not in a git repository, so nothing here is trusted: paving only swaps package managers"
    elif trusted:
        head = f"Trust: you trust {root} (dp trust): paving may also run the repository's own programs"
    else:
        head = (f"Trust: {root} is not trusted: paving only swaps package managers you installed; it runs the "
                f"repository's own programs after {person_runs('`dp trust`', ' there')}")
    out = [head]
    for kind, rule, reaches in RULES:
        acts = kind == SAME or trusted
        out.append(f"  {'acts' if acts else 'left as typed':<14} {rule} ({reaches})")
    return out
