-- Where a rule came from, and the rules dp switched off (issue 51).
-- ``origin`` is ``suggest`` for a rule ``dp suggest --apply`` made from captured
-- evidence. A rule with no row here is a person's (every rule from before this
-- migration: dp never switches off a rule it cannot show it made). Keyed by the
-- rule's identity (aliases_v3's key), so the origin stays with the rule whichever
-- table holds it (shadow_rules, aliases_v3, switched_off_rules) and aliases_v3
-- keeps the columns of seed 004 that other tools write.
CREATE TABLE IF NOT EXISTS rule_origins (
    from_name  TEXT NOT NULL,
    tool       TEXT NOT NULL DEFAULT '',
    param      TEXT NOT NULL DEFAULT '',
    command    TEXT NOT NULL DEFAULT '',
    match_kind TEXT NOT NULL DEFAULT '',
    origin     TEXT NOT NULL,
    PRIMARY KEY (from_name, tool, param, command, match_kind)
) WITHOUT ROWID;
-- A rule dp made that hurt clearly (dp.desires.hurting: its rewritten calls
-- failed where the program it replaced had worked, or the agent undid them) is
-- moved here from aliases_v3: it no longer acts (pave-check, its gate and the
-- agents' filters read aliases_v3 and shadow_rules only), and is kept for the
-- record with why and when. Only narrowing: dp never moves a rule back; a person
-- does, with ``dp alias`` and the same rule (its row leaves this table, and the
-- rule is the person's from then on). ``told_at``: when the person was told, ''
-- until then.
CREATE TABLE IF NOT EXISTS switched_off_rules (
    from_name  TEXT NOT NULL,
    to_name    TEXT NOT NULL,
    tool       TEXT NOT NULL DEFAULT '',
    param      TEXT NOT NULL DEFAULT '',
    command    TEXT NOT NULL DEFAULT '',
    match_kind TEXT NOT NULL DEFAULT '',
    message    TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    -- How dp stats names the rule (``grep → rg``), and why dp switched it off.
    label      TEXT NOT NULL DEFAULT '',
    reason     TEXT NOT NULL DEFAULT '',
    switched_off_at TEXT NOT NULL,
    told_at    TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (from_name, tool, param, command, match_kind)
);
