"""Code sinks judged by structure (dp.shell.codeflow, dp.shell.launchers, dp.shell.sinks), and the recipe
runner's own example steps judged as before."""

import json
import re
from pathlib import Path

import pytest

from dp.recipes.templates import TemplateError, render_shell
from dp.shell.placement import plan

TAG = re.compile(r"\{\{.*?\}\}")
EXAMPLES = Path(__file__).parent.parent / "integration_tests" / "data" / "recipe_runner_example_steps.json"


def programs(text: str) -> list[str]:
    return [problem.program for problem in plan(text, [m.span() for m in TAG.finditer(text)]).problems]


@pytest.mark.parametrize("text, program", [
    # options as the shells parse them
    ("sh -c -- {{v}}", "sh -c"), ("sh +e -c {{v}}", "sh -c"), ("sh -ec {{v}}", "sh -ec"),
    ("bash -o pipefail -c {{v}}", "bash -c"), ("bash -s <<< {{v}}", "bash"), ("bash /dev/stdin <<< {{v}}", "bash"),
    ("sh <(echo {{v}})", "sh"), ("python3.12 -c {{v}}", "python3 -c"), ("lua5.4 -e {{v}}", "lua -e"),
    ("fish -c {{v}}", "fish -c"), ("pwsh -c {{v}}", "pwsh"), ("Rscript -e {{v}}", "Rscript -e"),
    # a command word dp cannot name
    ("$SHELL -c {{v}}", "a program dp cannot name"), ("S=sh; $S -c {{v}}", "a program dp cannot name"),
    ('"$(which sh)" -c {{v}}', "a program dp cannot name"), ("{{x}} {{v}}", "a program dp cannot name"),
    ("echo {{v}} | $S", "a program dp cannot name"),
    # launchers
    ("stdbuf -oL sh -c {{v}}", "sh -c"), ("docker run --rm -e A=1 img sh -c {{v}}", "sh -c"),
    ("kubectl exec -it pod -- sh -c {{v}}", "sh -c"), ("uv run --with x sh -c {{v}}", "sh -c"),
    ("npx -c {{v}}", "npx -c"), ("nix-shell -p x --run {{v}}", "nix-shell --run"), ("busybox sh -c {{v}}", "sh -c"),
    ("nix develop -c sh -c {{v}}", "sh -c"), ("pnpm dlx sh -c {{v}}", "sh -c"), ("builtin eval {{v}}", "eval"),
    ("docker run {{v}} img", "a wrapper"), ("uv run {{v}}", "a wrapped command word"),
    ("docker run --weird x img bash -c {{v}}", "bash -c"),
    # variables
    ('V={{v}}; sh -c "$V"', "sh -c (through $V)"), ('read -r V <<< {{v}}; sh -c "$V"', "sh -c (through $V)"),
    ('for f in {{v}}; do eval "$f"; done', "eval (through $f)"), ('f() { sh -c "$1"; }; f {{v}}', "sh -c (through $1)"),
    ('printf -v V %s {{v}}; eval "$V"', "eval (through $V)"), ("V={{v}}; echo $((V + 1))", "arithmetic (through V)"),
    ("V={{v}}; export V; sh -c 'eval \"$V\"'", "sh -c (its script: eval (through $V))"),
    ("sh -c 'eval \"$1\"' _ {{v}}", "sh -c (its script: eval (through $1))"),
    ("V={{v}}; $V", "a program dp cannot name (through $V)"),
    ('V={{v}}; x=V; sh -c "${!x}"', "sh -c (through ${!x})"), ("V={{v}}; x=V; ${!x}", "a program dp cannot name (through ${!x})"),
    ('V={{v}}; declare -n r=V; sh -c "$r"', "sh -c (through $r)"), ("V={{v}}; local -n r=V; $r", "a program dp cannot name (through $r)"),
    ("V={{v}}; trap 'eval \"$V\"' EXIT", "trap (its script: eval (through $V))"),
    ("V={{v}}; eval 'eval \"$V\"'", "eval (its script: eval (through $V))"),
    # standard input and files
    ("cat <<EOF | sh\n{{v}}\nEOF", "sh"), ("echo {{v}} | while read l; do sh; done", "sh"),
    ("echo {{v}} | xargs sh -c", "xargs sh"), ("echo {{v}} | sh -c \"$(cat)\"", "sh -c"),
    ("printf %s {{v}} > s.sh; bash s.sh", "bash"), ("cat <<EOF > s.sh\n{{v}}\nEOF\nsource ./s.sh", "source"),
    ("echo {{v}} | sed e", "sed (its program runs its input)"),
    ("echo {{v}} | awk '{system($0)}'", "awk (its program runs its input)"),
    ("sqlite3 db.sqlite <<< {{v}}", "sqlite3"),
    # options and variables that take a program
    ("git -c alias.x=!{{v}} x", "git -c alias.x"), ("git -c core.sshCommand={{v}} fetch", "git -c core.sshCommand"),
    ("git config core.pager {{v}}", "git config core.pager"), ("git rebase -x {{v}}", "git rebase -x"),
    ("git fetch origin {{v}}", "git, read as an option"), ("sqlite3 :memory: {{v}}", "sqlite3"),
    ("rsync -e {{v}} a h:b", "rsync -e"), ("rsync -a {{v}} h:b", "rsync, read as an option"),
    ("tar -cf x.tar --checkpoint=1 --checkpoint-action=exec={{v}} .", "tar --checkpoint-action"),
    ("tar xzf a.tgz --to-command={{v}}", "tar --to-command"), ("tar -czf o.tgz {{v}}", "tar, read as an option"),
    ("GIT_SSH_COMMAND={{v}} git fetch", "GIT_SSH_COMMAND="), ("PAGER={{v}} git log", "PAGER="),
    ("export EDITOR={{v}}", "EDITOR="), ("env GIT_EDITOR={{v}} git commit", "GIT_EDITOR="),
    ("vim {{v}}", "vim, read as an option"), ("vim -c {{v}} f", "vim -c"), ("gdb -ex {{v}} prog", "gdb -ex"),
    ("make test ARGS={{v}}", "make"),
])
def test_structural_sinks(text, program):
    assert programs(text) == [program]


