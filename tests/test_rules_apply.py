"""Applying rules to tool input: each match kind, scoping, ordering, byte-exact edits."""

from __future__ import annotations

import pytest

from dp.rules.apply import go_replacement, rewrite
from dp.rules.model import BASH_PARAM, BASH_TOOL, COMMAND, FLAG, LITERAL, RECIPE, REGEX, Rule
from dp.shell.script_shape import group


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    """bashlex tables and compiled recipes go to a temporary cache, not ~/.cache."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "dp"


def flag(command, old, new, message=""):
    return Rule(old, new, BASH_TOOL, BASH_PARAM, command, FLAG, message)


def replace(command, new, message=""):
    return Rule(command, new, BASH_TOOL, BASH_PARAM, command, COMMAND, message)


def literal(command, old, new):
    return Rule(old, new, BASH_TOOL, BASH_PARAM, command, LITERAL)


def recipe(prefix, script, message=""):
    return Rule(prefix, script, BASH_TOOL, BASH_PARAM, prefix.split()[0], RECIPE, message)


def bash(command: str, rules, **kwargs):
    """The rewritten command, or None when nothing changed."""
    result = rewrite({"command": command}, rules, **kwargs)
    return None if result is None else result.updated_input["command"]


def notes(command: str, rules) -> list[str]:
    return rewrite({"command": command}, rules).notes


# --- flags ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "command, rule, expected",
    [
        ("scp -r a h:/", flag("scp", "r", "R"), "scp -R a h:/"),
        ("scp -rP 22 a h:/", flag("scp", "r", "R"), "scp -RP 22 a h:/"),
        ("scp -Pr 22 a h:/", flag("scp", "r", "R"), "scp -PR 22 a h:/"),
        ("grep --recursive x .", flag("grep", "recursive", "R"), "grep -R x ."),
        ("grep -r x .", flag("grep", "r", "recursive"), "grep --recursive x ."),
        ("grep -rn x .", flag("grep", "r", "recursive"), "grep -n --recursive x ."),
        ("ls --colour=auto", flag("ls", "colour", "color"), "ls --color=auto"),
        ("ls --colour=always x", flag("ls", "colour", "C"), "ls -C always x"),
        ("sort -k2 -r f", flag("sort", "r", "R"), "sort -k2 -R f"),
    ],
)
def test_flag_rewrites(command, rule, expected):
    assert bash(command, [rule]) == expected


@pytest.mark.parametrize(
    "command, rule",
    [
        ("grep --exclude=-r x .", flag("grep", "r", "R")),  # inside a long option's value
        ("grep -e '-r' x", flag("grep", "r", "R")),  # quoted: a value, not a flag
        ("head -1 f", flag("head", "1", "n")),  # negative-number style
        ("git log -- -r", flag("git", "r", "R")),  # after --
        ("find . -name x", flag("find", "n", "N")),  # single-dash long option
        ("ls -r && grep -r x", flag("scp", "r", "R")),  # other commands
        ("echo scp -r", flag("scp", "r", "R")),  # an argument, not the command
        ("grep --recursive-ish x", flag("grep", "recursive", "R")),
    ],
)
def test_flag_leaves_non_flags_alone(command, rule):
    assert bash(command, [rule]) is None


def test_flag_rule_fixes_every_matching_command():
    assert bash("scp -r a h:/ && scp -r b h:/", [flag("scp", "r", "R")]) == "scp -R a h:/ && scp -R b h:/"


# --- commands and literals ------------------------------------------------------


def test_command_rewrite_keeps_everything_else_byte_identical():
    command = "ls &&\n  grep  -n 'foo bar' my\\ file\\;   | wc  # grep"
    expected = "ls &&\n  ggrep  -n 'foo bar' my\\ file\\;   | wc  # grep"
    assert bash(command, [replace("grep", "ggrep")]) == expected


def test_command_rewrite_through_wrappers_and_substitutions():
    command = "sudo grep x f; echo \"$(grep y f)\" `grep z`"
    expected = "sudo ggrep x f; echo \"$(ggrep y f)\" `ggrep z`"
    assert bash(command, [replace("grep", "ggrep")]) == expected


def test_a_command_given_by_path_is_left_to_the_rules_for_that_path():
    command = "sudo /usr/bin/grep x f; grep y f"
    assert bash(command, [replace("grep", "ggrep")]) == "sudo /usr/bin/grep x f; ggrep y f"
    assert bash(command, [replace("/usr/bin/grep", "ggrep")]) == "sudo ggrep x f; grep y f"


def test_quoted_mentions_and_heredoc_bodies_are_not_rewritten():
    command = 'echo "grep x" | grep y\ncat <<EOF\ngrep in body\nEOF'
    assert bash(command, [replace("grep", "ggrep")]) == 'echo "grep x" | ggrep y\ncat <<EOF\ngrep in body\nEOF'


def test_literal_replaces_every_unquoted_occurrence_in_matching_commands():
    rule = literal("scp", "user@old:", "user@new:")
    command = "scp a user@old:/x user@old:/y 'user@old:' && rsync a user@old:/z"
    expected = "scp a user@new:/x user@new:/y 'user@old:' && rsync a user@old:/z"
    assert bash(command, [rule]) == expected


def test_unparseable_command_is_left_alone():
    assert bash("grep 'open", [replace("grep", "ggrep")]) is None


# --- parameter rules (any tool) ---------------------------------------------------


def test_param_literal_applies_to_any_tool():
    rule = Rule("/old/", "/new/", "Edit", "file_path", "", LITERAL)
    result = rewrite({"file_path": "/old/a.py", "old_string": "/old/", "new_string": "x"}, [rule])
    assert result.updated_input == {"file_path": "/new/a.py", "old_string": "/old/", "new_string": "x"}
    assert result.notes == ["file_path: '/old/' → '/new/'"]


@pytest.mark.parametrize(
    "pattern, replacement, expected",
    [
        (r"/home/(\w+)/", r"/Users/\1/", "/Users/ann/x"),
        (r"/home/(\w+)/", "/Users/$1/", "/Users/ann/x"),
        (r"/home/(?P<user>\w+)/", "/Users/${user}/", "/Users/ann/x"),
        (r"/home/(?P<user>\w+)/", r"/Users/\g<user>/", "/Users/ann/x"),
        (r"/home/(\w+)/", "/$$1/", "/$1/x"),
    ],
)
def test_param_regex_accepts_python_and_go_replacements(pattern, replacement, expected):
    rule = Rule(pattern, replacement, "Read", "file_path", "", REGEX)
    assert rewrite({"file_path": "/home/ann/x"}, [rule]).updated_input["file_path"] == expected


def test_broken_regex_rule_is_skipped():
    rules = [Rule("(", "x", "Read", "file_path", "", REGEX), Rule("a", "b", "Read", "file_path", "", LITERAL)]
    assert rewrite({"file_path": "a("}, rules).updated_input == {"file_path": "b("}


def test_command_scoped_regex_edits_only_matching_commands():
    rule = Rule(r"-k\b", "--cacert ca.pem", BASH_TOOL, BASH_PARAM, "curl", REGEX)
    assert bash("curl -k u && wget -k u", [rule]) == "curl --cacert ca.pem u && wget -k u"


def test_command_scoped_regex_never_touches_quoted_text_or_other_commands():
    rule = Rule(r"http://(\w+)", "https://$1", BASH_TOOL, BASH_PARAM, "curl", REGEX)
    command = "curl http://a \"http://b\" 'x'http://c $(echo http://d) # http://e"
    expected = "curl https://a \"http://b\" 'x'https://c $(echo http://d) # http://e"
    assert bash(command, [rule]) == expected
    spanning = Rule(r"-X (\w+) -d", "--request $1 --data", BASH_TOOL, BASH_PARAM, "curl", REGEX)
    assert bash("curl -X POST -d x u", [spanning]) == "curl --request POST --data x u"


def test_non_string_parameters_are_ignored():
    rule = Rule("1", "2", "Read", "limit", "", LITERAL)
    assert rewrite({"limit": 1}, [rule]) is None


def test_go_replacement_translation():
    assert go_replacement("$1-${name}-$$-\\2") == "\\g<1>-\\g<name>-$-\\2"
    assert go_replacement("plain") == "plain"


# --- recipes ----------------------------------------------------------------------


def test_recipe_prefix_matches_token_wise():
    rule = recipe("gt await-signal", "gt mol status --wait")
    assert bash("gt  await-signal --timeout 30", [rule]) == "gt mol status --wait"
    assert bash("gt await-signalx", [rule]) is None
    assert bash("bd list --wispy", [recipe("bd list --wisp", "bd ls")]) is None


def test_recipe_arguments_are_shell_quoted():
    rule = recipe("gt convoy wait", "gt convoy status {{ arg(1) }} --watch")
    assert bash("gt convoy wait 'x; rm -rf ~'", [rule]) == "gt convoy status 'x; rm -rf ~' --watch"


def test_recipe_raw_filter_keeps_the_agents_text():
    rule = recipe("gt convoy wait", "gt convoy status {{ args|raw }}")
    assert bash('gt convoy wait "$ID" --json', [rule]) == 'gt convoy status "$ID" --json'


def test_recipe_dropped_arguments_are_reported():
    rule = recipe("gt await-signal", "gt mol status --wait", message="poll")
    result = rewrite({"command": "gt await-signal --timeout 30"}, [rule])
    assert result.notes == ["gt await-signal → recipe (poll); dropped arguments: --timeout 30"]
    partial = recipe("gt convoy wait", "gt convoy status {{ arg(1) }}")
    assert notes("gt convoy wait c1 extra", [partial]) == ["gt convoy wait → recipe; dropped arguments: extra"]
    assert notes("gt convoy wait c1", [partial]) == ["gt convoy wait → recipe"]


def test_recipe_in_a_list_is_grouped_to_keep_precedence():
    rule = recipe("gt await-signal", "while ! gt mol status; do sleep 5; done\necho ok")
    assert bash("echo start && gt await-signal | tee log", [rule]) == (
        "echo start && { while ! gt mol status; do sleep 5; done\necho ok; } | tee log"
    )
    assert bash("gt await-signal", [rule]) == "while ! gt mol status; do sleep 5; done\necho ok"


def test_single_command_recipe_keeps_wrappers_assignments_and_redirections():
    rule = recipe("gt await-signal", "gt mol status --wait")
    command = "FOO=1 timeout 60 gt await-signal > log 2>&1"
    assert bash(command, [rule]) == "FOO=1 timeout 60 gt mol status --wait > log 2>&1"
    assert bash("gt await-signal 2>/dev/null --timeout 3", [rule]) == "gt mol status --wait 2>/dev/null"


def test_multi_command_recipe_replaces_the_whole_command_and_says_what_it_dropped():
    rule = recipe("gt await-signal", "gt mol status; sleep 5")
    result = rewrite({"command": "sudo -u ci gt await-signal > log"}, [rule])
    assert result.updated_input["command"] == "{ gt mol status; sleep 5; } > log"
    assert result.notes == ["gt await-signal → recipe; dropped prefix: sudo -u ci"]


@pytest.mark.parametrize(
    "command, expected",
    [
        ("gt await-signal &", "{ gt mol status; sleep 5; } &"),
        ("time gt await-signal", "time { gt mol status; sleep 5; }"),
        ("! gt await-signal", "! { gt mol status; sleep 5; }"),
        ("if gt await-signal; then ls; fi", "if { gt mol status; sleep 5; }; then ls; fi"),
        ("echo $(gt await-signal)", "echo $({ gt mol status; sleep 5; })"),
        ("  gt await-signal\n", "gt mol status; sleep 5"),
    ],
)
def test_multi_command_recipe_is_grouped_whenever_something_surrounds_it(command, expected):
    rule = recipe("gt await-signal", "gt mol status; sleep 5")
    assert bash(command, [rule]).strip() == expected


def test_multi_command_recipe_is_skipped_where_a_program_runs_the_command():
    rule = recipe("gt await-signal", "gt mol status; sleep 5")
    assert bash("ls | xargs -0 gt await-signal", [rule]) is None
    assert bash("find . -exec gt await-signal {} \\;", [rule]) is None
    single = recipe("gt await-signal", "gt mol wait")
    assert bash("ls | xargs -0 gt await-signal", [single]) == "ls | xargs -0 gt mol wait"
    assert bash("find . -exec gt await-signal {} \\;", [single]) == "find . -exec gt mol wait \\;"


def test_recipe_with_a_template_error_is_skipped():
    rules = [recipe("gt x", "{{ arg(1) "), recipe("gt x", "{{ nope }}"), replace("gt", "gtx")]
    assert bash("gt x a", rules) == "gtx x a"


def test_group_forms():
    assert group("a; b;") == "{ a; b; }"
    assert group("sleep 1 &") == "{ sleep 1 &\n}"
    assert group("a # note") == "{ a # note\n}"


# --- order and whole-input behaviour -----------------------------------------------


def test_kinds_apply_in_fixed_order_regardless_of_insertion():
    rules = [
        Rule(r"\bfoo\b", "bar", BASH_TOOL, BASH_PARAM, "", REGEX),
        literal("ggrep", "pattern", "foo"),
        flag("ggrep", "n", "line-number"),
        replace("grep", "ggrep"),
    ]
    assert bash("grep -n pattern f", rules) == "ggrep --line-number bar f"


def test_within_a_kind_insertion_order_decides():
    first = [literal("sed", "a", "b"), literal("sed", "a", "c")]
    assert bash("sed a", first) == "sed b"
    assert bash("sed a", list(reversed(first))) == "sed c"


def test_every_rule_sees_the_original_command_once():
    # One pass over one parse: a rule never acts on another rule's output
    # within a kind, so rules cannot chain or undo each other.
    assert bash("sed a", [literal("sed", "a", "b"), literal("sed", "b", "c")]) == "sed b"
    rules = [replace("find", "gfind"), replace("ls", "gls")]
    assert bash("find . -exec ls {} \\; && ls", rules) == "gfind . -exec gls {} \\; && gls"


def test_refetch_brings_in_rules_for_the_rewritten_command():
    grep_rule, rg_flag = replace("grep", "ggrep"), flag("ggrep", "n", "line-number")
    seen = []

    def refetch(value):
        seen.append(value)
        return [grep_rule, rg_flag]

    assert bash("grep -n x", [grep_rule], refetch=refetch) == "ggrep --line-number x"
    assert seen == ["ggrep"]  # asked once for the rules of the new name


def test_whole_input_is_carried_over_and_nothing_changed_is_none():
    tool_input = {"command": "scp -r a h:/", "description": "copy", "timeout": 5, "run_in_background": False}
    result = rewrite(tool_input, [flag("scp", "r", "R")])
    assert result.updated_input == {**tool_input, "command": "scp -R a h:/"}
    assert tool_input["command"] == "scp -r a h:/"
    assert rewrite({"command": "scp -R a h:/"}, [flag("scp", "r", "R")]) is None
    assert rewrite({"command": "ls"}, [flag("scp", "r", "R")]) is None


def test_a_translated_command_gets_its_own_argument_rules_from_the_rules_or_the_store():
    translate = replace("grep", "rg")
    assert bash("grep -n x f", [translate]) == "rg -n --max-depth 0 x f"
    assert bash("grep -n x f", [translate, flag("rg", "n", "line-number")]) == "rg --line-number --max-depth 0 x f"
    asked = []

    def refetch(name):
        asked.append(name)
        return [flag("rg", "n", "line-number")]

    assert bash("grep -n x f", [translate], refetch=refetch) == "rg --line-number --max-depth 0 x f"
    assert asked == ["rg"]
