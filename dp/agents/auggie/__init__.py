"""What dp knows about Auggie (``@augmentcode/auggie``, Augment Code's ``auggie`` binary): its hook wire format
(``wire``) and, for the tests, a local stand-in for Augment's API (``fake_api``). Observed facts:
docs/agents/auggie.md."""
