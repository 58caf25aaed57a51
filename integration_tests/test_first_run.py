"""The first run on a stock machine (issue 49): what ``dp init`` and ``dp doctor`` say is true here.

Each test runs the installed ``dp`` and ``pave-check`` as a person does, on a PATH with only a
stock system's programs (``stock_machine``: no ripgrep, fd or uv), or for another agent.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from stock_machine import stock_path


def test_init_without_ripgrep_says_what_is_missing_and_succeeds(dp, tmp_path):
    path = stock_path(tmp_path)
    proc = dp("init", extra_env={"PATH": path})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert ("  agent runs Bash: grep -n TODO src/app.py\n"
            "    -> left as typed: rg is not installed here, and dp never rewrites to a missing program\n"
            "    -> once rg is installed, runs instead: rg -n TODO src/app.py\n") in proc.stdout
    assert "error" not in proc.stderr
    # The next step it offers works here too (grep → rg would not).
    assert "  dp alias read_file Read " in proc.stdout and "dp alias --cmd grep" not in proc.stdout

    demo = json.loads(dp("init", "--json", extra_env={"PATH": path}).stdout)["demo"]
    assert demo["ok"] is True
    assert (demo["rewrite"]["missing"], demo["rewrite"]["rewritten"]) == (["rg"], None)
    assert demo["rewrite"]["once_installed"] == "rg -n TODO src/app.py"


def test_doctor_names_every_rule_that_cannot_act_here_and_why(dp, tmp_path):
    path = {"PATH": stock_path(tmp_path)}
    dp("init", extra_env=path)
    for rule in (("--cmd", "grep", "--replace", "rg"), ("--cmd", "find", "--replace", "fd"),
                 ("--cmd", "cat", "--replace", "head")):
        dp("alias", *rule, extra_env=path)
    proc = dp("doctor", "--json", extra_env=path)
    report = json.loads(proc.stdout)
    assert proc.returncode == 0 and report["summary"]["error"] == 0, proc.stdout
    messages = [check["message"] for check in report["checks"]]
    assert "command grep → rg: rg is not on PATH, so the hook leaves grep commands as typed" in messages
    assert "command find → fd: fd is not on PATH, so the hook leaves find commands as typed" in messages
    reach = [message for message in messages if "Bash rule" in message]
    # The rule that acts is counted as acting; the two that cannot are not claimed to rewrite.
    assert any(message.endswith("1 Bash rule rewrites the command before it runs (PreToolUse updatedInput), and "
                                "the model is told what changed; listed at session start too") for message in reach)
    assert any(message.endswith("2 Bash rules cannot act here: rg, fd are not installed, so the hook leaves those "
                                "commands as typed (see rules)") for message in reach), reach


def _shell_call(command: str, permission_mode: str) -> dict:
    return {"session_id": "s", "turn_id": "t", "transcript_path": None, "hook_event_name": "PreToolUse",
            "model": "m", "permission_mode": permission_mode, "tool_name": "Bash",
            "tool_input": {"command": command}, "tool_use_id": "call_1"}


def test_codex_demo_shows_no_tool_name_block_codex_never_produces(dp, home):
    proc = dp("init", "--agent", "codex")
    assert proc.returncode == 0, proc.stderr
    demo = proc.stdout[proc.stdout.index("Live demo"):]
    # Codex answers an unknown tool name itself ("unsupported call") and has no Read: no block, no alias.
    assert "blocked" not in demo and "read_file" not in demo and "Read" not in demo
    assert "session starts: the model is shown the corrections\n    - grep: Use `rg` instead of `grep`" in demo
    assert "agent runs Bash: grep -n TODO src/app.py" in demo


def test_gemini_demo_shows_the_alias_as_told_not_blocked(dp, home):
    proc = dp("init", "--agent", "gemini")
    assert proc.returncode == 0, proc.stderr
    demo = proc.stdout[proc.stdout.index("Live demo"):]
    assert "blocked" not in demo
    assert "    - Do NOT call `Read`. Use `read_file` instead." in demo
    assert ("  agent calls tool Read: Gemini CLI has no such tool and rejects the call itself, before any hook "
            "runs; the model has the right name from session start") in demo


def test_codex_refusal_does_not_say_dp_ran_the_command(dp, pave_check, tmp_path):
    project = tmp_path / "web"
    (project / ".git").mkdir(parents=True)
    (project / "package.json").write_text('{"name": "web", "scripts": {"test": "vitest"}}\n')
    (project / "pnpm-lock.yaml").write_text("lockfileVersion: '9.0'\n")
    (project / "node_modules").mkdir()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for program in ("pnpm", "npm"):
        (bin_dir / program).write_text("#!/bin/sh\nexit 0\n")
        (bin_dir / program).chmod(0o755)
    import os

    env = {"PATH": f"{bin_dir}:{os.environ['PATH']}"}
    payload = {**_shell_call("npm install", "default"), "cwd": str(project)}
    proc = pave_check(payload, "--agent", "codex", extra_env=env)
    assert proc.returncode == 0, proc.stderr
    reason = json.loads(proc.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
    assert "`pnpm install` instead of `npm install`" in reason and "Run this instead:\npnpm install" in reason
    assert "ran `" not in reason


# -- no Claude Code on the machine (finding 6) ------------------------------------------------------


def _agents() -> list[str]:
    from dp.agents import names

    return list(names())


def test_without_claude_code_init_offers_every_agent_and_dry_run_shows_the_plan(dp, home):
    (home / ".claude").rmdir()  # Claude Code never ran here, and no claude is on PATH
    proc = dp("init")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    [line] = proc.stderr.splitlines()
    assert line.endswith("or name your agent: dp init --agent NAME (dp init --help lists the agents)"), line
    # ... and the help it names offers every agent, not a few of them
    helped = " ".join(dp("init", "--help").stdout.split())
    offered = helped.split("--agent NAME The agent to install for, or whose tool names --agents-md uses: ", 1)[1]
    offered = offered.split(".", 1)[0].replace(" (default)", "")
    assert [name.strip() for name in offered.replace(" or ", ", ").split(",")] == _agents()

    plan = dp("init", "--dry-run")
    assert plan.returncode == 0, plan.stderr
    assert plan.stdout.startswith("Dry run: nothing was written, created or run.\n"
                                  "Note:  no Claude Code on this machine (no claude on PATH, no ~/.claude): dp init "
                                  "would write nothing; with --agent claude it would do this\n")
    assert f"File:  {home / '.claude' / 'settings.json'} (would be created)" in plan.stdout
    assert list(home.iterdir()) == []


def test_doctor_without_claude_code_says_so_and_suggests_nothing_that_needs_it(dp, home):
    (home / ".claude").rmdir()
    report = json.loads(dp("doctor", "--json").stdout)
    [hook] = [check for check in report["checks"] if check["check"] == "hook"]
    assert hook["message"].startswith("no Claude Code found (no claude on PATH, no ~/.claude)")
    assert report["summary"]["error"] == 0
    fixes = " ".join(check["fix"] or "" for check in report["checks"])
    assert "dp pave --hook" not in fixes and "dp init (" not in fixes and not fixes.count("dp init;")
    assert "capture" not in [check["check"] for check in report["checks"]]

    assert dp("init", "--agent", "codex").returncode == 0  # set up for another agent: content
    report = json.loads(dp("doctor", "--json").stdout)
    [hook] = [check for check in report["checks"] if check["check"] == "hook"]
    assert (hook["status"], hook["message"]) == (
        "ok", "no Claude Code found (no claude on PATH, no ~/.claude): nothing to check for it; dp is installed for "
              "Codex CLI")


# -- leaving (finding 9) -------------------------------------------------------------------------------


@pytest.fixture
def own_dp(env, home):
    """``dp`` as a person on a new machine runs it: the store in ~/.dp, the cache in ~/.cache (no DP_DB, no XDG_*)."""
    import subprocess

    from conftest import DP_BIN

    mine = {key: value for key, value in env.items() if key != "DP_DB" and not key.startswith("XDG_")}

    def run(*args, extra_env=None):
        return subprocess.run([str(DP_BIN), *args], capture_output=True, text=True, cwd=home,
                              env={**mine, **(extra_env or {})}, timeout=120)

    return run


def test_uninstall_purge_leaves_a_fresh_home_as_it_found_it(own_dp, home):
    dp = own_dp
    home.joinpath(".claude").rmdir()
    assert dp("init", "--agent", "codex").returncode == 0
    assert {path.name for path in home.iterdir()} >= {".codex", ".cache", ".dp"}
    proc = dp("uninstall", "--purge", "--yes")
    assert proc.returncode == 0, proc.stderr
    assert f"with the directory dp made for it ({home / '.codex'})" in proc.stdout
    assert f"Deleted {home / '.cache'}\n" in proc.stdout
    assert list(home.iterdir()) == []


def test_uninstall_keeps_directories_it_did_not_make_or_that_hold_something(own_dp, home, tmp_path):
    dp = own_dp
    (home / ".cache" / "pip").mkdir(parents=True)  # another program's cache was here first
    claude = tmp_path / "bin" / "claude"  # Claude Code installed, never run: no ~/.claude yet
    claude.parent.mkdir()
    claude.write_text("#!/bin/sh\necho '2.1.330 (Claude Code)'\n")
    claude.chmod(0o755)
    home.joinpath(".claude").rmdir()
    env = {"DP_CLAUDE": str(claude)}
    assert dp("init", extra_env=env).returncode == 0
    (home / ".claude" / "projects").mkdir()  # Claude Code ran since
    assert dp("init", "--agent", "codex", extra_env=env).returncode == 0
    proc = dp("uninstall", "--purge", "--yes", extra_env=env)
    assert proc.returncode == 0, proc.stderr
    assert sorted(str(path.relative_to(home)) for path in home.rglob("*")) == [".cache", ".cache/pip", ".claude",
                                                                              ".claude/projects"]


def _old_install(root, name: str = "old-env", without: tuple = ()) -> Path:
    """A dp installed into a virtualenv of its own (its console scripts, this checkout's code, this
    environment's dependencies but ``without`` those), as ``pip install`` into a venv leaves it: its bin directory."""
    import os
    import subprocess
    import sys
    import sysconfig
    from pathlib import Path

    env = root / name
    subprocess.run([os.path.realpath(sys.executable), "-m", "venv", "--without-pip", str(env)], check=True)
    site = subprocess.run([env / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    checkout = Path(__file__).resolve().parent.parent
    borrowed = Path(sysconfig.get_paths()["purelib"])
    if without:  # the dependencies one by one, less those left out
        borrowed = root / f"{name}-deps"
        borrowed.mkdir()
        for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
            if not entry.name.lower().startswith(without) and entry.name != "__editable__":
                (borrowed / entry.name).symlink_to(entry)
    Path(site, "borrowed.pth").write_text(f"{checkout}\n{borrowed}\n")
    for name, entry in (("dp", "dp.cli.main"), ("pave-check", "dp.hook"), ("dp-capture", "dp.capture.hook")):
        script = env / "bin" / name
        script.write_text(f"#!{env}/bin/python\nimport sys\nfrom {entry} import main\nsys.exit(main())\n")
        script.chmod(0o755)
    return env / "bin"


def test_after_the_package_is_removed_doctor_finds_the_dangling_entries_and_fix_repoints_them(dp, env, home, tmp_path):
    import shutil
    import subprocess

    old = _old_install(tmp_path)
    for args in (["init"], ["init", "--agent", "codex"]):
        proc = subprocess.run([old / "dp", *args], env=env, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0 and str(old / "pave-check") in proc.stdout, proc.stdout + proc.stderr
    shutil.rmtree(old.parent)  # pip uninstall desire-paths (the venv gone), without dp uninstall

    report = json.loads(dp("doctor", "--json").stdout)
    dangling = [check for check in report["checks"] if check["check"] == "dangling"]
    assert [check["status"] for check in dangling] == ["error", "error"] and report["ok"] is False
    assert all(f"run {old / 'pave-check'} and {old / 'dp-capture'}, which are gone" in check["message"]
               for check in dangling)
    assert dangling[0]["fix"].startswith("dp doctor --fix")
    # Whatever else still runs says so too: a rule change would write the gone program back.
    alias = dp("alias", "--cmd", "grep", "--replace", "rg")
    assert f"runs {old / 'pave-check'}, which is gone (dp was uninstalled or moved): run dp doctor --fix" in alias.stderr

    fixed = dp("doctor", "--fix")
    assert fixed.returncode == 0, fixed.stdout
    assert fixed.stdout.startswith(f"fixed  user scope ({home / '.claude' / 'settings.json'}): dp's hook entries ran "
                                   f"{old / 'pave-check'} and {old / 'dp-capture'}; they run this dp's dp-capture and "
                                   "pave-check now\n")
    assert "dangling" not in fixed.stdout.split("\n\n", 1)[1] and "0 error(s)" in fixed.stdout
    settings = json.loads((home / ".claude" / "settings.json").read_text())
    [command] = {hook["command"] for group in settings["hooks"]["PreToolUse"] for hook in group["hooks"]}
    answer = subprocess.run(command, shell=True, env=env, capture_output=True, text=True, timeout=60,
                            input=json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash", "session_id": "s",
                                              "cwd": str(home), "tool_input": {"command": "grep -n x a.py"}}))
    assert json.loads(answer.stdout)["hookSpecificOutput"]["updatedInput"]["command"] == "rg -n x a.py"
    # The record follows: the next rule change keeps this dp's program.
    dp("alias", "--cmd", "find", "--replace", "fd")
    assert str(old) not in (home / ".claude" / "settings.json").read_text()
    assert str(old) not in (home / ".codex" / "hooks.json").read_text()


def test_doctor_fix_makes_a_missing_store_and_a_missing_gate_and_says_so(dp, db_path):
    dp("alias", "--cmd", "grep", "--replace", "rg")
    gate = db_path.with_name(db_path.name + ".hook-gate")
    gate.unlink()
    proc = dp("doctor", "--fix")
    assert "fixed  wrote the hook's gate beside the store again (it was missing)\n" in proc.stdout
    assert gate.exists()
    again = dp("doctor", "--fix")
    assert again.stdout.startswith("nothing to fix\n")

    for path in db_path.parent.glob(db_path.name + "*"):  # the store, its WAL files and its gate
        path.unlink()
    proc = dp("doctor", "--fix", "--json")
    assert json.loads(proc.stdout)["fixed"] == [f"created the store {db_path} (empty: add rules with dp alias)"]
    assert db_path.exists()


@pytest.mark.parametrize("how", ["venv", "uv", "pipx"])
def test_the_team_driver_hint_names_the_command_for_the_way_dp_was_installed(env, home, tmp_path, how):
    import subprocess

    bin_dir = _old_install(tmp_path, f"{how}-env", without=("psycopg",))
    prefix = bin_dir.parent
    source = tmp_path / "dp-clone"
    expected = {"venv": f"{prefix / 'bin' / 'pip'} install 'psycopg[binary]<4,>=3.1'",
                "uv": f"uv tool install --with 'psycopg[binary]<4,>=3.1' {source}",
                "pipx": "pipx inject desire-paths 'psycopg[binary]<4,>=3.1'"}[how]
    if how == "venv":  # the README's virtualenv has its own pip, kept off PATH
        (bin_dir / "pip").write_text("#!/bin/sh\nexit 0\n")
        (bin_dir / "pip").chmod(0o755)
    elif how == "uv":  # what `uv tool install ./dp-clone` leaves beside the tool's environment
        (prefix / "uv-receipt.toml").write_text(f'[tool]\nrequirements = [{{ name = "desire-paths", directory = '
                                                f'"{source}" }}]\n')
    else:
        (prefix / "pipx_metadata.json").write_text('{"main_package": {"package": "desire-paths"}}\n')
    proc = subprocess.run([bin_dir / "dp", "team", "connect", "postgresql://alice@127.0.0.1:9/dp"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert proc.stderr == f"dp: error: dp team needs the PostgreSQL driver: {expected}\n"


# -- output (finding 12) ---------------------------------------------------------------------------------


def _on_a_terminal(dp_args: list, env: dict) -> str:
    """What ``dp ARGS`` prints with stdout and stderr on a real terminal (a pseudo-terminal), as read there."""
    import os
    import pty
    import subprocess

    from conftest import DP_BIN

    leader, follower = pty.openpty()
    proc = subprocess.Popen([str(DP_BIN), *dp_args], stdin=subprocess.DEVNULL, stdout=follower, stderr=follower,
                            env=env)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closed: dp has exited
            break
        if not chunk:
            break
        chunks.append(chunk)
    proc.wait(timeout=120)
    os.close(leader)
    return b"".join(chunks).decode()


def test_colour_on_a_terminal_and_never_with_no_color_in_a_pipe_or_under_json(dp, env):
    colour = {key: value for key, value in env.items() if key != "NO_COLOR"}
    dp("alias", "--cmd", "grep", "--replace", "rg")
    shown = _on_a_terminal(["doctor"], colour)
    assert "\x1b[32mok   \x1b[0m  store" in shown
    assert "\x1b[1;31mdp: error:\x1b[0m " in _on_a_terminal(["init", "--scope", "global"], colour)
    assert "\x1b[" not in _on_a_terminal(["doctor"], {**colour, "NO_COLOR": "1"})
    assert "\x1b[" not in _on_a_terminal(["doctor", "--json"], colour)
    piped = dp("doctor", extra_env={"NO_COLOR": ""})
    assert "\x1b[" not in piped.stdout + piped.stderr and piped.stdout.startswith("ok     store")


def test_errors_are_json_under_json(dp):
    proc = dp("init", "--scope", "global", "--json")
    assert proc.returncode == 1 and proc.stderr == ""
    error = json.loads(proc.stdout)
    assert error["ok"] is False and error["exit_code"] == 1 and error["error"].startswith("unknown scope 'global'")
    usage = dp("nosuch", "--json")
    assert usage.returncode == 2 and json.loads(usage.stdout)["exit_code"] == 2 and usage.stderr == ""


def test_init_for_codex_prints_its_notes_in_a_few_lines(dp, home):
    proc = dp("init", "--agent", "codex")
    assert proc.returncode == 0, proc.stderr
    setup = proc.stdout[:proc.stdout.index("\nLive demo")].strip().splitlines()
    setup = [line for line in setup if "warning: " not in line]  # where dp is installed (a test's venv)
    hook = setup[1:setup.index(next(line for line in setup if line.startswith("Paving: ")))]
    assert hook[0].startswith("Hook:  Installed the dp PreToolUse hook in") and len(hook) <= 6, hook
    assert not [line for line in setup if "select tools, not commands" in line]
    [paving] = [line for line in setup if line.startswith("Paving: ")]
    assert paving.endswith("(dp paving shows how; dp paving off to stop)")


def test_doctor_live_with_the_plugin_says_what_it_checks_instead_of_a_fix_that_is_refused(dp, home, tmp_path):
    claude = tmp_path / "bin" / "claude"  # answers --version as the real one; every `claude plugin` step succeeds
    claude.parent.mkdir()
    claude.write_text("#!/bin/sh\n[ \"$1\" = --version ] && echo '2.1.330 (Claude Code)'\nexit 0\n")
    claude.chmod(0o755)
    env = {"DP_CLAUDE": str(claude), "PATH": f"{claude.parent}:/usr/bin:/bin"}
    assert dp("init", "--plugin", extra_env=env).returncode == 0
    dp("alias", "--cmd", "grep", "--replace", "rg", extra_env=env)
    proc = dp("doctor", "--live", extra_env=env)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.startswith("dp: error: dp is installed as the Claude Code plugin, not as hook entries in ")
    assert "dp pave --hook" not in proc.stderr
