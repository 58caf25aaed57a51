"""``dp doctor``: checks that the store, the hook and the rules actually work together."""
