"""``dp doctor --live``: an agent's real binary run against a fake model, in one package.

The runner and what every probe shares (``probe``: ``Probe``, ``CompatProbe``), the scripted model
server every fake endpoint is built on (``model``) and the OpenAI-compatible endpoint several
agents talk to (``openai_compat``) live here; what is an agent's own (its binary, its settings, its
model API's format) is its ``live`` role and ``fake_api`` helper in ``dp/agents/<agent>/``, which
build on this package. It builds on ``dp.agents`` (the entries and programs a probe copies) and
never runs on a hook's path.
"""
