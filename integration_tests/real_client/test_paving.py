"""Project paving in the real client: the agent's `npm install` in a pnpm project runs as `pnpm install`."""

from __future__ import annotations

import json
import subprocess

from dp.agents.claude.fake_api import bash


def test_npm_install_in_a_pnpm_project_runs_as_pnpm_install(client):
    client.init()  # paving is on by default: no rule written by hand
    subprocess.run(["git", "init", "-q", str(client.project)], check=True)
    (client.project / "package.json").write_text(json.dumps({"name": "app", "scripts": {"build": "tsc"}}))
    (client.project / "pnpm-lock.yaml").write_text("lockfileVersion: '9.0'\n")
    client.program("pnpm")
    client.program("npm")
    install, build = bash("npm install"), bash("npm run build -- --watch && echo built")
    session = client.run([[install], [build]])
    assert session.result["is_error"] is False
    assert session.tool_result(install["id"])["text"] == "pnpm ran: install"
    assert session.tool_result(build["id"])["text"] == "pnpm ran: run build --watch\nbuilt"
    # Told once, with the reason; the second paved call only says what ran.
    assert "this repository uses pnpm (pnpm-lock.yaml found: pnpm): ran `pnpm install` instead of `npm install`" in (
        session.shown(install["id"])
    )
    assert "ran `pnpm run build --watch` instead of `npm run build -- --watch`" in session.shown(build["id"])
    assert not (client.project / "package-lock.json").exists()
