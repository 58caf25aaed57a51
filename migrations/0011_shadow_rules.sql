-- Shadow rules (issue 51): a rule that rewrites nothing but records what it would
-- have done, so its record can be read before it acts (``dp alias … --shadow``,
-- ``dp suggest --apply --shadow ID``). The columns and key are aliases_v3's; a
-- rule is either here or there (setting it without --shadow moves it there:
-- its promotion). pave-check reads this table only for the words of a call
-- (its gate and the agents' filters include these words), and answers exactly as
-- without it; what a shadow rule would have done is noted as an action of kind
-- ``shadow`` (actions, 0009).
CREATE TABLE IF NOT EXISTS shadow_rules (
    from_name  TEXT NOT NULL,
    to_name    TEXT NOT NULL,
    tool       TEXT NOT NULL DEFAULT '',
    param      TEXT NOT NULL DEFAULT '',
    command    TEXT NOT NULL DEFAULT '',
    match_kind TEXT NOT NULL DEFAULT '',
    message    TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    PRIMARY KEY (from_name, tool, param, command, match_kind)
);
CREATE INDEX IF NOT EXISTS idx_shadow_rules_tool_command ON shadow_rules (tool, command);
