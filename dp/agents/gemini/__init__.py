"""What dp knows about Gemini CLI beyond its hook wire format (``wire``): the fake Gemini API
of the real-client tests and `dp doctor --live`, and its saved sessions."""
