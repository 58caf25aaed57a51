"""Bash's data positions (dp.shell.positions), unknown launchers and g-prefixed names (dp.shell.programflow,
dp.shell.launchers), and where a program reads options (dp.shell.options, dp.shell.optioncheck)."""

import re

import pytest

from dp.recipes.templates import TemplateError, render_shell
from dp.shell.optioncheck import INSIDE, START, option_problem
from dp.shell.placement import plan
from dp.shell.positions import DATA_BUILTINS, unclassified_builtins
from dp.shell.programs import BUILTINS

TAG = re.compile(r"\{\{.*?\}\}")


def judged(text: str):
    return plan(text, [m.span() for m in TAG.finditer(text)])


def refused(text: str) -> list[str]:
    return [problem.program for problem in judged(text).problems]


def test_every_builtin_is_classified():
    """The allowlist is total: each builtin is a data position, a sink or a launcher; none is guessed."""
    assert unclassified_builtins() == set()
    assert DATA_BUILTINS <= BUILTINS


@pytest.mark.parametrize("text, program", [
    ("V={{v}}; ls $V", "ls (through $V)"),
    ("V={{v}}; for x in $V; do :; done", "for (through $V)"), ("V={{v}}; a=($V)", "an array (through $V)"),
    ("V={{v}}; ls ${V}x", "ls (through $V)"),
    ("C=-c; sh $C {{v}}", "sh"),
    ('set -- sh -c {{v}}; "$@"', "the command word (through $@)"),
    ('a=(sh -c {{v}}); "${a[@]}"', "the command word (through $a)"),
    ("declare -i n={{v}}", "declare -i n"),
    ("declare -i n; n={{v}}", "declare -i n"),
    ("f() { local -i n=\"$1\"; }; f {{v}}", "local -i n (through $1)"),
    ("declare -n r; r={{v}}", "declare -n r"),
    ('declare -a "a=({{v}})"', "declare -a a"),
    ("a=(); declare a={{v}}", "declare -a a"),
    ('V={{v}}; echo "${!V}"', "a variable's name (${!…})"),
    ('n={{v}}; echo "${s:n}"', "arithmetic (through n)"),
    ('n={{v}}; echo "${s:0:$n}"', "arithmetic (through $n)"),
    ('n={{v}}; echo "${a[n]}"', "arithmetic (through n)"),
    ("n={{v}}; a[n]=1", "arithmetic (through n)"),
    ("compgen -W {{v}} x", "compgen"), ("bind -x {{v}}", "bind"), ("alias x={{v}}", "alias"),
    ("enable -f {{v}} x", "enable"), ("hash -p {{v}} ls", "hash"), ("wait -p {{v}}", "wait -p"),
    ("cp /dev/stdin f.sh <<< {{v}}; sh f.sh", "sh"), ("printf %s {{v}} > x.sh; ./x.sh", "./x.sh"),
    ("bash /dev/fd/3 3<<< {{v}}", "bash"), ("sh /proc/self/fd/4 4< <(echo {{v}})", "sh"),
    ("prlimit --nofile=100 sh -c {{v}}", "sh -c"), ("cmake -E env A=1 sh -c {{v}}", "sh -c"),
    ("ip netns exec ns1 sh -c {{v}}", "sh -c"), ("op run -- python3 -c {{v}}", "python3 -c"),
    ("tini -- sh -c {{v}}", "sh -c"), ("gosu u sh -c {{v}}", "sh -c"), ("cross-env A=1 bash -c {{v}}", "bash -c"),
    ("pee {{v}}", "pee"), ("concurrently 'npm start' {{v}}", "concurrently"), ("watchexec -e py -- pytest {{v}}",
                                                                                  "watchexec"),
    ("nodemon --exec {{v}}", "nodemon --exec"), ("strace -o {{v}} true", "strace -o"),
    ("perl -ne 'print' {{v}}", "perl (a file it opens)"), ("perl -pi -e 's/a/b/' {{v}}", "perl (a file it opens)"),
    ("sort --compress-program={{v}} f", "sort --compress-program"), ("split --filter={{v}} f", "split --filter"),
    ("gtimeout 5 sh -c {{v}}", "sh -c"), ("genv -S {{v}}", "a wrapper"), ("gsed {{v}} f", "sed"),
    ("gfind . -exec sh -c {{v}} \\;", "sh -c"), ("echo x | gxargs sh -c {{v}}", "sh -c"),
])
def test_refused_outside_bashs_data_positions(text, program):
    assert refused(text) == [program]


