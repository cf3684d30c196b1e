"""The page's Hangul font (static/fonts/, tests/reference/make_hangul_font.py) holds every Hangul character of
the Korean interface, in both weights, under its licence; rerun the script after changing a Korean string."""

import io

import pytest
from fontTools.ttLib import TTFont

from app import bundle
from tests.reference.make_hangul_font import FAMILY, needed


@pytest.mark.parametrize("weight", [400, 700])
def test_the_subset_holds_every_hangul_character_of_the_korean_strings(weight):
    font = TTFont(io.BytesIO(bundle.read_bytes(f"fonts/hangul-{weight}.woff2")))
    missing = [chr(c) for c in needed() if c not in font.getBestCmap()]
    assert missing == [], f"rerun tests/reference/make_hangul_font.py: {''.join(missing)}"
    assert font["name"].getDebugName(1) == FAMILY and font["OS/2"].usWeightClass == weight


def test_the_font_s_licence_ships_beside_it():
    text = bundle.read_bytes("fonts/OFL.txt").decode("utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in text and "Adobe" in text


def test_the_page_s_font_css_carries_both_files_and_asks_for_nothing():
    css = bundle.fonts_css()
    assert css.count("data:font/woff2;base64,") == 2 and "woff2\")" not in css.replace("format(\"woff2\")", "")
