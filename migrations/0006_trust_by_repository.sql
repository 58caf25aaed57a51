-- Trust belongs to a repository (issue 35, finding 5): a record says which
-- content of which file this user allowed to act IN WHICH REPOSITORY, so a
-- second repository whose .dp/rules.toml is a link to a trusted file (or a
-- copy of it) borrows nothing. ``root`` is the repository's real root
-- directory; ``path`` the layer file's real path inside it, or '' for the
-- repository itself (dp trust: project paving may use the project's own
-- environment, dp.paving). Old records were keyed by the file's real path
-- alone; the ones made for a repository's own .dp/rules.toml or
-- .dp/rules.local.toml keep acting there (and trust that repository), any
-- other shape (a file trusted through a link to elsewhere) is dropped and
-- must be trusted again where it acts.
CREATE TABLE project_trust_by_root (
    root       TEXT NOT NULL,
    path       TEXT NOT NULL,
    sha256     TEXT NOT NULL,
    trusted_at TEXT NOT NULL,
    PRIMARY KEY (root, path)
);
INSERT INTO project_trust_by_root (root, path, sha256, trusted_at)
    SELECT substr(path, 1, length(path) - length('/.dp/rules.toml')), path, sha256, trusted_at
    FROM project_trust WHERE substr(path, -length('/.dp/rules.toml')) = '/.dp/rules.toml'
    ORDER BY rowid;
INSERT INTO project_trust_by_root (root, path, sha256, trusted_at)
    SELECT substr(path, 1, length(path) - length('/.dp/rules.local.toml')), path, sha256, trusted_at
    FROM project_trust WHERE substr(path, -length('/.dp/rules.local.toml')) = '/.dp/rules.local.toml'
    ORDER BY rowid;
INSERT OR IGNORE INTO project_trust_by_root (root, path, sha256, trusted_at)
    SELECT root, '', '', MIN(trusted_at) FROM project_trust_by_root GROUP BY root;
DROP TABLE project_trust;
ALTER TABLE project_trust_by_root RENAME TO project_trust;
