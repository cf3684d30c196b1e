"""The teacher's page (examples/teaching.md) is app/teaching.py's output, names every link key, and each of its
examples is a link the page takes as it is."""

from pathlib import Path

import pytest

from app import teaching
from app.fields import FIELDS
from app.link import link_pairs, parse_link

STORED = Path(__file__).resolve().parents[1] / "examples" / "teaching.md"


def test_the_stored_page_is_the_tables_page():
    assert STORED.read_text(encoding="utf-8") == teaching.page(), "rerun python -m app.teaching > examples/teaching.md"


@pytest.mark.parametrize("f", [f for f in FIELDS if f.link], ids=lambda f: f.link)
def test_each_key_is_listed_with_an_example_a_link_takes(f):
    assert f"| `{f.link}` |" in teaching.page()
    text = teaching.example(f)
    pairs = [("z", "1,2,3"), (f.link, text)] if f.link in ("names", "y", "z0") else [(f.link, text)]
    state, refused = parse_link(link_pairs("&".join(f"{k}={v}" for k, v in pairs)))
    assert refused == [], (f.link, text)
    assert state[f.key] != parse_link([])[0][f.key], f"the example of {f.link} is its default"
