"""``dp recipe``: run, list, validate and explain multi-step YAML recipes.

Only argument parsing and output live here; the library is ``dp.recipes``
(imported inside the commands to keep ``dp`` startup fast).
"""

from __future__ import annotations

from pathlib import Path

import typer

from dp.cli.common import note, print_json, warning
from dp.cli.options import Shared, shared
from dp.cli.shared import existing_directory

HELP = """Multi-step YAML recipes: bash, agent, task and sub-recipe steps.

\b
Examples:
  dp recipe run examples/recipes/ci.yaml            # run a recipe file
  dp recipe run ci --set target=release             # by name, from ./recipes or -R DIR
  dp recipe run ci --dry-run                        # show what would run, run nothing
  dp recipe list                                    # recipes found in ./recipes, .dp/recipes
  dp recipe validate recipes/ci.yaml                # check a recipe, show warnings
  dp recipe explain recipes/ci.yaml                 # print the step plan
"""

RUN_HELP = """Run a recipe (a file path, or a name found in -R dirs, ./recipes, ./.dp/recipes).

Exit codes: 0 success, 1 a step failed, 2 invalid recipe, 3 recipe not found.

\b
Examples:
  dp recipe run examples/recipes/ci.yaml
  dp recipe run ci --set target=release --set retries=3 --set 'opts={"fast": true}'
  dp recipe run ci --dry-run                 # render every command, run nothing
  dp recipe run ci --progress --audit-dir .dp/audit --json
  dp recipe run review -A ~/agents --agent-binary ./fake-claude --no-auto-stage
"""

FORMAT_CHOICES = ("text", "json")
FAILED_OUTPUT_LINES = 10  # how much of a failed step's output the text report shows

_SET_VALUES = typer.Option(
    None, "--set", metavar="KEY=VALUE",
    help="Set a context variable (typed: true/false, numbers, JSON objects/arrays, else text).")
_RECIPE_DIRS = typer.Option(None, "-R", "--recipe-dir", metavar="DIR",
                            help="Also look for recipes (and sub-recipes) here; repeatable.")
# Old spellings, kept working but hidden: -C/--cwd and --json replace them.
_WORKING_DIR = typer.Option(None, "--working-dir", metavar="DIR", hidden=True)
_FORMAT = typer.Option(None, "--output-format", metavar="text|json", hidden=True)


def register(app: typer.Typer) -> None:
    recipe_app = typer.Typer(name="recipe", help=HELP, no_args_is_help=True,
                             rich_markup_mode=None, add_completion=False)
    recipe_app.command("run", help=RUN_HELP)(run)
    recipe_app.command("list")(list_recipes)
    recipe_app.command("validate")(_shortcut(_print_valid, VALIDATE_HELP, variables=True))
    recipe_app.command("explain")(_shortcut(_print_plan, EXPLAIN_HELP))
    app.add_typer(recipe_app, name="recipe")


@shared()
def run(
    recipe: str = typer.Argument(..., metavar="RECIPE", help="Recipe file or name."),
    set_values: list[str] | None = _SET_VALUES,
    working_dir: Path | None = _WORKING_DIR,
    recipe_dirs: list[Path] | None = _RECIPE_DIRS,
    dry_run: bool = typer.Option(False, "--dry-run",
                                 help="Evaluate conditions and render commands; run nothing."),
    explain_only: bool = typer.Option(False, "--explain", help="Print the step plan and exit."),
    validate_only: bool = typer.Option(False, "--validate-only",
                                       help="Parse and validate, print warnings, and exit."),
    include_tags: list[str] | None = typer.Option(
        None, "--include-tags", metavar="a,b", help="Run steps whose when_tags include these."),
    exclude_tags: list[str] | None = typer.Option(
        None, "--exclude-tags", metavar="c", help="Skip steps tagged with these."),
    audit_dir: Path | None = typer.Option(
        None, "--audit-dir", metavar="DIR", help="Write a JSONL audit log (mode 0600) here."),
    output_format: str | None = _FORMAT,
    progress: bool = typer.Option(False, "--progress", help="Show live step progress on stderr."),
    agent_binary: str | None = typer.Option(
        None, "--agent-binary", metavar="PATH",
        help="Agent CLI for agent steps (default: $DP_AGENT_BINARY, else claude)."),
    agent_dirs: list[Path] | None = typer.Option(
        None, "-A", "--agent-dir", metavar="DIR",
        help="Also look for agent definitions (NAME.md) here; repeatable."),
    no_auto_stage: bool = typer.Option(False, "--no-auto-stage",
                                       help="Never 'git add -A' after agent steps."),
    *, opts: Shared,
) -> None:
    from dp.recipes import agents, parser, runner

    fmt = _format(opts, output_format)
    project, loaded = _load(recipe, _directory(opts, working_dir), recipe_dirs)
    overrides = dict(parser.parse_assignment(item) for item in set_values or [])
    if validate_only:
        _print_valid(loaded, fmt)
        return
    if explain_only:
        _print_plan(loaded, fmt)
        return
    _print_warnings(loaded.warnings)
    from dp.cli.recipe_progress import listener as make_listener

    listener = make_listener(progress, stream=fmt == "text")
    options = runner.RunOptions(
        project,
        recipe_dirs=_absolute(recipe_dirs, "-R"),
        agent_dirs=_absolute(agent_dirs),
        adapter=agents.PromptCliAdapter(agent_binary),
        dry_run=dry_run,
        include_tags=_split_tags(include_tags),
        exclude_tags=_split_tags(exclude_tags),
        audit_dir=audit_dir.resolve() if audit_dir is not None else None,
        auto_stage=not no_auto_stage,
        listener=listener,
    )
    try:
        result = runner.run_recipe(loaded, options, overrides)
    finally:
        listener.close()
    if fmt == "json":

        print_json(result.to_dict())
    else:
        _print_result(result)
    if result.audit_path is not None and fmt == "text":
        note(f"audit log: {result.audit_path}")
    if not result.success:
        raise typer.Exit(1)


