"""``dp ingest``: failed calls from Claude Code transcripts, Gemini CLI and Codex CLI sessions and the Go desire-path tool's database."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from dp.cli.common import note, print_json
from dp.cli.options import Shared, shared
from dp.cli.rehearsal import DRY_RUN_OPTION, rehearsed

HELP = """Import failed tool calls recorded elsewhere into the dp store.

--claude-transcripts [DIR] reads Claude Code session transcripts (default
~/.claude/projects): every failed call, including the hallucinated tool
names Claude Code rejects before any hook runs, plus the shapes of the
calls that worked. --gemini-sessions [DIR] does the same for Gemini CLI's
saved sessions (default ~/.gemini/tmp; sessions dp's Gemini hook already
captured are skipped). --codex-sessions [DIR] reads Codex CLI's session
files (default $CODEX_HOME/sessions, ~/.codex/sessions): shell commands that
exited non-zero and made-up tool names (`unsupported call`), which no Codex
hook sees. --desire-path-db FILE imports the Go desire-path tool's
desires.db (any schema version). Both are idempotent: what is already
stored is not added again. Inputs are redacted before they are stored.

\b
Examples:
  dp ingest --claude-transcripts
  dp ingest --claude-transcripts ~/.claude/projects/-home-me-app
  dp ingest --gemini-sessions
  dp ingest --codex-sessions
  dp ingest --desire-path-db ~/.dp/desires.db
  dp ingest --claude-transcripts --dry-run    # how many events it would store
"""
PROGRESS_FROM_FILES = 20


def _sources() -> list:
    """(adapter, its ``session_option``) of every agent whose session files dp ingest reads, in registry order."""
    from dp.agents import with_role

    return [(agent, agent.session_option) for agent in with_role("sessions") if agent.session_option]


@rehearsed
def ingest(directory: Path | None = None, go_db: Path | None = None, dry_run: bool = False, *, opts: Shared,
           **chosen) -> None:
    from dp.errors import DpError
    from dp.store import Store

    sources = _sources()
    options = _either([option for _, (option, *_) in sources])
    picked = [(agent, key) for agent, (_, key, *_) in sources if chosen.get(key)]
    if directory is not None and len(picked) != 1:
        raise DpError(f"{directory}: a directory goes with {options}, one of them "
                      f"(dp ingest {sources[0][1][0]} DIR)")
    if not picked and go_db is None:
        raise DpError("say what to ingest: " + ", ".join(f"{option} [DIR]" for _, (option, *_) in sources)
                      + " or --desire-path-db FILE")
    report: dict = {}
    from dp.capture import actions
    from dp.capture.fixes import drain

    with Store.open(opts.store) as store:
        fixed = drain(store.conn, str(opts.store))
        if fixed:
            report["mod_fixes"] = fixed
        acted = actions.drain(store.conn, str(opts.store), wait=True)  # the hook's notes, joined in dp stats
        if acted:
            report["actions"] = acted
        for agent, key in picked:
            report[key] = _read(agent.role("sessions"), store.conn, directory, opts.json or opts.quiet)
        if go_db is not None:
            report["desire_path_db"] = _go_db(store.conn, go_db.expanduser())
        from dp.capture.events import now_iso
        from dp.learn.store import relearn

        report["learned_answers"] = len(relearn(store.conn, now_iso()))
        from dp.desires import hurting

        switched = hurting.switch_off(store)  # what the sessions just read say about the rules dp made
        if switched:
            report["switched_off"] = switched
    if opts.json:
        print_json(report)
    else:
        for line in describe(report):
            typer.echo(line)
        note("Next: dp paths, then dp suggest")
    if report.get("switched_off"):
        from dp.desires import hurting

        hurting.tell(opts.store, note)


def _either(options: list) -> str:
    """``--a, --b or --c``."""
    return ", ".join(options[:-1]) + " or " + options[-1] if len(options) > 1 else "".join(options)


def _signature():
    """``ingest``'s options as typer reads them: DIR, one flag per agent with session files, --desire-path-db."""
    import inspect

    sources = _sources()
    keyword = inspect.Parameter.KEYWORD_ONLY
    directory = inspect.Parameter(
        "directory", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Path | None,
        default=typer.Argument(None, metavar="[DIR]", show_default=False,
                               help=f"Directory for {_either([option for _, (option, *_) in sources])}."))
    flags = [inspect.Parameter(key, keyword, annotation=bool, default=typer.Option(False, option, help=words))
             for _, (option, key, _, words) in sources]
    go_db = inspect.Parameter("go_db", keyword, annotation=Path | None, default=typer.Option(
        None, "--desire-path-db", metavar="FILE", help="Import the Go desire-path tool's desires.db."))
    dry_run = inspect.Parameter("dry_run", keyword, annotation=bool, default=DRY_RUN_OPTION)
    opts = inspect.Parameter("opts", keyword, annotation=Shared, default=None)
    return inspect.Signature([directory, *flags, go_db, dry_run, opts])


def _read(reader, conn, directory: Path | None, quiet: bool) -> dict:
    """One session reader (``DEFAULT_DIR``, ``WHERE``, ``ingest``) over ``directory``; its totals as the report."""
    from dp.errors import DpError

    where = (directory or reader.DEFAULT_DIR).expanduser()
    if not where.is_dir():
        raise DpError(f"{where} is not a directory ({reader.WHERE})")
    totals = reader.ingest(conn, where, progress=None if quiet else _progress)
    return {"directory": str(where), **totals.to_dict()}


def _progress(done: int, total: int, path: Path) -> None:
    """A line every tenth of the way on large directories (stderr, so it never mixes with the report)."""
    if total < PROGRESS_FROM_FILES:
        return
    step = max(1, total // 10)
    if done % step == 0 or done == total:
        end = "\n" if done == total or not sys.stderr.isatty() else "\r"
        print(f"dp: read {done}/{total} transcript files", end=end, file=sys.stderr, flush=True)


def _go_db(conn, path: Path) -> dict:
    from dp.capture import godb

    return {"file": str(path), **godb.ingest(conn, path)}


def describe(report: dict) -> list[str]:
    lines = []
    for _, (_, key, kind, _) in _sources():
        found = report.get(key)
        if not found:
            continue
        skipped = f"; {found['skipped_lines']} unreadable line{'s' if found['skipped_lines'] != 1 else ''} skipped" \
            if found["skipped_lines"] else ""
        lines.append(f"{found['directory']}: {found['files']} {kind} file{'s' if found['files'] != 1 else ''}, "
                     f"{found['lines']} lines{skipped}")
        lines.append(f"  {found['failures']} failed calls, {found['successes']} successful ones; "
                     f"{found['added']} new events stored")
    if report.get("mod_fixes"):
        lines.append(f"{report['mod_fixes']} calls fixed by dp's Claude Code mod stored")
    imported = report.get("desire_path_db")
    if imported:
        version = imported["schema_version"]
        lines.append(f"{imported['file']} (desire-path schema {version if version is not None else 'unknown'}): "
                     f"{imported['read']} desires read, {imported['added']} new events stored")
    if report.get("learned_answers"):
        count = report["learned_answers"]
        lines.append(f"{count} learned answer{'s' if count != 1 else ''} (what agents ran next, in several sessions; "
                     "see dp suggest)")
    return lines


def register(app: typer.Typer) -> None:
    ingest.__signature__ = _signature()
    app.command("ingest", help=HELP, short_help="Import failures from agents' sessions or the Go tool's desires.db.")(
        shared()(ingest))
