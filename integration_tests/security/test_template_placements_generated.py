"""Generated: shell shapes × launchers × programs × hostile values — no template placement runs a value.

Issue 35, finding 4 (code sinks judged by structure, not by a list of
spellings). Every template below is judged by dp's real YAML renderer
(``dp.recipes.templates.render_shell``, what ``dp recipe validate``/``run``
call): a refused template is a write-time error; an accepted one is rendered
exactly as ``dp recipe run`` renders it and run by bash with each hostile
value in its environment, in a scratch directory, with the launchers that
cannot run here (docker, kubectl, sudo, uv, npx, busybox, nix …) replaced by
stubs on PATH that run their command the way the real launcher would. No run
may create the marker its value names, and the printing programs must print
the value (so the runs are not vacuous). A sample of the verdicts is checked
against the real ``dp recipe validate``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dp.recipes.templates import TemplateError, render_shell

# Launchers, as a recipe would write them before the program (stubbed: how many words to drop, then exec).
WRAPPERS = {
    "": None, "stdbuf -oL": None, "timeout 5": None, "nice -n 1": None, "nohup": None, "env": None,
    "env A=1": None, "command": None, "setsid -w": None, "ionice -c 3": None, "flock LOCK": None, "time": None,
    "exec": None, "sudo": 0, "doas": 0, "docker run --rm img": 3, "kubectl exec pod --": 3, "uv run": 1,
    "npx": 0, "busybox": 0, "strace -f -o /dev/null": 3, "chroot /": 1, "unbuffer": 0, "nix develop -c": 2,
    "poetry run": 1, "direnv exec .": 2,
}
_STUBBED = {"sudo", "doas", "docker", "kubectl", "uv", "npx", "busybox", "strace", "chroot", "unbuffer", "nix",
            "poetry", "direnv"}
# Programs the value reaches (PRINTERS print it as data when the shape hands it over whole).
PROGRAMS = [
    "sh -c", "bash -ec", "sh +e -c", "sh -c --", "bash -o pipefail -c", "sh", "bash -s", "eval", "python3 -c",
    "python3", "awk", "sed",
    "printf '%s\\n'", "echo", "cat", "sh -c 'printf \"%s\\n\" \"$1\"' _", "grep -e", "wc -c",
]
PRINTERS = {"printf '%s\\n'", "echo", "sh -c 'printf \"%s\\n\" \"$1\"' _"}
# Shapes: how the value reaches the program (P). Those in WHOLE hand it over as one argument.
SHAPES = {
    "word": "@W@ @P@ {{v}}",
    "double-quoted": '@W@ @P@ "{{v}}"',
    "single-quoted": "@W@ @P@ '{{v}}'",
    "glued": "@W@ @P@ pre'{{v}}'",
    "dash-dash": "@W@ @P@ -- {{v}}",
    "assign": 'V={{v}}; @W@ @P@ "$V"',
    "assign-unquoted": "V={{v}}; @W@ @P@ $V",
    "export": 'export V={{v}}; @W@ @P@ "$V"',
    "env-prefix": 'V={{v}} @W@ @P@ "$V"',
    "read": 'read -r V <<< {{v}}; @W@ @P@ "$V"',
    "for": 'for V in {{v}}; do @W@ @P@ "$V"; done',
    "function": 'f() { @W@ @P@ "$1"; }; f {{v}}',
    "set": 'set -- {{v}}; @W@ @P@ "$1"',
    "indirect": 'V={{v}}; N=V; @W@ @P@ "${!N}"',
    "nameref": 'V={{v}}; declare -n R=V; @W@ @P@ "$R"',
    "pipe": "printf '%s\\n' {{v}} | @W@ @P@",
    "pipe-while": "printf '%s\\n' {{v}} | while read -r V; do @W@ @P@ \"$V\"; done",
    "heredoc": "@W@ @P@ <<EOF\n{{v}}\nEOF",
    "quoted-heredoc": "@W@ @P@ <<'EOF'\n{{v}}\nEOF",
    "heredoc-piped": "cat <<EOF | @W@ @P@\n{{v}}\nEOF",
    "here-string": "@W@ @P@ <<< {{v}}",
    "dev-stdin": "@W@ @P@ /dev/stdin <<< {{v}}",
    "process-substitution": "@W@ @P@ <(printf '%s\\n' {{v}})",
    "command-substitution": '@W@ @P@ "$(printf %s {{v}})"',
    "file": "printf '%s\\n' {{v}} > in.txt; @W@ @P@ in.txt",
    "xargs": "printf '%s\\n' {{v}} | xargs @W@ @P@",
    "unnamed": "S=@P0@; @W@ $S @REST@ {{v}}",
}
WHOLE = {"word", "double-quoted", "dash-dash", "assign", "export", "read", "for", "function", "set",
         "command-substitution"}
# Hostile values: each names the marker it would create (MARK is replaced per template).
VALUES = [
    "$(touch MARK)", ";touch MARK", "`touch MARK`", "touch MARK", "-c touch MARK", "x\ntouch MARK\n",
    "EOF\ntouch MARK\nEOF", "a[$(touch MARK)]", "' ; touch MARK ; '",
    "import os; os.system('touch MARK')", 'BEGIN{system("touch MARK")}', "1e touch MARK",
]


def placements() -> dict[str, tuple[str, str]]:
    """template → (shape, program): every shape × program, each with launchers rotated through."""
    templates = {}
    wrappers = list(WRAPPERS)
    for s, (shape, pattern) in enumerate(SHAPES.items()):
        for p, program in enumerate(PROGRAMS):
            for k in range(2):
                wrapper = "" if k == 0 else wrappers[1 + (s * 5 + p * 3) % (len(wrappers) - 1)]
                first, _, rest = program.partition(" ")
                text = pattern.replace("@P0@", first).replace("@REST@", rest).replace("@P@", program)
                text = text.replace("@W@ ", f"{wrapper} " if wrapper else "").replace("  ", " ").strip()
                templates.setdefault(text, (shape, program))
    return templates


TEMPLATES = placements()


def test_the_grid_is_at_least_five_thousand_placements():
    assert len(TEMPLATES) * len(VALUES) >= 5000, len(TEMPLATES)


def _verdicts():
    accepted, refused = {}, {}
    for template in TEMPLATES:
        try:
            accepted[template] = render_shell(template, {"v": "placeholder"}).text
        except TemplateError as error:
            refused[template] = error.message
    return accepted, refused


ACCEPTED, REFUSED = _verdicts()


def test_refusals_are_one_line_each_naming_the_program():
    assert REFUSED and ACCEPTED
    for template, message in REFUSED.items():
        assert message.startswith("line ") and " would run as code in " in message or " is inside " in message, \
            (template, message)


@pytest.mark.parametrize("template", [
    "sh -c {{v}}", "sh -c -- {{v}}", "sh +e -c {{v}}", "stdbuf -oL sh -c {{v}}", "V={{v}}; sh -c \"$V\"",
    "cat <<EOF | sh\n{{v}}\nEOF", "bash /dev/stdin <<< {{v}}", "printf '%s\\n' {{v}} | xargs sh -c",
    "docker run --rm img sh -c {{v}}", "kubectl exec pod -- sh -c {{v}}", "uv run sh -c {{v}}",
    "busybox sh -c {{v}}", "S=sh; $S -c {{v}}", "read -r V <<< {{v}}; eval \"$V\"",
])
def test_the_findings_shapes_are_refused(template):
    with pytest.raises(TemplateError, match="would run as code in "):
        render_shell(template, {"v": "x"})


def _stubs(directory: Path) -> Path:
    directory.mkdir()
    for wrapper, drop in WRAPPERS.items():
        name = wrapper.split(" ")[0]
        if name in _STUBBED:
            stub = directory / name
            stub.write_text(f"#!/bin/sh\nshift {drop or 0}\nexec \"$@\"\n")
            stub.chmod(0o755)
    (directory / "python3").symlink_to(sys.executable)  # the interpreter itself, not a version manager's shim
    return directory


def _batch(items, work: Path, marks: Path, out: Path) -> str:
    """One bash script running every (template, value) in its own subshell, its own directory, stdin empty."""
    lines = []
    for index, (template, text) in enumerate(items):
        for number, _ in enumerate(VALUES):
            run = f"{index}-{number}"
            (work / run).mkdir()
            lines.append(f"cd {work}/{run} && (\n"
                         f"export DP_VAR_v=\"$VALUE_{index}_{number}\"\n{text}\n"
                         f") </dev/null >{out}/{run} 2>/dev/null\n")
    return "".join(lines)


def _value(value: str, marker: Path) -> str:
    return value.replace("MARK", str(marker))


@pytest.mark.parametrize("part", range(4))
def test_every_accepted_placement_runs_without_running_the_value(tmp_path, part):
    items = sorted(ACCEPTED.items())[part::4]
    stubs = _stubs(tmp_path / "bin")
    work, marks, out = tmp_path / "work", tmp_path / "marks", tmp_path / "out"
    for directory in (work, marks, out):
        directory.mkdir()
    environment = {key: value for key, value in os.environ.items() if not key.startswith("VALUE_")}
    environment["PATH"] = f"{stubs}:{environment['PATH']}"
    for index, _ in enumerate(items):
        for number, value in enumerate(VALUES):
            environment[f"VALUE_{index}_{number}"] = _value(value, marks / f"{index}-{number}")
    script = tmp_path / "batch.sh"
    script.write_text(_batch(items, work, marks, out))
    ran = subprocess.run(["bash", str(script)], env=environment, cwd=work, capture_output=True, text=True,
                         timeout=600)
    assert ran.returncode in (0, 1, 2, 127), ran.stderr[-2000:]
    made = sorted(path.name for path in marks.iterdir())
    assert made == [], [(items[int(name.split("-")[0])][0], VALUES[int(name.split("-")[1])]) for name in made]
    printed = 0
    for index, (template, _) in enumerate(items):
        shape, program = TEMPLATES[template]
        if program not in PRINTERS or shape not in WHOLE or (shape, program[:2]) == ("dash-dash", "sh"):
            continue
        for number, value in enumerate(VALUES):
            if value.startswith("-") and program == "echo":
                continue
            first = _value(value, marks / f"{index}-{number}").split("\n")[0]
            assert first in (out / f"{index}-{number}").read_text(errors="replace"), (template, value)
            printed += 1
    assert printed > 0


def test_a_sample_of_the_verdicts_is_what_dp_recipe_validate_says(dp, tmp_path):
    (tmp_path / ".git").mkdir()
    sample = sorted(ACCEPTED)[::97][:12] + sorted(REFUSED)[::211][:12]
    for number, template in enumerate(sample):
        body = "".join(f"      {line}\n" for line in template.split("\n"))
        recipe = tmp_path / f"r{number}.yaml"
        recipe.write_text(f"name: r{number}\ncontext:\n  v: ''\nsteps:\n  - id: s\n    command: |\n{body}")
        proc = dp("recipe", "validate", recipe, cwd=tmp_path)
        assert proc.returncode == (0 if template in ACCEPTED else 2), (template, proc.stderr)
        if template in REFUSED:
            assert REFUSED[template].split("\n")[0] in proc.stderr, (template, proc.stderr)
            assert json.dumps(proc.stderr).count("\\n") == 1  # one line
