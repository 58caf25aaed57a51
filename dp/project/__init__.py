"""Project actions: run Makefile targets, write starter Makefiles, stage and commit with git.

Everything here works inside one validated working directory
(``dp.project.workdir``): commands are planned as ``Command`` values first, so
``--dry-run`` can show exactly what would run, and only then executed through
``dp.process``. Importable without typer.
"""
