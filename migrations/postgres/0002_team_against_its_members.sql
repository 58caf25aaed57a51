-- The team store held against one of its own members (issue 48). Upgrades a
-- version-1 database in place, in the one transaction `dp team migrate` runs.
--
-- 1. A row holds shapes or nothing: one CHECK (dp_event_is_sane) bounds every
--    field (words of at most 200 characters without control characters, at
--    most 64 flags or input keys, JSON of the shapes dp writes, a hint of at
--    most 1,000 characters, a time after 2000 and at most a day after the
--    upload). Rows already there that break it are ones no dp client wrote
--    (they broke every member's views); they are deleted, as are rows a
--    member inserted as a group role (SET ROLE dp_member): a role that
--    cannot log in is no person.
-- 2. Members hold no privilege on dp_events at all: not SELECT, not INSERT,
--    not UPDATE or DELETE, so none can LOCK it, read another's rows or write
--    as anyone else. They write through dp_upload() and read through
--    dp_team_groups() and dp_my_events(), SECURITY DEFINER functions with a
--    pinned search_path and a lock_timeout of their own. The member of a row
--    is session_user, the login role: SET ROLE to any group gains nothing.
-- 3. Pseudonyms members cannot reverse: people, machines and repositories are
--    keyed hashes (sha256 of a 256-bit secret and the value), the secret in
--    dp_secret, which only the owner can read; sessions are counted per
--    member and never shown; times are days (UTC).

CREATE TABLE IF NOT EXISTS dp_secret (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    key      bytea NOT NULL CHECK (octet_length(key) >= 30)
);
REVOKE ALL ON dp_secret FROM PUBLIC;
REVOKE ALL ON dp_secret FROM dp_member;
-- gen_random_uuid() draws from the server's strong random source (PostgreSQL 13+): 244 random bits.
INSERT INTO dp_secret (key)
    VALUES (decode(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex'))
    ON CONFLICT DO NOTHING;

-- A word of a shape: at most `longest` characters, no control or bidi-override character
-- (a line break only where `lines`).
CREATE OR REPLACE FUNCTION public.dp_word(value text, longest integer DEFAULT 200, lines boolean DEFAULT false)
RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT value IS NOT NULL AND char_length(value) <= longest
       AND value !~ CASE WHEN lines THEN '[\u0001-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]'
                         ELSE '[\u0001-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]' END
$$;

-- `value` when it is a JSON list of at most `most` items and `longest` bytes, else NULL (never an
-- error: a bad row is refused, not the batch it came in).
CREATE OR REPLACE FUNCTION public.dp_list(value text, longest integer, most integer)
RETURNS jsonb LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$
DECLARE
    parsed jsonb;
BEGIN
    IF value IS NULL OR octet_length(value) > longest THEN
        RETURN NULL;
    END IF;
    parsed := value::jsonb;
    IF jsonb_typeof(parsed) <> 'array' THEN
        RETURN NULL;
    END IF;
    RETURN CASE WHEN jsonb_array_length(parsed) <= most THEN parsed END;
EXCEPTION WHEN data_exception OR program_limit_exceeded THEN
    RETURN NULL;
END
$$;

-- A JSON list of at most `most` words (flags, input keys).
CREATE OR REPLACE FUNCTION public.dp_words(value text, most integer DEFAULT 64)
RETURNS boolean LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$
DECLARE
    parsed jsonb := public.dp_list(value, 16384, most);
BEGIN
    RETURN parsed IS NOT NULL AND NOT EXISTS (
        SELECT FROM jsonb_array_elements(parsed) AS item
        WHERE jsonb_typeof(item) <> 'string' OR NOT public.dp_word(item #>> '{}'));
END
$$;

-- What worked next: a JSON list of at most 4 [command, subcommand, [flags]].
CREATE OR REPLACE FUNCTION public.dp_then(value text)
RETURNS boolean LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$
DECLARE
    parsed jsonb := public.dp_list(value, 65536, 4);
BEGIN
    RETURN parsed IS NOT NULL AND NOT EXISTS (
        SELECT FROM jsonb_array_elements(parsed) AS item
        WHERE NOT CASE WHEN jsonb_typeof(item) <> 'array' THEN false
                       WHEN jsonb_array_length(item) <> 3 THEN false
                       ELSE jsonb_typeof(item -> 0) = 'string' AND public.dp_word(item ->> 0)
                        AND jsonb_typeof(item -> 1) = 'string' AND public.dp_word(item ->> 1)
                        AND public.dp_words((item -> 2)::text) END);
END
$$;

-- An id or pseudonym: letters, digits, '-' and '_', at most 64 (empty where `empty`).
CREATE OR REPLACE FUNCTION public.dp_id(value text, empty boolean DEFAULT false)
RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT value IS NOT NULL AND (value ~ '^[0-9A-Za-z_-]{1,64}$' OR (empty AND value = ''))
$$;

-- Every field of a row: the one rule, for the CHECK, the upload and the upgrade.
CREATE OR REPLACE FUNCTION public.dp_event_is_sane(
    machine text, event_id text, repository text, session text, tool_name text, command text, subcommand text,
    flags text, input_keys text, error_class text, error_hint text, then_shapes text,
    happened_at timestamptz, uploaded_at timestamptz)
RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT coalesce(
        public.dp_id(machine) AND public.dp_id(event_id) AND public.dp_id(repository, true)
        AND public.dp_id(session, true)
        AND tool_name <> '' AND public.dp_word(tool_name) AND public.dp_word(command) AND public.dp_word(subcommand)
        AND public.dp_words(flags) AND public.dp_words(input_keys) AND public.dp_word(error_class)
        AND public.dp_word(error_hint, 1000, true) AND public.dp_then(then_shapes)
        AND isfinite(happened_at) AND isfinite(uploaded_at)
        AND happened_at >= '2000-01-01 00:00:00+00' AND uploaded_at >= '2000-01-01 00:00:00+00'
        AND happened_at <= uploaded_at + interval '1 day', false)
$$;

-- A timestamp as a member sent it, or NULL when it is none (the row is then refused, not the batch).
CREATE OR REPLACE FUNCTION public.dp_moment(value text)
RETURNS timestamptz LANGUAGE plpgsql STABLE PARALLEL SAFE
AS $$
BEGIN
    RETURN value::timestamptz;
EXCEPTION WHEN data_exception THEN
    RETURN NULL;
END
$$;

-- The upgrade: what no dp client wrote goes, then the rule holds for every row.
DELETE FROM dp_events e
WHERE NOT public.dp_event_is_sane(e.machine, e.event_id, e.repository, e.session, e.tool_name, e.command,
                                  e.subcommand, e.flags, e.input_keys, e.error_class, e.error_hint, e.then_shapes,
                                  e.happened_at, e.uploaded_at)
   OR EXISTS (SELECT FROM pg_catalog.pg_roles r WHERE r.rolname = e.member AND NOT r.rolcanlogin);

ALTER TABLE dp_events DROP CONSTRAINT IF EXISTS dp_events_sane;
ALTER TABLE dp_events ADD CONSTRAINT dp_events_sane CHECK (public.dp_event_is_sane(
    machine, event_id, repository, session, tool_name, command, subcommand, flags, input_keys, error_class,
    error_hint, then_shapes, happened_at, uploaded_at));
ALTER TABLE dp_events ALTER COLUMN member SET DEFAULT session_user;

-- No direct access for members: every read and write goes through the functions below.
DROP POLICY IF EXISTS dp_own_rows ON dp_events;
REVOKE ALL ON dp_events FROM PUBLIC;
REVOKE ALL ON dp_events FROM dp_member;

-- dp_upload(events): the connected member's events (a JSON list of objects with dp's upload
-- fields), written as session_user's, and refused whole under SET ROLE. A row already there
-- keeps everything but what worked next in its session; a row that breaks dp_event_is_sane is
-- left out (counted), not the batch.
CREATE OR REPLACE FUNCTION public.dp_upload(events jsonb)
RETURNS TABLE (changed bigint, refused bigint)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
SET lock_timeout = '5s'
AS $$
BEGIN
    -- The role setting is the session's SET ROLE (a definer function changes current_user only).
    IF current_setting('role') NOT IN ('none', session_user) THEN
        RAISE EXCEPTION 'dp_upload writes as your own login role only; SET ROLE % gains nothing',
            current_setting('role') USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF jsonb_typeof(events) IS DISTINCT FROM 'array' OR jsonb_array_length(events) > 100000 THEN
        RAISE EXCEPTION 'dp_upload takes a JSON list of at most 100000 events';
    END IF;
    RETURN QUERY
    WITH given AS (
        SELECT DISTINCT ON (r.machine, r.event_id) r.*, public.dp_moment(r.happened_at) AS at
        FROM jsonb_to_recordset(CASE WHEN NOT EXISTS (SELECT FROM jsonb_array_elements(events) AS item
                                                      WHERE jsonb_typeof(item) <> 'object')
                                     THEN events ELSE '[]'::jsonb END)
             AS r(machine text, event_id text, repository text, session text, outcome text, tool_name text,
                  command text, subcommand text, flags text, input_keys text, error_class text, error_hint text,
                  then_shapes text, happened_at text)
        ORDER BY r.machine, r.event_id
    ), sane AS (
        SELECT * FROM given g
        WHERE g.outcome IN ('failure', 'success')
          AND public.dp_event_is_sane(g.machine, g.event_id, g.repository, g.session, g.tool_name, g.command,
                                      g.subcommand, g.flags, g.input_keys, g.error_class, g.error_hint,
                                      g.then_shapes, g.at, now())
    ), written AS (
        INSERT INTO public.dp_events AS e (member, machine, event_id, repository, session, outcome, tool_name,
                                           command, subcommand, flags, input_keys, error_class, error_hint,
                                           then_shapes, happened_at, uploaded_at)
        SELECT session_user, s.machine, s.event_id, s.repository, s.session, s.outcome, s.tool_name, s.command,
               s.subcommand, s.flags, s.input_keys, s.error_class, s.error_hint, s.then_shapes, s.at, now()
        FROM sane s
        ON CONFLICT (member, machine, event_id) DO UPDATE SET then_shapes = EXCLUDED.then_shapes
            WHERE e.then_shapes IS DISTINCT FROM EXCLUDED.then_shapes
        RETURNING 1
    )
    SELECT (SELECT count(*) FROM written), jsonb_array_length(events) - (SELECT count(*) FROM sane);
END
$$;

-- dp_my_events(): the connected member's own rows, as uploaded (nobody else's).
CREATE OR REPLACE FUNCTION public.dp_my_events()
RETURNS SETOF public.dp_events
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
SET lock_timeout = '5s'
AS $$
    SELECT * FROM public.dp_events WHERE member = session_user
$$;

-- A pseudonym: a keyed hash no one without the key can compute or reverse.
CREATE OR REPLACE FUNCTION public.dp_keyed(key bytea, kind text, value text)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT left(encode(sha256(key || convert_to(kind || ':' || value, 'UTF8')), 'hex'), 16)
$$;

-- The team's aggregates (same columns as version 1): people, machines (of a member) and
-- repositories as keyed pseudonyms, at most 1,000 of each per row; sessions counted per
-- member; the first and last time as days.
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
    SELECT e.outcome, e.tool_name, e.command, e.subcommand, e.flags,
           CASE WHEN e.tool_name = 'Bash' THEN '[]' ELSE e.input_keys END,
           e.error_class, e.error_hint, e.then_shapes,
           count(*), count(DISTINCT (e.member, e.session)),
           (array_agg(DISTINCT public.dp_keyed(s.key, 'person', e.member)))[1:1000],
           (array_agg(DISTINCT public.dp_keyed(s.key, 'machine', length(e.member) || ':' || e.member || e.machine)))[1:1000],
           (array_agg(DISTINCT public.dp_keyed(s.key, 'repository', e.repository))
                FILTER (WHERE e.repository <> ''))[1:1000],
           date_trunc('day', min(e.happened_at), 'UTC'), date_trunc('day', max(e.happened_at), 'UTC')
    FROM public.dp_events e CROSS JOIN public.dp_secret s
    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9
$$;

REVOKE ALL ON FUNCTION public.dp_upload(jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.dp_my_events() FROM PUBLIC;
REVOKE ALL ON FUNCTION public.dp_team_groups() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION public.dp_upload(jsonb) TO dp_member;
GRANT EXECUTE ON FUNCTION public.dp_my_events() TO dp_member;
GRANT EXECUTE ON FUNCTION public.dp_team_groups() TO dp_member;
