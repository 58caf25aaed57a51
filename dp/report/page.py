"""``dp report``'s one HTML file: the page, its charting library and its data, all inline.

The file must open from disk and in CI, so it loads nothing: Chart.js (vendored
in ``assets/``, its version and checksum below) and dp's own script and style
are inlined, and a Content-Security-Policy allows exactly those scripts and
that style by hash and nothing from anywhere (``default-src 'none'``).

The data is captured text (commands, shapes, rule names), so it is embedded
as JSON in a ``<script type="application/json">`` element that the page's
script reads with ``JSON.parse``, and written so that it cannot end that
element or change how the HTML parser reads it: JSON's own escapes for
``<``, ``>`` and ``&`` (so no ``</script>`` and no ``<!--``), and every
character past ASCII escaped (so no U+2028 / U+2029 either). The page puts
captured text into the document only as text (``textContent``), never as
markup.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path

from dp.errors import DpError

ASSETS = Path(__file__).with_name("assets")
CHART_JS = "chart.umd.min.js"
CHART_JS_VERSION = "4.6.1"
CHART_JS_SHA256 = "87364cc2b2a76a6684929e7d6b80b18a897794db38400caff1fcf1791c6925d2"
_MARKER = re.compile(r"@@([A-Z_]+)@@")
# What would end a script element or start a comment inside one (the HTML parser's "script data" states).
_UNSAFE_IN_SCRIPT = re.compile(r"</script|<!--|<script", re.IGNORECASE)


def render(model: dict) -> str:
    """The report page for ``model`` (``dp.report.model.build``)."""
    chart, script, style = _asset(CHART_JS), _asset("report.js"), _asset("report.css")
    parts = {
        "CSP": f"default-src 'none'; script-src {_hash(chart)} {_hash(script)}; style-src {_hash(style)}",
        "TITLE": "dp report: the team" if model["scope"] == "team" else "dp report",
        "STYLE": style, "DATA": embed(model), "CHART_JS": chart, "SCRIPT": script,
    }
    # One pass: a marker inside an inserted part (the data, the library) is never replaced in turn.
    return _MARKER.sub(lambda found: parts[found.group(1)], _asset("report.html"))


def embed(value) -> str:
    """``value`` as JSON that is inert inside a ``<script>`` element: no ``<``, ``>`` or ``&`` and nothing
    past ASCII (U+2028 and U+2029 included) appears as itself; ``JSON.parse`` reads back the same value."""
    text = json.dumps(value, ensure_ascii=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _asset(name: str) -> str:
    """An asset's text, refused if it could end the element it is inlined in (a library upgrade that did)."""
    try:
        text = (ASSETS / name).read_text(encoding="utf-8")
    except OSError as exc:
        raise DpError(f"dp report: its page asset {name} cannot be read ({exc.strerror or exc}); reinstall dp") \
            from None
    if name.endswith(".js") and _UNSAFE_IN_SCRIPT.search(text):
        raise DpError(f"dp report: its page asset {name} holds text that would end its script element; "
                      "it cannot be inlined")
    return text


def _hash(text: str) -> str:
    """The CSP source that allows exactly this inline script or style."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"
