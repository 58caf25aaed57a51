"""Which agent a command runs inside (``dp.agents.marking``): the child marker its agent set in its environment,
and for an agent built on another's adapter that sets its parent's marker too (a fork), the fork."""

from __future__ import annotations

from dp.agents import get, marking, names


def test_each_agents_own_marker_names_it():
    for name in names():
        agent = get(name)
        for variable, value in agent.child_markers:
            assert marking({variable: value or "4242"}) == (agent, f"{variable}={value or '4242'}")
    assert marking({"PATH": "/usr/bin"}) == (None, "")


def test_a_fork_marked_with_its_parents_marker_too_is_the_fork_in_any_order():
    parent = next(get(name) for name in names() if get(name).child_markers)
    fork = type("Fork", (type(parent),), {"name": "fork", "display": "Fork", "marks_like": parent.name,
                                          "child_markers": (("FORK_PID", None),)})()
    parents_marks = {variable: value or "1" for variable, value in parent.child_markers}
    inside_fork = {**parents_marks, "FORK_PID": "42"}
    assert marking(inside_fork, [parent, fork]) == (fork, "FORK_PID=42")
    assert marking(inside_fork, [fork, parent]) == (fork, "FORK_PID=42")
    assert marking(parents_marks, [parent, fork])[0] is parent  # the parent's own command
