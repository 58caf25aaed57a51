-- A team's captured events (dp team sync), one row per event per machine, and
-- the aggregates every member may read. Applied by `dp team migrate` under an
-- advisory lock, recorded in dp_schema_version (dp/team/schema.py).
--
-- Who sees what is PostgreSQL's job, not dp's: a member is a login role
-- granted dp_member; row-level security lets it read, insert, change and
-- delete only rows whose member is its own role, and the team's view is
-- dp_team_groups(), a SECURITY DEFINER function returning aggregates only
-- (no member, machine, repository or session in clear: counts and
-- pseudonyms).

DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'dp_member') THEN
        CREATE ROLE dp_member NOLOGIN;
    END IF;
END
$$;

CREATE TABLE IF NOT EXISTS dp_events (
    member      text NOT NULL DEFAULT current_user,
    -- A random id made by `dp team connect` on each machine (store).
    machine     text NOT NULL,
    -- Stable per event: a hash of the local store's event key (or row id and time).
    event_id    text NOT NULL,
    -- Pseudonyms (hashes) of the repository and the agent session, never paths.
    repository  text NOT NULL DEFAULT '',
    session     text NOT NULL DEFAULT '',
    outcome     text NOT NULL CHECK (outcome IN ('failure', 'success')),
    tool_name   text NOT NULL,
    command     text NOT NULL DEFAULT '',
    subcommand  text NOT NULL DEFAULT '',
    flags       text NOT NULL DEFAULT '[]',
    input_keys  text NOT NULL DEFAULT '[]',
    error_class text NOT NULL DEFAULT '',
    -- Only what a tool's message suggested or rejected, never the message itself.
    error_hint  text NOT NULL DEFAULT '',
    -- The Bash shapes that succeeded next in the same session (JSON list).
    then_shapes text NOT NULL DEFAULT '[]',
    happened_at timestamptz NOT NULL,
    uploaded_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (member, machine, event_id)
);

CREATE INDEX IF NOT EXISTS dp_events_shape ON dp_events (outcome, tool_name, command, subcommand, error_class);

ALTER TABLE dp_events ENABLE ROW LEVEL SECURITY;
REVOKE ALL ON dp_events FROM PUBLIC;
GRANT SELECT, INSERT, UPDATE, DELETE ON dp_events TO dp_member;

DROP POLICY IF EXISTS dp_own_rows ON dp_events;
CREATE POLICY dp_own_rows ON dp_events FOR ALL TO dp_member
    USING (member = current_user) WITH CHECK (member = current_user);

-- The team's aggregates: one row per shape, hint and what worked next, with
-- how many events, sessions, and which people, machines and repositories
-- (as short hashes: enough to count distinct ones across groups).
CREATE OR REPLACE FUNCTION dp_team_groups()
RETURNS TABLE (
    outcome text, tool_name text, command text, subcommand text, flags text, input_keys text,
    error_class text, error_hint text, then_shapes text,
    events bigint, sessions bigint, people text[], machines text[], repositories text[],
    first_seen timestamptz, last_seen timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT e.outcome, e.tool_name, e.command, e.subcommand, e.flags,
           CASE WHEN e.tool_name = 'Bash' THEN '[]' ELSE e.input_keys END,
           e.error_class, e.error_hint, e.then_shapes,
           count(*), count(DISTINCT e.session),
           array_agg(DISTINCT left(md5(e.member), 12)),
           array_agg(DISTINCT left(md5(e.member || '/' || e.machine), 12)),
           array_agg(DISTINCT e.repository) FILTER (WHERE e.repository <> ''),
           min(e.happened_at), max(e.happened_at)
    FROM public.dp_events e
    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9
$$;

-- Members read the schema version (dp checks it before a sync).
GRANT SELECT ON dp_schema_version TO dp_member;

REVOKE ALL ON FUNCTION dp_team_groups() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION dp_team_groups() TO dp_member;
