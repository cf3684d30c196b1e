"""What the page's words claim, against what is so (issue 37's list of wrong or misleading texts): each test
fails on the strings that said it."""

import re

import pytest

from app.strings import LANGS, TEXT
from tests.string_table import leaves


def texts(lang):
    """Every string of a language's table, nested ones included, with its path ("en.tour_steps.scores.task")."""
    return [(".".join(map(str, (lang, *path))), text) for path, text in leaves(TEXT[lang])]


@pytest.mark.parametrize("lang", LANGS)
def test_no_text_writes_a_subscript_as_code(lang):
    """`p_i`, `z_j`, `softmax_j` were shown raw in figure titles; a title is canvas text, so pᵢ, zⱼ; HTML uses <sub>."""
    raw = [(path, text) for path, text in texts(lang) if re.search(r"[A-Za-zδ]+_[ij]{1,2}\b", text)]
    assert raw == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_jacobian_panel_says_its_values_are_the_arrows_opposite(lang):
    """Its values are ∂L/∂z = (p − y′)/T; the arrows show −∂L/∂z. It said "the arrows' ∂L/∂z"."""
    words = TEXT[lang]["jacobian_arrows"]
    assert "∂L/∂z = (p − y′)/T" in words
    assert {"en": "opposite", "ko": "반대", "es": "opuesto"}[lang] in words
    assert "arrows’ ∂L" not in words and "화살표의 ∂L" not in words


@pytest.mark.parametrize("lang", LANGS)
def test_perplexity_is_named_as_the_loss_beside_it_is_written(lang):
    """e^L of a loss in bits is not the perplexity (e^0.602 = 1.83; the number shown, 1.517, is 2^L)."""
    assert "e<sup>L</sup>" in TEXT[lang]["perplexity"] and "2<sup>L</sup>" in TEXT[lang]["perplexity_bits"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_lse_step_adds_ln_k_as_a_number_not_in_nats(lang):
    """z/T has no unit: "{zmax} + {ln_k}" added "1.099 nats" to it."""
    text = TEXT[lang]["tour_steps"]["lse"]["text"]
    assert "{zmax} + {lnK}" in text and "{ln_k}" not in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_loss_curve_s_subtitle_is_about_the_loss(lang):
    """It spoke of Σz, which the loss curve does not show."""
    assert "Σz" not in TEXT[lang]["loss_hint"] and "L" in TEXT[lang]["loss_hint"]


@pytest.mark.parametrize(("lang", "claim", "no_context", "unigram"),
                         [("en", "next word", "no context", "Unigram"), ("ko", "다음 단어", "문맥 없음", "단어 빈도"),
                          ("es", "siguiente palabra", "sin contexto", "Unigramas")])
def test_the_word_frequencies_are_not_called_the_next_word(lang, claim, no_context, unigram):
    """A unigram model has no context: its title says so, not "the next word"."""
    title = TEXT[lang]["vocab_title"]
    assert claim not in title.lower() and no_context in title and unigram in title


@pytest.mark.parametrize("calque", ["순진한", "걸음을 밟아", "배움은 그 아래의 손실", "기어가"])
def test_the_korean_has_none_of_the_calques_a_reviewer_found(calque):
    """Word-for-word English ("naive", "take steps", "learning is the loss below", "crawls")."""
    assert [path for path, text in texts("ko") if calque in text] == []
