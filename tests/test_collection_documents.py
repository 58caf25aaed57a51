"""What counts as an alias collection at all: ``dp aliases import`` of the wrong file says so.

A JSON or TOML document with neither ``meta`` nor ``aliases`` used to import
"0 rules" and exit 0, as if the user's file were an empty collection; the
export of an empty store (``[meta]`` alone) still imports as one.
"""

from __future__ import annotations

import pytest

from dp.errors import DpError
from dp.rules import collection


@pytest.mark.parametrize("text", ['{"rules": [{"from": "a", "to": "b"}]}', "", "# nothing\n", "name = 'x'\n",
                                  '{"meta": {}, "aliases": {"from": "a"}}'])
def test_a_document_that_is_no_collection_is_refused(text):
    with pytest.raises(DpError) as caught:
        collection.parse(text)
    assert caught.value.message == "not an alias collection: expected a [meta] table and [[aliases]] entries"


@pytest.mark.parametrize("text", ["[meta]\nversion = 1\ncount = 0\n", '{"aliases": []}', '{"meta": {"version": 1}}'])
def test_an_empty_collection_imports_nothing_without_error(text):
    assert collection.parse(text) == []
