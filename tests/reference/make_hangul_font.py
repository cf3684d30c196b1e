"""Write static/fonts/: the Hangul of every Korean string of the interface, in Noto Sans CJK KR, as WOFF2.

    apt-get install fonts-noto-cjk && pip install fonttools brotli && python tests/reference/make_hangul_font.py

A machine without a Korean font (a Debian image, a lab's Linux box) draws every Korean label as an empty box.
The page carries the glyphs it needs itself: the Hangul, Hangul Jamo and CJK punctuation of app/strings.py's
Korean table (labels, notices, the default class names) and of the Korean words the road to language models can
list (app/vocabulary.py `listable`), in Noto Sans CJK KR Regular and Bold (weights 400
and 700, what the page's text uses) from Debian's fonts-noto-cjk, subset with fontTools and renamed "SX Hangul"
(a modified font takes a name of its own; the licence reserves only "Source"). Nothing else is read. The
glyphs are the font's own; its licence, the SIL Open Font License 1.1, is static/fonts/OFL.txt, with the
font's copyright notice. A learner's own Korean class names may hold syllables the subset lacks: those fall
back to the machine's fonts (the CSS's unicode-range names the whole Hangul block, so each missing character
falls through to the next family). tests/test_hangul_font.py checks that the files hold every character of
the table, so rerun this after changing a Korean string.
"""

import gzip
import re
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from app import vocabulary  # noqa: E402
from app.document import VIEW  # noqa: E402
from app.strings import TEXT  # noqa: E402
from tests.string_table import strings  # noqa: E402

OUT = ROOT / "static" / "fonts"
SOURCES = {400: "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
           700: "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"}
KR = "Noto Sans CJK KR"
FAMILY = "SX Hangul"
# What the subset covers, and what the CSS's unicode-range says (static/hangul.css).
RANGES = [(0x1100, 0x11FF), (0x3000, 0x303F), (0x3130, 0x318F), (0xAC00, 0xD7A3)]
LICENCE = "/usr/share/doc/fonts-noto-cjk/copyright"


def needed():
    """The code points of the Korean table and of the Korean words the decoding readout can list that fall in
    RANGES, sorted."""
    text = "".join(strings(TEXT["ko"])) + "".join(vocabulary.listable("ko", VIEW["top_words"]))
    return sorted({ord(c) for c in text if any(lo <= ord(c) <= hi for lo, hi in RANGES)})


def font_of(path):
    """Noto Sans CJK KR in Debian's collection file `path`."""
    for font in TTCollection(path).fonts:
        if font["name"].getDebugName(1) == KR:
            return font
    raise SystemExit(f"{path} holds no {KR}: install Debian's fonts-noto-cjk")


def make(weight, codepoints):
    font = font_of(SOURCES[weight])
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
    sub = subset.Subsetter(options)
    sub.populate(unicodes=codepoints)
    sub.subset(font)
    style = "Bold" if weight == 700 else "Regular"
    names = {1: FAMILY, 3: f"{FAMILY} {style} (subset of {KR})", 4: f"{FAMILY} {style}", 6: f"SXHangul-{style}"}
    for record in font["name"].names:
        if record.nameID in names:
            record.string = names[record.nameID]
    path = OUT / f"hangul-{weight}.woff2"
    font.flavor = "woff2"
    font.save(path)
    return path, font["name"].getDebugName(0)


def licence_text(notice):
    """The OFL 1.1 as Debian's copyright file gives it, under the font's own copyright notice."""
    raw = Path(LICENCE).read_bytes()
    text = (gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw).decode("utf-8")
    body = re.search(r"^License: SIL-1\.1\n((?: .*\n?)+)", text, re.M).group(1)
    lines = [line[1:] if line != " ." else "" for line in body.splitlines()]
    return (f"static/fonts/hangul-*.woff2: subsets of {KR} (Regular, Bold), renamed {FAMILY}.\n"
            f"{notice}\n\n" + "\n".join(lines).strip() + "\n")


def main():
    OUT.mkdir(exist_ok=True)
    codepoints = needed()
    for weight in SOURCES:
        path, notice = make(weight, codepoints)
        print(f"wrote {path.relative_to(ROOT)} ({path.stat().st_size / 1e3:.1f} kB, {len(codepoints)} characters)")
    (OUT / "OFL.txt").write_text(licence_text(notice), encoding="utf-8")


if __name__ == "__main__":
    main()
