"""Looking at what was captured: ``dp desires``, ``dp paths``, ``dp suggest``.

* ``dp.desires.query`` — the failures, newest first; purging;
* ``dp.desires.paths`` — failures grouped by shape and error class, with the rule that covers each;
* ``dp.desires.suggest`` — aliases proposed from the evidence (``dp.desires.similarity`` for tool names).
"""
