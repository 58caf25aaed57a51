"""``--dry-run``: one meaning for every command that changes a person's files or the store.

The command runs its real code inside a ``dp.files.Rehearsal``: every file write and removal, every
store write (into an in-memory copy) and every ``claude plugin`` command is recorded instead of done.
What the command would have printed is dropped; what it would have changed is printed instead, in one
shape for every command (``dp init --dry-run`` prints the same shape from its own plan):

    Dry run: nothing was written, created or run.
    Store: ~/.dp/dp.db (would change)
           + rule: grep -> rg
    File:  ~/.claude/settings.json (would change)
           <unified diff>
    Would run: claude plugin install …

With ``--json`` the same as one object (``dry_run``, ``stores``, ``files``, ``removed``, ``commands``).
"""

from __future__ import annotations

import functools

import typer

DRY_RUN_OPTION = typer.Option(
    False, "--dry-run",
    help="Print what would change (each file as a diff, the store's rules and events, commands it would run); "
         "change nothing.",
)


def rehearsed(func=None, *, own_plan: bool = False):
    """Give a command (with ``dry_run`` and ``opts`` parameters) dp's ``--dry-run``: with it, the command
    runs against a rehearsal and the plan is printed instead of its own output. Put it under ``@shared()``.

    ``own_plan``: the command words its dry run itself (``dp alias --dry-run``: "Would set …"); the
    rehearsal around it still guarantees that nothing changes.
    """
    if func is None:
        return functools.partial(rehearsed, own_plan=own_plan)

    @functools.wraps(func)
    def command(*args, **kwargs):
        if not kwargs.get("dry_run"):
            return func(*args, **kwargs)
        if own_plan:
            from dp.files import Rehearsal

            with Rehearsal():
                return func(*args, **kwargs)
        return rehearse(lambda: func(*args, **kwargs), kwargs["opts"].json)

    return command


def rehearse(run, as_json: bool) -> None:
    """``run()`` as a dry run: its output dropped (warnings still show), then the plan printed."""
    import contextlib
    import io

    from dp.cli import common
    from dp.files import Rehearsal

    quiet = common.is_quiet()
    with Rehearsal() as rehearsal:
        common.set_quiet(True)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                run()
        finally:
            common.set_quiet(quiet)
        found = plan(rehearsal)
    if as_json:
        common.print_json(found)
    else:
        print_plan(found)


def plan(rehearsal) -> dict:
    """What the rehearsal recorded, as data: stores (rules as dicts), files with diffs, trees, commands."""
    from dp.rules.wording import describe
    from dp.store.rehearsal import rehearsed_changes

    stores = []
    for store in rehearsed_changes():
        rules = store.get("rules")
        if rules:
            store = {**store, "rules": {side: [{**rule.to_dict(), "described": describe(rule)} for rule in rules[side]]
                                        for side in rules}}
        stores.append(store)
    return {"dry_run": True, "stores": stores, "files": rehearsal.changes(),
            "removed": list(rehearsal.trees), "commands": list(rehearsal.commands)}


_STORE_WORDS = {"rules": "rule", "events": "event", "trust": "trust", "installs": "install record"}


def print_plan(found: dict) -> None:
    """The plan in words (``dp init --dry-run``'s plan has a ``store`` and ``actions`` too)."""
    typer.echo("Dry run: nothing was written, created or run.")
    if "store" in found:
        typer.echo(f"Store: {found['store']['path']} ({found['store']['status']})")
    for store in found.get("stores", ()):
        typer.echo(f"Store: {store['path']} ({store['status']})")
        for line in _store_lines(store):
            typer.echo(f"       {line}")
    for change in found["files"]:
        typer.echo(f"File:  {change['path']} ({change['status']})")
        for line in change["diff"].splitlines():
            typer.echo(f"       {line}")
    for tree in found.get("removed", ()):
        typer.echo(f"Would delete: {tree} (the directory and everything in it)")
    for action in found.get("actions", ()):
        typer.echo(f"Would: {action}")
    for command in found["commands"]:
        typer.echo(f"Would run: {command}")
    if found.get("warning"):
        typer.echo(f"Warning: {found['warning']}")
    if not any(found.get(key) for key in ("stores", "files", "removed", "actions", "commands", "store")):
        typer.echo("Nothing would change.")


def _store_lines(store: dict) -> list[str]:
    """``+ rule: grep -> rg``, ``- trust: /repo/.dp/rules.toml``, ``+ 12 events: 10 failure of Bash, …``."""
    from collections import Counter

    lines = []
    for name, word in _STORE_WORDS.items():
        for sign, side in (("+", "added"), ("-", "removed")):
            items = store.get(name, {}).get(side, [])
            if name == "events" and items:
                counts = ", ".join(f"{count} {what}" for what, count in Counter(items).most_common())
                lines.append(f"{sign} {len(items)} event{'s' if len(items) != 1 else ''}: {counts}")
                continue
            for item in items:
                shown = item["described"] if name == "rules" else item
                lines.append(f"{sign} {word}: {shown}")
    return lines
