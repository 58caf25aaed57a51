"""What the read-only listing commands print, without typer.

``dp.cli.commands.aliases`` and ``dp.cli.commands.tasks`` parse; the functions
here read and print. They never import typer, so ``dp.cli.remembered`` can
run them again straight from a kept parse.
"""
