-- The team's aggregates as rollups (issue 51): dp_team_groups() read from
-- tables kept up to date on every change of dp_events, so the team's views
-- cost the number of members and groups, not of events (at 1,000,000 events
-- the GROUP BY of 0002 took 13 to 19 s a view).
--
-- * dp_member_groups: per member, one row per group of their events (the
--   columns dp_team_groups() groups by, found by a hash of them), with their
--   events and sessions counted, their keyed person pseudonym (0002's
--   dp_keyed, the secret in dp_secret) and their first and last day.
-- * dp_member_group_parts: per member and group, each session, machine,
--   repository and day behind it (and the member, as a person) with how many
--   events it holds; the keyed pseudonym computed once, when it appears. A
--   part whose events reach 0 is deleted, and the counts follow, so an event
--   that moves to another group (what worked next in its session changed) or
--   is deleted (the owner's purge) leaves every count exact.
-- * Statement triggers keep them (with the rows each statement changed: one
--   pass a batch, not a row), as the owner whatever member's dp_upload() or
--   owner's statement made the change; TRUNCATE empties them.
--
-- Every rollup row is one member's: a member's upload writes and locks only
-- rows of their own, so no member can hold a lock another member's upload
-- waits on (an open transaction after dp_upload() blocks no one else), and a
-- member's counts are exactly what dp_upload() wrote for them. Nothing
-- changes for a member: no privilege on the new tables (they hold members and
-- machines in clear), the same dp_team_groups() columns and meaning (keyed
-- pseudonyms, sessions counted per member, times as days), one member one
-- person whatever they insert.

CREATE TABLE IF NOT EXISTS dp_member_groups (
    member      text NOT NULL,
    -- sha256 of the grouping columns (dp_group_key): texts of any length, one index entry.
    key         bytea NOT NULL,
    outcome     text NOT NULL,
    tool_name   text NOT NULL,
    command     text NOT NULL,
    subcommand  text NOT NULL,
    flags       text NOT NULL,
    input_keys  text NOT NULL,
    error_class text NOT NULL,
    error_hint  text NOT NULL,
    then_shapes text NOT NULL,
    person      text NOT NULL,
    events      bigint NOT NULL DEFAULT 0,
    sessions    bigint NOT NULL DEFAULT 0,
    first_day   date,
    last_day    date,
    PRIMARY KEY (member, key)
);

CREATE TABLE IF NOT EXISTS dp_member_group_parts (
    member    text NOT NULL,
    key       bytea NOT NULL,
    -- session, person, machine (the member's), repository, day (UTC).
    kind      text NOT NULL,
    value     text NOT NULL,
    pseudonym text,
    events    bigint NOT NULL,
    PRIMARY KEY (member, key, kind, value)
);
-- The team's machines and repositories per group, read without the sessions and days.
CREATE INDEX IF NOT EXISTS dp_member_group_parts_kind ON dp_member_group_parts (kind, key, pseudonym);

REVOKE ALL ON dp_member_groups, dp_member_group_parts FROM PUBLIC;
REVOKE ALL ON dp_member_groups, dp_member_group_parts FROM dp_member;

-- The group an event falls in: what 0002's dp_team_groups() grouped by (input keys only for tools
-- other than Bash), hashed.
CREATE OR REPLACE FUNCTION public.dp_group_key(
    outcome text, tool_name text, command text, subcommand text, flags text, input_keys text,
    error_class text, error_hint text, then_shapes text)
RETURNS bytea LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT sha256(convert_to(jsonb_build_array(
        outcome, tool_name, command, subcommand, flags, CASE WHEN tool_name = 'Bash' THEN '[]' ELSE input_keys END,
        error_class, error_hint, then_shapes)::text, 'UTF8'))
$$;

-- The parts of a group an event counts in (a session is its member's: sessions are counted per member,
-- a machine its member's: 0002's pseudonym of a machine). A time that is no time has no day.
CREATE OR REPLACE FUNCTION public.dp_event_parts(
    member text, machine text, session text, repository text, happened_at timestamptz)
RETURNS TABLE (kind text, value text) LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT p.kind, p.value FROM (VALUES
        ('session', length(member) || ':' || member || session),
        ('person', member),
        ('machine', length(member) || ':' || member || machine),
        ('repository', nullif(repository, '')),
        ('day', CASE WHEN isfinite(happened_at) THEN to_char(happened_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') END))
        AS p(kind, value)
    WHERE p.value IS NOT NULL
$$;

CREATE OR REPLACE FUNCTION public.dp_roll_events()
RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    -- The rows the statement changed: +1 each new one, -1 each old one, with its group's key.
    keyed text := format(
        'SELECT public.dp_group_key(c.outcome, c.tool_name, c.command, c.subcommand, c.flags, c.input_keys, '
        'c.error_class, c.error_hint, c.then_shapes) AS key, c.* FROM (%s) c',
        CASE TG_OP WHEN 'INSERT' THEN 'SELECT n.*, 1 AS sign FROM new_rows n'
                   WHEN 'DELETE' THEN 'SELECT o.*, -1 AS sign FROM old_rows o'
                   ELSE 'SELECT n.*, 1 AS sign FROM new_rows n UNION ALL SELECT o.*, -1 FROM old_rows o' END);
    -- Each (member, group) the statement touched.
    touched text := format('SELECT DISTINCT k.member, k.key FROM (%s) k', keyed);
BEGIN
    EXECUTE format($sql$
        INSERT INTO public.dp_member_groups (member, key, outcome, tool_name, command, subcommand, flags, input_keys,
                                             error_class, error_hint, then_shapes, person)
        SELECT DISTINCT ON (k.member, k.key) k.member, k.key, k.outcome, k.tool_name, k.command, k.subcommand,
               k.flags, CASE WHEN k.tool_name = 'Bash' THEN '[]' ELSE k.input_keys END, k.error_class, k.error_hint,
               k.then_shapes, public.dp_keyed(s.key, 'person', k.member)
        FROM (%s) k CROSS JOIN public.dp_secret s WHERE k.sign > 0 ORDER BY k.member, k.key
        ON CONFLICT (member, key) DO NOTHING
    $sql$, keyed);
    -- Each part's events change by the sum of the signs; a member's group's events by its person part's
    -- (every event has one); its sessions by the session parts that appear (were 0) less those that reach 0.
    EXECUTE format($sql$
        WITH parts AS (
            SELECT k.member, k.key, p.kind, p.value, sum(k.sign) AS n
            FROM (%s) k
            CROSS JOIN LATERAL public.dp_event_parts(k.member, k.machine, k.session, k.repository, k.happened_at) p
            GROUP BY 1, 2, 3, 4 HAVING sum(k.sign) <> 0
        ), written AS (
            INSERT INTO public.dp_member_group_parts AS t (member, key, kind, value, pseudonym, events)
            SELECT parts.member, parts.key, parts.kind, parts.value,
                   CASE WHEN parts.kind IN ('machine', 'repository')
                        THEN public.dp_keyed(s.key, parts.kind, parts.value) END, parts.n
            FROM parts CROSS JOIN public.dp_secret s
            ORDER BY 1, 2, 3, 4
            ON CONFLICT (member, key, kind, value) DO UPDATE SET events = t.events + EXCLUDED.events
            RETURNING t.member, t.key, t.kind, t.value, t.events
        ), moved AS (
            SELECT w.member, w.key, coalesce(sum(p.n) FILTER (WHERE w.kind = 'person'), 0) AS events,
                   count(*) FILTER (WHERE w.kind = 'session' AND w.events > 0 AND w.events = p.n)
                 - count(*) FILTER (WHERE w.kind = 'session' AND w.events <= 0 AND w.events <> p.n) AS sessions
            FROM written w JOIN parts p USING (member, key, kind, value)
            GROUP BY 1, 2
        )
        UPDATE public.dp_member_groups g SET events = g.events + m.events, sessions = g.sessions + m.sessions
        FROM moved m WHERE (g.member, g.key) = (m.member, m.key)
    $sql$, keyed);
    IF TG_OP <> 'INSERT' THEN
        EXECUTE format($sql$
            WITH touched AS (%s), parts AS (
                DELETE FROM public.dp_member_group_parts t USING touched
                WHERE (t.member, t.key) = (touched.member, touched.key) AND t.kind <> 'session' AND t.events <= 0
            )
            DELETE FROM public.dp_member_groups g USING touched
            WHERE (g.member, g.key) = (touched.member, touched.key) AND g.events <= 0
        $sql$, touched);
        EXECUTE format($sql$
            DELETE FROM public.dp_member_group_parts t
            USING (SELECT DISTINCT k.member, k.key, p.kind, p.value FROM (%s) k
                   CROSS JOIN LATERAL public.dp_event_parts(k.member, k.machine, k.session, k.repository,
                                                            k.happened_at) p
                   WHERE k.sign < 0 AND p.kind = 'session') gone
            WHERE (t.member, t.key, t.kind, t.value) = (gone.member, gone.key, gone.kind, gone.value) AND t.events <= 0
        $sql$, keyed);
    END IF;
    -- The first and last day of each member's group touched, from its day parts (a member's few).
    EXECUTE format($sql$
        UPDATE public.dp_member_groups g
        SET first_day = (SELECT min(p.value)::date FROM public.dp_member_group_parts p
                         WHERE (p.member, p.key, p.kind) = (g.member, g.key, 'day')),
            last_day = (SELECT max(p.value)::date FROM public.dp_member_group_parts p
                        WHERE (p.member, p.key, p.kind) = (g.member, g.key, 'day'))
        FROM (%s) touched WHERE (g.member, g.key) = (touched.member, touched.key)
    $sql$, touched);
    RETURN NULL;
END
$$;

-- TRUNCATE has no transition table: the owner's TRUNCATE of a table empties the rollups its trigger
-- names (the events' here; 0003's of the actions moves to this one function).
CREATE OR REPLACE FUNCTION public.dp_rollups_truncated()
RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    rollup text;
BEGIN
    FOREACH rollup IN ARRAY TG_ARGV LOOP
        EXECUTE format('TRUNCATE public.%I', rollup);
    END LOOP;
    RETURN NULL;
END
$$;
REVOKE ALL ON FUNCTION public.dp_rollups_truncated() FROM PUBLIC;
DROP TRIGGER IF EXISTS dp_actions_truncated ON dp_actions;
CREATE TRIGGER dp_actions_truncated AFTER TRUNCATE ON dp_actions
    FOR EACH STATEMENT EXECUTE FUNCTION public.dp_rollups_truncated('dp_outcome_days');
DROP FUNCTION IF EXISTS public.dp_roll_actions_truncated();
REVOKE ALL ON FUNCTION public.dp_roll_events() FROM PUBLIC;

-- The rollups of the events already there: taken out and put back once the triggers are in place
-- (in the migration's one transaction: no member sees the table empty).
CREATE TEMPORARY TABLE dp_events_before ON COMMIT DROP AS SELECT * FROM public.dp_events;
DELETE FROM public.dp_events;
TRUNCATE dp_member_groups, dp_member_group_parts;

DROP TRIGGER IF EXISTS dp_events_rolled_insert ON dp_events;
DROP TRIGGER IF EXISTS dp_events_rolled_update ON dp_events;
DROP TRIGGER IF EXISTS dp_events_rolled_delete ON dp_events;
DROP TRIGGER IF EXISTS dp_events_truncated ON dp_events;
CREATE TRIGGER dp_events_rolled_insert AFTER INSERT ON dp_events REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION public.dp_roll_events();
CREATE TRIGGER dp_events_rolled_update AFTER UPDATE ON dp_events
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.dp_roll_events();
CREATE TRIGGER dp_events_rolled_delete AFTER DELETE ON dp_events REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION public.dp_roll_events();
CREATE TRIGGER dp_events_truncated AFTER TRUNCATE ON dp_events
    FOR EACH STATEMENT EXECUTE FUNCTION public.dp_rollups_truncated('dp_member_groups', 'dp_member_group_parts');

INSERT INTO public.dp_events SELECT * FROM pg_temp.dp_events_before;

-- The team's aggregates, as 0002 defined them, read from the rollups: per group the members' counts
-- summed (sessions are counted per member), at most 1,000 pseudonyms of each kind, the first and last day.
CREATE OR REPLACE FUNCTION public.dp_team_groups()
RETURNS TABLE (
    outcome text, tool_name text, command text, subcommand text, flags text, input_keys text,
    error_class text, error_hint text, then_shapes text,
    events bigint, sessions bigint, people text[], machines text[], repositories text[],
    first_seen timestamptz, last_seen timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
SET lock_timeout = '5s'
AS $$
    WITH team AS (
        SELECT g.key, min(g.member) AS one, sum(g.events)::bigint AS events, sum(g.sessions)::bigint AS sessions,
               (array_agg(g.person ORDER BY g.person))[1:1000] AS people,
               min(g.first_day) AS first_day, max(g.last_day) AS last_day
        FROM public.dp_member_groups g WHERE g.events > 0 GROUP BY g.key
    ), named AS (
        SELECT p.kind, p.key, (array_agg(DISTINCT p.pseudonym))[1:1000] AS pseudonyms
        FROM public.dp_member_group_parts p WHERE p.kind IN ('machine', 'repository') GROUP BY p.kind, p.key
    )
    SELECT g.outcome, g.tool_name, g.command, g.subcommand, g.flags, g.input_keys, g.error_class, g.error_hint,
           g.then_shapes, t.events, t.sessions, t.people, m.pseudonyms, r.pseudonyms,
           t.first_day::timestamp AT TIME ZONE 'UTC', t.last_day::timestamp AT TIME ZONE 'UTC'
    FROM team t JOIN public.dp_member_groups g ON (g.member, g.key) = (t.one, t.key)
    LEFT JOIN named m ON m.kind = 'machine' AND m.key = t.key
    LEFT JOIN named r ON r.kind = 'repository' AND r.key = t.key
$$;
