-- Which project rule files (.dp/rules.toml, .dp/rules.local.toml) this user
-- trusts, and exactly which content: a file acts only while its SHA-256 is
-- the one recorded here (dp trust), so a clone or a later change is inert
-- until the person reviews it. Kept in the user's store, never in the
-- repository. Keyed by the file's real (symlink-resolved) path.
CREATE TABLE IF NOT EXISTS project_trust (
    path       TEXT PRIMARY KEY,
    sha256     TEXT NOT NULL,
    trusted_at TEXT NOT NULL
);
