"""Issue 46, finding 2: ``dp init`` registered a repository's own Claude Code plugin without asking.

In a clone committing ``.claude/dp-plugin``, ``dp init`` ran ``claude plugin marketplace add
./.claude/dp-plugin --scope local`` and ``claude plugin install dp@dp-project --scope local``
at once, and looked for that plugin in every parent directory, so one planted in a shared
parent was registered too. Every file of it (hook commands, the mod's TypeScript, the MCP
server) is the committer's code, which Claude Code then runs in every session there. Now the
plugin is the repository's code: ``dp init`` registers it only after ``dp trust`` in that
repository, only while all its files are the ones ``dp trust`` pinned, and never looks above
the repository's root; ``dp trust --show`` lists its files first.

The real Claude Code (the pinned native binary, as the real-client suite installs it) is the
``claude`` on the person's PATH, behind a wrapper that records every command line it is given:
a ``claude plugin`` call that should not happen shows in the record, one that should happens
for real (``installed_plugins.json``).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from security.repository import GIT_IDENTITY

real_client = pytest.importorskip("real_client.client_support")
from real_client.claude_install import claude_code, installed_or_skip  # noqa: E402

PLUGIN = "dp@dp-project"


@pytest.fixture(scope="module")
def claude():
    return installed_or_skip(claude_code())


class Person(real_client.RealClient):
    """A throwaway user whose ``claude`` is the real one, each call recorded."""

    def __init__(self, root: Path, claude: Path):
        super().__init__(root, claude)
        self.calls = root / "claude-calls.log"
        (self.bin / "claude").unlink()
        self.program("claude", f'printf "%s\\n" "$*" >> {self.calls}\nexec {claude} "$@"')
        for name in ("dp", "pave-check", "dp-capture"):
            (self.bin / name).symlink_to(real_client.BIN / name)
        self.env.update(GIT_IDENTITY)

    def plugin_calls(self) -> list[str]:
        lines = self.calls.read_text().splitlines() if self.calls.exists() else []
        return [line for line in lines if line.startswith("plugin ")]

    def registered(self) -> list[dict]:
        path = self.home / ".claude" / "plugins" / "installed_plugins.json"
        return json.loads(path.read_text()).get("plugins", {}).get(PLUGIN, []) if path.exists() else []

    def git(self, *args, cwd: Path) -> None:
        subprocess.run(["git", *args], cwd=cwd, env=self.env, check=True, capture_output=True, timeout=120)


@pytest.fixture
def origin(tmp_path, claude) -> Path:
    """A team's repository committing the project-scope plugin (written by the dp under test)."""
    ann = Person(tmp_path / "ann", claude)
    ann.git("init", "-q", "-b", "main", cwd=ann.project)
    (ann.project / "README.md").write_text("# widget\n")
    (ann.project / "node_modules" / "left-pad").mkdir(parents=True)
    (ann.project / "node_modules" / "left-pad" / "index.js").write_text("module.exports = (s) => s;\n")
    ann.dp("pave", "--plugin", "--scope", "project")
    ann.git("add", "-A", "-f", cwd=ann.project)
    ann.git("commit", "-q", "-m", "The team plugin", cwd=ann.project)
    return ann.project


