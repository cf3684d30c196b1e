"""`core` against PyTorch's own answers, stored in tests/reference/torch_reference.json: runs on every machine.

The file was written by tests/reference/make_torch_reference.py with the PyTorch version it names; the live
comparison in tests/test_core_torch_live.py asks an installed PyTorch the same questions.
"""

import json
import math
from pathlib import Path

import numpy as np
import pytest

import core

REFERENCE = json.loads((Path(__file__).parent / "reference" / "torch_reference.json").read_text("utf-8"))


def core_cross_entropy(case):
    """`core`'s loss and per-row gradient for one stored case (class axis last, as core keeps it)."""
    z = np.asarray(case["z"], dtype=case["dtype"])
    y = np.asarray(case["target"], dtype=np.float64 if case["target_kind"] == "probabilities" else np.int64)
    kw = {"T": case["T"], "label_smoothing": case["label_smoothing"],
          "weight": None if case["weight"] is None else np.asarray(case["weight"])}
    return core.cross_entropy(z, y, reduction=case["reduction"], **kw), core.grad_logits(z, y, **kw)


def assert_matches(case, loss, grad, torch_loss, torch_grad):
    if case["dtype"] == "float32":
        assert np.asarray(loss).dtype == np.float32
        np.testing.assert_allclose(loss, torch_loss, rtol=1e-6)
        np.testing.assert_allclose(grad, torch_grad, rtol=1e-5, atol=1e-9)
        return
    assert np.shape(loss) == np.shape(torch_loss)
    np.testing.assert_allclose(loss, torch_loss, rtol=1e-12, atol=1e-14, equal_nan=True)
    np.testing.assert_allclose(grad, torch_grad, rtol=1e-10, atol=1e-14)


def test_reference_names_its_producer():
    assert REFERENCE["produced_by"] == "tests/reference/make_torch_reference.py"
    assert REFERENCE["torch"].startswith("2.")
    assert len(REFERENCE["cross_entropy"]) >= 160


@pytest.mark.parametrize("i", range(len(REFERENCE["cross_entropy"])))
def test_cross_entropy_and_gradient_match_pytorch(i):
    case = REFERENCE["cross_entropy"][i]
    assert_matches(case, *core_cross_entropy(case), case["loss"], case["grad"])


def test_mean_over_no_counted_target_is_nan_as_in_pytorch():
    cases = [c for c in REFERENCE["cross_entropy"] if c["target"] == [-100, -100]]
    assert len(cases) == 1 and math.isnan(cases[0]["loss"])
    assert math.isnan(core_cross_entropy(cases[0])[0])


@pytest.mark.parametrize("i", range(len(REFERENCE["softmax"])))
def test_softmax_at_extremes_matches_pytorch(i):
    case = REFERENCE["softmax"][i]
    # PyTorch rounds each z/T before it shifts (core shifts first, so near-ties stay exact): its u carries an
    # absolute error of about |z/T|·2^-53, which becomes the relative error of p.
    u_error = 4 * np.finfo(float).eps * max(abs(v) for v in case["z"]) / case["T"]
    np.testing.assert_allclose(core.softmax(case["z"], T=case["T"]), case["softmax"], rtol=1e-13 + u_error,
                               atol=1e-300)
    np.testing.assert_allclose(core.log_softmax(case["z"], T=case["T"]), case["log_softmax"], rtol=1e-13,
                               atol=u_error)


def test_softmax_jacobian_matches_autograd():
    jc = REFERENCE["jacobian"]
    np.testing.assert_allclose(core.softmax_jacobian(jc["z"], T=jc["T"]), jc["J"], rtol=1e-12, atol=1e-15)
