"""Float references for the language-model exercises (days 18-27).

Plain floats and closed forms, stdlib only: the trusted side of the checks computes
expected values with these, never with `solutions/`.
"""

import math


def softmax(z):
    """exp(z_i - max z) / sum_j exp(z_j - max z)."""
    top = max(z)
    exps = [math.exp(x - top) for x in z]
    total = sum(exps)
    return [e / total for e in exps]


def logsumexp(z):
    top = max(z)
    return top + math.log(sum(math.exp(x - top) for x in z))


def softmax_weighted_grad(z, w):
    """d/dz_j of sum_i w_i softmax(z)_i = p_j (w_j - sum_i w_i p_i)."""
    p = softmax(z)
    mean = sum(wi * pi for wi, pi in zip(w, p))
    return [pj * (wj - mean) for pj, wj in zip(p, w)]


def attention_head(q, keys, values, scale_by=None):
    """One head on floats; `scale_by` replaces the width under the square root (for bugs)."""
    d = len(q)
    scale = 1.0 / math.sqrt(d if scale_by is None else scale_by)
    weights = softmax([sum(a * b for a, b in zip(q, k)) * scale for k in keys])
    return [sum(w * v[j] for w, v in zip(weights, values)) for j in range(d)]


def rmsnorm(x, eps, n=None):
    """x_i (mean(x^2) + eps)^(-1/2); `n` replaces the divisor of the mean (for bugs)."""
    n = len(x) if n is None else n
    s = (sum(v * v for v in x) / n + eps) ** -0.5
    return [v * s for v in x]


def rmsnorm_weighted_grad(x, w, eps):
    """d/dx_j of sum_i w_i y_i with y = rmsnorm(x): s w_j - s^3 x_j (sum_i w_i x_i) / n."""
    n = len(x)
    s = (sum(v * v for v in x) / n + eps) ** -0.5
    wx = sum(a * b for a, b in zip(w, x))
    return [s * wj - s**3 * xj * wx / n for wj, xj in zip(w, x)]
