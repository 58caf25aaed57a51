"""dp report's vendored charting library is the file its version and checksum name (dp/report/assets/README.md)."""

from __future__ import annotations

import hashlib

from dp.report import page


def test_the_vendored_chart_js_is_the_pinned_release():
    data = (page.ASSETS / page.CHART_JS).read_bytes()
    assert hashlib.sha256(data).hexdigest() == page.CHART_JS_SHA256
    assert data.startswith(f"/*!\n * Chart.js v{page.CHART_JS_VERSION}\n".encode())
    assert "MIT" in (page.ASSETS / "chart.js.LICENSE.md").read_text()
    readme = (page.ASSETS / "README.md").read_text()
    assert page.CHART_JS_SHA256 in readme and f"Chart.js {page.CHART_JS_VERSION}" in readme
