"""What dp knows about Qwen Code (``@qwen-code/qwen-code``, the ``qwen`` binary): its hook wire format
(``wire``), its settings files, and ``dp doctor --live --agent qwen`` (``live``) against the shared
OpenAI-compatible fake (``dp/live/openai_compat.py``). Observed facts: docs/agents/qwen.md."""
