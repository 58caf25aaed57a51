"""Generated: shell shapes × launchers × programs × hostile values — no template placement runs a value.

Issue 35, finding 4 (code sinks judged by structure, not by a list of
spellings), and issue 47 (a value is data only where dp can show it is: names,
arithmetic, attributes, arrays, positional parameters, descriptor paths,
option-shaped values, launchers dp does not list), with what was found from outside after it landed
(process substitutions in redirections, descriptors opened to them, arrays mapfile reads, fd -x, files a
program runs by its name, files read back into code, a -c script's $0, programs the step links or copies,
array elements). Every template below is
judged by dp's real YAML renderer (``dp.recipes.templates.render_shell``, what
``dp recipe validate``/``run`` call): a refused template is a write-time
error; an accepted one is rendered with each hostile value exactly as ``dp
recipe run`` renders it — a value a program would read as an option is
refused then — and run by bash 5.2 with the value in its environment, in a
scratch directory, with the launchers that cannot run here (docker, kubectl,
sudo, uv, npx, busybox, nix, gosu, tini …) replaced by stubs on PATH that run
their command the way the real launcher would (prlimit and cmake are the real
ones; Homebrew's gtimeout and genv are the GNU tools under those names). No run
may create the marker its value names, and the printing programs must print
the value (so the runs are not vacuous). A sample of the verdicts is checked
against the real ``dp recipe validate``.
"""

from __future__ import annotations

import json
import os
import shutil
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
    # Launchers dp does not list, judged by their words (issue 47), and Homebrew's g-prefixed GNU names.
    "prlimit --nofile=100": None, "cmake -E env A=1": None, "eatmydata": 0, "gosu nobody": 1, "tini --": 1,
    "dumb-init": 0, "cross-env A=1": 1, "gtimeout 5": None, "genv": None,
}
_STUBBED = {"sudo", "doas", "docker", "kubectl", "uv", "npx", "busybox", "strace", "chroot", "unbuffer", "nix",
            "poetry", "direnv", "eatmydata", "gosu", "tini", "dumb-init", "cross-env"}
_GNU = {"gtimeout": "timeout", "genv": "env"}
# Programs the value reaches (PRINTERS print it as data when the shape hands it over whole).
PROGRAMS = [
    "sh -c", "bash -ec", "sh +e -c", "sh -c --", "bash -o pipefail -c", "sh", "bash -s", "eval", "python3 -c",
    "python3", "awk", "sed",
    "printf '%s\\n'", "echo", "cat", "sh -c 'printf \"%s\\n\" \"$1\"' _", "grep -e", "wc -c",
    "sed 's/a/b/'", "perl -ne print",
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
    # Issue 47: names, arithmetic, attributes, arrays, positional parameters, descriptors, options.
    "indirect-name": 'V={{v}}; @W@ @P@ "${!V}"',
    "nameref-value": 'declare -n R={{v}}; @W@ @P@ "$R"',
    "nameref-later": 'declare -n R; R={{v}}; @W@ @P@ "$R"',
    "offset": 's=abcdef; n={{v}}; @W@ @P@ "${s:n}"',
    "subscript": 'a=(x y); n={{v}}; @W@ @P@ "${a[n]}"',
    "subscript-assign": 'a=(x y); n={{v}}; a[n]=z; @W@ @P@ "${a[0]}"',
    "integer": 'declare -i n={{v}}; @W@ @P@ "$n"',
    "integer-later": 'declare -i n; n={{v}}; @W@ @P@ "$n"',
    "local-integer": 'f() { local -i n="$1"; @W@ @P@ "$n"; }; f {{v}}',
    "array-attribute": 'declare -a "arr=({{v}})"; @W@ @P@ "${arr[0]}"',
    "array-declared": 'arr=(); declare arr={{v}}; @W@ @P@ "${arr[0]}"',
    "array-data": 'a=({{v}} x); @W@ @P@ "${a[0]}"',
    "array-command": 'a=(@P@ {{v}}); @W@ "${a[@]}"',
    "positional-command": 'set -- @P@ {{v}}; @W@ "$@"',
    "positional-data": 'set -- {{v}} x; @W@ @P@ "$@"',
    "test-name": 'V={{v}}; [ -v "$V" ] && @W@ @P@ x',
    "arith-test": 'n={{v}}; [[ $n -eq 1 ]] && @W@ @P@ x',
    "fd-path": "@W@ @P@ /dev/fd/3 3<<< {{v}}",
    "copied-script": "cp /dev/stdin f.sh <<< {{v}}; @W@ @P@ f.sh",
    "variable-option": "C=-c; @W@ @P@ $C {{v}}",
    "glued-option": "@W@ @P@ --{{v}}",
    "quoted-first": '@W@ @P@ "{{v}}" x',
    "compgen-words": "compgen -W {{v}} x; @W@ @P@ x",
    "compgen-command": "compgen -C {{v}} x; @W@ @P@ x",
    # Found after issue 47 landed: redirections' process substitutions, descriptors opened to them, arrays
    # mapfile reads, the search tools' -x, files programs run by their names.
    "redirect-procsub-in": "cat < <(@W@ @P@ {{v}})",
    "redirect-procsub-out": "printf '%s\\n' {{v}} > >(@W@ @P@); wait",
    "descriptor-procsub": "exec 3> >(@W@ @P@); printf '%s\\n' {{v}} >&3; exec 3>&-; wait",
    "mapfile-command": 'mapfile -t a < <(printf "%s\\n" @P@ {{v}}); @W@ "${a[@]}"',
    "mapfile-data": 'mapfile -t a <<< {{v}}; @W@ @P@ "${a[@]}"',
    "search-exec": "printf x > found.txt; @W@ fd -e txt found -x @P@ {{v}}",
    "makefile": "printf 'all:\\n\\t@%s\\n' {{v}} > Makefile; @W@ make -s; @P@ x",
    "file-read-back": "printf '%s\\n' {{v}} > f.txt; cat f.txt | @W@ @P@",
    "file-read-substitution": 'printf \'%s\\n\' {{v}} > f.txt; @W@ @P@ "$(cat f.txt)"',
    "script-zero": "@W@ @P@ '\"$0\"' {{v}}",
    "made-program": "ln -sf /bin/@P0@ p; @W@ ./p @REST@ {{v}}",
    "element-assign": 'declare -A m; m[k]={{v}}; @W@ @P@ "${m[k]}"',
}
WHOLE = {"word", "double-quoted", "dash-dash", "assign", "export", "read", "for", "function", "set",
         "command-substitution"}
