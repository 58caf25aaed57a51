"""dp's OpenCode plugin type-checks against the pinned ``@opencode-ai/plugin`` declarations.

The plugin's hook signatures are OpenCode's: ``tsc --strict`` with the declarations of the
release the real-client tests run (and Node's, for ``node:child_process``) catches a hook whose
shape changed, before a session would silently skip it. Installed like the agent binaries, through
``npm_packages`` (a loud skip without a registry).
"""

from __future__ import annotations

import json
import subprocess

from npm_packages import NpmTool, installed_or_skip, quiet_environment

from dp.agents.opencode.install import shipped_text
from real_client_opencode import opencode_install

TYPESCRIPT = "5.8.2"  # the version @opencode-ai/plugin 1.18.33 builds with
NODE_TYPES = "24.12.2"  # its @types/node


def declarations() -> NpmTool:
    return NpmTool("@opencode-ai/plugin", opencode_install.version(), version_text=f"Version {TYPESCRIPT}",
                   locate=lambda prefix: prefix / "node_modules" / ".bin" / "tsc",
                   extra=(f"typescript@{TYPESCRIPT}", f"@types/node@{NODE_TYPES}"))


def type_check(tmp_path, source: str) -> subprocess.CompletedProcess:
    """``tsc --strict --noEmit`` of ``source`` as dp.ts, against the pinned declarations."""
    tsc = installed_or_skip(declarations(), "OPENCODE PLUGIN TYPE CHECK")
    (tmp_path / "node_modules").symlink_to(tsc.parent.parent)
    (tmp_path / "dp.ts").write_text(source)
    (tmp_path / "tsconfig.json").write_text(json.dumps({
        "compilerOptions": {"strict": True, "noEmit": True, "target": "ES2022", "module": "ESNext",
                            "moduleResolution": "bundler", "lib": ["ES2022", "DOM"], "types": ["node"],
                            "skipLibCheck": True, "noUnusedLocals": True, "noUnusedParameters": True},
        "files": ["dp.ts"]}))
    return subprocess.run([str(tsc), "-p", str(tmp_path / "tsconfig.json")], capture_output=True, text=True,
                          cwd=tmp_path, env=quiet_environment(), timeout=300)


def test_the_plugin_type_checks_against_the_pinned_declarations(tmp_path):
    proc = type_check(tmp_path, shipped_text().decode())
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_a_hook_of_the_wrong_shape_fails_the_check(tmp_path):
    source = shipped_text().decode()
    broken = source.replace("output.output = `${output.output}\\n\\n${note}`", "output.result = note")
    assert broken != source
    proc = type_check(tmp_path, broken)
    assert proc.returncode != 0 and "error TS2339" in proc.stdout, proc.stdout
