"""Time the ``dp`` command line against the Python floor.

Same method as ``run_hook_bench.py``: whole processes, the floor
``python -I -c "import sqlite3, json"`` measured in the same run and
interleaved with the cases, medians of ``--runs`` runs after one warm-up each.
The 100,000-rule import compares TOML with JSON (both against fresh stores).

Run from a checkout with dp installed:  python bench/run_cli_bench.py [--runs N]
Exit status 1 if a budget is missed (a benchmark, not a test).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

from run_hook_bench import FLOOR, build_store, filler_rules, print_table_head, run_once

from dp.rules import collection


def npm_project(root: Path) -> Path:
    """A project with package.json scripts and a pyproject: no tool is started to list them."""
    (root / ".git").mkdir(parents=True)
    scripts = {name: f"node {name}.js" for name in ("build", "lint", "test", "dev", "deploy")}
    (root / "package.json").write_text(json.dumps({"name": "demo", "scripts": scripts}))
    (root / "package-lock.json").write_text("{}")
    (root / "pyproject.toml").write_text("[tool.pdm.scripts]\ntest = 'pytest -q'\nlint = 'ruff check'\n")
    return root


def collections(tmp: Path, count: int) -> dict[str, Path]:
    """The same ``count`` rules exported as TOML and as JSON."""
    from datetime import datetime, timezone

    data = collection.build_collection(filler_rules(count), datetime.now(timezone.utc))
    paths = {}
    for fmt in ("toml", "json"):
        paths[fmt] = tmp / f"rules.{fmt}"
        paths[fmt].write_text(collection.dumps(data, fmt), encoding="utf-8")
    return paths


def main() -> int:
    runs = _runs()
    dp = Path(sys.executable).with_name("dp")  # the dp of this interpreter's environment
    if not dp.exists():
        raise SystemExit(f"{dp} is missing: install dp into this environment (pip install -e .)")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        print("building a 10k-rule store and 100k-rule collections…", file=sys.stderr)
        store = build_store(tmp / "10k.db", 10_000)
        project = npm_project(tmp / "project")
        files = collections(tmp, 100_000)
        env = {**os.environ, "HOME": str(tmp), "XDG_CACHE_HOME": str(tmp / "cache"), "NO_COLOR": "1"}
        for name in ("DP_DB", "PYTHONDONTWRITEBYTECODE"):  # the warm-up run writes the .pyc files
            env.pop(name, None)
        cases = [
            # (name, argv, budget as a multiple of the floor)
            ("dp --help", [str(dp), "--help"], 3.0),
            ("dp tasks (npm + pdm project)", [str(dp), "tasks"], 4.0),
            ("dp aliases (10k rules)", [str(dp), "--db", str(store), "aliases"], 5.0),
        ]
        os.chdir(project)  # dp tasks lists the current directory's project
        floor, timings = _measure(cases, runs, env)
        imports = _measure_imports(str(dp), files, tmp, max(runs // 4, 3), env)

    floor_ms = statistics.median(floor) * 1000
    print_table_head("dp CLI", runs, floor_ms, 30)
    missed = False
    for name, _, budget in cases:
        median_ms = statistics.median(timings[name]) * 1000
        ratio = median_ms / floor_ms
        verdict = "ok" if ratio <= budget else "MISSED"
        missed |= verdict == "MISSED"
        print(f"| {name:<30} | {median_ms:>9.1f} | {ratio:>6.2f}× | {f'≤{budget:g}×':>6} | {verdict:<6} |")
    toml_ms, json_ms = (statistics.median(imports[fmt]) * 1000 for fmt in ("toml", "json"))
    ratio = toml_ms / json_ms
    verdict = "ok" if ratio <= 1.5 else "MISSED"
    missed |= verdict == "MISSED"
    print(f"\n100,000-rule import: TOML {toml_ms:.0f} ms, JSON {json_ms:.0f} ms = {ratio:.2f}× "
          f"(budget ≤1.5×): {verdict}")
    return 1 if missed else 0


def _runs() -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--runs", type=int, default=20, help="runs per case (median; at least 10)")
    return max(options.parse_args().runs, 10)


def _measure(cases, runs: int, env: dict) -> tuple[list[float], dict[str, list[float]]]:
    for name, argv, _ in cases:  # warm-up + sanity check
        if run_once(argv, b"", env)[1] != 0:
            raise SystemExit(f"{name}: failed")
    floor, timings = [], {name: [] for name, *_ in cases}
    for _ in range(runs):
        floor.append(run_once(FLOOR, b"", env)[0])
        for name, argv, _ in cases:
            timings[name].append(run_once(argv, b"", env)[0])
    return floor, timings


def _measure_imports(dp: str, files: dict[str, Path], tmp: Path, runs: int, env: dict) -> dict[str, list[float]]:
    """Each run imports into a fresh store, TOML and JSON alternating."""
    timings: dict[str, list[float]] = {fmt: [] for fmt in files}
    for number in range(runs):
        for fmt, path in files.items():
            fresh = tmp / f"import-{fmt}-{number}.db"
            took, status, *_ = run_once([dp, "--db", str(fresh), "aliases", "import", str(path)], b"", env)
            if status != 0:
                raise SystemExit(f"import of {path.name} failed")
            timings[fmt].append(took)
    return timings


if __name__ == "__main__":
    sys.exit(main())
