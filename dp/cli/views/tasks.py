"""``dp tasks``: every runner of the project, why dp chose it, and its tasks."""

from __future__ import annotations

from dp.cli.common import print_json, warning


def show(opts) -> None:
    """The project around ``--cwd`` (else here), as text or JSON; a ``DpError`` when there is none."""
    from dp.runners import detect
    from dp.runners.base import tools_asked

    with tools_asked():  # a person asked: make, just and Task may list their own files
        project = detect(opts.directory)
    if opts.json:
        print_json(project.to_json())
        return
    print(f"Project {project.root}" + _where(project))
    for runner in project.runners:
        print(f"\n{runner.name}: {runner.reason}")
        width = max((len(task.name) for task in runner.tasks), default=0)
        kinds = max((len(task.kind) for task in runner.tasks), default=0)
        for task in runner.tasks:
            description = " ".join((task.description or "").split())
            print(f"  {task.name:<{width}}  {task.kind:<{kinds}}  {description}".rstrip())
        if not runner.tasks:
            print("  (no tasks)")
        if runner.unknown:
            print(f"  (maybe more: {runner.unknown})")
    for ecosystem, problem in project.problems.items():
        warning(f"{ecosystem} tasks not read: {problem}")
    print("\nRun one with: dp run NAME [ARGS…]")


def _where(project) -> str:
    relative = project.directory.relative_to(project.root).as_posix()
    return "" if relative == "." else f" (tasks of {relative}/)"
