-- What dp did (issue 51): one row per rule that acted on a call (a rewrite,
-- a deny carrying the corrected call in advise mode, a block of a tool-name
-- alias, a project paving) and per learned answer told after a failure.
-- pave-check notes each action in a small spool file beside the store (it
-- never opens SQLite to write); dp-capture, dp ingest and dp stats move the
-- notes here (dp.capture.actions). What happened next is not stored: dp stats
-- joins each action to the captured calls of its session (desires), so a
-- call dp ingest reads from an agent's session files later counts too.
-- No command text: the programs a rule rewrote away and wrote (``from_command``,
-- ``to_command``) are command words, like desires' shapes.
CREATE TABLE IF NOT EXISTS actions (
    id           INTEGER PRIMARY KEY,
    -- "<session>:<call id>", as desires.event_key; NULL when the agent sent no call id.
    event_key    TEXT,
    session_id   TEXT NOT NULL DEFAULT '',
    agent        TEXT NOT NULL DEFAULT '',
    -- rewrite, advise, block, paving, answer; shadow for a rule that only records (issue 51).
    kind         TEXT NOT NULL,
    -- The rule, as dp describes it (``grep → rg``, ``learned #3: python → python3``).
    rule         TEXT NOT NULL,
    -- user, project, local (dp.layers), paving, learned.
    rule_source  TEXT NOT NULL DEFAULT '',
    from_command TEXT NOT NULL DEFAULT '',
    to_command   TEXT NOT NULL DEFAULT '',
    cwd          TEXT NOT NULL DEFAULT '',
    -- ISO 8601 UTC with microseconds, like desires.timestamp.
    timestamp    TEXT NOT NULL,
    UNIQUE (event_key, kind, rule)
);
CREATE INDEX IF NOT EXISTS idx_actions_timestamp ON actions (timestamp);
CREATE INDEX IF NOT EXISTS idx_actions_rule ON actions (rule, timestamp);
