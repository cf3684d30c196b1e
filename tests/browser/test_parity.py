"""static/softmax.mjs, run in Chromium, equals core/ on every case of tests/parity_cases.py."""

import numpy as np
import pytest

import core
from app.bundle import read
from tests.browser.chromium import module_page
from tests.parity_cases import cases

RUN = """(cases) => cases.map(([z, T, y, eps]) => ({
  softmax: twin.softmax(z, T),
  log_softmax: twin.log_softmax(z, T),
  logsumexp: [twin.logsumexp(z)],
  cross_entropy: [twin.cross_entropy(z, y, T, eps)],
  grad_logits: twin.grad_logits(z, y, T, eps),
  entropy: [twin.entropy(twin.softmax(z, T)), twin.entropy(twin.softmax(z, T), 2)],
  kl: [twin.kl_divergence(twin.softmax(z, 1), twin.softmax(z, T))],
  jacobian: twin.softmax_jacobian(z, T).flat(),
  smoothing: [twin.label_smoothing_floor(z.length, eps), twin.label_smoothing_optimal_gap(z.length, eps),
              twin.uniform_loss(z.length)],
}))"""


def python_truth(z, T, y, eps):
    z = np.asarray(z)
    p = core.softmax(z, T=T)
    return {
        "softmax": p,
        "log_softmax": core.log_softmax(z, T=T),
        "logsumexp": [core.logsumexp(z)],
        "cross_entropy": [core.cross_entropy(z, y, T=T, label_smoothing=eps)],
        "grad_logits": core.grad_logits(z, y, T=T, label_smoothing=eps),
        "entropy": [core.entropy(p), core.entropy(p, base=2)],
        "kl": [core.kl_divergence(core.softmax(z), p)],
        "jacobian": core.softmax_jacobian(z, T=T).ravel(),
        "smoothing": [core.label_smoothing_floor(len(z), eps), core.label_smoothing_optimal_gap(len(z), eps),
                      core.uniform_loss(len(z))],
    }


def kl_terms_scale(z, T):
    """Σ_k p_k (|log p_k| + |log q_k|): KL near 0 cancels twice (log p − log q, then the sum), so a last-bit
    difference between two correct log() implementations scales with these terms, not with the result."""
    p, q = core.softmax(np.asarray(z)), core.softmax(np.asarray(z), T=T)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, p * (np.abs(np.log(p)) + np.abs(np.log(q))), 0.0)
    return float(terms[np.isfinite(terms)].sum())


def close(js, py, scale=None):
    """1e-12 relative per entry, plus 1e-15 of the vector's largest entry: (p − y)/T cancels when p ≈ y, and
    a last-bit difference between two correct exp() implementations then dominates a near-zero entry."""
    js, py = np.asarray(js, dtype=float), np.asarray(py, dtype=float)
    same_inf = np.isinf(py) & (js == py)
    finite = ~np.isinf(py)
    if scale is None:
        scale = np.max(np.abs(py[finite]), initial=0.0)
    with np.errstate(invalid="ignore"):  # inf − inf where both are inf: judged by same_inf
        ok = same_inf | (np.abs(js - py) <= 1e-12 * np.abs(py) + 1e-15 * scale)
    return bool(np.all(ok)), js, py


@pytest.fixture(scope="module")
def js_results(browser):
    page = module_page(browser, read("softmax.mjs"))
    out = page.evaluate(RUN, cases())
    page.close()
    return out


def test_fixture_is_large_and_extreme():
    cs = cases()
    assert len(cs) >= 200
    assert min(T for _, T, _, _ in cs) <= 1e-8 and max(T for _, T, _, _ in cs) >= 1e6
    assert any(max(z) >= 710 for z, *_ in cs) and any(-np.inf in z for z, *_ in cs)


@pytest.mark.parametrize("i", range(len(cases())))
def test_js_core_equals_python_core(js_results, i):
    z, T, y, eps = cases()[i]
    for name, want in python_truth(z, T, y, eps).items():
        ok, got, want = close(js_results[i][name], want, kl_terms_scale(z, T) if name == "kl" else None)
        assert ok, f"case {i} {cases()[i]}: {name} js={got.tolist()} python={want.tolist()}"
