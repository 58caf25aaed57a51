"""A learned answer in a real agent binary (issue 39), the same story in every agent's suite.

A machine with ``python3`` but no ``python`` (the user's PATH is built that way here, whatever the
tester's machine has): in two earlier sessions of the agent the model ran ``python …``, read
``python: command not found`` and ran the same call with ``python3``. dp-capture, installed by
``dp init --agent NAME``, stored both; ``dp suggest`` learns the rename from them. In the next
session the model runs ``python …`` again: the answer must reach it right after that failure, in the
agent's after-failure channel, and a second identical failure in the same session must not repeat it.

``real_client_contract/test_learned_answer.py`` runs the story in every agent that tells it, each
agent's harness giving its way of running one session and where the answer stands in what the model
read; Claude Code's suite tells its own (a project's ./gradlew).
"""

from __future__ import annotations

import json
import os

MISSING, PRESENT = "python", "python3"
EARLIER = (("python scripts/hello.py", "python3 scripts/hello.py"),
           ("python -c 'print(6 * 7)'", "python3 -c 'print(6 * 7)'"))
FAILING = "python scripts/report.py --all"
CORRECTED = "python3 scripts/report.py --all"
ANSWER = "Run this instead:\n" + CORRECTED
WHY = "In 2 earlier sessions the same failure of `python` was fixed by running `python3` instead."


def without_python(user) -> None:
    """Make the user's PATH one where ``python`` is missing and ``python3`` is there (``without``)."""
    without(user, MISSING, PRESENT)


def without(user, missing: str, present: str) -> None:
    """Make the user's PATH one where ``missing`` is not and ``present`` is.

    Every directory of PATH holding a ``missing`` is replaced by a copy of it made of symbolic links
    to everything else it holds, so the rest of the machine (node, git, bash, python3) is unchanged.
    The user's ``~/.profile`` says the same PATH, for agents that run commands in a login shell
    (which starts from /etc/profile's PATH).
    """
    shadows = user.root / f"path-without-{missing}"
    directories = []
    for index, directory in enumerate(user.env["PATH"].split(os.pathsep)):
        if directory and os.access(os.path.join(directory, missing), os.X_OK):
            shadow = shadows / str(index)
            shadow.mkdir(parents=True)
            for entry in os.scandir(directory):
                if entry.name != missing:
                    (shadow / entry.name).symlink_to(entry.path)
            directory = str(shadow)
        directories.append(directory)
    user.env["PATH"] = os.pathsep.join(directories)
    profile = user.home / ".profile"
    profile.write_text(f'export PATH="{user.env["PATH"]}"\n')
    assert _which(present, user.env["PATH"]) and not _which(missing, user.env["PATH"]), f"no {present} here"


def _which(name: str, path: str) -> str | None:
    import shutil

    return shutil.which(name, path=path)


def project(user) -> None:
    """The scripts the sessions run, in the user's project."""
    scripts = user.project / "scripts"
    scripts.mkdir()
    (scripts / "hello.py").write_text("print('hello from the project')\n")
    (scripts / "report.py").write_text("import sys\nprint('report:', ' '.join(sys.argv[1:]))\n")


def learn_then_fail_twice(user, run, call):
    """Two earlier sessions failing and fixed the same way, then ``dp suggest`` learns; then the session
    under test, whose model runs the same failing call twice. ``run(calls)`` runs one session of the
    agent's real binary, each call its own turn; ``call(command)`` is a shell call in the agent's words.
    Returns (that session, its first call, its second call)."""
    for failed, fixed in EARLIER:
        run([call(failed), call(fixed)])
    rows = json.loads(user.dp("desires", "--json").stdout)
    assert sorted(row["tool_input"].get("command") for row in rows) == sorted(failed for failed, _ in EARLIER), rows
    [item] = json.loads(user.dp("suggest", "--json").stdout)
    assert item["alias"] == ["--cmd", MISSING, "--replace", PRESENT] and item["sessions"] == 2, item
    assert {example["then"] for example in item["evidence"]} == {fixed for _, fixed in EARLIER}, item
    assert item["reason"].endswith(f"then ran {PRESENT}, which is on PATH"), item
    first, second = call(FAILING), call(FAILING)
    return run([first, second]), first, second


def count(text: str) -> int:
    """How often the answer (the corrected call, with why dp believes it) appears in ``text``."""
    return text.count(f"{WHY} {ANSWER}")


def setup(user, *init_args) -> None:
    """The machine, the project and dp's hooks (``dp init`` with ``init_args``) for a learned-answer test. A
    python2 stands beside python3, so what dp knows cannot tell which Python `python` meant and says nothing
    (integration_tests/test_known_answers.py): the answer the model reads is the one history taught."""
    without_python(user)
    user.program("python2", "exit 0")
    project(user)
    user.init(*init_args)


def failed(result: str) -> bool:
    """Whether ``result`` holds the shell's "no such program" for ``python``, in bash's words
    (``python: command not found``) or dash's (``sh: 1: python: not found``): an agent that starts
    commands in the user's ``$SHELL`` falls back to ``sh`` where it is unset (Auggie 0.36.0, CI)."""
    return any(f"{MISSING}: {text}" in result for text in ("command not found", "not found"))


def told_once(first: str, second: str, everything: str) -> None:
    """What the model read after the two identical failures of one session (``first``, ``second``)
    and in its whole conversation (``everything``): both failed as typed, the answer came once, after the first."""
    assert failed(first) and failed(second), (first, second)
    assert count(first) == 1 and count(everything) == 1
