"""What dp knows about Factory Droid (``@factory/cli``, the ``droid`` binary): its hook wire format (``wire``),
its settings files and hook entries (``hooks``), and ``dp doctor --live --agent droid`` (``live``) against the
shared OpenAI-compatible fake (``dp/live/openai_compat.py``) as a custom model. Observed facts: docs/agents/droid.md."""
