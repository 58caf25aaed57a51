"""A rule's origin (migration 0013) stays with the rule through every move and replace, and only a rule dp
made can be switched off (issue 51): on a real SQLite store through dp.store's Store."""

from __future__ import annotations

import sqlite3

from dp.rules.model import Rule
from dp.store import Store
from dp.store.origins import made_rules, switched_off
from dp.store.write import SUGGESTED


def _rule(to: str = "python3", origin: str = "") -> Rule:
    rule = Rule("python", to, "Bash", "command", "python", "command")
    rule.origin = origin
    return rule


def test_a_shadow_rule_dp_made_keeps_its_origin_when_promoted_and_updated(tmp_path):
    with Store.open(tmp_path / "dp.db") as store:
        store.set_shadow(_rule(origin=SUGGESTED))
        assert store.shadow_rules()[0].origin == SUGGESTED
        store.set_rule(_rule())  # the person promotes it with dp alias: still dp's
        assert store.get_rule(_rule()).origin == SUGGESTED and store.shadow_rules() == []
        store.set_rule(_rule("python3.12"))  # and changes what it rewrites to
        assert store.get_rule(_rule()).origin == SUGGESTED
        assert [rule.to_name for rule in made_rules(store.conn)] == ["python3.12"]


def test_a_persons_rule_never_becomes_dps_and_cannot_be_switched_off(tmp_path):
    with Store.open(tmp_path / "dp.db") as store:
        store.set_rule(_rule())
        store.set_rule(_rule(origin=SUGGESTED))  # dp suggest --apply of the same rule
        assert store.get_rule(_rule()).origin == ""
        assert store.switch_off(_rule(), "python → python3", "hurts") is False
        assert store.get_rule(_rule()) is not None and switched_off(store.conn) == []


def test_switched_off_then_enabled_by_a_person_is_theirs(tmp_path):
    with Store.open(tmp_path / "dp.db") as store:
        store.set_rule(_rule(origin=SUGGESTED))
        assert store.switch_off(_rule(), "python → python3", "2 of its 2 calls were made worse") is True
        assert store.get_rule(_rule()) is None and store.list_rules() == []
        [entry] = switched_off(store.conn)
        assert (entry["label"], entry["rule"].origin, entry["told"]) == ("python → python3", SUGGESTED, False)
        store.set_rule(_rule())
        assert store.get_rule(_rule()).origin == "" and switched_off(store.conn) == []


def test_a_deleted_rule_leaves_no_origin_for_the_next_rule_with_its_key(tmp_path):
    with Store.open(tmp_path / "dp.db") as store:
        store.set_rule(_rule(origin=SUGGESTED))
        store.delete_rule(_rule())
        store.set_rule(_rule())
        assert store.get_rule(_rule()).origin == ""
    with sqlite3.connect(tmp_path / "dp.db") as conn:
        assert conn.execute("SELECT count(*) FROM rule_origins").fetchone() == (0,)
