"""The fast collection reader returns what tomllib returns, or hands the text to tomllib."""

from __future__ import annotations

import random
import sys
from datetime import datetime, timezone

import pytest

from dp.rules import collection, fast_toml
from dp.rules.model import Rule

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ALPHABET = ["a", "Z", "0", " ", "\t", '"', "'", "\\", "\n", "\r", "#", "=", "[", "]", "é", "日", "\U0001f600",
            "\x01", "\x7f", "\u2028", "$", "{", "}"]


def random_text(rng: random.Random) -> str:
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 12)))


@pytest.mark.parametrize("seed", range(40))
def test_exported_collections_read_exactly_as_tomllib_reads_them(seed):
    rng = random.Random(seed)
    rules = [Rule(random_text(rng) or "x", random_text(rng) or "y", message=random_text(rng)) for _ in range(30)]
    text = collection.dumps(collection.build_collection(rules, datetime.now(timezone.utc), name="n"), "toml")
    fast = fast_toml.loads(text)
    assert fast is not None
    assert fast == tomllib.loads(text)


@pytest.mark.parametrize("text", [
    '[meta]\nversion = 1\nexported_at = 2026-11-21T12:44:48Z\n\n[[aliases]]\nfrom = "a" # note\nto = \'b\'\n',
    '[meta]\r\nversion = 1\r\n[[ aliases ]]\r\nfrom = "a\\tb\\u00e9"\r\nto = "c"\r\n',
    "# only a comment\n\n",
    '[[aliases]]\nfrom = "tab\there"\nto = "x"\n',
])
def test_the_flat_shape_is_read_fast_and_identically(text):
    assert fast_toml.loads(text) == tomllib.loads(text)


@pytest.mark.parametrize("text", [
    '[[aliases]]\nfrom = """multi\nline"""\nto = "x"\n',      # multi-line string
    '[[aliases]]\nfrom = "\\U0001F600"\nto = "x"\n',           # an escape JSON lacks
    '[[aliases]]\nfrom = "a"\nfrom = "b"\n',                   # repeated key: tomllib's error
    '[other]\nx = 1\n',                                        # another table
    '[[aliases]]\na.b = "x"\n',                                # dotted key
    'top = "x"\n[[aliases]]\nfrom = "a"\n',                    # a top-level key
    '[meta]\nx = 1\n[meta]\ny = 2\n',                          # a table defined twice
    '[[aliases]]\nfrom = "\\ud800"\n',                         # a surrogate escape
    '[[aliases]]\nfrom = "a\x01b"\n',                          # a raw control character
    '[[aliases]]\nfrom = \n',                                  # no value
])
def test_anything_else_is_left_to_tomllib(text):
    assert fast_toml.loads(text) is None


def test_a_broken_document_still_gets_tomllibs_error_message():
    from dp.errors import DpError

    with pytest.raises(DpError, match="invalid TOML"):
        collection.parse('[[aliases]]\nfrom = "a"\nfrom = "b"\n', "toml")
