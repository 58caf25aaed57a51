"""Issue 47: a template value is data only where dp can show it is, checked once more when it is known.

Issue 35 judged code sinks by following each value to the programs that read
it; tried as an attacker would, 36 spellings still ran the value. Each class
below is rebuilt through both surfaces: a YAML step through the real ``dp
recipe validate`` and ``dp recipe run --set v=…``, and an alias recipe
through the real ``dp alias --recipe 'zq x' '… {{ arg(1) }} …'`` and
``pave-check`` with Claude Code's JSON (any rewrite it returns is run by real
bash). The programs are the real ones where this machine has them (bash 5.2,
sed, node, strace, perl, prlimit, cmake, timeout, env, find, xargs), and a stub
doing what the program documents where it has not (``eatmydata``, ``gosu``,
``tini``, ``dumb-init``, ``cross-env``, ``pee``, ``concurrently``,
``watchexec``, ``nodemon``; Homebrew's ``gtimeout`` … are the GNU tools under
their g-prefixed names). Every template is refused when written, or —
where only the value decides (option injection) — refused when rendered with
the hostile value and run with a harmless one. The marker directory stays empty.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sqlite3
import subprocess

import pytest

from security.repository import executable

# Stubs for the launchers this machine lacks, each doing what its documentation says.
STUBS = {
    "eatmydata": 'exec "$@"',
    "gosu": 'shift; exec "$@"',  # gosu USER COMMAND…
    "tini": '[ "$1" = -- ] && shift; exec "$@"',
    "dumb-init": 'exec "$@"',
    "cross-env": 'while case "$1" in *=*) true;; *) false;; esac; do export "$1"; shift; done; exec "$@"',
    "pee": 'input=$(cat); for c in "$@"; do printf %s "$input" | sh -c "$c"; done',  # each argument: popen(3)
    "concurrently": 'for c in "$@"; do sh -c "$c"; done',  # each argument is a command line run by a shell
    "watchexec": 'while [ "$1" != -- ] && [ $# -gt 0 ]; do shift; done; shift; sh -c "$*"',  # joined, sh -c
    "nodemon": 'while [ $# -gt 0 ]; do [ "$1" = --exec ] && exec sh -c "$2"; shift; done',
}
GNU = {"gtimeout": "timeout", "genv": "env", "gfind": "find", "gxargs": "xargs", "gsed": "sed"}
# Debian names fd fdfind; users (and recipes) write fd.
RENAMED = {"fd": "fdfind"}

# (template, hostile value): MARK is the marker's path.
VARIABLE_AS_OPTION = [("C=-c; sh $C {{v}}", "touch MARK")]
ARITHMETIC_OR_NAME = [
    ("declare -i n={{v}}; echo $n", "a[$(touch MARK)]"),
    ("declare -i n; n={{v}}", "a[$(touch MARK)]"),
    ("f() { local -i n={{v}}; }; f", "a[$(touch MARK)]"),
    ('declare -n r={{v}}; echo "$r"', "a[$(touch MARK)]"),
    ('f() { local -n r={{v}}; echo "$r"; }; f', "a[$(touch MARK)]"),
    ('typeset -n r={{v}}; echo "$r"', "a[$(touch MARK)]"),
    ('V={{v}}; echo "${!V}"', "a[$(touch MARK)]"),
    ('s=abc; n={{v}}; echo "${s:n}"', "a[$(touch MARK)]"),
    ('a=(1 2); n={{v}}; echo "${a[n]}"', "a[$(touch MARK)]"),
    ('declare -a "arr=({{v}})"', "$(touch MARK)"),
    ("compgen -W {{v}} x", "$(touch MARK)"),
    ("compgen -C {{v}} x", "touch MARK"),
]
POSITIONAL_OR_ARRAY = [
    ('set -- sh -c {{v}}; "$@"', "touch MARK"),
    ('args=(sh -c {{v}}); "${args[@]}"', "touch MARK"),
]
FILE_OR_DESCRIPTOR = [
    ("cp /dev/stdin f.sh <<< {{v}}; sh f.sh", "touch MARK"),
    ("bash /dev/fd/3 3<<< {{v}}", "touch MARK"),
]
UNLISTED_LAUNCHERS = [
    ("prlimit --nofile=100 sh -c {{v}}", "touch MARK"),
    ("cmake -E env A=1 sh -c {{v}}", "touch MARK"),
    ("eatmydata sh -c {{v}}", "touch MARK"),
    ("gosu nobody sh -c {{v}}", "touch MARK"),
    ("tini -- sh -c {{v}}", "touch MARK"),
    ("dumb-init sh -c {{v}}", "touch MARK"),
    ("cross-env A=1 sh -c {{v}}", "touch MARK"),
    ("echo x | pee {{v}}", "touch MARK"),
    ("concurrently {{v}}", "touch MARK"),
    ("watchexec -- {{v}}", "touch MARK"),
    ("nodemon --exec {{v}}", "touch MARK"),
    ("strace -f -o {{v}} true", "|touch MARK"),
    ("perl -ne print {{v}}", "touch MARK|"),
]
GNU_PREFIXED = [
    ("gtimeout 5 sh -c {{v}}", "touch MARK"),
    ("genv -S {{v}}", "touch MARK"),
    ("gfind . -maxdepth 0 -exec sh -c {{v}} \\;", "touch MARK"),
    ("printf 'x\\n' | gxargs sh -c {{v}}", "touch MARK"),
    ("gsed {{v}} data.txt", "1e touch MARK"),
]
# Found from outside after issue 47 landed (each runs the value with real bash and the real program; the
# control below shows it does, without dp).
PROCESS_SUBSTITUTIONS = [  # a command in a redirection's <( ) or >( ), or a descriptor opened to one
    ("cat < <(sh -c {{v}})", "touch MARK"),
    ("while read -r l; do :; done < <(sh -c {{v}})", "touch MARK"),
    ("echo hi > >(sh -c {{v}}); wait", "touch MARK"),
    ("echo {{v}} > >(sh); sleep 1", "touch MARK"),
    ("exec 3> >(sh); echo {{v}} >&3; exec 3>&-; sleep 1", "touch MARK"),
    ('coproc sh; echo {{v}} >&"${COPROC[1]}"; sleep 1', "touch MARK"),
]
ARRAY_READ_FROM_THE_VALUE = [  # mapfile -t: -t takes no value, the word after it is the array (one line each)
    ('mapfile -t a <<< {{v}}; "${a[@]}"', "touch\nMARK"),
    ('readarray -t a < <(printf "%s\\n" {{v}}); "${a[@]}"', "touch\nMARK"),
]
SEARCH_TOOLS_THAT_RUN = [  # the tools dp paves grep and find to
    ("fd -x sh -c {{v}}", "touch MARK"),
    ("fd -e txt -X sh -c {{v}} x", "touch MARK"),
    ("rg --pre {{v}} abc data.txt", "HOSTILE"),  # rg runs the program it names (no shell) on each file
]
SCRIPT_ZERO_AND_FILES_READ_BACK = [  # a -c script's $0; a file written from the value, read back into code
    ("sh -c '$0' {{v}}", "touch MARK"),
    ("bash -c 'eval \"$0\"' {{v}}", "touch MARK"),
    ("printf '%s\\n' {{v}} > f.txt; cat f.txt | sh", "touch MARK"),
    ('printf \'%s\\n\' {{v}} > f.txt; bash -c "$(cat f.txt)"', "touch MARK"),
    ('printf \'%s\\n\' {{v}} > f.txt; x=$(< f.txt); sh -c "$x"', "touch MARK"),
]
PROGRAMS_THE_STEP_NAMES_ITSELF = [  # a shell under a name the step made; an array element's assignment
    ("ln -s /bin/sh x; ./x -c {{v}}", "touch MARK"),
    ('cp "$(command -v bash)" ./b; ./b -c {{v}}', "touch MARK"),
    ("shopt -s expand_aliases\nalias s=sh\ns -c {{v}}", "touch MARK"),
    ('declare -A m; m[k]={{v}}; sh -c "${m[k]}"', "touch MARK"),
]
STDIN_INTO_SOURCE_OR_A_SCRIPT = [  # source reading stdin; a -c script's own reads of its shell's input
    ("source /dev/stdin <<< {{v}}", "touch MARK"),
    ("printf '%s\\n' {{v}} | bash -c 'source /dev/stdin'", "touch MARK"),
    ("sh -c 'read -r l; eval \"$l\"' <<< {{v}}", "touch MARK"),
    ('x={{v}}; {e,}val "$x"', "; touch MARK"),  # brace expansion in the command word: eval
]
PROGRAM_TEXT_THAT_RUNS_WHAT_IT_IS_GIVEN = [  # fixed code that runs its arguments, variables or environment
    ("awk -v x={{v}} 'BEGIN { system(x) }'", "touch MARK"),
    ("python3 -c 'import os, sys; os.system(sys.argv[1])' {{v}}", "touch MARK"),
    ("export V={{v}}; perl -e 'system($ENV{V})'", "touch MARK"),
    ("node -e 'require(\"child_process\").execSync(process.argv[1])' {{v}}", "touch MARK"),
]
FILES_RUN_BY_CONVENTION = [  # written from the value, then a program runs them by name, now or later
    ("printf 'all:\\n\\t%s\\n' {{v}} > Makefile; make -s", "touch MARK"),
    ("printf '%s\\n' {{v}} > package.json; npm test --silent", '{"scripts": {"test": "touch MARK"}}'),
    ("printf '%s\\n' {{v}} > pkg.tmp && mv pkg.tmp package.json && npm test --silent",
     '{"scripts": {"test": "touch MARK"}}'),
    ("printf '%s\\n' {{v}} >> ~/.bashrc; bash -i -c true", "touch MARK"),
    ("printf '%s\\n' '#!/bin/sh' {{v}} > .git/hooks/pre-commit", "touch MARK"),
]
A_PROGRAM_THE_VALUE_NAMES = [  # the value is the program (or its shell's stdin, or text pasted into one)
    ("go run {{v}}", "touch MARK"),
    ("java -jar {{v}}", "touch MARK"),
    ("xterm -e {{v}}", "touch MARK"),
    ("newgrp <<< {{v}}", "touch MARK"),
    ("just build {{v}}", "touch MARK"),
    ("printf '%s\\n' {{v}} | script -q /dev/null", "touch MARK"),  # script starts a shell reading its input
    ("printf '%s\\n' {{v}} | sudo -s", "touch MARK"),  # so do sudo -s and -i with no command
]
# Refused only when the value is known: it starts with -, where the program reads options.
OPTION_INJECTION = [
    ("sed 's/a/b/' {{v}} data.txt", "-e1e touch MARK", "data.txt"),
    ("node -e 'console.log(1)' {{v}}", "--eval=require('fs').writeFileSync('MARK','')", "harmless"),
    ("grep -c a {{v}}", "--exclude-from=x", "data.txt"),
]


@pytest.fixture
def project(tmp_path):
    path = tmp_path / "project"
    (path / ".git").mkdir(parents=True)
    (path / "node_modules" / ".bin").mkdir(parents=True)
    (path / "data.txt").write_text("abc\n")
    (path / "build").mkdir()
    (path / "build" / "out.bin").write_bytes(b"\x00\x01\xff")
    return path


@pytest.fixture
def programs(tmp_path, home):
    """PATH with the stubs and the g-prefixed GNU names ahead of the machine's own programs; the test's HOME
    (a hostile value that reached ~/.bashrc would land there)."""
    stubs = tmp_path / "stubs"
    for name, body in STUBS.items():
        if shutil.which(name) is None:
            executable(stubs / name, f"#!/bin/sh\n{body}\n")
    for name, real in {**GNU, **RENAMED}.items():
        stubs.mkdir(exist_ok=True)
        if shutil.which(name) is None:
            (stubs / name).symlink_to(shutil.which(real))
    return {"PATH": f"{stubs}:{os.environ['PATH']}", "HOME": str(home)}


def _recipe(project, template: str):
    body = "".join(f"      {line}\n" for line in template.split("\n"))
    recipe = project / "issue47.yaml"
    recipe.write_text(f"name: issue47\ncontext:\n  v: ''\nsteps:\n  - id: use-value\n    command: |\n{body}")
    return recipe


def _hostile(value: str, markers) -> str:
    """The value with the marker's path; HOSTILE: a program that records that it ran (one the agent wrote)."""
    if "HOSTILE" in value:
        program = executable(markers.path.parent / "hostile", f"#!/bin/sh\n{markers.touch('ran')}\n")
        value = value.replace("HOSTILE", str(program))
    return value.replace("MARK", str(markers.path / "ran"))


