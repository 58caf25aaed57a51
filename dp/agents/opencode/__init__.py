"""What dp knows about OpenCode (opencode-ai): its wire format (the JSON dp's plugin sends), the plugin dp installs
(``plugin/``, ``install``) and ``dp doctor --live --agent opencode`` (``live``). Observed facts: docs/agents/opencode.md."""