def test_a_cloned_plugin_is_registered_only_after_dp_trust_and_only_as_trusted(tmp_path, claude, origin):
    bob = Person(tmp_path / "bob", claude)
    clone = bob.project
    clone.rmdir()
    bob.git("clone", "-q", str(origin), str(clone), cwd=tmp_path)
    marketplace = clone / ".claude" / "dp-plugin"

    init = bob.dp("init").stdout
    assert bob.plugin_calls() == [] and bob.registered() == []
    assert (f"Team plugin: this repository commits {PLUGIN} ({marketplace}); it is not registered: Claude Code "
            "would run its files in every session here. Read them with dp trust --show; after dp trust, dp init "
            "registers it.") in init

    shown = bob.dp("trust", "--show").stdout
    assert (f"{marketplace} (Claude Code plugin, not trusted): after dp trust, dp init registers it for you, and "
            "Claude Code runs these files in every session here:") in shown
    hooks = (marketplace / "dp" / "hooks" / "hooks.json").read_bytes()
    import hashlib

    assert (f"  dp/hooks/hooks.json ({len(hooks)} bytes, sha256 {hashlib.sha256(hooks).hexdigest()[:12]}…)"
            in shown.splitlines())
    assert "  dp/bin/dp-run (" in shown and ", executable, sha256 " in shown  # every file, its mode too
    assert bob.plugin_calls() == []

    bob.dp("trust")
    # Ann changes a hook command; Bob pulls before registering it: not the plugin he trusted.
    ann = Person(tmp_path / "ann-again", claude)
    hooks_file = origin / ".claude" / "dp-plugin" / "dp" / "hooks" / "hooks.json"
    hooks_file.write_text(hooks_file.read_text().replace('"hooks": {', '"hooks": {"Stop": [{"hooks": [{"type": '
                                                         '"command", "command": "curl -s http://127.0.0.1:9/x"}]}],'))
    ann.git("commit", "-qam", "One more hook", cwd=origin)
    bob.git("pull", "-q", "--ff-only", cwd=clone)
    init = bob.dp("init").stdout
    assert bob.plugin_calls() == [] and bob.registered() == []
    assert f"{PLUGIN} ({marketplace}); it changed since you trusted it, so it is not registered" in init
    assert f"{marketplace} (Claude Code plugin, changed since you trusted it)" in bob.dp("trust", "--show").stdout

    bob.dp("trust")
    init = bob.dp("init").stdout
    assert f"Team plugin: registered {PLUGIN} for you in {clone} (local scope: this clone, only you)" in init
    assert bob.plugin_calls() == ["plugin marketplace add ./.claude/dp-plugin --scope local",
                                  f"plugin install {PLUGIN} --scope local"]
    [entry] = bob.registered()
    assert (entry["scope"], entry["projectPath"]) == ("local", str(clone))


def test_a_plugin_above_the_repositorys_root_is_never_registered(tmp_path, claude, origin):
    """A shared parent directory holding a plugin (here a copy of the team's, marketplace and all):
    no repository below it commits it, so dp init there never registers it, trusted or not."""
    shared = tmp_path / "shared"
    shared.mkdir()
    subprocess.run(["cp", "-r", str(origin / ".claude"), str(shared / ".claude")], check=True)
    carol = Person(tmp_path / "carol", claude)
    repository = shared / "repository"
    carol.git("clone", "-q", str(origin), str(repository), cwd=tmp_path)
    subprocess.run(["rm", "-rf", str(repository / ".claude")], check=True)  # this clone has none of its own
    outside = shared / "not-a-repository"
    outside.mkdir()
    for cwd in (repository, repository / "node_modules", outside):
        proc = subprocess.run([str(real_client.BIN / "dp"), "init"], cwd=cwd, env=carol.env, capture_output=True,
                              text=True, timeout=300)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert "Team plugin" not in proc.stdout, cwd
    subprocess.run([str(real_client.BIN / "dp"), "trust"], cwd=repository, env=carol.env, check=True,
                   capture_output=True, timeout=120)
    shown = subprocess.run([str(real_client.BIN / "dp"), "trust", "--show"], cwd=repository, env=carol.env,
                           capture_output=True, text=True, timeout=120).stdout
    assert "Claude Code plugin" not in shown and "dp-plugin" not in shown
    proc = subprocess.run([str(real_client.BIN / "dp"), "init"], cwd=repository, env=carol.env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0 and "Team plugin" not in proc.stdout
    # No call registers the shared directory's plugin (dp init installs carol's own dp@dp-local, issue 52).
    assert not [call for call in carol.plugin_calls() if "dp-project" in call or "dp-plugin" in call]
    assert carol.registered() == []
