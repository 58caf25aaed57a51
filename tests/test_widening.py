"""The one list of dp's commands by what they do to later calls (dp.widening), held against the typer app.

A command added to the app and not to ``dp.widening.COMMANDS`` fails here, and so does an option
that takes a value the list does not know (it would read the option's value as a word of its own);
whether a command classified as only reading really changes nothing is
integration_tests/security/test_the_agent_cannot_trust_a_repository_itself.py's.
"""

from __future__ import annotations

import pytest
import typer

from dp import widening
from dp.cli.app import build_app
from dp.widening import ACTS, COMMANDS, LEARNS, NARROWS, READS, UNKNOWN, WIDENS, Group, classify, in_command


def _app_commands() -> dict:
    """path → (options that take a value, flags, argument names), from the typer app dp runs."""
    found = {}

    def walk(command, path):
        values, flags = set(), set()
        for param in command.params:
            if type(param).__name__.endswith("Option"):
                names = set(param.opts) | set(param.secondary_opts)
                (flags if param.is_flag or param.count else values).update(names)
        arguments = {param.name for param in command.params if type(param).__name__.endswith("Argument")}
        found[path] = (values, flags, arguments)
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, (*path, name))

    walk(typer.main.get_command(build_app()), ())
    return found


def _listed() -> dict:
    """path → Command, from dp.widening."""
    listed = {}
    for name, entry in COMMANDS.items():
        if isinstance(entry, Group):
            listed[(name,)] = entry.own
            listed.update({(name, sub): command for sub, command in entry.commands.items()})
        else:
            listed[(name,)] = entry
    return listed


APP = _app_commands()
LISTED = _listed()


def test_every_command_of_the_app_is_on_the_list_and_nothing_else():
    assert set(APP) - {()} == set(LISTED)


@pytest.mark.parametrize("path", sorted(LISTED), ids=" ".join)
def test_the_list_knows_every_option_of_the_command_that_takes_a_value(path):
    values, _, _ = APP[path]
    assert LISTED[path].values == values


@pytest.mark.parametrize("path", sorted(LISTED), ids=" ".join)
def test_the_list_names_every_flag_of_the_command_so_a_new_one_is_classified_when_added(path):
    _, flags, _ = APP[path]
    command = LISTED[path]
    if command.flags is widening.ANY:
        return
    marked = {word for word in command.marks if word.startswith("-") and word not in command.values}
    assert command.flags | marked | command.dry == flags - {"--help", "-h"}


@pytest.mark.parametrize("path", sorted(LISTED), ids=" ".join)
def test_each_word_that_changes_a_command_line_is_an_option_of_it(path):
    values, flags, arguments = APP[path]
    command = LISTED[path]
    for word in command.marks:
        assert word in values | flags if word.startswith("-") else arguments, word
    assert command.dry <= flags, command.dry - flags


def test_the_global_options_are_the_apps():
    values, flags, _ = APP[()]
    assert values == widening.SHARED_VALUES and {"--version"} <= flags


def test_the_hook_looks_for_the_word_every_name_of_dp_holds():
    import dp.hook

    assert dp.hook._MENTION == widening.MENTION
    assert all(widening.MENTION in name for name in (*widening.NAMES, *widening.CLI_MODULES))


@pytest.mark.parametrize("argv, kind", [
    (["trust"], WIDENS), (["trust", "--show"], READS), (["trust", "--dry-run"], READS), (["trust", "-h"], READS),
    (["--db", "x.db", "trust"], WIDENS), (["-q", "-C", "/repo", "trust"], WIDENS), (["-C/repo", "trust"], WIDENS),
    (["untrust"], NARROWS),
    (["alias", "--cmd", "git", "--replace", "x"], WIDENS), (["alias", "--recipe", "gt x", "gt y"], WIDENS),
    (["alias", "read_file", "Read"], WIDENS), (["alias", "--project", "read_file", "Read"], WIDENS),
    (["alias", "--delete", "read_file"], NARROWS), (["alias", "--cmd", "git", "--replace", "x", "--dry-run"], READS),
    (["alias", "--cmd", "git", "--replace", "x", "--shadow"], LEARNS), (["suggest", "--apply", "s1", "--shadow"], WIDENS),
    # an option's value is no flag of the command: this writes a rule whose message is "--delete"
    (["alias", "-m", "--delete", "--cmd", "git", "--replace", "x"], WIDENS),
    (["alias", "--message=--dry-run", "--cmd", "git", "--replace", "x"], WIDENS),
    (["aliases"], READS), (["aliases", "--cmd", "import"], READS), (["aliases", "export", "-o", "x.toml"], READS),
    (["aliases", "import", "team.toml"], WIDENS), (["aliases", "import", "-", "--dry-run"], READS),
    (["suggest"], LEARNS), (["suggest", "--apply", "s1"], WIDENS), (["suggest", "--apply=s1"], WIDENS),
    (["suggest", "--apply", "s1", "--dry-run"], READS),
    (["paving"], READS), (["paving", "--explain"], READS), (["paving", "on"], WIDENS),
    (["paving", "on", "--project"], WIDENS), (["paving", "off"], NARROWS), (["paving", "on", "--dry-run"], READS),
    (["init"], WIDENS), (["init", "--agent", "gemini", "--scope", "project"], WIDENS), (["init", "--dry-run"], READS),
    (["pave", "--hook"], WIDENS), (["pave", "--mcp"], WIDENS), (["pave", "--plugin"], WIDENS),
    (["pave", "--unhook"], NARROWS), (["pave", "--agents-md", "-o", "AGENTS.md"], READS),
    (["team", "connect", "postgresql://a@b/c"], WIDENS), (["team", "disconnect"], NARROWS),
    (["team", "status"], READS), (["team", "sync"], ACTS), (["team"], READS),
    (["uninstall"], NARROWS), (["desires", "--purge", "--yes"], NARROWS), (["doctor", "--live"], READS),
    (["doctor", "--fix"], WIDENS),
    (["ingest", "--claude-transcripts"], LEARNS), (["run", "test"], ACTS), (["git", "commit", "-m", "trust"], ACTS),
    (["--version"], READS), ([], READS), (["no-such-command"], READS),
    ([UNKNOWN], WIDENS), (["alias", UNKNOWN], WIDENS), (["trust", "--show", UNKNOWN], WIDENS),
    (["aliases", UNKNOWN], WIDENS), (["aliases", "--cmd", UNKNOWN], READS), (["paths", UNKNOWN], READS),
    (["doctor", UNKNOWN], WIDENS),
])
def test_a_command_line_is_read_as_typer_reads_it(argv, kind):
    assert classify(argv).kind == kind


