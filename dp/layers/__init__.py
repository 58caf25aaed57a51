"""Rule layers: the user's store, a project's committed ``.dp/rules.toml`` and a person's ``.dp/rules.local.toml``.

A team commits the corrections that belong to its repository; each person's
store stays theirs. ``effective`` answers the one question every consumer
asks — the rules in effect for directory D, each with its source — for the
hook (any agent), the SessionStart context, ``dp aliases``, ``dp paths`` /
``dp suggest``, ``dp pave --agents-md``, the hook filters and ``dp doctor``.
A project file acts only after ``dp trust`` (``dp.store.trust``).

Modules: ``locate`` (the stat-only walk to the repository root),
``projectfile`` (parse and validate), ``effective`` (the cached read, trust
and merge), ``tomlscan`` / ``edit`` (changing the file losslessly), ``view``
(the CLI's entry: the store's rules plus the layers, for a directory),
``synced`` (whether the hook filters still match the trusted files).
"""
