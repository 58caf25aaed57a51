"""One module per ``dp`` command; each defines ``register(app: typer.Typer)``."""
