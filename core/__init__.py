"""core: the maths of the softmax / cross-entropy explainer, in pure NumPy.

Read in this order: `softmax` (softmax, log_softmax, logsumexp), `cross_entropy` (the loss and its gradient),
`jacobian`, `information` (entropy, KL, perplexity, units), `label_smoothing`, `sampling` (the Gumbel-max
trick with a generator that has a JavaScript twin), `floating` (softmax in float64, float32 and float16, naive
and stable), `calibration` (reliability bins, ECE, MCE, temperature scaling), `decoding` (top-k, top-p and
min-p masks, renormalising, the decoding pipeline, a mixture-of-experts router), `attention` (attention weights,
ALiBi's slopes and bias) and `distillation` (the soft-target loss and its gradient). `_shift` holds the stable
max-shift kernel they share and `_validate` the input checks. The class axis is last; any leading shape is
a batch. float32 stays float32; everything else becomes float64.
"""

from core.attention import alibi_bias, alibi_slopes, attention_weights
from core.calibration import (
    confidence_and_correct,
    expected_calibration_error,
    fit_temperature,
    maximum_calibration_error,
    mean_nll,
    nll_slope,
    reliability_bins,
)
from core.cross_entropy import cross_entropy, grad_logits, gradient_step
from core.decoding import decode, decode_kept, min_p_mask, renormalise, router_weights, top_k_mask, top_p_mask
from core.distillation import distillation_grad, distillation_loss
from core.floating import loss_two_ways, overflow_at, softmax_three_ways
from core.information import bits_to_nats, entropy, kl_divergence, nats_to_bits, perplexity, uniform_loss
from core.jacobian import softmax_jacobian
from core.label_smoothing import label_smoothing_floor, label_smoothing_optimal_gap, smoothed_target
from core.sampling import gumbel_max_counts, gumbel_noise, uniform_words
from core.softmax import log_softmax, logsumexp, softmax

__all__ = [
    "alibi_bias",
    "alibi_slopes",
    "attention_weights",
    "bits_to_nats",
    "confidence_and_correct",
    "cross_entropy",
    "decode",
    "decode_kept",
    "distillation_grad",
    "distillation_loss",
    "entropy",
    "expected_calibration_error",
    "fit_temperature",
    "grad_logits",
    "gradient_step",
    "gumbel_max_counts",
    "gumbel_noise",
    "kl_divergence",
    "label_smoothing_floor",
    "label_smoothing_optimal_gap",
    "log_softmax",
    "logsumexp",
    "loss_two_ways",
    "maximum_calibration_error",
    "mean_nll",
    "min_p_mask",
    "nats_to_bits",
    "nll_slope",
    "overflow_at",
    "perplexity",
    "reliability_bins",
    "renormalise",
    "router_weights",
    "smoothed_target",
    "softmax",
    "softmax_jacobian",
    "softmax_three_ways",
    "top_k_mask",
    "top_p_mask",
    "uniform_loss",
    "uniform_words",
]
