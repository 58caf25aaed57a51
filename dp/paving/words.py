"""The command words paving can act on, on the hook path (stdlib only, nothing imported)."""

# Every command word paving can act on. A test keeps this in step with the
# tables (dp/rules/tables/) and the task runners. While paving is on they are in
# Claude Code's `if` conditions, one per stem they share (dp/agents/claude/filters.py).
JAVASCRIPT_WORDS = frozenset({"npm", "npx", "yarn", "pnpm", "pnpx", "bun", "bunx"})
TASK_WORDS = frozenset({"make", "just", "task"})
PYTHON_WORDS = frozenset({
    "pytest", "py.test", "ruff", "mypy", "black", "isort", "flake8", "pylint", "pyright",
    "coverage", "tox", "nox", "pre-commit", "ipython", "sphinx-build", "alembic", "uvicorn",
    "gunicorn", "django-admin", "celery", "bandit", "pyflakes", "pycodestyle", "yapf", "autopep8",
    "python", "python3", "pip", "pip3",
})
WORDS = JAVASCRIPT_WORDS | TASK_WORDS | PYTHON_WORDS
