"""Building rules from ``dp alias`` options, and validating any rule."""

from __future__ import annotations

import pytest

from dp.rules.build import RuleError, build_rule, recipe_command, rule_problem, validate_rule
from dp.rules.model import Rule


def fields(rule: Rule) -> tuple:
    return (rule.from_name, rule.to_name, rule.tool, rule.param, rule.command, rule.match_kind)


@pytest.mark.parametrize(
    "positionals, options, expected",
    [
        (["read_file", "Read"], {}, ("read_file", "Read", "", "", "", "")),
        ([], {"cmd": "scp", "flag": ("r", "R")}, ("r", "R", "Bash", "command", "scp", "flag")),
        ([], {"cmd": "scp", "flag": ("-r", "-R")}, ("r", "R", "Bash", "command", "scp", "flag")),
        ([], {"cmd": "grep", "flag": ("--recursive", "-r")}, ("recursive", "r", "Bash", "command", "grep", "flag")),
        ([], {"cmd": "grep", "replace": "rg"}, ("grep", "rg", "Bash", "command", "grep", "command")),
        (["user@old:", "user@new:"], {"cmd": "scp"}, ("user@old:", "user@new:", "Bash", "command", "scp", "literal")),
        (["/old", "/new"], {"tool": "Edit", "param": "file_path"}, ("/old", "/new", "Edit", "file_path", "", "literal")),
        (
            [r"^/old/(\w+)", r"/new/$1"],
            {"tool": "Edit", "param": "file_path", "regex": True},
            (r"^/old/(\w+)", "/new/$1", "Edit", "file_path", "", "regex"),
        ),
        ([r"curl -k", "curl --cacert ca.pem"], {"cmd": "curl", "regex": True}, ("curl -k", "curl --cacert ca.pem", "Bash", "command", "curl", "regex")),
        (["gt  await-signal", "gt mol status"], {"recipe": True}, ("gt await-signal", "gt mol status", "Bash", "command", "gt", "recipe")),
        (["/opt/bin/gt convoy wait"], {"recipe": True, "script": "echo {{ arg(1) }}"}, ("/opt/bin/gt convoy wait", "echo {{ arg(1) }}", "Bash", "command", "/opt/bin/gt", "recipe")),
    ],
)
def test_each_mode_builds_the_seed_row(positionals, options, expected):
    assert fields(build_rule(positionals, **options)) == expected


def test_message_is_kept():
    assert build_rule(["read_file", "Read"], message="use Read").message == "use Read"


@pytest.mark.parametrize(
    "positionals, options, expected",
    [
        (["read_file"], {"delete": True}, ("read_file", "", "", "", "", "")),
        ([], {"cmd": "scp", "flag": ("-r", "-R"), "delete": True}, ("r", "R", "Bash", "command", "scp", "flag")),
        (["gt await-signal"], {"recipe": True, "delete": True}, ("gt await-signal", "", "Bash", "command", "gt", "recipe")),
        (["user@old:"], {"cmd": "scp", "delete": True}, ("user@old:", "", "Bash", "command", "scp", "literal")),
        (["("], {"tool": "Edit", "param": "x", "regex": True, "delete": True}, ("(", "", "Edit", "x", "", "regex")),
    ],
)
def test_delete_builds_the_key_without_validating_the_payload(positionals, options, expected):
    assert fields(build_rule(positionals, **options)) == expected


