"""Making cases, and the one numerical reference every check may use.

A *case* is a JSON-ready dict: `{"kind": ..., "name": ..., "public": bool, "inputs": {...}}`.
The trusted side makes it, sends it to a child, and judges what comes back.
"""

__all__ = ["case", "central_difference", "uniform"]


def case(kind, name, public=True, **inputs):
    """A case as the grader stores and sends it."""
    return {"kind": kind, "name": name, "public": public, "inputs": inputs}


def uniform(rng, lo, hi, places=3):
    """A float drawn from [lo, hi], rounded to `places` decimals: (hi - lo) 10^places values."""
    return round(rng.uniform(lo, hi), places)


def central_difference(f, x, h=1e-5):
    """(f(x + h) - f(x - h)) / 2h: the slope of f at x, from two evaluations."""
    return (f(x + h) - f(x - h)) / (2.0 * h)
