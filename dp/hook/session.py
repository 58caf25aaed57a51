"""pave-check's answer to the two events answered with context only: SessionStart and PostToolBatch.

The text is dp.hook.events'; what happens around it at a session's start is here: the hook filters and the
gate brought in line when they are not (in a process of its own: dp.install sits above the hook), and a
team sync started detached. Imported only for these events, never on the PreToolUse path.
"""

from __future__ import annotations

import os
import subprocess
import sys

from dp.agents.base import SESSION_START
from dp.hook import events
from dp.hook.call import Call
from dp.hook.gate import state
from dp.store.read import db_location

# At most this long for a SessionStart that refreshes the filters (dp.layers.synced), within
# WALL_CEILING_SECONDS with time left for the session's context.
REFRESH_SECONDS = 2
# Beside the store: written by dp team connect / sync (dp.team.config.STATE).
TEAM_STATE = "team.json"


def context(options, event) -> str:
    """The ``additionalContext`` of a SessionStart (the corrections up front, after the filters and the
    gate are brought in line and a team sync is started) or a PostToolBatch (the correction of a rejected
    unknown tool name); "" with no store and no project layers."""
    with Call(options, event) as call:
        conn, project = call.conn, call.project
        if conn is None and project is None:
            return ""
        if event.kind == SESSION_START:
            from dp.layers.effective import merge
            from dp.rules.programs import acting_here
            from dp.store.read import all_rules

            rules = acting_here(merge(all_rules(conn) if conn is not None else [], project), event.cwd)
            notices = project.notices() if project is not None else []
            _refresh_filters(options, conn)
            _start_team_sync(options)
            _start_switch_off(options, conn)
            return events.session_context(event.agent.spelled_rules(rules) if event.agent else rules, notices)
        marks = event.agent.unknown_tool_marks if event.agent else (events.UNKNOWN_TOOL_ERROR,)
        return events.unknown_tool_corrections(conn, event.payload, project, marks)


def _refresh_filters(options, conn) -> None:
    """At SessionStart only: when a trusted project file changed since dp last synced the hook
    filters (dp.layers.synced: a stat per trusted file), sync them now, in a process of its own
    (dp.install sits above the hook), before the session's hooks are read; when only the hook's
    gate is not in line with the rules (dp.hook.gate: a dp that wrote none yet, a change whose
    sync never ran), write that alone. Fails open."""
    if conn is None:
        return
    from dp.layers.synced import stale

    try:
        db = db_location(options.db)
        if stale(db, conn):
            argv = own_python("dp.refresh", str(db))
        elif state(db) != "fresh":
            argv = own_python("dp.refresh", str(db), "--gate")
        else:
            return
        subprocess.run(argv, cwd="/", stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=REFRESH_SECONDS, check=False)
    except Exception:  # noqa: BLE001 - the session's context matters more than fresher filters
        return


def _start_team_sync(options) -> None:
    """At SessionStart only: when this store syncs with a team (its team state exists: the person
    ran ``dp team connect``), start ``dp.team.background`` detached and go on at once: the session
    never waits for the network, and nothing of the team code is imported here. A repository's
    ``[team] url`` starts nothing: it is a suggestion until the person takes it (``dp.team.config``).
    Fails open."""
    try:
        db = db_location(options.db)
        if os.path.exists(os.path.join(os.path.dirname(os.path.abspath(db)), TEAM_STATE)):
            _detached("dp.team.background", db)
    except Exception:  # noqa: BLE001 - a team sync is never worth a session's context
        return


def _start_switch_off(options, conn) -> None:
    """At SessionStart only: when a rule dp made acts (``dp suggest --apply``; one query on the rules, which
    are few), start ``dp.desires.hurting`` detached: it switches off such a rule when the evidence so far
    says clearly that it hurts, so it stops before this session's calls meet it again. Nothing of that is
    imported here, and the session never waits. Fails open."""
    if conn is None:
        return
    from dp.store.read import has_made_rules

    try:
        if has_made_rules(conn):
            _detached("dp.desires.hurting", db_location(options.db))
    except Exception:  # noqa: BLE001 - a check is never worth a session's context
        return


def _detached(module: str, *args: str) -> None:
    """Start ``module``'s ``main(args)`` in a process of its own session, and go on at once."""
    subprocess.Popen(own_python(module, *args), cwd="/", stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL, start_new_session=True)


def own_python(module: str, *args: str) -> list:
    """The argv that runs ``module``'s ``main(args)`` from the dp this process runs, and nothing else.

    The hook runs in the agent's directory, a repository: ``python -m`` would
    put that directory first on ``sys.path``, and a committed ``dp/…`` would be
    what runs. ``-I`` (isolated mode) keeps the working directory, PYTHON*
    variables and the user's site directory off the path; the one directory
    added is the one this dp was imported from, so the child imports the same
    dp wherever it is installed. Callers also start it in ``/``.
    """
    home = os.path.dirname(os.path.dirname(os.path.abspath(sys.modules["dp"].__file__ or "")))
    code = f"import sys; sys.path.insert(0, sys.argv[1]); from {module} import main; sys.exit(main(sys.argv[2:]))"
    return [sys.executable, "-I", "-c", code, home, *args]
