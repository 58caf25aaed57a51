"""Finding JSON in a step's output stays bounded, whatever the output holds.

``parse_json`` looks for the first JSON document in up to 1 MB of agent or
command output. Text full of brackets that never close (a minified bundle,
a log of C code) made every candidate scan to the end: 100 candidates of
1 MB each, a minute of CPU after the step itself had finished. The search
now stops after a fixed amount of scanning and the step degrades to text.
Output nested deeper than Python's json can read (``[[[[…]]]]`` 100,000
deep) raised RecursionError through the whole run; it is text now.
"""

from __future__ import annotations

import pytest
from blocking_support import outcome_within

from dp.recipes.jsonout import MAX_BRACKET_CANDIDATES, extract_json, parse_output


@pytest.mark.parametrize("text", ["{" * 4_000_000, '{"' + "{ [" * 1_300_000, "[" * 2_000_000 + "{" * 2_000_000])
def test_unclosed_brackets_end_the_search_quickly(text):
    assert outcome_within(lambda: extract_json(text), 30) == (False, None)


def test_json_after_a_little_noise_is_still_found():
    noise = "x] " * (MAX_BRACKET_CANDIDATES - 1)
    assert extract_json(noise + '{"ok": true}') == (True, {"ok": True})


def test_json_after_more_bracket_candidates_than_the_limit_is_not_looked_for():
    noise = "[x} " * MAX_BRACKET_CANDIDATES
    assert extract_json(noise + '{"ok": true}') == (False, None)


def test_a_large_document_that_closes_is_found_whole():
    text = "Result: " + '{"items": [' + ", ".join([f'{{"n": {n}}}' for n in range(50_000)]) + "]} trailing"
    found, value = extract_json(text)
    assert found and len(value["items"]) == 50_000


DEEP = "[" * 100_000 + "]" * 100_000


def test_output_nested_deeper_than_json_can_read_is_text():
    assert parse_output(DEEP) == DEEP
    assert extract_json(DEEP) == (False, None)
    assert extract_json('{"ok": 1} then ' + DEEP) == (True, {"ok": 1})
