"""`core` against an installed PyTorch, on the cases of tests/reference/torch_cases.py.

Collected only where PyTorch is installed (tests/conftest.py). It also checks that the stored answers
(tests/reference/torch_reference.json) are still what this PyTorch says, so a stale file cannot hide.
"""

import numpy as np
import pytest

import core
from tests.reference import make_torch_reference as make
from tests.reference.torch_cases import cross_entropy_cases, extreme_softmax_cases
from tests.test_core_torch import REFERENCE, assert_matches, core_cross_entropy

torch = pytest.importorskip("torch")
CASES = cross_entropy_cases()


@pytest.mark.parametrize("i", range(len(CASES)))
def test_cross_entropy_and_gradient_match_live_pytorch(i):
    answer = make.torch_cross_entropy(CASES[i])
    assert_matches(CASES[i], *core_cross_entropy(CASES[i]), answer["loss"], answer["grad"])


def test_stored_answers_are_what_this_pytorch_says():
    for case, stored in zip(CASES, REFERENCE["cross_entropy"], strict=True):
        assert case["z"] == stored["z"] and case["target"] == stored["target"]
        answer = make.torch_cross_entropy(case)
        np.testing.assert_allclose(answer["loss"], stored["loss"], rtol=1e-12, equal_nan=True)
    for case, stored in zip(extreme_softmax_cases(), REFERENCE["softmax"], strict=True):
        np.testing.assert_allclose(make.torch_softmax(case)["softmax"], stored["softmax"], rtol=1e-14)


def test_float32_large_vocabulary_matches_live_pytorch():
    rng = np.random.default_rng(7)
    z = (rng.standard_normal((8, 50257)) * 3).astype(np.float32)
    y = rng.integers(0, 50257, 8)
    theirs = torch.nn.functional.cross_entropy(torch.from_numpy(z), torch.from_numpy(y)).numpy()
    ours = core.cross_entropy(z, y)
    assert ours.dtype == np.float32
    np.testing.assert_allclose(ours, theirs, rtol=1e-6)
    np.testing.assert_allclose(core.softmax(z), torch.softmax(torch.from_numpy(z), -1).numpy(), rtol=1e-5,
                               atol=1e-12)
