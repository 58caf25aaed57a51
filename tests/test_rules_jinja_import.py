"""Jinja2 imported without its bytecode caches and loaders, or as it is when already imported."""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = r"""
import json, sys
{before}
from dp.rules.jinja_import import load
jinja2 = load()
from jinja2.sandbox import ImmutableSandboxedEnvironment
try:
    jinja2.FileSystemLoader(".")
    refused = ""
except RuntimeError as error:
    refused = str(error)
template = ImmutableSandboxedEnvironment().from_string("{{ x | upper }}")
print(json.dumps({"placeholder": (sys.modules["jinja2.loaders"].__doc__ or "").startswith("A placeholder"),
                  "refused": refused, "rendered": template.render(x="ok"), "same": load() is jinja2,
                  "pickle": "pickle" in sys.modules}))
"""


def probe(before: str) -> dict:
    proc = subprocess.run([sys.executable, "-c", PROBE.replace("{before}", before)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_templates_render_without_the_caches_and_loaders_which_refuse_to_be_used():
    result = probe("")
    assert result["rendered"] == "OK" and result["same"]
    assert result["placeholder"] and not result["pickle"]
    assert "FileSystemLoader is not loaded in dp" in result["refused"]


def test_a_jinja2_imported_before_is_returned_as_it_is():
    result = probe("import jinja2")
    assert result["rendered"] == "OK" and result["same"]
    assert not result["placeholder"] and result["refused"] == ""
