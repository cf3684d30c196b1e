"""Every bad input raises ValueError with a message that names the problem."""

import numpy as np
import pytest

import core

Z = [2.0, 1.0, 0.1]


@pytest.mark.parametrize("fn", [core.softmax, core.log_softmax, core.logsumexp, core.softmax_jacobian])
def test_nan_logits(fn):
    with pytest.raises(ValueError, match="logits contain NaN"):
        fn([1.0, np.nan, 0.0])


@pytest.mark.parametrize("fn", [core.softmax, core.log_softmax, core.logsumexp, core.softmax_jacobian])
def test_posinf_logits(fn):
    with pytest.raises(ValueError, match=r"logits contain \+inf"):
        fn([1.0, np.inf, 0.0])


@pytest.mark.parametrize("fn", [core.softmax, core.log_softmax, core.logsumexp, core.softmax_jacobian])
def test_row_of_all_neginf(fn):
    with pytest.raises(ValueError, match="row of logits is all -inf"):
        fn([[0.0, 1.0], [-np.inf, -np.inf]])


def test_nan_logits_in_cross_entropy_and_gradient():
    with pytest.raises(ValueError, match="logits contain NaN"):
        core.cross_entropy([np.nan, 0.0], 0)
    with pytest.raises(ValueError, match="logits contain NaN"):
        core.grad_logits([np.nan, 0.0], 0)


def test_nan_logits_in_a_later_block():
    # The NaN sits beyond the first cache block: the check must not stop at the first block.
    z = np.zeros((40, 50257), dtype=np.float32)
    z[-1, -1] = np.nan
    with pytest.raises(ValueError, match="logits contain NaN"):
        core.cross_entropy(z, np.zeros(40, dtype=int))


@pytest.mark.parametrize("T", [0.0, -1.0, np.nan, np.inf, -np.inf])
def test_bad_temperature(T):
    with pytest.raises(ValueError, match="temperature T must be a finite number > 0"):
        core.softmax(Z, T=T)
    with pytest.raises(ValueError, match="temperature T must be a finite number > 0"):
        core.cross_entropy(Z, 0, T=T)


def test_target_index_too_large():
    with pytest.raises(ValueError, match=r"target class index 3 is out of range \[0, 3\)"):
        core.cross_entropy(Z, 3)


def test_target_index_negative():
    with pytest.raises(ValueError, match=r"target class index -1 is out of range \[0, 3\)"):
        core.grad_logits(Z, -1)


def test_ignore_index_is_not_out_of_range():
    assert core.cross_entropy([Z, Z], [0, -100], reduction="sum") == core.cross_entropy(Z, 0)
    assert core.cross_entropy([Z, Z], [0, 7], ignore_index=7, reduction="sum") == core.cross_entropy(Z, 0)


@pytest.mark.parametrize("eps", [-0.1, 1.5, np.nan])
def test_label_smoothing_outside_unit_interval(eps):
    with pytest.raises(ValueError, match=r"label_smoothing must lie in \[0, 1\]"):
        core.cross_entropy(Z, 0, label_smoothing=eps)
    with pytest.raises(ValueError, match=r"label_smoothing must lie in \[0, 1\]"):
        core.grad_logits(Z, 0, label_smoothing=eps)


def test_index_target_shape_does_not_fit():
    with pytest.raises(ValueError, match=r"target shape \(2,\) does not fit logits shape \(3, 3\)"):
        core.cross_entropy(np.zeros((3, 3)), [0, 1])


def test_probability_target_shape_does_not_fit():
    with pytest.raises(
        ValueError, match="a float target holds class probabilities and needs the logits' shape"
    ):
        core.cross_entropy(np.zeros((2, 3)), [0.0, 1.0])


def test_target_of_another_dtype():
    with pytest.raises(ValueError, match="target must be integer class indices or float probabilities"):
        core.cross_entropy(Z, np.array(["cat"]))


def test_negative_probability_target():
    with pytest.raises(ValueError, match="probability target must hold probabilities"):
        core.cross_entropy(Z, [1.5, -0.5, 0.0])


def test_weight_shape_does_not_fit():
    with pytest.raises(ValueError, match=r"weight must have one entry per class, shape \(3,\)"):
        core.cross_entropy(Z, 0, weight=[1.0, 2.0])


def test_negative_weight():
    with pytest.raises(ValueError, match="weight must hold finite class weights >= 0"):
        core.cross_entropy(Z, 0, weight=[1.0, -2.0, 1.0])


def test_unknown_reduction():
    with pytest.raises(ValueError, match="reduction must be 'mean', 'sum' or 'none'"):
        core.cross_entropy(Z, 0, reduction="average")


