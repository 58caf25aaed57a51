"""``dp git add`` / ``dp git commit``: staging and committing confined to the working directory."""

from __future__ import annotations

import sys

import typer

from dp.cli.options import Shared, shared
from dp.cli.task_run import DRY_RUN_OPTION, carry_out

HELP = """Stage and commit with git, confined to the working directory.

Paths and message files must lie inside the working directory (--cwd, default: here);
`..`, absolute paths elsewhere and symlinks leading out are refused before git runs.

\b
Examples:
  dp git add src/app.py tests/test_app.py
  dp git commit -m "Fix the parser"
  git log -1 --format=%B | dp git commit -F -
"""

ADD_HELP = """Stage PATHs with one `git add --` (literal pathspecs, no globs or :/ magic).

Each PATH is resolved against the working directory and refused if it leads outside it.

\b
Examples:
  dp git add src/app.py README.md
  dp git add . --dry-run          # show the exact git command, run nothing
  dp git add docs --cwd ~/proj --json
"""

COMMIT_HELP = """Commit what is staged; the message goes to git on stdin (`git commit --file=-`).

The message (16 KB at most; DP_MAX_COMMIT_SIZE=BYTES changes the limit) is passed to git
unchanged. -F FILE must lie inside the working directory; -F - reads stdin.

\b
Examples:
  dp git commit -m "Add the export command"
  dp git commit -F .git/COMMIT_DRAFT
  printf 'Subject\\n\\nBody\\n' | dp git commit -F -
  dp git commit -m "WIP" --dry-run
"""


@shared()
def add(
    paths: list[str] | None = typer.Argument(None, metavar="PATH", show_default=False, help="Files or directories to stage."),
    dry_run: bool = DRY_RUN_OPTION,
    *, opts: Shared,
) -> None:
    from dp.project.git import add_command
    from dp.project.workdir import working_directory

    root = working_directory(opts.directory)
    _carry_out_git(add_command(root, paths or []), dry_run, opts.json)


@shared()
def commit(
    message: str | None = typer.Option(None, "--message", "-m", metavar="MSG", help="The commit message."),
    file: str | None = typer.Option(None, "--file", "-F", metavar="FILE", help="Read the message from FILE (- for stdin)."),
    dry_run: bool = DRY_RUN_OPTION,
    *, opts: Shared,
) -> None:
    from dp.project.git import commit_command, max_commit_size, read_message
    from dp.project.workdir import working_directory

    limit = max_commit_size()
    root = working_directory(opts.directory)
    text = read_message(root, message=message, file=file, stdin=sys.stdin.buffer, limit=limit)
    _carry_out_git(commit_command(root, text), dry_run, opts.json)


def _carry_out_git(command, dry_run: bool, as_json: bool) -> None:
    from dp.process import DEFAULT_TIMEOUT
    from dp.project.git import failure_hint

    carry_out(
        command,
        timeout=DEFAULT_TIMEOUT,
        dry_run=dry_run,
        as_json=as_json,
        failure_hint=lambda output: failure_hint(command.cwd, output),
    )


def register(app: typer.Typer) -> None:
    git = typer.Typer(help=HELP, no_args_is_help=True, rich_markup_mode=None)
    git.command("add", help=ADD_HELP, short_help="Stage paths inside the working directory.")(add)
    git.command("commit", help=COMMIT_HELP, short_help="Commit with the message on stdin (16 KB at most).")(commit)
    app.add_typer(git, name="git")
