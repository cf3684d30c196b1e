"""Knowledge distillation: a student's softmax matched to a teacher's at one temperature, and why the loss is
multiplied by T²."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from core import _validate
from core.softmax import log_softmax, softmax


def _pair(v, z):
    teacher, student = _validate.logits(v), _validate.logits(z)
    if teacher.shape != student.shape:
        raise ValueError(f"teacher and student logits must have one shape, got {teacher.shape} and {student.shape}")
    return teacher, student


def distillation_loss(v: ArrayLike, z: ArrayLike, T: float = 1.0) -> NDArray[np.floating]:
    """The soft-target loss KL(q_T ‖ p_T) in nats, q_T = softmax(v/T) the teacher's, p_T = softmax(z/T) the student's.

    Σ_k q_k (log q_k − log p_k), from log-softmax (finite where a p_k underflows); 0 when z − v is constant.

    Reference: Hinton, Vinyals & Dean, "Distilling the Knowledge in a Neural Network", 2015, §2.

    >>> round(float(distillation_loss([3.0, 0.0, -1.0, -2.0], [0.375, 0.375, -0.125, -0.625])), 4)
    0.7942
    """
    teacher, student = _pair(v, z)
    T = _validate.temperature(T)
    q, log_q = softmax(teacher, T=T), log_softmax(teacher, T=T)
    return np.maximum((q * (log_q - log_softmax(student, T=T))).sum(axis=-1), 0.0)


def distillation_grad(v: ArrayLike, z: ArrayLike, T: float = 1.0) -> NDArray[np.floating]:
    """∂ KL(q_T ‖ p_T) / ∂z = (p_T − q_T)/T: the student's gradient, which shrinks like 1/T² for large T.

    For zero-mean logits and large T, p_T − q_T ≈ (z − v)/(K·T), so T²·‖∇‖ → ‖z − v‖/K: multiplying the loss
    by T² keeps the soft targets' gradient the same size at every T (Hinton et al., 2015, §2.1).

    >>> [round(float(np.linalg.norm(distillation_grad([3, 0, -1, -2], [0.375, 0.375, -0.125, -0.625], T)) * T * T), 3)
    ...  for T in (1, 2, 4, 8, 20, 100)]
    [0.697, 0.921, 0.914, 0.858, 0.812, 0.785]
    """
    teacher, student = _pair(v, z)
    T = _validate.temperature(T)
    return (softmax(student, T=T) - softmax(teacher, T=T)) / T
