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
* one placement rule: a placeholder stands only where bash takes it as a
  whole word of data — both surfaces ask ``dp.shell.placement`` through
  ``placement_problem``, which words the refusal the same way.

Why there are still two renderers. A YAML placeholder is a variable path
and nothing else — no expressions, filters or loops — so it is substituted,
not executed, and has no loop or time to bound; anything else between
braces (``{{.State}}`` for ``docker --format``) is left as written, a
missing value renders empty with a warning, and a prompt may carry a whole
diff. Alias recipes are a small language (filters, ``{% for %}``,
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

from typing import Callable, Optional

from dp.errors import DpError


class TemplateError(DpError):
    """A template that cannot be judged safe, parsed or rendered (an alias recipe or a YAML step)."""


def placement_problem(template: str, outputs, reader: str, *, blanks=(), allowed=frozenset(),
                      opted_out: Callable[[str], bool] = lambda tag: False, opt_out: str = "",
                      unparseable: str = "its placeholders cannot be placed safely") -> Optional[str]:
    """Why the first misplaced placeholder of ``template`` is refused, or None when all are words.

    ``outputs`` are the placeholder spans, ``blanks`` spans that render to
    nothing (``{% … %}``), ``allowed`` the contexts a surface accepts besides
    plain words; a placeholder for which ``opted_out(text)`` holds is passed
    over. The message reads ``line N: {{ x }} is inside …, where <reader> as
    code; <advice><opt_out>``. TemplateError when the script is not complete
    Bash: where a placeholder sits cannot be told then.
    """
    from dp.shell.lexer import Unparseable
    from dp.shell.placement import misplaced

    try:
        found = misplaced(template, outputs, blanks, allowed)
    except Unparseable as exc:
        raise TemplateError(f"the script is not complete Bash ({exc}), so {unparseable}") from None
    for item in found:
        tag = template[item.start:item.end]
        if not opted_out(tag):
            return (f"line {item.line}: {tag} is {item.description}, where {reader} as code; "
                    f"{item.advice}{opt_out}")
    return None
