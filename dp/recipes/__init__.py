"""Multi-step YAML recipes: parse, validate, explain and run them.

Importable without the CLI. The pieces: ``loader`` (bounded YAML reading),
``parser`` (YAML → validated ``Recipe``, ``extends``), ``conditions`` (the
sandboxed ``condition:`` language), ``templates`` (``{{var}}`` rendering;
shell-bound values go through the environment), ``runner`` (execution),
``agents`` (the agent adapter interface), ``discovery`` (finding recipes and
agent definitions by name), ``jsonout`` (JSON from step output).
"""
