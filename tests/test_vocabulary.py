"""app/vocabulary.py and its data: wordfreq's buckets as shipped, regenerated bit for bit, and the unigram model
they make (its logits ln(frequency), its entropy, perplexity and ln V)."""

import importlib.util
import math
from pathlib import Path

import numpy as np
import pytest

import core
from app import vocabulary

ROOT = Path(__file__).resolve().parents[1]


def test_the_data_file_regenerates_bit_for_bit():
    pytest.importorskip("wordfreq")
    spec = importlib.util.spec_from_file_location("make_vocabulary", ROOT / "tests/reference/make_vocabulary.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.build() == (ROOT / "app/data/vocabulary.json").read_text(encoding="utf-8")


def test_each_words_logit_is_ln_of_wordfreqs_own_frequency():
    wordfreq = pytest.importorskip("wordfreq")
    for lang, wordlist in (("en", "large"), ("ko", "best")):
        words, z = vocabulary.unigram(lang)
        exact = wordfreq.get_frequency_dict(lang, wordlist)
        assert all(math.exp(v) == pytest.approx(exact[w], rel=1e-13) for w, v in zip(words, z, strict=True))
    # What a reader of wordfreq's docs would call, rounded there to three significant digits (Korean needs MeCab).
    words, z = vocabulary.unigram("en")
    for rank in (0, 1, 9, 99, 999, 9999, len(words) - 1):
        want = wordfreq.word_frequency(words[rank], "en", wordlist="large")
        assert float(f"{math.exp(z[rank]):.3g}") == want, words[rank]


def test_the_unigram_models():
    en, z = vocabulary.unigram("en")
    assert len(en) == len(set(en)) == 50_000 and en[:5] == ["the", "to", "and", "of", "a"]
    ko, zk = vocabulary.unigram("ko")
    assert len(ko) == len(set(ko)) == 29_988
    for logits in (z, zk):
        assert np.all(np.diff(logits) <= 0), "in rank order"
    p = core.softmax(z)
    assert p.sum() == pytest.approx(1.0, abs=1e-12)
    assert p[0] == pytest.approx(10 ** (-127 / 100) / np.exp(z).sum(), rel=1e-12)  # "the": 127 centibels
    H = float(core.entropy(p))
    assert 0 < core.perplexity(H) < 50_000
    assert vocabulary.uniform_loss("en") == pytest.approx(math.log(50_000), rel=1e-15)
    assert round(vocabulary.uniform_loss("en"), 2) == 10.82 and round(math.log(50_257), 3) == 10.825
    with pytest.raises(ValueError, match="lang must be one of"):
        vocabulary.unigram("fr")
