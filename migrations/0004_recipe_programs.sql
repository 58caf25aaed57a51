-- Recipe templates in dp's own small language, compiled when the alias is
-- written (dp.rules.recipe_program): the hook renders these with the stdlib,
-- without importing Jinja2. Keyed by the template text, so rules with the
-- same script share a row; rows no recipe rule uses any more are pruned.
CREATE TABLE IF NOT EXISTS recipe_programs (
    template TEXT PRIMARY KEY,
    program  TEXT NOT NULL
);
