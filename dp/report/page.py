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
# The charts, in the page's order: id (report.js draws into ``chart-<id>``), title, how it is read (markup
# of dp's own; the timeline's depends on the scope, so report.js writes it into ``how-timeline``), tall.
CHARTS = (
    ("timeline", "Desire paths over time", "", True),
    ("paths", "The most worn paths, and whether a rule covers each",
     "Failures per path in the period (the shapes of <code>dp paths</code>). Green: a rule in\n"
     "        effect here corrects it; orange: nothing does yet (<code>dp suggest</code> proposes one).", True),
    ("rules", "Each rule's effect",
     "Per rule (the figures of <code>dp stats</code>): the calls it acted on that succeeded, failed\n"
     "        or were not captured, and how many the agent undid by running the original program next. A rule\n"
     "        marked \u26a0 hurts: its calls fail or are undone more than they succeed.", False),
    ("watched", "Answers followed",
     "Per learned answer told after a failure (and per shadow rule, which changes nothing): whether\n"
     "        the agent's next Bash call ran the program it led to, and whether that call worked.", False),
)
_FIGURE = """  <figure class="chart" id="chart-{id}" data-state="pending">
    <figcaption>
      <h2>{title}</h2>
      <p class="how"{how_id}>{how}</p>
    </figcaption>
    <div class="canvas{tall}"><canvas></canvas></div>
    <p class="empty"></p>
  </figure>
"""
# What would end a script element or start a comment inside one (the HTML parser's "script data" states).
_UNSAFE_IN_SCRIPT = re.compile(r"</script|<!--|<script", re.IGNORECASE)


def render(model: dict) -> str:
    """The report page for ``model`` (``dp.report.model.build``)."""
    chart, script, style = _asset(CHART_JS), _asset("report.js"), _asset("report.css")
    parts = {
        "CSP": f"default-src 'none'; script-src {_hash(chart)} {_hash(script)}; style-src {_hash(style)}",
        "TITLE": "dp report: the team" if model["scope"] == "team" else "dp report",
        "STYLE": style, "DATA": embed(model), "CHART_JS": chart, "SCRIPT": script, "FIGURES": _figures(),
    }
    # One pass: a marker inside an inserted part (the data, the library) is never replaced in turn.
    return _MARKER.sub(lambda found: parts[found.group(1)], _asset("report.html"))


def _figures() -> str:
    """The charts' frames (``CHARTS``), one figure each: one shape, written once."""
    return "\n".join(_FIGURE.format(id=name, title=title, how=how, tall=" tall" if tall else "",
                                     how_id=' id="how-timeline"' if not how else "")
                      for name, title, how, tall in CHARTS)


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
