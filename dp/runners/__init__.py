"""Project task runners: find how a project runs things, and run exactly that.

One module per ecosystem (javascript, deno, rust, python, make, just, taskfile)
behind the small interface in ``base``; ``registry`` orders them and finds
the project; ``resolution`` maps an op to one task; ``markdown`` documents
the tasks for AGENTS.md.
"""

from dp.runners.base import Runner, Task
from dp.runners.markdown import tasks_markdown
from dp.runners.registry import Project, confine, detect, find_root
from dp.runners.resolution import ResolvedTask, resolve

__all__ = [
    "Project",
    "ResolvedTask",
    "Runner",
    "Task",
    "confine",
    "detect",
    "find_root",
    "resolve",
    "tasks_markdown",
]
