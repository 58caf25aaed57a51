"""``dp doctor``'s paving lines: the decision per ecosystem for the current directory.

The words come from dp.paving.report, so doctor says exactly what the hook
does here; an ambiguous project is a warning with how to settle it.
"""

from __future__ import annotations

from pathlib import Path

from dp.doctor.findings import OK, WARNING, Finding

CHECK = "paving"


def check_paving(db_path: Path, cwd: Path) -> list[Finding]:
    from dp.layers.trusting import repository_trusted
    from dp.paving import report

    result = report.explain(str(db_path.parent), str(cwd), trust=repository_trusted(db_path, cwd))
    if not result["enabled"]:
        return [Finding(CHECK, OK, f"project paving is {result['why_off']}")]
    findings = []
    for entry in result["ecosystems"]:
        message = f"{entry['ecosystem']}: {entry['message']}"
        if entry["status"] in ("ambiguous", "error"):
            fix = "settle it as the message says, then dp doctor again (until then dp leaves these commands alone)"
            findings.append(Finding(CHECK, WARNING, message, fix))
        else:
            findings.append(Finding(CHECK, OK, message))
    return findings