@pytest.mark.parametrize("text", [
    "sh -c 'echo \"$1\"' _ {{v}}", "V={{v}}; printf '%s\\n' \"$V\"", "git commit -m {{v}}",
    "git fetch origin -- {{v}}", "git -c user.name={{v}} log", "tar -czf o.tgz -- {{v}}", "rsync -a -- {{v}} dst/",
    "sqlite3 \"{{db}}\" \".tables\"", "docker run -e X={{v}} img env", "kubectl exec pod -- ls {{v}}",
    "uv run pytest -k {{v}}", "timeout {{x}} ls", "echo {{v}} | xargs rm", "echo {{v}} | sed 's/a/b/'",
    "{{x}} --version", "X=$({{cmd}} 2>&1); N=$(echo \"$X\" | grep -c ok); echo $((N + 1))", "vim -- {{v}}",
    "cargo init --name {{v}}", "V={{v}}; trap 'echo \"$V\"' EXIT",
])
def test_data_positions_pass(text):
    assert programs(text) == []


def test_the_recipe_runner_examples_are_judged_as_before():
    """amplihack-recipe-runner's own example steps: dp accepts and renders what it accepted before."""
    data = json.loads(EXAMPLES.read_text())
    for step in data["steps"]:
        names = {match.group(1) for match in re.finditer(r"\{\{\s*([\w.]+)\s*\}\}", step["command"])}
        context: dict = {}
        for name in names:
            *parents, leaf = name.split(".")
            node = context
            for parent in parents:
                node = node.setdefault(parent, {})
            node[leaf] = "value"
        if step["refused"]:
            with pytest.raises(TemplateError):
                render_shell(step["command"], context)
        else:
            assert render_shell(step["command"], context).text, step
    assert sum(step["refused"] for step in data["steps"]) == 1  # `$(( {{a}} - {{b}} ))`: arithmetic
