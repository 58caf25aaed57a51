"""``{{ }}`` templates in dp: one syntax on two surfaces, one error type, one placement rule.

dp renders ``{{ }}`` templates in two places, and they are the same idea:
shell text written by a person, with holes for values that person does
not control.

* **Alias recipes** (``dp alias --recipe FROM SCRIPT``, ``dp.rules.recipe``):
  the hook replaces a command the agent typed by ``SCRIPT``; the values are
  the agent's words (``args``, ``arg(n)``, ``raw``, …), printed as typed so
  bash reads them as the same words again.
* **YAML recipe steps** (``dp recipe``, ``dp.recipes.templates``): commands,
  prompts, working directories, task words and hooks; the values are the
  recipe's context and earlier steps' outputs. In a ``bash`` step or a hook
  a placeholder becomes a quoted ``"${DP_VAR_…}"`` reference and the value
  travels to bash through the environment, never through the script text.

What they share, each in one place:

* the syntax: ``{{ name }}`` — YAML's ``{{ name }}``, ``{{ obj.key }}`` and
  ``{{ list[0] }}`` mean what they would in the alias language;
* one error type, ``TemplateError`` (here): a template that cannot be
  judged safe, parsed or rendered, from either surface, is a ``DpError``
  and reaches the user as one ``dp: error: …`` line;
* one placement rule (``dp.shell.placement``, through ``judge``): a value is
  data in every quoting context — a plain word, ``"…"``, ``'…'``, an
  assignment, a heredoc body quoted or not — each surface supplying only how
  a value is referred to (``wrap``); it is refused only where the program
  reading it runs it as code (``dp.shell.sinks``: ``sh -c``, ``eval``,
  ``python3 -c``, arithmetic …) or where no rendering keeps it data
  (backticks, ``${…}``, a heredoc delimiter). A YAML step may opt in to the
  code sinks for values its author wrote (``values_as_code: true``); an
  alias recipe, whose values are the agent's words, may not.

Why there are still two renderers. A YAML placeholder is a variable path
and nothing else — no expressions or loops, one filter (``| default('…')``)
— so it is substituted, not executed, and has no loop or time to bound;
anything else between braces (``{{.State}}`` for ``docker --format``) is
left as written, a missing value without a default is an error on both
surfaces (``dp.recipes.variables``), and a prompt may carry a whole diff. Alias recipes are a small language (filters, ``{% for %}``,
arithmetic), so they run in the one sandbox, ``dp.rules.recipe_sandbox``,
with its bounds on size (``MAX_SIZE``), output (``MAX_OUTPUT``), loops
(``MAX_RANGE``) and time (``WRITE_TIME_SECONDS`` when the alias is written,
the hook's CPU budget when it renders) — unless they only print arguments,
which ``dp.rules.recipe_program`` compiles to a stdlib program printing the
same text.
Rendering YAML through that sandbox would change what existing recipes
mean (``{{.State}}`` would be an error, prompts above 100,000 characters
refused); the sizes YAML values can reach are bounded where they come
from instead: the recipe file (1 MB, 8 MB with aliases expanded:
``dp.recipes.loader``), each step's captured output (its last 1 MB:
``dp.process``) and the strings a condition may build
(``dp.recipes.conditions``).
"""

from __future__ import annotations

from collections.abc import Callable

from dp.errors import DpError


class TemplateError(DpError):
    """A template that cannot be judged safe, parsed or rendered (an alias recipe or a YAML step)."""


class OptionValueError(TemplateError):
    """A known value a program would read as an option (``dp.shell.placement.option_problem``):
    refused when the template is rendered with it, never when the template is written."""


def judge(template: str, outputs, *, blanks=(),
          unparseable: str = "its placeholders cannot be placed safely"):
    """The placement plan of ``template`` (``dp.shell.placement.Plan``); TemplateError when
    the script is not complete Bash, where no placeholder's place can be told."""
    from dp.shell.lexer import Unparseable
    from dp.shell.placement import plan

    try:
        return plan(template, outputs, blanks)
    except Unparseable as exc:
        raise TemplateError(f"the script is not complete Bash ({exc}), so {unparseable}") from None


def problems(judged, *, code_allowed: bool = False, opt_in: str = "",
             passes: Callable[[object], bool] = lambda problem: False) -> list[str]:
    """One line per refused placeholder of a judged template.

    ``code_allowed`` passes over the code sinks (a step's explicit opt-in),
    ``passes`` over any problem it holds for; ``opt_in`` is appended to a
    code sink's line (how the surface opts in).
    """
    return [problem.text + (opt_in if problem.code else "")
            for problem in judged.problems if not (code_allowed and problem.code) and not passes(problem)]


def render(template: str, judged, wrap: Callable[[str, str, tuple], str], blanks=()) -> str:
    """``template`` with each placeholder given by ``wrap(tag, context, span)`` (see ``dp.shell.placement``)."""
    from dp.shell.placement import rewrite

    return rewrite(template, judged, wrap, blanks)
