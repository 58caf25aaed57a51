-- What dp did and what happened next, for a team (issue 51): each member's
-- actions (a rule's rewrite, a block, a paving, a learned answer told, a
-- shadow rule's record) as shapes, and the team's figures `dp stats --team`
-- shows. Held against a member exactly as the events are (0002):
--
-- * A row is a shape or nothing: one CHECK (dp_action_is_sane) bounds every
--   field to a fixed vocabulary (kind, rule source, outcome, an agent's name),
--   a program's name (the command a rule rewrote away and the one it wrote,
--   with the runner that runs it: `npx tsc`; no path, at most four words),
--   ids and pseudonyms, booleans, and a sane time. No command text, no path.
-- * Members hold no privilege on dp_actions or its rollup: they write through
--   dp_upload_actions() as session_user (SET ROLE is refused) and read through
--   dp_team_outcomes(), which returns counts per rule and agent with how many
--   people (a count, never a pseudonym), from a chosen day on.
-- * The figures come from dp_outcome_days, a rollup kept by a statement
--   trigger on every insert, update and delete (the owner's purge too): one
--   row per member, rule, agent and day, so the team's view costs the number
--   of rules and days, not of actions. A member's actions count only as what
--   they uploaded, and the member once among the people.

CREATE OR REPLACE FUNCTION public.dp_action_is_sane(
    machine text, action_id text, repository text, session text, agent text, kind text, rule_source text,
    from_command text, to_command text, outcome text, happened_at timestamptz, uploaded_at timestamptz)
RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT coalesce(
        public.dp_id(machine) AND public.dp_id(action_id) AND public.dp_id(repository, true)
        AND public.dp_id(session, true)
        AND agent ~ '^([a-z][a-z0-9_-]{0,39})?$'
        AND kind IN ('rewrite', 'advise', 'block', 'paving', 'answer', 'shadow')
        AND rule_source IN ('', 'user', 'project', 'local', 'paving', 'learned')
        AND public.dp_word(from_command) AND public.dp_word(to_command)
        AND from_command ~ '^([A-Za-z0-9_][A-Za-z0-9_.:+@%-]*( -{0,2}[A-Za-z0-9_][A-Za-z0-9_.:+@%-]*){0,3})?$'
        AND to_command ~ '^([A-Za-z0-9_][A-Za-z0-9_.:+@%-]*( -{0,2}[A-Za-z0-9_][A-Za-z0-9_.:+@%-]*){0,3})?$'
        AND outcome IN ('success', 'failure', 'unknown')
        AND isfinite(happened_at) AND isfinite(uploaded_at)
        AND happened_at >= '2000-01-01 00:00:00+00' AND uploaded_at >= '2000-01-01 00:00:00+00'
        AND happened_at <= uploaded_at + interval '1 day', false)
$$;

CREATE TABLE IF NOT EXISTS dp_actions (
    member       text NOT NULL DEFAULT session_user,
    machine      text NOT NULL,
    -- A hash of the local action's call, kind and rule: the same action always has the same id.
    action_id    text NOT NULL,
    repository   text NOT NULL DEFAULT '',
    session      text NOT NULL DEFAULT '',
    agent        text NOT NULL DEFAULT '',
    kind         text NOT NULL,
    rule_source  text NOT NULL DEFAULT '',
    from_command text NOT NULL,
    to_command   text NOT NULL DEFAULT '',
    -- What happened next, as dp stats judged it on the member's machine (dp.desires.stats.judge).
    outcome      text NOT NULL,
    undone       boolean NOT NULL DEFAULT false,
    prevented    boolean NOT NULL DEFAULT false,
    failed_where_original_worked boolean NOT NULL DEFAULT false,
    followed     boolean NOT NULL DEFAULT false,
    followed_and_worked boolean NOT NULL DEFAULT false,
    repeated     boolean NOT NULL DEFAULT false,
    needless     boolean NOT NULL DEFAULT false,
    happened_at  timestamptz NOT NULL,
    uploaded_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (member, machine, action_id),
    CONSTRAINT dp_actions_sane CHECK (public.dp_action_is_sane(
        machine, action_id, repository, session, agent, kind, rule_source, from_command, to_command, outcome,
        happened_at, uploaded_at))
);
REVOKE ALL ON dp_actions FROM PUBLIC;
REVOKE ALL ON dp_actions FROM dp_member;

-- The rollup: per member, rule, agent and day, every count dp stats shows.
CREATE TABLE IF NOT EXISTS dp_outcome_days (
    member       text NOT NULL,
    kind         text NOT NULL,
    rule_source  text NOT NULL,
    from_command text NOT NULL,
    to_command   text NOT NULL,
    agent        text NOT NULL,
    day          date NOT NULL,
    actions      bigint NOT NULL,
    succeeded    bigint NOT NULL,
    failed       bigint NOT NULL,
    unknown      bigint NOT NULL,
    undone       bigint NOT NULL,
    prevented    bigint NOT NULL,
    failed_where_original_worked bigint NOT NULL,
    followed     bigint NOT NULL,
    followed_and_worked bigint NOT NULL,
    repeated     bigint NOT NULL,
    needless     bigint NOT NULL,
    PRIMARY KEY (member, kind, rule_source, from_command, to_command, agent, day)
);
CREATE INDEX IF NOT EXISTS dp_outcome_days_day ON dp_outcome_days (day);
REVOKE ALL ON dp_outcome_days FROM PUBLIC;
REVOKE ALL ON dp_outcome_days FROM dp_member;

-- The trigger: the changed rows counted (+1 each new row, -1 each old one) into their day's rollup
-- row, in key order (two members' uploads lock rows in the same order: no deadlock), and a rollup
-- row left at no action deleted.
CREATE OR REPLACE FUNCTION public.dp_roll_actions()
RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    changed text := CASE TG_OP
        WHEN 'INSERT' THEN 'SELECT n.*, 1 AS sign FROM new_rows n'
        WHEN 'DELETE' THEN 'SELECT o.*, -1 AS sign FROM old_rows o'
        ELSE 'SELECT n.*, 1 AS sign FROM new_rows n UNION ALL SELECT o.*, -1 FROM old_rows o' END;
BEGIN
    EXECUTE format($sql$
        WITH c AS (%s)
        INSERT INTO public.dp_outcome_days AS t
        SELECT c.member, c.kind, c.rule_source, c.from_command, c.to_command, c.agent,
               (c.happened_at AT TIME ZONE 'UTC')::date, sum(c.sign),
               sum(c.sign * (c.outcome = 'success')::int), sum(c.sign * (c.outcome = 'failure')::int),
               sum(c.sign * (c.outcome = 'unknown')::int), sum(c.sign * c.undone::int),
               sum(c.sign * c.prevented::int), sum(c.sign * c.failed_where_original_worked::int),
               sum(c.sign * c.followed::int), sum(c.sign * c.followed_and_worked::int),
               sum(c.sign * c.repeated::int), sum(c.sign * c.needless::int)
        FROM c GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7
        ON CONFLICT (member, kind, rule_source, from_command, to_command, agent, day) DO UPDATE SET
            actions = t.actions + EXCLUDED.actions, succeeded = t.succeeded + EXCLUDED.succeeded,
            failed = t.failed + EXCLUDED.failed, unknown = t.unknown + EXCLUDED.unknown,
            undone = t.undone + EXCLUDED.undone, prevented = t.prevented + EXCLUDED.prevented,
            failed_where_original_worked = t.failed_where_original_worked + EXCLUDED.failed_where_original_worked,
            followed = t.followed + EXCLUDED.followed,
            followed_and_worked = t.followed_and_worked + EXCLUDED.followed_and_worked,
            repeated = t.repeated + EXCLUDED.repeated, needless = t.needless + EXCLUDED.needless
    $sql$, changed);
    IF TG_OP <> 'INSERT' THEN
        EXECUTE format($sql$
            WITH c AS (%s)
            DELETE FROM public.dp_outcome_days t
            USING (SELECT DISTINCT member, kind, rule_source, from_command, to_command, agent,
                          (happened_at AT TIME ZONE 'UTC')::date AS day FROM c WHERE c.sign < 0) g
            WHERE (t.member, t.kind, t.rule_source, t.from_command, t.to_command, t.agent, t.day)
                = (g.member, g.kind, g.rule_source, g.from_command, g.to_command, g.agent, g.day)
              AND t.actions <= 0
        $sql$, changed);
    END IF;
    RETURN NULL;
END
$$;
REVOKE ALL ON FUNCTION public.dp_roll_actions() FROM PUBLIC;

DROP TRIGGER IF EXISTS dp_actions_rolled_insert ON dp_actions;
DROP TRIGGER IF EXISTS dp_actions_rolled_update ON dp_actions;
DROP TRIGGER IF EXISTS dp_actions_rolled_delete ON dp_actions;
CREATE TRIGGER dp_actions_rolled_insert AFTER INSERT ON dp_actions REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION public.dp_roll_actions();
CREATE TRIGGER dp_actions_rolled_update AFTER UPDATE ON dp_actions
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.dp_roll_actions();
CREATE TRIGGER dp_actions_rolled_delete AFTER DELETE ON dp_actions REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION public.dp_roll_actions();

-- TRUNCATE has no transition table: the owner's TRUNCATE of the actions empties their rollup.
CREATE OR REPLACE FUNCTION public.dp_roll_actions_truncated()
RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    TRUNCATE public.dp_outcome_days;
    RETURN NULL;
END
$$;
REVOKE ALL ON FUNCTION public.dp_roll_actions_truncated() FROM PUBLIC;
DROP TRIGGER IF EXISTS dp_actions_truncated ON dp_actions;
CREATE TRIGGER dp_actions_truncated AFTER TRUNCATE ON dp_actions
    FOR EACH STATEMENT EXECUTE FUNCTION public.dp_roll_actions_truncated();

-- What a member uploads (`items`, to function `caller`): only as their own login role (a SET ROLE
-- to any group gains nothing), only a JSON list of at most 100,000 objects (none at all when one
-- item is no object: nothing to read fields from).
CREATE OR REPLACE FUNCTION public.dp_uploaded(items jsonb, caller text)
RETURNS jsonb LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF current_setting('role') NOT IN ('none', session_user) THEN
        RAISE EXCEPTION '% writes as your own login role only; SET ROLE % gains nothing', caller,
            current_setting('role') USING ERRCODE = 'insufficient_privilege';
    ELSIF jsonb_typeof(items) IS DISTINCT FROM 'array' OR jsonb_array_length(items) > 100000 THEN
        RAISE EXCEPTION '% takes a JSON list of at most 100000 items', caller;
    END IF;
    RETURN CASE WHEN EXISTS (SELECT FROM jsonb_array_elements(items) AS item WHERE jsonb_typeof(item) <> 'object')
                THEN '[]'::jsonb ELSE items END;
END
$$;

-- dp_upload_actions(actions): the connected member's actions (a JSON list of objects with dp's
-- upload fields), written as session_user's and refused whole under SET ROLE. An action already
-- there takes the new judgement of what happened next (dp ingest may have filled it in since); a
-- row that breaks dp_action_is_sane is left out (counted), not the batch.
CREATE OR REPLACE FUNCTION public.dp_upload_actions(actions jsonb)
RETURNS TABLE (changed bigint, refused bigint)
LANGUAGE sql VOLATILE SECURITY DEFINER
SET lock_timeout = '5s'
SET search_path = pg_catalog, pg_temp
AS $$
    WITH given AS (
        SELECT DISTINCT ON (r.machine, r.action_id) r.*, public.dp_moment(r.happened_at) AS at
        FROM jsonb_to_recordset(public.dp_uploaded(actions, 'dp_upload_actions'))
             AS r(machine text, action_id text, repository text, session text, agent text, kind text,
                  rule_source text, from_command text, to_command text, outcome text, undone boolean,
                  prevented boolean, failed_where_original_worked boolean, followed boolean,
                  followed_and_worked boolean, repeated boolean, needless boolean, happened_at text)
        ORDER BY r.machine, r.action_id
    ), sane AS (
        SELECT * FROM given g
        WHERE num_nulls(g.undone, g.prevented, g.failed_where_original_worked, g.followed, g.followed_and_worked,
                        g.repeated, g.needless) = 0
          AND public.dp_action_is_sane(g.machine, g.action_id, g.repository, g.session, g.agent, g.kind,
                                       g.rule_source, g.from_command, g.to_command, g.outcome, g.at, now())
    ), written AS (
        INSERT INTO public.dp_actions AS a (member, machine, action_id, repository, session, agent, kind,
                                            rule_source, from_command, to_command, outcome, undone, prevented,
                                            failed_where_original_worked, followed, followed_and_worked,
                                            repeated, needless, happened_at, uploaded_at)
        SELECT session_user, s.machine, s.action_id, s.repository, s.session, s.agent, s.kind, s.rule_source,
               s.from_command, s.to_command, s.outcome, s.undone, s.prevented, s.failed_where_original_worked,
               s.followed, s.followed_and_worked, s.repeated, s.needless, s.at, now()
        FROM sane s
        ON CONFLICT (member, machine, action_id) DO UPDATE SET
            outcome = EXCLUDED.outcome, undone = EXCLUDED.undone, prevented = EXCLUDED.prevented,
            failed_where_original_worked = EXCLUDED.failed_where_original_worked, followed = EXCLUDED.followed,
            followed_and_worked = EXCLUDED.followed_and_worked, repeated = EXCLUDED.repeated,
            needless = EXCLUDED.needless
            WHERE (a.outcome, a.undone, a.prevented, a.failed_where_original_worked, a.followed,
                   a.followed_and_worked, a.repeated, a.needless)
                IS DISTINCT FROM (EXCLUDED.outcome, EXCLUDED.undone, EXCLUDED.prevented,
                                  EXCLUDED.failed_where_original_worked, EXCLUDED.followed,
                                  EXCLUDED.followed_and_worked, EXCLUDED.repeated, EXCLUDED.needless)
        RETURNING 1
    )
    SELECT (SELECT count(*) FROM written), jsonb_array_length(actions) - (SELECT count(*) FROM sane)
$$;

-- dp_team_outcomes(since): the team's figures from the day of `since` on: every count per rule
-- (kind, source, the program rewritten away and the one written) and agent (scope 'rule-agent'),
-- and how many people acted per rule ('rule'), per agent ('agent') and in all ('all'): counts of
-- people, never who.
CREATE OR REPLACE FUNCTION public.dp_team_outcomes(since timestamptz)
RETURNS TABLE (
    scope text, kind text, rule_source text, from_command text, to_command text, agent text,
    actions bigint, succeeded bigint, failed bigint, unknown bigint, undone bigint, prevented bigint,
    failed_where_original_worked bigint, followed bigint, followed_and_worked bigint, repeated bigint,
    needless bigint, people bigint)
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
SET lock_timeout = '5s'
AS $$
    SELECT CASE grouping(d.kind, d.agent) WHEN 0 THEN 'rule-agent' WHEN 1 THEN 'rule' WHEN 2 THEN 'agent'
                ELSE 'all' END,
           coalesce(d.kind, ''), coalesce(d.rule_source, ''), coalesce(d.from_command, ''),
           coalesce(d.to_command, ''), coalesce(d.agent, ''),
           sum(d.actions)::bigint, sum(d.succeeded)::bigint, sum(d.failed)::bigint, sum(d.unknown)::bigint,
           sum(d.undone)::bigint, sum(d.prevented)::bigint, sum(d.failed_where_original_worked)::bigint,
           sum(d.followed)::bigint, sum(d.followed_and_worked)::bigint, sum(d.repeated)::bigint,
           sum(d.needless)::bigint, count(DISTINCT d.member)
    FROM public.dp_outcome_days d
    WHERE d.day >= (coalesce(since, '-infinity') AT TIME ZONE 'UTC')::date
    GROUP BY GROUPING SETS ((d.kind, d.rule_source, d.from_command, d.to_command, d.agent),
                            (d.kind, d.rule_source, d.from_command, d.to_command), (d.agent), ())
    HAVING sum(d.actions) > 0
$$;

REVOKE ALL ON FUNCTION public.dp_upload_actions(jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.dp_team_outcomes(timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION public.dp_upload_actions(jsonb) TO dp_member;
GRANT EXECUTE ON FUNCTION public.dp_team_outcomes(timestamptz) TO dp_member;
