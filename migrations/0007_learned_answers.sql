-- Learned answers (issue 39): what agents ran next, after a failure, that
-- worked, generalised (dp.learn) and recurring across sessions. The capture
-- hook reads them by (tool_name, command) in one indexed query at the moment
-- of a failure and tells the agent the corrected call. ``kind`` is the rule
-- kind the answer generalises to (command, flag, literal, recipe, path);
-- ``from_text`` / ``to_text`` are its two sides; ``evidence`` is redacted
-- JSON (sessions, repositories, example pairs as shapes).
CREATE TABLE IF NOT EXISTS learned (
    id         INTEGER PRIMARY KEY,
    tool_name  TEXT NOT NULL,
    command    TEXT NOT NULL,
    kind       TEXT NOT NULL,
    from_text  TEXT NOT NULL,
    to_text    TEXT NOT NULL,
    pairs      INTEGER NOT NULL,
    sessions   INTEGER NOT NULL,
    evidence   TEXT NOT NULL DEFAULT '{}',
    learned_at TEXT NOT NULL,
    UNIQUE (tool_name, command, kind, from_text)
);
-- Which session was already told which answer: once per session and answer.
CREATE TABLE IF NOT EXISTS learned_told (
    session_id TEXT NOT NULL,
    learned_id INTEGER NOT NULL,
    PRIMARY KEY (session_id, learned_id)
) WITHOUT ROWID;
