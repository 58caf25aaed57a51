-- Captured tool calls (dp capture, dp ingest). One row per failed call, with
-- its redacted input and error, and one row per command SHAPE of a successful
-- call (tool, command word, subcommand, flags: never arguments or contents),
-- so that a suggestion can see what worked right after a failure.
CREATE TABLE IF NOT EXISTS desires (
    id         INTEGER PRIMARY KEY,
    -- Where the event came from: hook, transcript or desire-path (the Go tool's db).
    source     TEXT NOT NULL,
    -- Identity for idempotent imports: "<session>:<tool_use_id>[#n]" or
    -- "desire-path:<id>"; NULL when the event carries no id.
    event_key  TEXT UNIQUE,
    outcome    TEXT NOT NULL CHECK (outcome IN ('failure', 'success')),
    tool_name  TEXT NOT NULL,
    -- Redacted JSON object (failures only; NULL for successes).
    tool_input TEXT,
    error      TEXT,
    -- The shape: for Bash the command word, subcommand and flags (JSON list);
    -- for other tools the sorted input keys (JSON list).
    command    TEXT NOT NULL DEFAULT '',
    subcommand TEXT NOT NULL DEFAULT '',
    flags      TEXT NOT NULL DEFAULT '[]',
    input_keys TEXT NOT NULL DEFAULT '[]',
    error_class TEXT NOT NULL DEFAULT '',
    session_id TEXT NOT NULL DEFAULT '',
    cwd        TEXT NOT NULL DEFAULT '',
    -- ISO 8601 UTC with microseconds: sorts as text.
    timestamp  TEXT NOT NULL
);

CREATE INDEX IF NOT EXISTS idx_desires_timestamp ON desires (timestamp);
CREATE INDEX IF NOT EXISTS idx_desires_session ON desires (session_id, timestamp);
CREATE INDEX IF NOT EXISTS idx_desires_outcome_tool ON desires (outcome, tool_name);
