"""Reading Bash: everything dp knows about Bash syntax and quoting lives here.

* ``dp.shell.words`` — the hook's cheap gate (stdlib, no ``re``).
* ``dp.shell.lexer`` — the one Bash scanner's public face: the offset-preserving
  pre-pass, the quoting regions of a script, tokenisation helpers. The scan is
  ``dp.shell.scanner`` (lists, words, quotes, expansions) with
  ``dp.shell.constructs`` (what bashlex cannot read), on ``dp.shell.syntax``.
* ``dp.shell.placement`` — where a template's placeholders sit, and which places are safe.
* ``dp.shell.script_shape`` — how a recipe's script fits where a command stood.
* ``dp.shell.segment`` — simple commands with spans, through bashlex
  (``dp.shell.bashlex_loader``) under a size cap and a time guard (``dp.shell.guard``).
* ``dp.shell.quoting`` — the literal value of a word; text fed as a quoted heredoc.
* ``dp.shell.wrappers`` — ``sudo``, ``env``, ``timeout 5`` …: which word names the program.
* ``dp.shell.shape`` — the capture hook's shapes (program, subcommand, flags).
* ``dp.shell.secrets`` — which words of a command hold a secret (redaction and shapes).

Nothing is imported here: the hook pays only for the modules it uses.
"""
