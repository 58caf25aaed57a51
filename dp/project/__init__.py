"""Project actions: run tasks and Makefile targets, write starter Makefiles, stage and commit with git.

Everything here works inside one validated working directory
(``dp.project.workdir``): commands are planned as ``Command`` values first, so
``--dry-run`` can show exactly what would run, and only then executed through
``Command.run`` (``dp.process`` underneath), which checks the directory again.
A runner's task (``dp.runners``) becomes such a command in ``dp.project.task``.
Importable without typer.
"""
