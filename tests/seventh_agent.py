"""A copy of dp with one more agent, added the way the next real one will be.

``with_new_agent(tmp)`` copies what a build and the site need (dp/, migrations/, docs/, pyproject.toml,
setup.py, mkdocs.yml, its hook, the README) and adds the agent ``zed`` ("Zed Code") exactly as
ARCHITECTURE.md ("Where to add … an agent") says: its folder ``dp/agents/zed/`` (a copy of the
last registered agent's folder, renamed), its page ``docs/agents/zed.md`` and one line in
``NAMES``. Nothing else is touched, so whatever should list the agents and does not find ``zed``
is a list somebody keeps by hand.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAME, DISPLAY = "zed", "Zed Code"
COPIED = ("dp", "migrations", "docs", "pyproject.toml", "mkdocs.yml", "mkdocs_agents.py", "README.md", "CHANGELOG.md",
          "ARCHITECTURE.md")
SKIPPED = shutil.ignore_patterns("__pycache__", "*.pyc", "node_modules")


def template() -> str:
    """The agent the new one is copied from: the newest (last registered) whose hooks the agent starts
    itself, so the copy's hook can be fed that agent's own sample payload."""
    from dp.agents import get, names

    return [name for name in names() if not get(name).plugin][-1]


def with_new_agent(tmp: Path) -> Path:
    """The copy's root, holding dp with ``zed`` registered."""
    root = tmp / "dp-with-zed"
    root.mkdir()
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, root / name, ignore=SKIPPED, symlinks=True)
        else:
            shutil.copy2(source, root / name)
    source = template()
    folder = root / "dp" / "agents" / NAME
    shutil.copytree(ROOT / "dp" / "agents" / source, folder, ignore=SKIPPED)
    word = re.compile(rf"(?<![A-Za-z0-9]){re.escape(source)}(?![A-Za-z0-9])")
    for path in folder.rglob("*.py"):
        text = word.sub(NAME, path.read_text(encoding="utf-8"))
        text = re.sub(r'^(    display = )"[^"]*"', rf'\1"{DISPLAY}"', text, count=1, flags=re.M)
        path.write_text(text, encoding="utf-8")
    from dp.agents import names

    registry = root / "dp" / "agents" / "__init__.py"
    text = registry.read_text(encoding="utf-8")
    last = names()[-1]  # the new line goes last, as a new agent's does
    line = f'    "{last}",\n'
    assert line in text, "NAMES no longer has one line per agent"
    registry.write_text(text.replace(line, line + f'    "{NAME}",\n'), encoding="utf-8")
    (root / "docs" / "agents" / f"{NAME}.md").write_text(
        f"# {DISPLAY}\n\nWhat dp does in {DISPLAY}:\n\n<!-- dp:promises {NAME} -->\n<!-- dp:end-promises -->\n",
        encoding="utf-8")
    return root


def environment(root: Path) -> dict:
    """The environment a child process imports the copy's dp in (ahead of the checkout's editable install)."""
    return {**os.environ, "PYTHONPATH": str(root), "NO_MKDOCS_2_WARNING": "1", "PYTHONDONTWRITEBYTECODE": "1"}


PYTHON = sys.executable
