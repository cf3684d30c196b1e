"""Write app/data/vocabulary.json: real next-word distributions, English and Korean, from the wordfreq package.

    pip install wordfreq==3.1.1 && python tests/reference/make_vocabulary.py

A unigram model's logits are ln(frequency). wordfreq (Robyn Speer) stores each language's words in buckets of
equal frequency, one bucket per centibel (a word in bucket c has frequency 10^(−c/100)), most frequent first;
this keeps them that way: the 50,000 most frequent English words of its "large" list and every word of its
Korean list ("best", which is its "small" one: 29,988 words), in wordfreq's own order. The file records the
version, the lists and this script; its licence (CC BY-SA 4.0, wordfreq's data licence, with the attributions
wordfreq asks for) is app/data/LICENSE-wordfreq.txt. tests/test_vocabulary.py regenerates it and compares.
"""

import json
import sys
from importlib.metadata import version
from pathlib import Path

import wordfreq

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "app" / "data" / "vocabulary.json"
LISTS = {"en": ("large", 50_000), "ko": ("best", 50_000)}


def buckets(lang, wordlist, most):
    """[[centibels, "word word …"], …] for the `most` most frequent words, most frequent bucket first."""
    out, left = [], most
    for cB, words in enumerate(wordfreq.get_frequency_list(lang, wordlist)):
        if words and left > 0:
            out.append([cB, " ".join(words[:left])])
            left -= len(words[:left])
    return out


def build():
    doc = {
        "made_by": "tests/reference/make_vocabulary.py",
        "source": f"wordfreq {version('wordfreq')} by Robyn Speer, https://github.com/rspeer/wordfreq",
        "licence": "CC BY-SA 4.0: app/data/LICENSE-wordfreq.txt",
        "unit": "centibels: a word in bucket c has frequency 10^(-c/100); its unigram logit is ln of that",
        "languages": {lang: {"wordlist": wordlist, "buckets": buckets(lang, wordlist, most)}
                      for lang, (wordlist, most) in LISTS.items()},
    }
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n"


if __name__ == "__main__":
    OUT.write_text(build(), encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)} ({OUT.stat().st_size:,} bytes)", file=sys.stderr)
