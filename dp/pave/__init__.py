"""Paving: wiring the rules into Claude Code (the hook) and into the agent's instructions (agents-md)."""
