"""What dp knows about Kilo Code CLI (``@kilocode/cli``), an OpenCode fork that loads OpenCode's plugins: its wire
format (OpenCode's, ``wire``), dp's plugin in Kilo's config directories (``install``) and ``dp doctor --live
--agent kilo`` (``live``). Observed facts: docs/agents/kilo.md."""
