"""Multi-step YAML recipes: parse, validate, explain and run them.

Importable without the CLI. The pieces: ``loader`` (bounded YAML reading, and
``RecipeError``, the one error of a recipe from its bytes to its validation),
``parser`` (YAML → validated ``Recipe``, ``extends``), ``checks`` (name and
list checks shared by the validators), ``steps`` (one module per step type
behind a registry, plus ``steps.schema``, a step's keys), ``conditions``
(the sandboxed ``condition:`` language: tokens, parse, evaluator),
``templates`` (``{{var}}`` rendering; shell-bound values go through the
environment), ``runner`` (the entry point and its options), ``frame`` (the
execution frame: order, parallel groups, limits, hooks), ``audit`` (the
JSONL audit log), ``agents`` (the agent adapter interface), ``discovery``
(finding recipes and agent definitions by name), ``jsonout`` (JSON from
step output), ``model`` (the parsed shapes and results).
"""
