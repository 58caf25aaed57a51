-- The alias rules. One row per rule; the primary key is the rule's identity
-- (seed 004). rowid order is the order rules were added, which the hook uses
-- to apply rules of the same kind.
CREATE TABLE IF NOT EXISTS aliases_v3 (
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

-- Serves the hook's "all rules for tool T (and command C)" lookups.
CREATE INDEX IF NOT EXISTS idx_aliases_v3_tool_command ON aliases_v3 (tool, command);