def _refused_in_a_recipe(dp, project, markers, programs, template: str, value: str) -> None:
    recipe = _recipe(project, template)
    validate = dp("recipe", "validate", recipe, cwd=project)
    assert validate.returncode == 2, (template, validate.stdout)
    assert "{{v}} " in validate.stderr and validate.stderr.count("\n") == 1 and "Traceback" not in validate.stderr
    run = dp("recipe", "run", recipe, "--set", f"v={_hostile(value, markers)}", cwd=project, extra_env=programs)
    assert run.returncode == 2 and "{{v}} " in run.stderr, run.stderr
    markers.assert_none(template)


def _refused_in_an_alias(dp, pave_check, db_path, project, markers, programs, template: str, value: str) -> None:
    """Refused when written; a store holding it anyway (an older dp wrote it) is never rendered."""
    script = template.replace("{{v}}", "{{ arg(1) }}")
    refused = dp("alias", "--recipe", "zq x", script)
    assert refused.returncode != 0 and "recipe template for 'zq x' is refused: line " in refused.stderr, script
    assert dp("alias", "--recipe", "zq x", "echo {{ arg(1) }}").returncode == 0
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE aliases_v3 SET to_name = ? WHERE from_name = 'zq x'", (script,))
    assert _hook(pave_check, project, programs, value, markers) is None
    markers.assert_none(script)


