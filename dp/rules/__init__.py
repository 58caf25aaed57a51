"""What an alias rule is, how one is built from user input, and how rules apply.

``dp.rules.model`` is stdlib-only and cheap to import: the hook uses it.
"""
