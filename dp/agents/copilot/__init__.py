"""What dp knows about GitHub Copilot CLI: its hook wire format (both of its formats) and its hooks files for dp doctor."""
