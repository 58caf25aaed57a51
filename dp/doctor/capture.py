"""``dp doctor``'s capture check: are failures being recorded, and are suggestions waiting?"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from dp.agents import settings as hook_settings
from dp.doctor.findings import OK, WARNING, Finding
from dp.doctor.settings_files import SettingsFile


def check_capture(files: list[SettingsFile], db_path: Path, rules, default_here: bool = True) -> list[Finding]:
    """``default_here``: this machine has Claude Code (without it, no capture entries for it is no warning)."""
    from dp.store import installs

    where = [file.where for file in files if hook_settings.capture_hooks(file.data)]
    where += [f"the plugin {entry.details.get('plugin', 'dp')}" for entry in installs.read(db_path, installs.PLUGIN)
              if entry.details.get("capture", True)]
    if where:
        findings = [Finding("capture", OK, f"capture hooks installed in {', '.join(where)}")]
    elif not default_here:  # the hook line says so; other agents' capture entries are their own lines
        findings = []
    else:
        # Unmet is never "ok": a line with a fix is a warning (dp init --no-capture chose it; the fix says how back).
        findings = [Finding("capture", WARNING, "capture hooks not installed (failed calls are not recorded)",
                            "dp init (installs them; dp ingest --claude-transcripts reads past sessions)")]
    pending = _pending(db_path, rules or [])
    if pending is not None:
        failures, suggestions = pending
        if suggestions:
            findings.append(Finding(
                "suggestions", WARNING,
                f"{len(suggestions)} pending suggestion{'s' if len(suggestions) != 1 else ''} from {failures} captured "
                f"failures ({', '.join(item['id'] for item in suggestions[:5])})",
                "dp suggest (then dp suggest --apply ID)", ids=[item["id"] for item in suggestions]))
        else:
            findings.append(Finding("suggestions", OK, f"no pending suggestions ({failures} captured failures)"))
    return findings + _hurting(db_path)


def _hurting(db_path: Path) -> list[Finding]:
    """A warning for each rule that hurts in the last 7 days, as ``dp stats`` counts it (its rewritten calls fail
    or are undone more than they succeed: dp.desires.stats), and a line for each rule dp switched off
    (dp.desires.hurting); nothing when none does or there is no store."""
    from dp.desires.query import parse_since
    from dp.desires.stats import stats
    from dp.store import open_readonly
    from dp.store.origins import switched_off

    try:
        conn = open_readonly(db_path)
    except sqlite3.Error:
        return []
    if conn is None:
        return []
    try:
        report = stats(conn, parse_since("7d"))
        off = switched_off(conn)
    except sqlite3.Error:
        return []
    finally:
        conn.close()
    rules = [rule for rule in report["rules"] if rule["hurts"] and not rule["switched_off"]]
    return [Finding("outcomes", WARNING,
                    f"rule {rule['rule']} hurts: of its {rule['actions']} rewritten calls in 7 days {rule['failed']} "
                    f"failed and {rule['undone']} were undone, {rule['succeeded']} succeeded (dp stats)"
                    + ("; dp suggest --apply made it: dp switches it off when it hurts clearly" if rule["origin"]
                       else ""),
                    "dp stats (then dp alias --delete … the rule, or change it)") for rule in rules] \
        + [_switched_off(entry) for entry in off]


def _switched_off(entry: dict) -> Finding:
    """A rule dp switched off: a warning until the person was told (dp stats tells once), then a plain line."""
    from dp.desires.hurting import announcement, enable_command

    if not entry["told"]:
        return Finding("outcomes", WARNING, announcement(entry), "dp stats (says why, once)")
    return Finding("outcomes", OK, f"rule {entry['label']} switched off by dp on {entry['at']} (it hurt clearly; "
                   f"dp stats says why); to make it act again: {enable_command(entry['rule'])}")


def _pending(db_path: Path, rules):
    """(captured failures, pending suggestions), or None when the store has no capture table."""
    from dp.desires.query import counts
    from dp.desires.suggest import suggest
    from dp.store import open_readonly

    try:
        conn = open_readonly(db_path)
    except sqlite3.Error:
        return None
    if conn is None:
        return None
    try:
        return counts(conn)["failure"], suggest(conn, rules)
    except sqlite3.Error:
        return None
    finally:
        conn.close()
