"""Paving's constants stay in step with the tables and the runners they stand in for."""

from __future__ import annotations

from dp import paving
from dp.paving import tasks
from dp.paving.markers import MARKERS
from dp.rules.tables import load
from dp.runners import deno, javascript, just, make, python, taskfile


def test_paving_words_are_the_tables_words():
    managers = load("package-managers")
    assert paving.JAVASCRIPT_WORDS == set(managers["source"]) | set(managers["binaries"])
    runners = load("python-runners")
    assert paving.PYTHON_WORDS == {*runners["tools"], *runners["interpreters"], *runners["installers"]}
    assert paving.TASK_WORDS == set(tasks.RUNNER_OF)


def test_markers_cover_every_file_detection_reads():
    names = {javascript.MANIFEST, python.MANIFEST, python.HATCH_FILE, "Cargo.toml", ".venv"}
    names |= {name for name, _ in javascript.LOCKFILES} | {lock for _, lock in python.MANAGERS}
    names |= set(make.MAKEFILE_NAMES) | set(just.JUSTFILE_NAMES) | set(taskfile.TASKFILE_NAMES)
    names |= set(deno.CONFIG_NAMES)
    assert names <= set(MARKERS), names - set(MARKERS)


def test_markers_cover_every_file_that_gives_a_manager_code():
    """A new .pnpmfile.cjs or yarnPath must miss the detection cache, or an untrusted repository's
    manager would still be paved to (dp.paving.reach)."""
    from dp.paving.reach import HOOK_FILES

    names = {name for files in HOOK_FILES.values() for name, _ in files}
    assert names <= set(MARKERS), names - set(MARKERS)


def test_every_target_flavour_writes_every_operation_it_claims():
    table = load("package-managers")
    required = {"install", "frozen", "add", "remove", "update", "run", "exec_local", "dlx"}
    for flavour, target in table["target"].items():
        missing = required - set(target)
        assert not missing, (flavour, missing)
        assert "test" not in target["run"].split()[1:], flavour  # never `bun test` for a script
    for manager, source in table["source"].items():
        assert set(source["commands"].values()) <= set(table["operations"]), manager