@shared()
def list_recipes(
    working_dir: Path | None = _WORKING_DIR,
    recipe_dirs: list[Path] | None = _RECIPE_DIRS,
    *, opts: Shared,
) -> None:
    """List the recipes found in -R dirs, ./recipes and ./.dp/recipes.

    \b
    Examples:
      dp recipe list
      dp recipe list -R examples/recipes --json
    """
    from dp.recipes import discovery, parser

    roots = discovery.search_roots(existing_directory(_directory(opts, working_dir)), _absolute(recipe_dirs, "-R"))
    rows = parser.catalogue(roots)
    if opts.json:

        print_json(rows)
        return
    if not rows:
        note("no recipes found (looked in ./recipes, ./.dp/recipes and any -R DIR)")
        return
    from dp.cli.table import render

    table = [[row["name"], row["version"] or "",
              _clip(row["description"] or "" if row["valid"] else f"INVALID: {row['error']}", 60),
              row["path"]] for row in rows]
    typer.echo(render(["NAME", "VERSION", "DESCRIPTION", "PATH"], table))


def _shortcut(printer, doc: str, variables: bool = False):
    """``dp recipe validate`` / ``explain``: load a recipe, then print it one way.

    With ``variables`` (validate) every placeholder must also have a value, as
    before a run: from the recipe's context, earlier steps or ``--set``.
    """

    def command(
        recipe: str = typer.Argument(..., metavar="FILE", help="Recipe file or name."),
        set_values: list[str] | None = _SET_VALUES,
        working_dir: Path | None = _WORKING_DIR,
        recipe_dirs: list[Path] | None = _RECIPE_DIRS,
        output_format: str | None = _FORMAT,
        *, opts: Shared,
    ) -> None:
        from dp.recipes import parser
        from dp.recipes.variables import require_defined

        fmt = _format(opts, output_format)
        project, loaded = _load(recipe, _directory(opts, working_dir), recipe_dirs)
        if variables:
            given = dict(parser.parse_assignment(item) for item in set_values or [])
            require_defined(loaded, given, _roots(project, recipe_dirs), parser.load_recipe)
        printer(loaded, fmt)

    command.__doc__ = doc
    return shared()(command)


VALIDATE_HELP = """Parse and validate a recipe; print its warnings (exit 2 when invalid).

\b
Examples:
  dp recipe validate recipes/ci.yaml
  dp recipe validate ci --json
"""

EXPLAIN_HELP = """Print a recipe's step plan without running or rendering anything.

\b
Examples:
  dp recipe explain recipes/ci.yaml
  dp recipe explain ci --json
"""


# --- helpers -----------------------------------------------------------------

def _directory(opts: Shared, working_dir: Path | None) -> Path:
    """The old --working-dir (read from -C DIR like every path), else where dp acts."""
    return working_dir or opts.directory


def _load(recipe: str, working_dir: Path, recipe_dirs):
    from dp.recipes import parser

    project = existing_directory(working_dir)
    roots = _roots(project, recipe_dirs)
    path = parser.resolve_recipe_argument(recipe, roots, Path.cwd())
    return project, parser.load_recipe(path, roots)


def _roots(project: Path, recipe_dirs) -> list[Path]:
    from dp.recipes import discovery

    return discovery.search_roots(project, _absolute(recipe_dirs, "-R"))


def _absolute(paths: list[Path] | None, option: str = "") -> list[Path]:
    """Command-line paths are read from where dp acts (-C DIR, as git -C); with ``option``, each must be a directory."""
    return [existing_directory(path, option) if option else path.resolve() for path in paths or []]


def _format(opts: Shared, output_format: str | None) -> str:
    """"json" with --json; the deprecated --output-format still works, with a warning."""
    from dp.errors import DpError

    if output_format is None:
        return "json" if opts.json else "text"
    if output_format not in FORMAT_CHOICES:
        raise DpError(f"--output-format must be text or json, not '{output_format}'; use --json", exit_code=2)
    warning("--output-format is deprecated; use --json")
    return "json" if opts.json else output_format