@pytest.mark.parametrize("text", [
    'V={{v}}; printf "%s\\n" "$V" "x${V}y" "${V:-d}" "${#V}" "${V@Q}"', "V={{v}}; W=$V; echo \"$W\"",
    'f() { local x=$1; echo "$x"; }; f {{v}}', "V={{v}}; cat > \"$V\"; cat < $V", 'a=({{v}} x); printf %s "${a[@]}"',
    'set -- {{v}} x; printf %s "$@"', 'V={{v}}; N=V; echo "${!N}"', "V={{v}}; [[ $V == x* ]] && echo",
    "V={{v}}; case $V in a) echo;; esac", "declare -x V={{v}}; local W={{v}}", "declare -r V={{v}}",
    "grep -e sh -- {{v}}", "git log --grep sh {{v}}", "grep -r python {{v}}", "cargo build --{{mode}}",
    "mytool --name {{v}} --exec-path /bin", "gzip -- {{v}}", "git commit -m {{v}}", "sh -c 'echo \"$1\"' _ {{v}}",
    "python3 -- script.py {{v}}", "find . -name {{v}} -print", "head -n {{n}} f",
])
def test_data_positions_pass(text):
    assert judged(text).problems == []


@pytest.mark.parametrize("text, where", [
    ("sed 's/a/b/' {{v}} file", "sed"), ("node -e 'console.log(1)' {{v}}", "node"), ("grep {{v}} f", "grep"),
    ("cat {{v}}", "cat"), ("git diff {{v}} -- .", "git"), ("cd {{v}}", "cd"), ("V={{v}}; rm \"$V\"", "rm"),
    ("BACKUP={{v}}/x; cp a \"$BACKUP\"", "cp"), ("timeout {{d}} ls", "timeout"), ("printf %s {{v}} | xargs rm {{w}}", "rm"),
])
def test_values_a_program_may_read_as_options_are_checked_when_known(text, where):
    options = judged(text).options
    assert options and {program for program, _ in options.values()} == {where}
    assert set(kind for _, kind in options.values()) == {START}


@pytest.mark.parametrize("text", [
    "echo {{v}}", "printf '%s\\n' {{v}}", "sh -c 'echo \"$1\"' _ {{v}}", "python3 -c 'import sys' {{v}}",
    "cat -- {{v}}", "cat ./{{v}}", "git commit -m {{v}}", "grep -e {{v}} f", "find . -name {{v}}",
    "[ -f {{v}} ]", "cat > {{v}}", "X={{v}} make", "python3 script.py {{v}}", "node script.js {{v}}",
    "f() { :; }; f {{v}}",
])
def test_places_no_program_reads_as_an_option(text):
    assert judged(text).options == {}


@pytest.mark.parametrize("text, kind", [
    ('read -r a b <<< {{v}}; rm "$b"', "split"), ('for x in {{v}}; do rm "$x"; done', "split"),
    ('V={{v}}; rm "${V#*x}"', "cut"), ('V={{v}}; rm "${V:2}"', "cut"), ('V={{v}}; rm "${V/a/b}"', "cut"),
    ('V={{v}}; rm "${V%x}"', "start"), ('V={{v}}; rm "${V:-x}"', "start"),
])
def test_a_piece_of_a_value_is_checked_for_a_dash_where_a_piece_may_start(text, kind):
    assert [kind for _, kind in judged(text).options.values()] == [kind]


def test_the_check_when_the_value_is_known():
    check = ("sed", START)
    assert option_problem("{{v}}", 1, check, "data.txt") is None and option_problem("{{v}}", 1, check, "-") is None
    message = option_problem("{{v}}", 3, check, "-e1e touch x")
    assert message == ("line 3: {{v}} would be read as an option by sed: its value '-e1e touch x' starts with -; "
                       "put -- before it (sed … -- {{v}}), or ./ in front of a file name")
    assert "known only when it runs" in option_problem("{{v}}", 1, check, None)
    assert option_problem("{{v}}", 1, ("rm", "split"), "my-branch") is None
    assert "a piece of its value" in option_problem("{{v}}", 1, ("rm", "split"), "a -rf")
    assert "a piece of its value" in option_problem("{{v}}", 1, ("rm", "cut"), "my-branch")
    assert option_problem("{{m}}", 1, ("cargo", INSIDE), "release") is None
    assert "not a plain name" in option_problem("{{m}}", 1, ("cargo", INSIDE), "config=x")


def test_yaml_steps_refuse_an_option_value_when_rendered_and_only_then():
    template = "sed 's/a/b/' {{v}} data.txt"
    assert render_shell(template, None).text  # written: accepted
    assert render_shell(template, {"v": "data.txt"}).env == {"DP_VAR_v": "data.txt"}
    with pytest.raises(TemplateError, match=r"^line 1: \{\{v\}\} would be read as an option by sed"):
        render_shell(template, {"v": "-e1e touch x"})
    assert render_shell(template, {"v": "-e1e touch x"}, code_allowed=True).text  # the author's opt-in
