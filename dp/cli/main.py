"""Entry point of the ``dp`` console script.

Runs the typer app without click's standalone mode so that every failure,
ours or click's, ends as one line on stderr and a non-zero exit code, never a
traceback.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """dp's exit status. Output to a reader that has gone (``dp aliases | head -1``) ends quietly
    with status 1 on every path — typer's, the remembered parse, the kept help page — as click
    ends it: stdout is flushed here, so whether dp's last bytes were still buffered or already
    written makes no difference."""
    args = list(sys.argv[1:] if argv is None else argv)
    global _errors_as_json
    _errors_as_json = _asks_json(args)
    try:
        status = _dispatch(args)
        sys.stdout.flush()
    except BrokenPipeError:
        return _reader_gone()
    return status


def _reader_gone() -> int:
    """Point stdout at the null device, so that the interpreter's last flush cannot fail again."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, sys.stdout.fileno())
    os.close(null)
    return 1


def _dispatch(args: list[str]) -> int:
    guarded = _guarded(lambda: _for_the_person(args))
    if guarded:
        return guarded
    from dp.cli import help_cache

    if help_cache.applies(args):
        return _root_help(args)
    from dp.cli import remembered

    again = remembered.lookup(args)
    if again is not None:  # these words were parsed before: run them without typer
        return _guarded(again)
    remembered.listen(args)
    return _run(args)


def _for_the_person(args: list[str]) -> int:
    """0 when ``dp ARGS`` may run here: a command that widens what dp does, started inside an agent's
    tool call, raises instead (dp.cli.person), before anything is parsed or read."""
    from dp.cli.person import guard

    guard(args)
    return 0


def _asks_json(args: list[str]) -> bool:
    """Whether ``--json`` is among dp's own words (before a ``--``): its errors are then JSON too,
    even those found before the options were parsed."""
    return "--json" in (args[:args.index("--")] if "--" in args else args)


def _root_help(args: list[str]) -> int:
    """``dp``, ``dp -h``, ``dp --help``: the page from the cache, else rendered by typer and kept."""
    import contextlib
    import io

    from dp.cli import help_cache

    page = help_cache.read()
    if page is None:
        rendered = io.StringIO()
        with contextlib.redirect_stdout(rendered):
            status = _run(args)
        page = rendered.getvalue()
        if status != 0:
            sys.stdout.write(page)
            return status
        help_cache.keep(page)
    sys.stdout.write(page)
    return 0


def _run(args: list[str]) -> int:
    import typer

    from dp.cli.app import build_app, command_word

    # typer may vendor its own click: take the exception classes from the
    # module typer's public BadParameter comes from, whichever click that is.
    click_exceptions = sys.modules[typer.BadParameter.__module__]

    def parse_and_run():
        try:
            return build_app(command_word(args))(args=args, prog_name="dp", standalone_mode=False)
        except click_exceptions.NoArgsIsHelpError as exc:
            print(exc.ctx.get_help())
            return 0
        except click_exceptions.UsageError as exc:
            hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx else ""
            _error(f"{_one_line(exc.format_message())}{_near_choice(exc)}{hint}", 2)
            return 2
        except click_exceptions.ClickException as exc:
            _error(_one_line(exc.format_message()), exc.exit_code)
            return exc.exit_code
        except typer.Abort:
            _error("aborted", 130)
            return 130

    return _guarded(parse_and_run)


def _guarded(call) -> int:
    """``call()``'s exit status; whatever goes wrong ends as one line on stderr, never a traceback."""
    from dp.errors import DpError

    try:
        result = call()
    except DpError as exc:
        _error(exc.message, exc.exit_code)
        return exc.exit_code
    except KeyboardInterrupt:
        _error("interrupted", 130)
        return 130
    except BrokenPipeError:  # the reader has gone: not a bug in dp (main() ends it)
        raise
    except Exception as exc:  # a bug in dp: still one line, unless asked for the traceback
        if os.environ.get("DP_DEBUG"):
            raise
        _error(_not_utf8(exc) or f"internal error: {type(exc).__name__}: {exc} (rerun with DP_DEBUG=1 for the traceback)")
        return 1
    return result if isinstance(result, int) else 0


def _not_utf8(exc: Exception) -> str:
    """The message for text that arrived as bytes that are not UTF-8 (Python's lone surrogates, from an
    argument or a file name) and could not be stored or printed: the user's input, not a bug in dp."""
    if not isinstance(exc, UnicodeEncodeError) or "surrogates" not in exc.reason:
        return ""
    around = exc.object[max(0, exc.start - 20): exc.end + 20]
    shown = around.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return f"{shown!r} holds bytes that are not UTF-8 (from an argument or a file name); dp needs UTF-8 text here"


def _near_choice(exc) -> str:
    """The choice a mistyped value of a choice option (``--kind comand``) was meant to be, as dp's own checks say it."""
    import re

    from dp.errors import did_you_mean

    choices = getattr(getattr(getattr(exc, "param", None), "type", None), "choices", None)
    given = re.search(r"'([^']*)' is not one of", exc.format_message())
    return did_you_mean(given.group(1), [getattr(c, "value", c) for c in choices]) if choices and given else ""


def _one_line(message: str) -> str:
    return " ".join(message.split())


_errors_as_json = False


def _error(message: str, exit_code: int = 1) -> None:
    """``dp: error: …``, one line per problem when a message lists several (an invalid recipe); under
    ``--json`` one JSON object on stdout instead, where a program reading dp's output looks."""
    from dp.cli.common import paint
    from dp.terminal import printable

    lines = printable(message).splitlines() or [""]
    if _errors_as_json:
        import json

        print(json.dumps({"ok": False, "error": lines[0] if len(lines) == 1 else lines, "exit_code": exit_code},
                         ensure_ascii=False))
        return
    for line in lines:
        print(f"{paint('dp: error:', 'error', sys.stderr)} {line}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
