"""The one exception type the CLI turns into a one-line error.

Logic below the CLI raises ``DpError`` with a message that says what is wrong
and how to fix it; ``dp.cli.main`` prints it as ``dp: error: …`` and exits
with ``exit_code`` (1 unless the command documents another).
"""


class DpError(Exception):
    def __init__(self, message: str, exit_code: int = 1):
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code

    def __str__(self) -> str:
        return self.message


def did_you_mean(word, choices) -> str:
    """`` (did you mean 'claude'?)`` for a near miss among ``choices``, else ''.

    The one hint every enumerated choice gives (agents, scopes, modes, step types, ``--kind`` …), so a
    typo is answered with the word meant, not only with the list.
    """
    import difflib

    close = difflib.get_close_matches(str(word), [str(choice) for choice in choices], n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""
