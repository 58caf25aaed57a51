"""dp — desire paths for AI coding agents.

This module must stay import-free: the pave-check hook imports it on every
tool call.
"""

__version__ = "0.1.0"

# The distribution that is dp (pyproject.toml's name): `dp` on PyPI is an unrelated package, so every
# line that tells a person how to install, upgrade or remove dp is built from these.
DISTRIBUTION = "desire-paths"
INSTALL_HINT = f"uv tool install {DISTRIBUTION} (or: pipx install {DISTRIBUTION})"
UPGRADE_HINT = f"uv tool upgrade {DISTRIBUTION}, pipx upgrade {DISTRIBUTION} or pip install -U {DISTRIBUTION}"
UNINSTALL_HINT = f"uv tool uninstall {DISTRIBUTION}, pipx uninstall {DISTRIBUTION} or pip uninstall {DISTRIBUTION}"
