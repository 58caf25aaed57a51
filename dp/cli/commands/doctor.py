"""``dp doctor``: is the store readable, the hook installed and fast, and can every rule fire?"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from dp.cli.common import print_json
from dp.cli.options import Shared, shared

HELP = """Check the whole setup and say how to fix what is wrong.

Checks the store (opens, schema current, rules by kind), where the hook is
installed (user, project and local settings) and that its program exists,
is executable and is not a pyenv/asdf shim, other PreToolUse hooks that also
run on Bash (only one rewrite survives), rules that can never fire or that
shadow a real tool, and the measured time of one real hook call.
Exits 1 when any check finds an error.

\b
Examples:
  dp doctor
  dp doctor --json | jq '.checks[] | select(.status != "ok")'
  dp doctor --settings ./ci/claude-settings.json
"""

_LABEL = {"ok": "ok", "warning": "warn", "error": "ERROR"}


@shared("db", "cwd", "json")
def doctor(
    settings: Optional[Path] = typer.Option(None, "--settings", metavar="PATH", help="Also check this settings file."),
    opts: Shared = None,
) -> int:
    from dp.doctor import checks

    findings = checks.run_all(opts.store, opts.directory.resolve(), settings)
    summary = checks.summary(findings)
    if opts.json:
        print_json({"ok": summary[checks.ERROR] == 0, "summary": summary, "checks": [f.to_dict() for f in findings]})
    else:
        for finding in findings:
            typer.echo(f"{_LABEL[finding.status]:<5}  {finding.check:<11} {finding.message}")
            if finding.fix:
                typer.echo(f"{'':<18} fix: {finding.fix}")
        typer.echo(f"\n{summary['ok']} ok, {summary['warning']} warning(s), {summary['error']} error(s)")
    if summary[checks.ERROR]:
        raise typer.Exit(1)
    return 0


def register(app: typer.Typer) -> None:
    app.command("doctor", help=HELP, short_help="Check the store, the hook and the rules; say how to fix problems.")(
        doctor
    )
