"""A real vocabulary: the next word of a unigram model over English or Korean words, from wordfreq's data.

app/data/vocabulary.json (made by tests/reference/make_vocabulary.py) holds wordfreq's frequency buckets: the
50,000 most frequent English words and 29,988 Korean ones. A word's logit is ln(frequency), so the model's
distribution is softmax(logits): each word's frequency over the listed words' total. In a notebook:

>>> from app import vocabulary
>>> words, z = vocabulary.unigram("en")
>>> len(words), words[:3], round(float(z[0]), 3)
(50000, ['the', 'to', 'and'], -2.924)
>>> round(vocabulary.uniform_loss("en"), 3)  # what a model that knows nothing scores: ln V
10.82
"""

import base64
import gzip
import json
import math
from functools import cache
from importlib.resources import files

import numpy as np

LANGS = ("en", "ko")


@cache
def _data():
    return json.loads(files("app").joinpath("data/vocabulary.json").read_text(encoding="utf-8"))


@cache
def unigram(lang):
    """The words of `lang` in rank order and their logits ln(frequency), ln(10^(−c/100)) for bucket c."""
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {LANGS}, not {lang!r}")
    words, logits = [], []
    for cB, text in _data()["languages"][lang]["buckets"]:
        bucket = text.split(" ")
        words += bucket
        logits += [-cB / 100 * math.log(10)] * len(bucket)
    return words, np.array(logits)


def uniform_loss(lang):
    """ln V, the cross-entropy of the uniform guess over the V words: a new model's first loss."""
    return math.log(len(unigram(lang)[0]))


@cache
def packed(lang):
    """The buckets of `lang` as the page receives them: JSON [[c, "word word …"], …], gzipped, in base64 (a
    third of the JSON's size in an exported file; static/lm_view.mjs unpacks it with DecompressionStream).

    >>> import base64, gzip
    >>> json.loads(gzip.decompress(base64.b64decode(packed("en"))))[:2]
    [[127, 'the'], [157, 'to']]
    """
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {LANGS}, not {lang!r}")
    text = json.dumps(_data()["languages"][lang]["buckets"], ensure_ascii=False, separators=(",", ":"))
    return base64.b64encode(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)).decode("ascii")
