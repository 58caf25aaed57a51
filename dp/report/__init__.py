"""``dp report``: what dp captured and what its rules did, as one self-contained HTML page.

``model`` gathers the figures (the same as ``dp paths`` and ``dp stats``, from
this store or the team's aggregates) into one object; ``page`` writes it into
the page with the charting library it inlines (``assets/``).
"""
