"""Finding 4: template values reached code sinks the check did not know (a list of spellings).

The audit's steps passed ``dp recipe validate`` and, with ``--set v='touch
MARKER'``, ran the value: ``sh -c -- {{v}}``, ``sh +e -c``, ``$SHELL -c``, ``S=sh;
$S -c``, ``V={{v}}; sh -c "$V"``, ``stdbuf -oL sh -c``, ``cat <<EOF | sh``,
``bash /dev/stdin <<<``, ``git -c alias.x=!…``, ``sqlite3 :memory:`` (``.shell``),
and through launchers and program-taking options (docker, kubectl, uv, npx,
nix-shell, busybox, fish, pwsh, Rscript, rsync -e, tar's checkpoint action,
GIT_SSH_COMMAND, git -c core.sshCommand). Each is rebuilt here through the
real ``dp recipe validate`` and ``dp recipe run`` (refused when written: one
line naming the step, the value and why; nothing runs) and as an alias recipe
through the real ``dp alias --recipe`` and ``pave-check`` with Claude Code's
JSON (refused when written; a store holding it anyway is never rendered). The
marker directory stays empty.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess

import pytest
from cli_assertions import assert_one_line_error

# (template, a value that would mark if the template ran it: MARK is the marker's path)
SPELLINGS = [
    ("sh -c -- {{v}}", "touch MARK"),
    ("sh +e -c {{v}}", "touch MARK"),
    ("$SHELL -c {{v}}", "touch MARK"),
    ("S=sh; $S -c {{v}}", "touch MARK"),
    ('V={{v}}; sh -c "$V"', "touch MARK"),
    ("stdbuf -oL sh -c {{v}}", "touch MARK"),
    ("cat <<EOF | sh\n{{v}}\nEOF", "touch MARK"),
    ("bash /dev/stdin <<< {{v}}", "touch MARK"),
    ("git -c alias.x=!{{v}} x", "touch MARK"),
    ("sqlite3 :memory: {{v}}", ".shell touch MARK"),
    ("docker run --rm alpine sh -c {{v}}", "touch MARK"),
    ("kubectl exec pod -- sh -c {{v}}", "touch MARK"),
    ("uv run sh -c {{v}}", "touch MARK"),
    ("npx -c {{v}}", "touch MARK"),
    ("nix-shell -p hello --run {{v}}", "touch MARK"),
    ("busybox sh -c {{v}}", "touch MARK"),
    ("fish -c {{v}}", "touch MARK"),
    ("pwsh -c {{v}}", "New-Item MARK"),
    ("Rscript -e {{v}}", "system('touch MARK')"),
    ("rsync -e {{v}} src host:dst", "touch MARK;"),
    ("tar -cf out.tar --checkpoint=1 --checkpoint-action=exec={{v}} .", "touch MARK"),
    ("GIT_SSH_COMMAND={{v}} git fetch", "touch MARK;"),
    ("git -c core.sshCommand={{v}} fetch", "touch MARK;"),
]
IDS = [template.split("\n")[0][:40] for template, _ in SPELLINGS]


@pytest.fixture
def project(tmp_path):
    path = tmp_path / "project"
    (path / ".git").mkdir(parents=True)
    (path / "src").mkdir()
    (path / "src" / "app.py").write_text("print('hello')\n")
    (path / "node_modules" / ".bin").mkdir(parents=True)
    return path


def _recipe(project, template: str):
    body = "".join(f"      {line}\n" for line in template.split("\n"))
    recipe = project / "finding4.yaml"
    recipe.write_text(f"name: finding4\ncontext:\n  v: ''\nsteps:\n  - id: use-value\n    command: |\n{body}")
    return recipe


@pytest.mark.parametrize("template, value", SPELLINGS, ids=IDS)
def test_recipe_steps_refuse_the_value_where_a_program_would_run_it(dp, project, markers, template, value):
    recipe = _recipe(project, template)
    validate = dp("recipe", "validate", recipe, cwd=project)
    assert_one_line_error(validate, f"invalid recipe {recipe}: step 'use-value': 'command': line ")
    assert validate.returncode == 2 and "{{v}} would run as code in " in validate.stderr
    marker = markers.path / "ran"
    run = dp("recipe", "run", recipe, "--set", f"v={value.replace('MARK', str(marker))}", cwd=project)
    assert run.returncode == 2 and "{{v}} would run as code in " in run.stderr, run.stderr
    markers.assert_none(template)
    assert "values_as_code: true" in validate.stderr  # the author's visible opt-in is named


@pytest.mark.parametrize("template, value", SPELLINGS, ids=IDS)
def test_alias_recipes_refuse_them_and_the_hook_never_renders_one_that_got_into_the_store(
        dp, pave_check, db_path, tmp_path, markers, template, value):
    script = template.replace("{{v}}", "{{ arg(1) }}")
    refused = dp("alias", "--recipe", "gt x", script)
    assert_one_line_error(refused, "recipe template for 'gt x' is refused: ")
    assert "would run as code in " in refused.stderr and "values_as_code" not in refused.stderr
    # A store that holds it anyway (an older dp wrote it, a hand edit): the hook leaves the command alone.
    assert dp("alias", "--recipe", "gt x", "echo {{ arg(1) }}").returncode == 0
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE aliases_v3 SET to_name = ? WHERE from_name = 'gt x'", (script,))
    typed = value.replace("MARK", str(markers.path / "ran"))
    command = f"gt x {json.dumps(typed)}"
    proc = pave_check({"tool_name": "Bash", "tool_input": {"command": command}, "cwd": str(tmp_path)})
    assert proc.returncode == 0
    if proc.stdout:  # a rewrite would be run by the agent: run it
        rewritten = json.loads(proc.stdout)["hookSpecificOutput"]["updatedInput"]["command"]
        subprocess.run(["bash", "-c", rewritten], cwd=tmp_path, capture_output=True, timeout=30)
    assert proc.stdout == ""
    markers.assert_none(script)


def test_the_safe_forms_the_refusals_name_run_the_value_as_data(dp, project, markers):
    """What the messages advise (an argument of a fixed script, -- before values) prints the value, runs nothing."""
    value = f"$(touch {markers.path / 'ran'}); touch {markers.path / 'ran2'}"
    recipe = project / "safe.yaml"
    recipe.write_text("name: safe\ncontext:\n  v: ''\nsteps:\n"
                      "  - id: argument\n    command: sh -c 'printf \"%s\\n\" \"$1\"' _ {{v}}\n"
                      "  - id: launched\n    command: stdbuf -oL sh -c 'printf \"%s\\n\" \"$1\"' _ {{v}}\n"
                      "  - id: variable\n    command: V={{v}}; printf '%s\\n' \"$V\"\n"
                      "  - id: git-data\n    command: git -c user.name={{v}} var GIT_COMMITTER_IDENT | cut -d'<' -f1\n")
    assert dp("recipe", "validate", recipe, cwd=project).returncode == 0
    proc = dp("recipe", "run", recipe, "--json", "--set", f"v={value}", cwd=project,
              extra_env={"GIT_COMMITTER_EMAIL": "a@example.com"})
    assert proc.returncode == 0, proc.stderr
    outputs = {step["id"]: step["output"] for step in json.loads(proc.stdout)["steps"]}
    assert outputs["argument"] == outputs["launched"] == outputs["variable"] == value
    assert outputs["git-data"].strip() == value
    markers.assert_none("the safe forms")
