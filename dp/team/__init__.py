"""A team's desire paths on PostgreSQL: ``dp team`` and the ``--team`` views.

The hooks keep writing to the person's SQLite store and never reach this
package (no network, no import on the hook's path). What leaves the machine
is chosen here and only here (``shapes``): the shape of each captured call
(tool, command word, subcommand, flags, input keys, error class, what the
tool's message suggested), pseudonyms for the session and repository, and a
stable id per event and machine, so an interrupted sync retried any number
of times uploads every event exactly once (``sync``). Who may read what is
PostgreSQL's job (roles and row-level security, ``migrations/postgres/``);
the team's views are computed from the aggregates the server hands every
member (``views``). psycopg is imported by ``server`` alone, and only when a
team command runs.
"""
