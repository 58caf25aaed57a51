"""dp — desire paths for AI coding agents.

This module must stay import-free: the pave-check hook imports it on every
tool call.
"""

__version__ = "0.1.0"
