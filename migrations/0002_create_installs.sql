-- Every file dp installed something into (a hook entry in a Claude Code
-- settings file, an MCP server registration, an instructions block), so that
-- rule changes can keep those entries in sync, `dp doctor` can check them and
-- `dp uninstall` can take them all out again. One row per (file, kind).
CREATE TABLE IF NOT EXISTS installs (
    path         TEXT NOT NULL,              -- absolute path as dp was given it (symlinks not resolved)
    kind         TEXT NOT NULL,              -- what dp put there: 'hook', 'mcp', 'claude-md', …
    scope        TEXT NOT NULL DEFAULT '',   -- 'user', 'project', 'local', 'custom', …
    created_file INTEGER NOT NULL DEFAULT 0, -- 1 when the file did not exist before dp wrote it
    details      TEXT NOT NULL DEFAULT '{}', -- JSON object, kind-specific (e.g. the hook options)
    installed_at TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    PRIMARY KEY (path, kind)
);
