"""What every doctor check returns: a ``Finding`` (one line of the report) and its status.

A module of its own so that each check module, and the CLI that prints them,
depends on this small vocabulary instead of on one another.
"""

from __future__ import annotations

OK, WARNING, ERROR = "ok", "warning", "error"


class Finding:
    """One line of the report: what was checked, how it went, and the one command that fixes it.

    ``details`` are extra machine-readable facts for ``dp doctor --json``
    (the measured milliseconds, the ids of pending suggestions …).
    """

    __slots__ = ("check", "status", "message", "fix", "details")

    def __init__(self, check: str, status: str, message: str, fix: str = "", **details):
        self.check, self.status, self.message, self.fix, self.details = check, status, message, fix, details

    def to_dict(self) -> dict:
        result: dict = {"check": self.check, "status": self.status, "message": self.message, "fix": self.fix or None}
        if self.details:
            result["details"] = self.details
        return result


def summary(findings: list[Finding]) -> dict:
    """How many findings of each status; any error makes ``dp doctor`` exit 1."""
    return {status: sum(1 for f in findings if f.status == status) for status in (OK, WARNING, ERROR)}