def test_scalar_logits():
    with pytest.raises(ValueError, match="logits need a class axis"):
        core.softmax(1.0)


def test_no_classes():
    with pytest.raises(ValueError, match="logits need at least one class"):
        core.softmax(np.zeros((2, 0)))


def test_complex_logits():
    with pytest.raises(ValueError, match="logits must be real numbers"):
        core.softmax([1 + 2j, 0])


@pytest.mark.parametrize("fn", [core.softmax, core.log_softmax, core.logsumexp])
def test_axis_out_of_range(fn):
    with pytest.raises(ValueError, match="axis 1 is out of range for logits with 1 dimension$"):
        fn(Z, axis=1)
    with pytest.raises(ValueError, match="axis -3 is out of range for logits with 2 dimensions"):
        fn([Z], axis=-3)


@pytest.mark.parametrize("fn", [core.softmax, core.log_softmax, core.logsumexp])
@pytest.mark.parametrize("axis", [1.0, True, "1", None])
def test_axis_that_is_not_an_integer(fn, axis):
    # Regression: axis=1.0 said "'float' object is not iterable" in logsumexp; True was taken as 1.
    with pytest.raises(ValueError, match="axis must be an integer"):
        fn([Z], axis=axis)


@pytest.mark.parametrize("fn", [core.softmax, core.log_softmax, core.logsumexp])
def test_no_classes_along_the_class_axis(fn):
    # Regression: an empty class axis that is not the last one failed in a reshape.
    with pytest.raises(ValueError, match=r"logits need at least one class along axis 0: got shape \(0, 3\)"):
        fn(np.zeros((0, 3)), axis=0)


def test_an_absurd_smoothed_target_is_refused_before_allocating():
    # Regression: smoothed_target(0, 10**12) raised MemoryError after trying to allocate 7.3 TiB.
    with pytest.raises(ValueError, match=r"the smoothed target would hold 1e\+12 numbers \(7.45e\+03 GiB\)"):
        core.smoothed_target(0, 10**12)


@pytest.mark.parametrize("p", [[0.5, -0.1, 0.6], [0.5, np.nan, 0.5], [np.inf, 0.0], [1e308, 1e308], [1.5, 0.0]])
def test_entropy_of_bad_probabilities(p):
    # Regression: entropy([1e308, 1e308]) overflowed to -inf with a warning; 1e308 is not a probability.
    with pytest.raises(ValueError, match=r"p must hold probabilities: every entry in \[0, 1\]"):
        core.entropy(p)


def test_kl_with_bad_q():
    with pytest.raises(ValueError, match="q must hold probabilities"):
        core.kl_divergence([0.5, 0.5], [1.0, np.nan])


def test_kl_with_different_class_counts():
    with pytest.raises(ValueError, match="p and q need the same number of classes"):
        core.kl_divergence([0.5, 0.5], [0.2, 0.3, 0.5])


def test_kl_with_shapes_that_do_not_broadcast():
    with pytest.raises(ValueError, match="p and q shapes do not broadcast"):
        core.kl_divergence(np.full((2, 2), 0.5), np.full((3, 2), 0.5))


@pytest.mark.parametrize("base", [0, -2, 1, np.nan, np.inf])
def test_bad_log_base(base):
    with pytest.raises(ValueError, match="base must be a finite number > 0 other than 1"):
        core.entropy([0.5, 0.5], base=base)


@pytest.mark.parametrize("K", [0, -3, 2.5, True])
def test_bad_class_count(K):
    with pytest.raises(ValueError, match="the number of classes K must be an integer >= 1"):
        core.uniform_loss(K)


def test_smoothed_target_out_of_range():
    with pytest.raises(ValueError, match=r"target class index out of range \[0, 4\)"):
        core.smoothed_target(4, 4, 0.1)


def test_smoothing_helpers_reject_eps_outside_unit_interval():
    with pytest.raises(ValueError, match=r"eps must lie in \[0, 1\]"):
        core.label_smoothing_optimal_gap(4, 1.1)
    with pytest.raises(ValueError, match=r"eps must lie in \[0, 1\]"):
        core.label_smoothing_floor(4, -0.1)


def test_weights_spanning_more_than_the_float_range_are_refused():
    # 1e308 must be scaled down so that sums cannot overflow; 1e-300 would then lose its digits.
    with pytest.raises(ValueError, match=r"span too many orders of magnitude to compute with \(1e-300 to 1e\+308\)"):
        core.cross_entropy([0.0, 0.0], 0, weight=[1e-300, 1e308])
    with pytest.raises(ValueError, match="span too many orders of magnitude"):
        core.cross_entropy([0.0, 0.0], 0, weight=[5e-324, 1.0])  # a subnormal weight has no digits to spare