def _hook(pave_check, project, programs, value: str, markers):
    """What the hook makes of ``zq x VALUE``: the rewritten command, run by bash; None when it leaves it alone."""
    command = f"zq x {shlex.quote(_hostile(value, markers))}"
    proc = pave_check({"tool_name": "Bash", "tool_input": {"command": command}, "cwd": str(project)})
    assert proc.returncode == 0, proc.stderr
    if not proc.stdout:
        return None
    rewritten = json.loads(proc.stdout)["hookSpecificOutput"]["updatedInput"]["command"]
    return subprocess.run(["bash", "-c", rewritten], cwd=project, capture_output=True, text=True, timeout=60,
                          env={**os.environ, **programs}, stdin=subprocess.DEVNULL)


def _both_surfaces_refuse(dp, pave_check, db_path, project, markers, programs, template, value):
    _refused_in_a_recipe(dp, project, markers, programs, template, value)
    _refused_in_an_alias(dp, pave_check, db_path, project, markers, programs, template, value)


def _runs_without_dp(project, markers, programs, template: str, value: str) -> None:
    """The control: the template run by bash as it stands, the value quoted where the placeholder is
    (what rendering gives it), runs the value: the class is a real way to run code on this machine."""
    script = template.replace("{{v}}", '"$DP_VALUE"')
    subprocess.run(["bash", "-c", script], cwd=project, capture_output=True, timeout=60, stdin=subprocess.DEVNULL,
                   env={**os.environ, **programs, "DP_VALUE": _hostile(value, markers)})
    assert markers.found(), f"the control did not run the value: {template}"
    for entry in [*markers.path.iterdir(), project / "Makefile", project / "package.json"]:
        entry.unlink(missing_ok=True)


