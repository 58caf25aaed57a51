"""Desire capture: what agents get wrong, recorded redacted, as shapes where possible.

* ``dp.capture.hook`` — the ``dp-capture`` hook program (PostToolUse and
  PostToolUseFailure), stdlib only, silent, always exit 0;
* ``dp.capture.events`` — a tool call → the rows stored for it (shapes, error class);
* ``dp.capture.redact`` — secrets, file contents and size, before anything is stored.
"""
