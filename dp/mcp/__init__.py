"""dp's MCP server: the project tools (tasks, scripts, make, git, recipes) as an agent's own tools.

``tools`` holds the tool definitions as plain data; ``project_tools``,
``actions`` and ``recipe_tool`` carry the calls out through dp's ordinary
execution path; ``server`` is the only module that imports the MCP SDK.
"""