def _ids(cases):
    return [case[0].split("\n")[0][:40] for case in cases]


@pytest.mark.parametrize("template, value", VARIABLE_AS_OPTION, ids=_ids(VARIABLE_AS_OPTION))
def test_a_variable_used_as_an_option(dp, pave_check, db_path, project, markers, programs, template, value):
    _both_surfaces_refuse(dp, pave_check, db_path, project, markers, programs, template, value)


@pytest.mark.parametrize("template, value", ARITHMETIC_OR_NAME, ids=_ids(ARITHMETIC_OR_NAME))
def test_bash_evaluates_the_value_as_arithmetic_or_a_name(dp, pave_check, db_path, project, markers, programs,
                                                          template, value):
    _both_surfaces_refuse(dp, pave_check, db_path, project, markers, programs, template, value)


@pytest.mark.parametrize("template, value", POSITIONAL_OR_ARRAY, ids=_ids(POSITIONAL_OR_ARRAY))
def test_the_program_comes_back_through_positional_parameters_or_an_array(
        dp, pave_check, db_path, project, markers, programs, template, value):
    _both_surfaces_refuse(dp, pave_check, db_path, project, markers, programs, template, value)


@pytest.mark.parametrize("template, value", FILE_OR_DESCRIPTOR, ids=_ids(FILE_OR_DESCRIPTOR))
def test_a_file_written_by_a_program_then_run_and_other_descriptors_as_stdin(
        dp, pave_check, db_path, project, markers, programs, template, value):
    _both_surfaces_refuse(dp, pave_check, db_path, project, markers, programs, template, value)


