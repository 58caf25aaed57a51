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