def _split_tags(values: list[str] | None) -> list[str]:
    return [tag.strip() for value in values or [] for tag in value.split(",") if tag.strip()]


def _print_warnings(warnings: list[str]) -> None:
    for message in warnings:
        warning(message)


def _print_valid(loaded, fmt: str) -> None:
    if fmt == "json":

        print_json({"valid": True, "name": loaded.name, "path": str(loaded.path),
                    "steps": len(loaded.steps), "warnings": loaded.warnings})
        return
    _print_warnings(loaded.warnings)
    noun = "step" if len(loaded.steps) == 1 else "steps"
    suffix = f", {len(loaded.warnings)} warning(s)" if loaded.warnings else ""
    typer.echo(f"Recipe '{loaded.name}' is valid ({len(loaded.steps)} {noun}{suffix})")


def _print_plan(loaded, fmt: str) -> None:
    if fmt == "json":

        print_json({"name": loaded.name, "version": loaded.version,
                    "description": loaded.description, "path": str(loaded.path),
                    "context": loaded.context, "hooks": loaded.hooks,
                    "steps": [step.to_dict() for step in loaded.steps],
                    "warnings": loaded.warnings})
        return
    _print_warnings(loaded.warnings)
    version = f" v{loaded.version}" if loaded.version else ""
    typer.echo(f"Recipe '{loaded.name}'{version}: {len(loaded.steps)} steps ({loaded.path})")
    if loaded.description:
        typer.echo(f"  {loaded.description.strip()}")
    if loaded.context:
        import json

        typer.echo("  context: " + ", ".join(f"{key}={json.dumps(value)}"
                                            for key, value in loaded.context.items()))
    for number, step in enumerate(loaded.steps, 1):
        typer.echo(f"{number:>3}. {step.id} [{step.type}]" + _step_flags(step))
        for label, value in _step_details(step):
            first, *rest = str(value).rstrip().splitlines() or [""]
            typer.echo(f"       {label}: {first}")
            for line in rest:
                typer.echo(f"       {' ' * len(label)}  {line}")


def _step_flags(step) -> str:
    flags = []
    if step.parallel_group:
        flags.append(f"parallel group '{step.parallel_group}'")
    if step.continue_on_error:
        flags.append("continue on error")
    if step.when_tags:
        flags.append("tags " + ",".join(step.when_tags))
    if step.timeout:
        flags.append(f"timeout {step.timeout:g}s")
    if step.values_as_code:
        flags.append("values_as_code: its values may run as code")
    return f"  ({'; '.join(flags)})" if flags else ""


def _step_details(step) -> list[tuple[str, str]]:
    import json

    details = [("if", step.condition)]
    details += {
        "bash": [("run", step.command)],
        "task": [("task", step.task)],
        "recipe": [("recipe", step.recipe), ("context", json.dumps(step.context) if step.context else None)],
        "agent": [("agent", step.agent), ("prompt", step.prompt), ("model", step.model)],
    }[step.type]
    details += [("cwd", step.working_dir),
                ("output", f"-> {step.output}" if step.output else None),
                ("json", "required" if step.parse_json_required else
                 "parsed" if step.parse_json else None)]
    return [(label, value) for label, value in details if value]


def _print_result(result) -> None:
    verdict = "DRY RUN" if result.dry_run else "SUCCESS" if result.success else "FAILED"
    typer.echo(f"Recipe '{result.recipe_name}': {verdict} ({result.duration_ms / 1000:.1f}s)")
    walked = list(_walk_with_depth(result.steps, 0))
    width = max((len(step.step_id) for step, _ in walked), default=0) + 4
    for step, depth in walked:
        status = "would run" if result.dry_run and step.status == "pending" else step.status
        indent = "  " * (depth + 1)
        line = f"{indent}{status:<10} {step.step_id:<{max(width - 2 * depth, 1)}}"
        if not result.dry_run and step.status not in ("skipped", "pending"):
            line += f" {step.duration_ms / 1000:5.1f}s"
        if step.error or step.reason:
            line += f"  {_clip(step.error or step.reason, 160)}"
        typer.echo(line.rstrip())
        shown = step.rendered if result.dry_run and not step.children else None
        if step.status == "failed" and step.output and not step.children:
            lines = step.output.splitlines()
            shown = "\n".join(lines[-FAILED_OUTPUT_LINES:])
            if len(lines) > FAILED_OUTPUT_LINES:
                typer.echo(f"{indent}    | … last {FAILED_OUTPUT_LINES} of {len(lines)} lines")
        for text in (shown or "").splitlines():
            typer.echo(f"{indent}    | {text}")


def _walk_with_depth(steps, depth):
    for step in steps:
        yield step, depth
        yield from _walk_with_depth(step.children, depth + 1)


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
