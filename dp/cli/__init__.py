"""The ``dp`` command line: argument parsing and output formatting only.

Each command lives in its own module under ``dp.cli.commands`` and exposes
``register(app)``; ``dp.cli.app`` discovers them. Logic lives in the packages
beside this one and never imports typer.
"""
