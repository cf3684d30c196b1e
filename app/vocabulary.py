"""A real vocabulary: the next word of a unigram model over English words or Korean morphemes, from wordfreq's data.

app/data/vocabulary.json (made by tests/reference/make_vocabulary.py) holds wordfreq's frequency buckets: the
50,000 most frequent English words and 29,988 Korean morphemes (wordfreq splits Korean text into morphemes: 이,
는, 을, …; the page says so). A word's logit is ln(frequency), so the model's
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

import core

from . import fields, rules

LANGS = fields.BY_KEY["vlang"].choices  # the vocabularies in app/data, whatever the page's language
K_MAX = 2**31 - 1  # the largest top-k core.top_k_mask takes (a 32-bit count)


@cache
def _data():
    return json.loads(files("app").joinpath("data/vocabulary.json").read_text(encoding="utf-8"))


def _buckets(lang):
    """wordfreq's buckets of `lang`: [c, "word word …"] for the words of frequency 10^(−c/100)."""
    return _data()["languages"][rules.one_of(lang, LANGS, "lang")]["buckets"]


@cache
def unigram(lang):
    """The words of `lang` in rank order and their logits ln(frequency), ln(10^(−c/100)) for bucket c."""
    words, logits = [], []
    for cB, text in _buckets(lang):
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
    text = json.dumps(_buckets(lang), ensure_ascii=False, separators=(",", ":"))
    return base64.b64encode(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)).decode("ascii")


def listable(lang, n):
    """The words a list of the n most probable kept words can hold, whatever the filters keep.

    Top-k and min-p keep the words above a bound (ties included); top-p may also drop the first words of the run
    of equal frequencies it stops in (Hugging Face's rule), so a list can skip into that run: it holds at most
    the n words after the end of a run that starts within the first n. The page's Hangul covers these
    (tests/reference/make_hangul_font.py).

    >>> listable("ko", 10)[:5], len(listable("ko", 10))
    (['이', '는', '을', '하', '에'], 20)
    """
    words, z = unigram(lang)
    end = n = rules.integer(n, (0, None), "n")
    for start in range(min(n, len(z))):
        run_end = start
        while run_end + 1 < len(z) and z[run_end + 1] == z[start]:
            run_end += 1
        end = max(end, run_end + 1 + n)
    return words[:end]


def stages(top_k=0, top_p=1.0, min_p=0.0):
    """The decoding filters turned on, in Hugging Face's order (temperature, top-k, top-p, min-p); a filter at
    its off value (top-k 0, top-p 1, min-p 0) is left out, as the page does (static/lm_view.mjs).

    A filter's value may be NumPy's too (k an integer, p a number from 0 to 1); the stages hold Python's.

    >>> stages(top_k=50, top_p=0.9)
    (('top_k', 50), ('top_p', 0.9))
    """
    top_k = rules.integer(top_k, (0, K_MAX), "top_k")
    top_p, min_p = (rules.within(v, (0.0, 1.0), what, "refused") for v, what in ((top_p, "top_p"), (min_p, "min_p")))
    return (*((("top_k", top_k),) if top_k > 0 else ()), *((("top_p", top_p),) if top_p < 1 else ()),
            *((("min_p", min_p),) if min_p > 0 else ()))


def next_word(lang, T=1.0, top_k=0, top_p=1.0, min_p=0.0):
    """The kept words of `lang` in rank order and their renormalised p after softmax(ln f / T) and the filters:
    each filter keeps some words of the current distribution and renormalises it (core.decode_kept).

    >>> words, p = next_word("en", top_p=0.5)
    >>> len(words), words[:3], round(float(p[0]), 4)
    (116, ['the', 'to', 'and'], 0.1105)
    """
    filters = stages(top_k, top_p, min_p)
    words, z = unigram(lang)
    p, kept = core.decode_kept(z, rules.number(T, "T"), filters)
    return [w for w, k in zip(words, kept, strict=True) if k], p[kept]
