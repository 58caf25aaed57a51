"""Hostile values × every quoting context × every code sink, through the real CLI and hook.

YAML recipes (``dp recipe run``): each hostile value reaches the recipe the way
an agent's text does — as an earlier step's output — and is then used in every
data context; each step must print exactly what the runner's inlined value
would print, and nothing in the value may run (a ``MARKER`` file never
appears). Every code sink is refused when the recipe is read, as a plain word
and inside quotes, before anything runs; ``values_as_code: true`` is the
author's visible opt-in (``dp recipe explain``, the audit log). Alias recipes
(``dp alias --recipe`` + ``pave-check`` with real JSON): the agent's hostile
words in every context are printed, never run, and every sink is refused with
no opt-in at all.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from cli_assertions import assert_one_line_error

MARKER = "MARKER"
HOSTILE = {
    "single-quote": "it's 'quoted'",
    "double-quote": 'say "hi" \\" now',
    "substitution": f"$(touch {MARKER})",
    "backticks": f"`touch {MARKER}`",
    "semicolon": f"a; touch {MARKER}; b",
    "newline": f"first\ntouch {MARKER}\nlast",
    "delimiter-line": f"text\nEOF\ntouch {MARKER}\nEOF\nmore",
    "option": f"--output={MARKER} -oProxyCommand=touch_{MARKER}",
    "nul": f"a\0b$(touch {MARKER})",
    "megabyte": (("x" * 1000 + f"'\"$(touch {MARKER})`touch {MARKER}`\n") * 1000)[:999_000] + "y",
}
# (step id, command template, how the runner's inlined value would print: VALUE stands for it)
CONTEXTS = [
    ("word", "printf '%s' {{v}}", "VALUE"),
    ("double", "printf '%s' \"<{{v}}>\"", "<VALUE>"),
    ("single", "printf '%s' '<{{v}}>'", "<VALUE>"),
    ("ansi", "printf '%s' $'<\\t{{v}}>'", "<\tVALUE>"),
    ("glued", "printf '%s' pre'{{v}}'mid\"{{v}}\"post{{v}}", "preVALUEmidVALUEpostVALUE"),
    ("assignment", "X={{v}}; Y=\"[{{v}}]\"; printf '%s|%s' \"$X\" \"$Y\"", "VALUE|[VALUE]"),
    ("heredoc", "cat <<EOF\n<{{v}}>\nEOF", "<VALUE>"),
    ("quoted-heredoc", "cat <<'EOF'\n<{{v}}> $HOME `x`\nEOF", "<VALUE> $HOME `x`"),
    ("dash-quoted-heredoc", "cat <<-\"EOF\"\n\t<{{v}}>\n\tEOF", "<VALUE>"),
    ("here-string", "cat <<< {{v}}", "VALUE"),
    ("comment", "printf ok # {{v}}", "ok"),
    ("substitution", "printf '%s' \"$(printf '%s' {{v}})\"", "VALUE"),
    ("test", "[[ {{v}} == {{v}} ]] && [ -n \"{{v}}\" ] && printf same", "same"),
]


@pytest.fixture
def project(tmp_path):
    path = tmp_path / "project"
    path.mkdir()
    (path / ".git").mkdir()
    (path / "node_modules" / ".bin").mkdir(parents=True)
    return path


def _yaml_block(template: str) -> str:
    return "".join(f"      {line}\n" if line else "\n" for line in template.split("\n"))


def _recipe(value_file: Path) -> str:
    steps = "".join(f"  - id: {step_id}\n    command: |\n{_yaml_block(template)}"
                    for step_id, template, _ in CONTEXTS)
    return (f"name: injection\nsteps:\n  - id: produce\n    command: cat {json.dumps(str(value_file))}\n"
            f"    output: v\n{steps}")


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_values_in_every_context_are_printed_never_run(dp, project, tmp_path, name):
    value_file = tmp_path / "value.bin"
    value_file.write_bytes(HOSTILE[name].encode())
    recipe = project / "injection.yaml"
    recipe.write_text(_recipe(value_file))
    assert dp("recipe", "validate", recipe, cwd=project).returncode == 0
    proc = dp("recipe", "run", recipe, "--json", cwd=project, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    steps = {step["id"]: step["output"] for step in json.loads(proc.stdout)["steps"]}
    value = steps.pop("produce")
    assert value == HOSTILE[name].strip()  # dp keeps the output as the agent printed it (stripped)
    expected = value.replace("\0", "")  # the environment cannot carry NUL: dp drops it
    for step_id, _, shape in CONTEXTS:
        printed = shape.replace("VALUE", expected).strip()
        # dp keeps a step's last 1 MB of output: a step printing the megabyte value three times keeps its tail
        assert printed.endswith(steps[step_id]) and len(steps[step_id]) >= min(len(printed), 999_000), step_id
    assert not list(project.rglob(f"*{MARKER}*")) and not list(Path.cwd().glob(f"*{MARKER}*"))


SINKS = [
    "sh -c {{v}}", "bash -c {{v}}", "zsh -c {{v}}", "dash -c {{v}}", "ksh -c {{v}}", "eval {{v}}",
    "source {{v}}", ". {{v}}", "trap {{v}} EXIT", "su -c {{v}}", "sudo sh -c {{v}}", "runuser -c {{v}}",
    "env -S {{v}}", "ssh host {{v}}", "watch {{v}}", "ls | xargs {{v}}", "ls | xargs sh -c {{v}}",
    "parallel {{v}}", "find . -exec sh -c {{v}} \\;", "find . -execdir {{v}} \\;", "find . -ok {{v}} \\;",
    "timeout 5 sh -c {{v}}", "nice -n 1 bash -c {{v}}", "nohup sh -c {{v}}", "python3 -c {{v}}",
    "python -c {{v}}", "node -e {{v}}", "node -p {{v}}", "perl -e {{v}}", "perl -E {{v}}", "ruby -e {{v}}",
    "php -r {{v}}", "awk {{v}}", "sed {{v}}", "jq {{v}}", "bash <<EOF\n{{v}}\nEOF",
    "python3 - <<EOF\n{{v}}\nEOF", "sh <<< {{v}}", "echo {{v}} | bash", "echo $(( {{v}} ))",
    "(( {{v}} ))", "let {{v}}", "[[ {{v}} -eq 1 ]]", "printf {{v}}",
]


def _quoted(sink: str) -> str:
    """The same sink with the placeholder inside double quotes (and single quotes for a word)."""
    return sink.replace("{{v}}", '"{{v}}"') if "<<" not in sink and "((" not in sink and "[[" not in sink \
        else sink


@pytest.mark.parametrize("sink", SINKS)
def test_every_code_sink_is_refused_when_written_as_a_word_and_in_quotes(dp, project, sink):
    for template in dict.fromkeys([sink, _quoted(sink), sink.replace("{{v}}", "'x{{v}}'")]):
        recipe = project / "sink.yaml"
        recipe.write_text(f"name: sink\nsteps:\n  - id: s\n    command: |\n{_yaml_block(template)}")
        for args in (("validate",), ("run", "--set", f"v=touch {MARKER}")):
            proc = dp("recipe", args[0], recipe, *args[1:], cwd=project)
            assert proc.returncode == 2, (template, proc.stdout, proc.stderr)
            assert "would run as code in " in proc.stderr, proc.stderr
            assert proc.stderr.startswith("dp: error: invalid recipe ") and "Traceback" not in proc.stderr
        assert not (project / MARKER).exists()


def test_values_as_code_is_the_visible_opt_in(dp, project):
    recipe = project / "opt-in.yaml"
    recipe.write_text("name: opt-in\ncontext:\n  script: ''\nsteps:\n  - id: run-it\n    command: sh -c {{script}}\n"
                      "    values_as_code: true\n")
    validate = dp("recipe", "validate", recipe, cwd=project)
    assert validate.returncode == 0
    assert "values_as_code: its values run as code where placed (sh -c)" in validate.stderr
    explain = dp("recipe", "explain", recipe, cwd=project)
    assert "run-it [bash]  (values_as_code: its values may run as code)" in explain.stdout
    assert json.loads(dp("recipe", "explain", recipe, "--json", cwd=project).stdout)["steps"][0]["values_as_code"]
    proc = dp("recipe", "run", recipe, "--set", "script=echo ran; touch made-by-opt-in",
              "--audit-dir", project / "audit", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert (project / "made-by-opt-in").exists()
    [log] = (project / "audit").iterdir()
    [entry] = [json.loads(line) for line in log.read_text().splitlines()]
    assert entry["step_id"] == "run-it" and entry["values_as_code"] is True


def test_hooks_have_no_opt_in(dp, project):
    recipe = project / "hooks.yaml"
    recipe.write_text("name: h\nhooks:\n  pre_step: eval {{step_id}}\nsteps:\n  - id: a\n    command: echo\n")
    proc = dp("recipe", "validate", recipe, cwd=project)
    assert proc.returncode == 2
    assert "'hooks.pre_step': line 1: {{step_id}} would run as code in eval" in proc.stderr
    assert "values_as_code" not in proc.stderr


# --- alias recipes: the agent's words --------------------------------------------------------------

AGENT_WORDS = [
    f"'$(touch {MARKER})'",
    f'"\\`touch {MARKER}\\`"',
    f"'a; touch {MARKER}'",
    f"\\$\\(touch\\ {MARKER}\\)",
    "'it'\\''s'",
    f"--output={MARKER}",
    "'line\\nEOF'",
]
ALIAS_CONTEXTS = [
    'echo "[{{ arg(1) }}]"',
    "echo '[{{ arg(1) }}]'",
    "echo [{{ arg(1) }}]",
    "printf '%s|' pre'{{ args }}'post\"{{ args }}\"",
    "cat <<EOF\n[{{ arg(1) }}]\nEOF",
    "cat <<'EOF'\n[{{ arg(1) }}] $HOME\nEOF",
    "X={{ arg(1) }}; echo \"$X\"",
]


@pytest.mark.parametrize("script", ALIAS_CONTEXTS)
def test_alias_recipes_never_run_the_agents_words(dp, pave_check, tmp_path, script):
    assert dp("alias", "--recipe", "gt say", script).returncode == 0
    work = tmp_path / "work"
    work.mkdir()
    for words in AGENT_WORDS:
        proc = pave_check({"tool_name": "Bash", "tool_input": {"command": f"gt say {words}"}})
        assert proc.returncode == 0
        if not proc.stdout:
            continue  # a value that cannot be placed there: the command is left as the agent wrote it
        rewritten = json.loads(proc.stdout)["hookSpecificOutput"]["updatedInput"]["command"]
        ran = subprocess.run(["bash", "-c", rewritten], cwd=work, capture_output=True, text=True, timeout=10)
        assert ran.returncode == 0, (rewritten, ran.stderr)
        assert list(work.iterdir()) == [], rewritten


@pytest.mark.parametrize("sink", SINKS)
def test_alias_recipes_refuse_every_sink_with_no_opt_in(dp, db_path, sink):
    for template in dict.fromkeys([sink.replace("{{v}}", "{{ args }}"),
                                   _quoted(sink).replace("{{v}}", "{{ arg(1) }}"),
                                   sink.replace("{{v}}", "{{ args|raw }}")]):
        proc = dp("alias", "--recipe", "gt x", template)
        assert_one_line_error(proc, "recipe template for 'gt x' is refused: ")
        assert "would run as code in " in proc.stderr and "values_as_code" not in proc.stderr
    assert dp("aliases", "--json").stdout.strip() in ("[]", "")
