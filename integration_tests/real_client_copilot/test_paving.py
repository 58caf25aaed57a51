"""Project paving in the real Copilot CLI: the agent's `npm install` in a pnpm project runs as `pnpm install`."""

from __future__ import annotations

import json
import subprocess

from dp.agents.claude.fake_api import shell


def test_npm_install_in_a_pnpm_project_runs_as_pnpm_install(copilot):
    copilot.init("--agent", "copilot")  # paving is on by default: no rule written by hand
    subprocess.run(["git", "init", "-q", str(copilot.project)], check=True)
    (copilot.project / "package.json").write_text(json.dumps({"name": "app", "scripts": {"build": "tsc"}}))
    (copilot.project / "pnpm-lock.yaml").write_text("lockfileVersion: '9.0'\n")
    copilot.program("pnpm")
    copilot.program("npm", 'touch package-lock.json; echo "npm ran:" "$@"')
    install = shell("npm install", description="Install the dependencies")
    build = shell("npm run build -- --watch && echo built")
    session = copilot.run([[install], [build]])

    assert session.tool_result(install["id"])["text"].startswith("pnpm ran: install\n"), session.output
    assert session.tool_result(build["id"])["text"].startswith("pnpm ran: run build --watch\nbuilt\n")
    assert "this repository uses pnpm (pnpm-lock.yaml found: pnpm): ran `pnpm install` instead of `npm install`" in (
        session.tool_result(install["id"])["context"])
    assert not (copilot.project / "package-lock.json").exists()