@pytest.mark.parametrize("template, value", UNLISTED_LAUNCHERS, ids=_ids(UNLISTED_LAUNCHERS))
def test_launchers_and_program_options_dp_does_not_list(dp, pave_check, db_path, project, markers, programs,
                                                        template, value):
    _both_surfaces_refuse(dp, pave_check, db_path, project, markers, programs, template, value)


@pytest.mark.parametrize("template, value", GNU_PREFIXED, ids=_ids(GNU_PREFIXED))
def test_homebrew_g_prefixed_gnu_names_are_the_gnu_tools(dp, pave_check, db_path, project, markers, programs,
                                                         template, value):
    _both_surfaces_refuse(dp, pave_check, db_path, project, markers, programs, template, value)


@pytest.mark.parametrize("template, value, harmless", OPTION_INJECTION, ids=_ids(OPTION_INJECTION))
def test_option_injection_after_the_point_dp_stops_reading_options(
        dp, pave_check, db_path, project, markers, programs, template, value, harmless):
    """Accepted when written; a value starting with - is refused when rendered, naming the fix."""
    recipe = _recipe(project, template)
    assert dp("recipe", "validate", recipe, cwd=project).returncode == 0
    run = dp("recipe", "run", recipe, "--json", "--set", f"v={_hostile(value, markers)}", cwd=project,
             extra_env=programs)
    [step] = json.loads(run.stdout)["steps"]
    assert run.returncode != 0 and step["status"] == "failed" and step["output"] is None, run.stdout
    assert step["error"].startswith("step 'use-value': line 1: {{v}} would be read as an option by ")
    assert "put -- before it" in step["error"] and "\n" not in step["error"]
    fine = dp("recipe", "run", recipe, "--json", "--set", f"v={harmless}", cwd=project, extra_env=programs)
    [step] = json.loads(fine.stdout)["steps"]
    assert "would be read as an option" not in (step["error"] or ""), step  # the real program ran
    script = template.replace("{{v}}", "{{ arg(1) }}")
    assert dp("alias", "--recipe", "zq x", script).returncode == 0
    assert _hook(pave_check, project, programs, value, markers) is None  # the rule is skipped: nothing runs
    ran = _hook(pave_check, project, programs, harmless, markers)
    assert ran is not None and "would be read" not in ran.stderr  # the same alias, a harmless value: rewritten
    markers.assert_none(template)


def test_the_safe_spellings_the_errors_name_run_the_value_as_data(dp, project, markers):
    """Quoted, after --, ./ before a file name, a plain assignment: each prints the hostile value."""
    value = f"-e1e touch {markers.path / 'ran'}; a[$(touch {markers.path / 'ran2'})]"
    recipe = project / "safe.yaml"
    recipe.write_text("name: safe\ncontext:\n  v: ''\nsteps:\n"
                      "  - id: quoted\n    command: V={{v}}; printf '%s\\n' \"$V\"\n"
                      "  - id: dashdash\n    command: printf '%s\\n' {{v}} > in.txt; cat -- in.txt\n"
                      "  - id: plain\n    command: n={{v}}; printf '%s\\n' \"${n}\"\n"
                      "  - id: sed\n    command: printf '%s\\n' {{v}} | sed 's/x/y/' -- -\n")
    assert dp("recipe", "validate", recipe, cwd=project).returncode == 0
    proc = dp("recipe", "run", recipe, "--json", "--set", f"v={value}", cwd=project)
    assert proc.returncode == 0, proc.stderr
    outputs = {step["id"]: step["output"] for step in json.loads(proc.stdout)["steps"]}
    assert set(outputs.values()) == {value}
    markers.assert_none("the safe spellings")


# Each class that a shell runs with its own programs: (class, template, value).
SHELL_CLASSES = [(name, *case) for name, cases in (
    ("process-substitution-or-descriptor", PROCESS_SUBSTITUTIONS), ("array-read-from-the-value",
                                                                     ARRAY_READ_FROM_THE_VALUE),
    ("search-tool-exec-or-pre", SEARCH_TOOLS_THAT_RUN), ("script-zero-or-file-read-back",
                                                         SCRIPT_ZERO_AND_FILES_READ_BACK),
    ("program-text-runs-what-it-is-given", PROGRAM_TEXT_THAT_RUNS_WHAT_IT_IS_GIVEN),
    ("program-the-step-names-itself", PROGRAMS_THE_STEP_NAMES_ITSELF),
    ("stdin-into-source-or-a-script", STDIN_INTO_SOURCE_OR_A_SCRIPT)) for case in cases]


