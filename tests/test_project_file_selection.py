"""A project file read from dp's cache selects a call's rules by the cached keys and index: exactly
the rules, in file order, that looking at every row selects (dp.layers.effective)."""

import itertools

from dp.layers.effective import ProjectFile, _read

ENTRIES = [
    ("wisp", "ephemeral", "Bash", "command", "bd", "flag"),
    ("read_file", "Read", "", "", "", ""),
    ("Bash", "run_shell_command", "", "", "", ""),
    ("grep", "rg", "Bash", "command", "grep", "command"),
    ("foo", "bar", "Bash", "command", "", "literal"),
    ("file_path", "path", "Read", "file_path", "", "literal"),
    ("r", "R", "Bash", "command", "scp", "flag"),
    ("n", "line-number", "Bash", "command", "grep", "flag"),
]


def _entry(from_name, to_name, tool, param, command, kind) -> str:
    fields = {"from": from_name, "to": to_name, "tool": tool, "param": param, "command": command,
              "match_kind": kind}
    return "[[aliases]]\n" + "".join(f'{key} = "{value}"\n' for key, value in fields.items() if value) + "\n"


def test_the_cached_index_selects_what_every_row_selects(tmp_path):
    path = tmp_path / "rules.toml"
    path.write_text("".join(_entry(*entry) for entry in ENTRIES))
    real, sha256, problem, keys, packed = _read(str(path))
    assert problem == ""
    indexed = ProjectFile("project", str(path), real, sha256, keys=keys, packed=packed)
    every = ProjectFile("project", str(path), real, sha256, keys=keys, packed=packed).rules
    assert len(every) == len(ENTRIES)
    scanned = ProjectFile("project", str(path), real, sha256, rules=every)  # built rules: every one looked at
    words = [None, set(), {"bd"}, {"grep", "ls"}, {"scp", "grep", "bd"}, {"nothing"}]
    for tool, chosen in itertools.product(("Bash", "Read", "Write", ""), words):
        assert ([rule.key for rule in indexed.for_call(tool, chosen)]
                == [rule.key for rule in scanned.for_call(tool, chosen)]), (tool, chosen)
    assert [rule.key for rule in indexed.for_call("Bash", {"grep"})] == [
        ("grep", "Bash", "command", "grep", "command"), ("foo", "Bash", "command", "", "literal"),
        ("n", "Bash", "command", "grep", "flag")]
    for name in ("read_file", "Bash", "wisp", "nothing"):
        assert ([rule.to_name for rule in indexed.tool_aliases(name)]
                == [rule.to_name for rule in scanned.tool_aliases(name)]), name
    assert [rule.to_name for rule in indexed.tool_aliases("read_file")] == ["Read"]


def test_a_call_no_row_concerns_leaves_the_rows_packed(tmp_path):
    """Most calls: the keys say no row is about the call's tool and words, so the rows and their
    index are never unpacked (counted, not timed); a call a row is about unpacks them."""
    path = tmp_path / "rules.toml"
    path.write_text("".join(_entry(*entry) for entry in ENTRIES if entry[0] != "foo"))  # no any-command row
    real, sha256, _, keys, packed = _read(str(path))
    project_file = ProjectFile("project", str(path), real, sha256, keys=keys, packed=packed)
    assert project_file.for_call("Bash", {"git", "ls"}) == [] and project_file.for_call("Write", None) == []
    assert project_file._rows is None
    assert [rule.from_name for rule in project_file.for_call("Bash", {"bd", "ls"})] == ["wisp"]
    assert project_file._rows is not None