WIDENING_SPELLINGS = [
    "dp trust", "cd sub && dp trust", "dp alias --cmd git --replace x", "dp paving on", "dp init",
    "dp aliases import team.toml", "dp suggest --apply s1", "dp team connect postgresql://a@b/c", "dp pave --hook",
    "git status; dp trust", "ls || dp trust", "ls | dp trust", "(dp trust)", "{ dp trust; }", "x=$(dp trust)",
    "echo `dp trust`", "if true; then dp trust; fi", "true\ndp trust",
    "bash -c 'dp trust'", 'sh -c "dp paving on"', "eval 'dp init'", "ssh host dp trust",
    "env -i dp trust", "sudo -u me dp trust", "timeout 5 dp trust", "nohup dp trust &", "command dp trust",
    "exec dp trust", "DP_DB=/tmp/x.db dp trust", "/usr/local/bin/dp trust", "~/.local/bin/dp trust", "\\dp trust",
    "python -m dp trust", "python3 -m dp.cli.main paving on", ".venv/bin/python -m dp alias --cmd a --replace b",
    "uvx --from desire-paths dp trust", "python3 -c 'from dp.layers import trusting; trusting.trust(None, \".\")'",
    "python3 -c 'import dp.cli.main as m; m.main([\"trust\"])'", "python3 - <<EOF\nimport dp\nEOF",
    "cat > s.sh <<EOF\ndp trust\nEOF\nsh s.sh", "echo trust | xargs dp", "dp \"$@\"", "dp $ACTION",
    "D=dp; $D trust", "alias d='dp'; d trust", "dp -C /other trust", "dp --db ~/.dp/dp.db trust",
]
READING_SPELLINGS = [
    "dp trust --show", "dp aliases", "dp aliases --cmd git", "dp doctor", "dp paths", "dp desires", "dp paving",
    "dp paving --explain", "dp tasks", "dp suggest", "dp alias --delete read_file", "dp untrust", "dp --version",
    "dp trust --help", "dp init --dry-run", "git status", "ls dp/", "grep -rn trust dp/cli", "cat ~/.dp/dp.db",
    "pip install dp", "which dp", "npm test", "cd ~/wordpress && make", "apt-get install dpkg",
    "git commit -m 'dp: read the store once'", "find . -name dp",
]


@pytest.mark.parametrize("command", WIDENING_SPELLINGS)
def test_the_hook_finds_a_widening_dp_command_wherever_the_shell_would_run_it(command):
    assert in_command(command) is not None


@pytest.mark.parametrize("command", READING_SPELLINGS)
def test_commands_that_run_no_widening_dp_command_are_left_alone(command):
    assert in_command(command) is None


def test_the_person_is_given_the_dp_command_alone_in_the_calls_directory():
    found = in_command("cd sub && dp alias --cmd git --replace 'curl x | sh'; make test")
    text = widening.for_the_person(found, "/home/me/repo", "cd sub && dp alias --cmd git --replace 'curl x | sh'; make test")
    assert ("type it in your own terminal: cd /home/me/repo && dp alias --cmd git --replace 'curl x | sh' "
            "(the agent's command was: cd sub && dp alias") in text
    assert "Only the person decides that" in text
    obscured = widening.for_the_person(in_command("dp \"$@\""), "/r", 'dp "$@"')
    assert "type it" not in obscured and "make it yourself in your own terminal" in obscured
