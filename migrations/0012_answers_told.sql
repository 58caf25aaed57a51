-- What dp told a session after a failed call (issue 50): an answer from what dp
-- knows now (dp.learn.known: a table read backwards, another name on PATH, the
-- project's wrapper or tasks, a literal slip, the agent's own tool) or a learned
-- one. One row per session and change (kind, command, from_text, to_text: the
-- same key for a learned answer and for knowledge of the same change), so a
-- session hears each once however dp found it. Replaces learned_told (keyed by
-- the learned row's id), whose rows move here. What was told, and what the
-- agent did next, is dp's action (actions, 0009: dp stats).
CREATE TABLE IF NOT EXISTS told (
    session_id TEXT NOT NULL,
    kind       TEXT NOT NULL,
    command    TEXT NOT NULL,
    from_text  TEXT NOT NULL,
    to_text    TEXT NOT NULL,
    PRIMARY KEY (session_id, kind, command, from_text, to_text)
) WITHOUT ROWID;
INSERT OR IGNORE INTO told (session_id, kind, command, from_text, to_text)
    SELECT t.session_id, l.kind, l.command, l.from_text, l.to_text
    FROM learned_told AS t JOIN learned AS l ON l.id = t.learned_id;
DROP TABLE learned_told;
-- A learned answer per change, no longer per failed words: two repositories that
-- fix the same failure differently (mvn -> ./mvnw here, mvn -> ./build/mvn there)
-- each keep theirs, scoped to where it was learned (dp.learn.generalise).
CREATE TABLE learned_by_change (
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
    scope      TEXT,
    UNIQUE (tool_name, command, kind, from_text, to_text)
);
INSERT INTO learned_by_change (id, tool_name, command, kind, from_text, to_text, pairs, sessions, evidence,
                               learned_at, scope)
    SELECT id, tool_name, command, kind, from_text, to_text, pairs, sessions, evidence, learned_at, scope
    FROM learned;
DROP TABLE learned;
ALTER TABLE learned_by_change RENAME TO learned;
