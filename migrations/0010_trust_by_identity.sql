-- Trust belongs to what a repository IS, not only where it is (issue 46, finding 4): a
-- record made for a repository that was deleted must not pass to another repository later
-- made at the same path. ``identity`` is what dp.gitdir read of the repository when it was
-- trusted ('commit:<its first commit>', or 'head:<inode.ctime of HEAD>' before any commit);
-- NULL for a record made before this migration: the first dp command that opens the store
-- binds it to the repository found at its root then (dp.store.trust.bind), or to nothing
-- when none is there. ``kind`` says what a record trusts: the repository itself (its
-- environment, for paving; ``path`` ''), one of its rule files (``path`` its real path,
-- ``sha256`` of its bytes), or a plugin it commits for an agent (``path`` the plugin's real
-- directory, ``sha256`` of all its files: dp registers it only while they are unchanged).
ALTER TABLE project_trust ADD COLUMN identity TEXT;
ALTER TABLE project_trust ADD COLUMN kind TEXT NOT NULL DEFAULT 'file';
UPDATE project_trust SET kind = 'repository' WHERE path = '';
