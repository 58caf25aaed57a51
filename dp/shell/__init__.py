"""Reading Bash: which words can be commands, and where each simple command sits.

* ``dp.shell.words`` — the hook's cheap gate (stdlib, no ``re``).
* ``dp.shell.lexer`` — the offset-preserving pre-pass and tokenisation helpers.
* ``dp.shell.segment`` — simple commands with spans, through bashlex
  (``dp.shell.bashlex_loader``) under a size cap and a time guard (``dp.shell.guard``).

Nothing is imported here: the hook pays only for the modules it uses.
"""