@pytest.mark.parametrize(
    "positionals, options, message",
    [
        (["a", "b"], {"recipe": True, "cmd": "x"}, "--recipe cannot be combined with --cmd"),
        (["a", "b"], {"recipe": True, "tool": "T", "param": "p", "regex": True}, "--recipe cannot be combined with --tool, --param, --regex"),
        ([], {"flag": ("r", "R")}, "--flag needs --cmd"),
        ([], {"cmd": "scp", "flag": ("r", "R"), "replace": "x"}, "--flag cannot be combined with --replace"),
        ([], {"cmd": "scp", "flag": ("r", "R"), "regex": True}, "--flag cannot be combined with --regex"),
        (["x"], {"cmd": "scp", "flag": ("r", "R")}, "expected no positional arguments, got 1"),
        ([], {"cmd": "scp", "flag": ("-", "R")}, "--flag takes two non-empty flags"),
        ([], {"cmd": "scp", "flag": ("r r", "R")}, "must be a bare flag name"),
        ([], {"replace": "rg"}, "--replace needs --cmd"),
        ([], {"cmd": "grep", "replace": "rg", "tool": "X"}, "--replace cannot be combined with --tool"),
        (["a", "b"], {"cmd": "scp", "tool": "Edit"}, "--cmd cannot be combined with --tool"),
        (["a"], {"cmd": "scp"}, "expected two arguments, got 1"),
        (["a", "b"], {"tool": "Edit"}, "--tool and --param go together"),
        (["a", "b"], {"param": "file_path"}, "--tool and --param go together"),
        (["a", "b"], {"regex": True}, "--regex needs a target"),
        (["a"], {}, "expected two arguments, got 1"),
        (["a", "b", "c"], {}, "expected two arguments, got 3"),
        (["", "Read"], {}, "(FROM) is empty"),
        (["read_file", ""], {}, "(TO) of 'read_file' is empty"),
        (["a", "b"], {"cmd": ""}, "--cmd must be one program name"),
        (["a", "b"], {"cmd": "git commit"}, "--cmd must be one program name"),
        (["(x", "y"], {"cmd": "scp", "regex": True}, "invalid regex '(x': missing ), unterminated subpattern at position 0"),
        (["a", "b"], {"message": "m", "delete": True}, "--message cannot be combined with --delete"),
        (["a"], {"script": "x"}, "--file is only for recipes"),
        (["a"], {"recipe": True, "script": "x", "delete": True}, "--file cannot be combined with --delete"),
        (["a", "b"], {"recipe": True, "script": "x"}, "expected one argument, got 2"),
        (["gt x"], {"recipe": True}, "expected two arguments, got 1"),
        (["  ", "script"], {"recipe": True}, "(FROM) is empty"),
    ],
)
def test_invalid_input_is_one_clear_error(positionals, options, message):
    with pytest.raises(RuleError) as info:
        build_rule(positionals, **options)
    assert message in info.value.message
    assert "\n" not in info.value.message


def test_broken_recipe_template_is_rejected_with_its_line():
    with pytest.raises(RuleError, match=r"recipe template for 'gt x' does not parse: .*line 2"):
        build_rule(["gt x", "echo ok\necho {{ args | }}"], recipe=True)


def test_recipe_command_is_the_first_word_as_it_names_the_program():
    assert recipe_command("gt await-signal") == "gt"
    # A path names that one program, not whatever `bd` PATH finds.
    assert recipe_command("/usr/local/bin/bd list --wisp") == "/usr/local/bin/bd"
    assert recipe_command("") == ""


@pytest.mark.parametrize(
    "rule, message",
    [
        (Rule("a", "b", match_kind="bogus"), "unknown match_kind 'bogus'"),
        (Rule("a", "b", tool="Bash"), "a tool-name alias has no tool, param or command"),
        (Rule("r", "R", "Edit", "file_path", "scp", "flag"), "targets tool Bash, param command"),
        (Rule("-r", "R", "Bash", "command", "scp", "flag"), "must be a bare flag name"),
        (Rule("grep", "rg", "Bash", "command", "egrep", "command"), "FROM must equal the command"),
        (Rule("gt x", "s", "Bash", "command", "bd", "recipe"), "must have command 'gt'"),
        (Rule("a", "b", "Edit", "", "", "literal"), "needs --cmd CMD, or --tool TOOL --param PARAM"),
    ],
)
def test_validate_rejects_inconsistent_rows(rule, message):
    with pytest.raises(RuleError, match=message):
        validate_rule(rule)


def test_rule_problem_reports_rules_that_cannot_fire():
    assert rule_problem(Rule("[a-", "b", "Edit", "x", "", "regex")).startswith("invalid regex '[a-'")
    assert rule_problem(Rule("gt x", "{% if %}", "Bash", "command", "gt", "recipe")).startswith("recipe template")
    assert rule_problem(Rule("gt x", "echo {{ arg(1) }}", "Bash", "command", "gt", "recipe")) is None
    assert rule_problem(Rule("read_file", "Read")) is None


def test_a_rule_changes_through_replace_and_keeps_its_origin():
    """``Rule.replace`` is the one way a rule is respelled: the changed field, everything else kept — the
    layer and line it comes from and a recipe's compiled program too; a misspelled field is an error."""
    rule = Rule("^/etc/", "/srv/etc/", "Read", "file_path", "", "regex", "Configuration lives in /srv/etc", "2026")
    rule.source, rule.line, rule.program = "project", 12, "compiled"
    respelled = rule.replace(tool="view", param="path")
    assert (respelled.tool, respelled.param) == ("view", "path") and (rule.tool, rule.param) == ("Read", "file_path")
    assert (respelled.source, respelled.line, respelled.program) == ("project", 12, "compiled")
    assert respelled.replace(tool="Read", param="file_path") == rule
    with pytest.raises(TypeError, match="no field tools"):
        rule.replace(tools="view")
