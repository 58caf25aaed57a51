"""The audit log of a recipe run: one JSONL line per finished step.

One file per run, created exclusively and readable only by its owner:
outputs may hold secrets, so the log records each output's length, never
the output itself. Lines are written under a lock (parallel-group steps
finish on worker threads) and flushed one by one, so a run that is killed
leaves every step it finished on record.
"""

from __future__ import annotations

import json
import os
import threading
from datetime import datetime, timezone
from pathlib import Path

from dp.errors import DpError
from dp.recipes import model


class AuditLog:
    """One JSONL file per run, readable only by its owner (outputs may hold secrets)."""

    def __init__(self, directory: Path, recipe_name: str):
        try:
            directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        except FileExistsError:
            raise DpError(f"audit log directory {directory} is not a directory; "
                          "name a directory for the log (nothing was run)") from None
        except OSError as exc:
            raise DpError(f"cannot create audit log directory {directory}: {exc.strerror or exc} "
                          "(nothing was run)") from None
        stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")
        safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in recipe_name)[:80]
        self.path = directory / f"{safe}_{stamp}.jsonl"
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except OSError as exc:
            raise DpError(f"cannot create audit log {self.path}: {exc.strerror or exc}") from None
        self.handle = os.fdopen(fd, "w", encoding="utf-8")
        self.lock = threading.Lock()

    def write(self, recipe: str, depth: int, result: model.StepResult) -> None:
        entry = {
            "timestamp": datetime.now(timezone.utc).isoformat(timespec="milliseconds"),
            "recipe": recipe,
            "depth": depth,
            "step_id": result.step_id,
            "type": result.type,
            "status": result.status,
            "duration_ms": result.duration_ms,
            "error": result.error,
            "output_len": len(result.output or ""),
        }
        if result.values_as_code:
            entry["values_as_code"] = True  # the author let this step's values run as code
        with self.lock:
            self.handle.write(json.dumps(entry, ensure_ascii=False) + "\n")
            self.handle.flush()

    def close(self) -> None:
        self.handle.close()
