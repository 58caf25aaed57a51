"""What dp knows about OpenAI's Codex CLI: its hook files, its session files, the fake Responses API the real-client tests use."""
