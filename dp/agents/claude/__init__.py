"""What dp knows about Claude Code: its settings files, hook entries and tool names.

Stdlib only; nothing here writes files except through ``dp.files``.
"""