# Hostile values: each names the marker it would create (MARK is replaced per template).
VALUES = [
    "$(touch MARK)", ";touch MARK", "`touch MARK`", "touch MARK", "-c touch MARK", "x\ntouch MARK\n",
    "EOF\ntouch MARK\nEOF", "a[$(touch MARK)]", "' ; touch MARK ; '",
    "import os; os.system('touch MARK')", 'BEGIN{system("touch MARK")}', "1e touch MARK",
    # option-shaped values (issue 47): read as an option where a program still parses them
    "-e1e touch MARK", "--compress-program=touch MARK", "touch MARK|", "|touch MARK",
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


def test_the_grid_is_at_least_ten_thousand_placements():
    assert len(TEMPLATES) * len(VALUES) >= 10000, len(TEMPLATES)
    new = {"indirect-name", "integer", "array-command", "positional-command", "fd-path", "variable-option",
           "redirect-procsub-out", "descriptor-procsub", "mapfile-command", "search-exec", "makefile",
           "file-read-back", "file-read-substitution", "made-program", "element-assign"}
    assert new <= {shape for shape, _ in TEMPLATES.values()}


def _verdicts():
    """(accepted template → its script, refused template → the error, (template, value) pairs refused
    when rendered with that value: a program would read it as an option)."""
    accepted, refused, at_render = {}, {}, set()
    for template in TEMPLATES:
        try:
            accepted[template] = render_shell(template, {"v": "placeholder"}).text
        except TemplateError as error:
            refused[template] = error.message
            continue
        for number, value in enumerate(VALUES):
            try:
                render_shell(template, {"v": value})
            except TemplateError as error:
                assert " would be read as an option by " in error.message or "option's name" in error.message
                at_render.add((template, number))
    return accepted, refused, at_render


ACCEPTED, REFUSED, AT_RENDER = _verdicts()


def test_refusals_are_one_line_each_naming_the_program():
    assert REFUSED and ACCEPTED and AT_RENDER
    for template, message in REFUSED.items():
        assert message.startswith("line ") and " would run as code in " in message or " is inside " in message, \
            (template, message)


@pytest.mark.parametrize("template", [
    "sh -c {{v}}", "sh -c -- {{v}}", "sh +e -c {{v}}", "stdbuf -oL sh -c {{v}}", "V={{v}}; sh -c \"$V\"",
    "cat <<EOF | sh\n{{v}}\nEOF", "bash /dev/stdin <<< {{v}}", "printf '%s\\n' {{v}} | xargs sh -c",
    "docker run --rm img sh -c {{v}}", "kubectl exec pod -- sh -c {{v}}", "uv run sh -c {{v}}",
    "busybox sh -c {{v}}", "S=sh; $S -c {{v}}", "read -r V <<< {{v}}; eval \"$V\"",
    "prlimit --nofile=100 sh -c {{v}}", "gosu nobody sh -c {{v}}", "gtimeout 5 sh -c {{v}}",
    'set -- sh -c {{v}}; "$@"', "declare -i n={{v}}", "bash /dev/fd/3 3<<< {{v}}", "C=-c; sh $C {{v}}",
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
    for name, real in _GNU.items():
        (directory / name).symlink_to(shutil.which(real))
    if shutil.which("fd") is None:  # Debian's fd is fdfind
        (directory / "fd").symlink_to(shutil.which("fdfind"))
    (directory / "python3").symlink_to(sys.executable)  # the interpreter itself, not a version manager's shim
    return directory


def _runs(items) -> list[tuple[int, int]]:
    """(template index, value number) of every run: each accepted template with each value it renders with."""
    return [(index, number) for index, (template, _) in enumerate(items) for number, _ in enumerate(VALUES)
            if (template, number) not in AT_RENDER]


def _batch(items, runs, work: Path, out: Path) -> str:
    """One bash script running the given (template, value) pairs, each in its own subshell and directory,
    stdin empty."""
    lines = []
    for index, number in runs:
        run = f"{index}-{number}"
        (work / run).mkdir()
        lines.append(f"cd {work}/{run} && (\n"
                     f"export DP_VAR_v=\"$VALUE_{index}_{number}\"\n{items[index][1]}\n"
                     f") </dev/null >{out}/{run} 2>/dev/null\n")
    return "".join(lines)


def _value(value: str, marker: Path) -> str:
    return value.replace("MARK", str(marker))


def _run_batches(items, runs, tmp_path: Path, environment: dict, work: Path, out: Path) -> None:
    """The runs, split over the machine's cores (one bash each; one in all under an xdist worker,
    whose siblings take the other cores)."""
    lanes = 1 if os.environ.get("PYTEST_XDIST_WORKER") else min(2, os.cpu_count() or 1)
    processes = []
    for lane in range(lanes):
        script = tmp_path / f"batch{lane}.sh"
        script.write_text(_batch(items, runs[lane::lanes], work, out))
        processes.append(subprocess.Popen(["bash", str(script)], env=environment, cwd=work,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True))
    for process in processes:
        _, errors = process.communicate(timeout=900)
        assert process.returncode in (0, 1, 2, 127), errors[-2000:]


PARTS = 6


@pytest.mark.parametrize("part", range(PARTS))
def test_every_accepted_placement_runs_without_running_the_value(tmp_path, part):
    items = sorted(ACCEPTED.items())[part::PARTS]
    runs = _runs(items)
    stubs = _stubs(tmp_path / "bin")
    work, marks, out = tmp_path / "work", tmp_path / "marks", tmp_path / "out"
    for directory in (work, marks, out):
        directory.mkdir()
    environment = {key: value for key, value in os.environ.items() if not key.startswith("VALUE_")}
    environment["PATH"] = f"{stubs}:{environment['PATH']}"
    for index, number in runs:
        environment[f"VALUE_{index}_{number}"] = _value(VALUES[number], marks / f"{index}-{number}")
    _run_batches(items, runs, tmp_path, environment, work, out)
    made = sorted(path.name for path in marks.iterdir())
    assert made == [], [(items[int(name.split("-")[0])][0], VALUES[int(name.split("-")[1])]) for name in made]
    printed = 0
    for index, number in runs:
        template = items[index][0]
        shape, program = TEMPLATES[template]
        value = VALUES[number]
        if program not in PRINTERS or shape not in WHOLE or (shape, program[:2]) == ("dash-dash", "sh") or (
                value.startswith("-") and program == "echo"):
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
