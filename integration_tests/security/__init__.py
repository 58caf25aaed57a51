"""The security suite: one test per path from a repository's content to execution (docs/security.md)."""
