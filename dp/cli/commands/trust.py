"""``dp trust``: let this repository's rule files and committed plugin act for you, and paving use its environment."""

from __future__ import annotations

import typer

from dp.cli.common import note, print_json, status
from dp.cli.options import Shared, shared

HELP = """Trust this repository: its project rules and the Claude Code plugin it commits, as they
are now (like direnv allow), and its own environment for project paving.

A committed .dp/rules.toml can rewrite every command your agent runs, so it
acts only after you trust it: dp records the SHA-256 of each file
(.dp/rules.toml and your .dp/rules.local.toml) in your own store, never in
the repository, with the repository it was trusted in (it acts nowhere
else, nor in another repository made at its path later). A changed file
stops acting until you trust it again. A committed .claude/dp-plugin is
pinned the same way, all its files: dp init registers it for you only while
they are the ones you trusted.

Until then project paving never runs a program the repository supplies
(.venv, node_modules/.bin, a Makefile recipe, a package manager's hooks):
npm test still becomes pnpm test in a pnpm project, but ruff is not run
through uv run. After dp trust it is (dp paving says which case applies).

\b
Examples:
  dp trust --show     everything it would let act, in words (nothing is trusted);
                      for a file changed since you trusted it, what changed in its rules
  dp trust
  dp untrust
"""


@shared()
def trust(
    show: bool = typer.Option(False, "--show", "--dry-run",
                              help="Print everything trusting would let act, in words; trust nothing."),
    *, opts: Shared,
) -> None:
    from dp.layers import trusting

    plugins = committed_plugins(opts.directory)
    if show:
        _show(opts, plugins)
        return
    reports = trusting.trust(opts.store, opts.directory, plugins)
    if opts.json:
        print_json(reports)
        return
    for report in reports:
        if report["source"] == trusting.REPOSITORY_SOURCE:
            status(f"Trusted {report['path']}: project paving may use its own environment here")
            continue
        again = " again" if report["was"] == "changed" else ""
        if report["source"] == trusting.PLUGIN_SOURCE:
            status(f"Trusted{again} {report['path']} ({report['agent']} plugin, {report['files']} files, sha256 "
                   f"{report['sha256'][:12]}…): dp init registers it for you")
            continue
        count = report["rules"]
        status(f"Trusted{again} {report['path']} ({count} rule{'s' if count != 1 else ''}, "
               f"sha256 {report['sha256'][:12]}…)")
    if len(reports) > 1:
        note("They act for your agents in this repository until the file changes; dp untrust takes the trust back.")
    else:
        note("No project rules to trust here; dp untrust takes the trust back.")


def committed_plugins(directory) -> list[tuple[str, object]]:
    """``(agent, directory)`` of each plugin the repository around ``directory`` commits for an agent."""
    from dp.agents import with_role

    found = []
    for agent in with_role("plugin"):
        path = agent.role("plugin").committed_plugin(directory)
        if path is not None:
            found.append((agent.display, path))
    return found


def _show(opts: Shared, plugins) -> None:
    """``dp trust --show``: every file's rules and tables, every plugin's files, the repository itself."""
    from dp.layers import trusting

    root, project, pinned, trusted = trusting.show(opts.store, opts.directory, plugins)
    before = trusting.trusted_before(opts.store, root, project)
    if not opts.json:
        typer.echo("\n".join(trusting.describe(root, project, pinned, trusted, before)))
        return
    layers = project.layers if project is not None else []
    print_json([*({**layer.to_dict(), "rules_in_words": _words(layer),
                   "tables": [{"line": line, "in_words": text} for line, text in trusting.tables(layer)],
                   **({"since_trusted": trusting.since_words(before[layer.file.path], layer.file.rules)}
                      if layer.file.path in before else {})}
                  for layer in layers),
                *({"source": trusting.PLUGIN_SOURCE, "agent": agent, "path": pin.path, "state": state,
                   "sha256": pin.sha256, "problem": pin.problem,
                   "files": [{"path": relative, "bytes": size, "sha256": sha256, "executable": executable}
                             for relative, size, sha256, executable in pin.files]}
                  for agent, pin, state in pinned),
                {"source": trusting.REPOSITORY_SOURCE, "path": root, "state": "trusted" if trusted else "untrusted"}])


def _words(layer) -> list[str]:
    from dp.rules.wording import rule_line

    return [rule_line(rule) for rule in layer.file.rules]


def register(app: typer.Typer) -> None:
    app.command("trust", help=HELP,
                short_help="Trust this repository's .dp/rules.toml, plugin and environment (--show first).")(trust)