@pytest.mark.parametrize("kind, template, value", SHELL_CLASSES,
                         ids=[f"{kind}:{template.split(chr(10))[0][:36]}" for kind, template, _ in SHELL_CLASSES])
def test_process_substitutions_descriptors_arrays_search_tools_zero_files_and_program_text(
        dp, pave_check, db_path, project, markers, programs, kind, template, value):
    """A command in a redirection's process substitution, a descriptor opened to one or a coprocess's, an
    array mapfile read from the value run as the command, fd -x and rg --pre, a -c script's $0, a file
    written from the value read back into code, program text that runs what it is given, a shell the step
    names itself (ln, cp, alias) and an array element given the value: each runs the value without dp (the
    control), and is refused through both surfaces."""
    _runs_without_dp(project, markers, programs, template, value)
    _both_surfaces_refuse(dp, pave_check, db_path, project, markers, programs, template, value)


@pytest.mark.parametrize("template, value", FILES_RUN_BY_CONVENTION, ids=_ids(FILES_RUN_BY_CONVENTION))
def test_a_file_a_program_runs_by_its_name_written_from_the_value(
        dp, pave_check, db_path, project, markers, programs, template, value):
    """make's Makefile, npm's package.json, bash's ~/.bashrc (the control runs them); git's hooks are refused
    when written, whatever runs next."""
    if "hooks" not in template:
        _runs_without_dp(project, markers, programs, template, value)
    _both_surfaces_refuse(dp, pave_check, db_path, project, markers, programs, template, value)
    assert not (project / "Makefile").exists() and not (project / "package.json").exists()


@pytest.mark.parametrize("template, value", A_PROGRAM_THE_VALUE_NAMES, ids=_ids(A_PROGRAM_THE_VALUE_NAMES))
def test_a_program_the_value_names_or_pastes_into_its_shell(
        dp, pave_check, db_path, project, markers, programs, template, value):
    _both_surfaces_refuse(dp, pave_check, db_path, project, markers, programs, template, value)


def test_writing_a_value_where_nothing_runs_it_is_still_data(dp, project, markers, programs):
    """The same shapes where the value stays data (a file only read, a descriptor opened to a file, program
    text that only prints its argument, a -c script that prints $0): each prints the hostile value."""
    value = f"$(touch {markers.path / 'ran'}); touch {markers.path / 'ran2'}"
    recipe = project / "data.yaml"
    recipe.write_text("name: data\ncontext:\n  v: ''\nsteps:\n"
                      "  - id: notes\n    command: printf '%s\\n' {{v}} > notes.txt; make -s -f build.mk; cat notes.txt\n"
                      "  - id: descriptor\n    command: exec 3>out.txt; printf '%s\\n' {{v}} >&3; exec 3>&-; cat out.txt\n"
                      "  - id: stderr\n    command: printf '%s\\n' {{v}} >&2 2>&1\n"
                      "  - id: search\n    command: printf '%s\\n' {{v}} > found.txt; fd -e txt found -x cat\n"
                      "  - id: argv\n    command: python3 -c 'import sys; print(sys.argv[1])' {{v}}\n"
                      "  - id: zero\n    command: sh -c 'printf \"%s\\n\" \"$0\"' {{v}}\n"
                      "  - id: read-back\n    command: printf '%s\\n' {{v}} > f.txt; x=$(< f.txt); printf '%s\\n' \"$x\"\n"
                      "  - id: copied\n    command: ln -s /usr/bin/printf p; ./p '%s\\n' {{v}}\n")
    (project / "build.mk").write_text("all:\n\t@true\n")
    assert dp("recipe", "validate", recipe, cwd=project).returncode == 0
    proc = dp("recipe", "run", recipe, "--json", "--set", f"v={value}", cwd=project, extra_env=programs)
    assert proc.returncode == 0, proc.stderr
    outputs = [step["output"].strip() for step in json.loads(proc.stdout)["steps"]]
    assert outputs == [value] * 8, outputs
    markers.assert_none("data written to files")
