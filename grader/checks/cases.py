"""Making cases, and the one numerical reference every check may use.

A *case* is a JSON-ready dict: `{"kind": ..., "name": ..., "public": bool, "inputs": {...}}`.
The trusted side makes it, sends it to a child, and judges what comes back.
"""

from dataclasses import replace

from grader.messages import msg
from grader.verdict import WantList

__all__ = ["case", "named", "central_difference", "uniform", "boundary_row", "then_wants"]


def case(kind, name, public=True, **inputs):
    """A case as the grader stores and sends it."""
    return {"kind": kind, "name": name, "public": public, "inputs": inputs}


def named(name):
    """`name`, as it is: a case name that is not a literal argument of `case`, marked for the
    catalog (tools/catalog.py's extract_checks reads both). Names are ids; a report shows
    them translated (grader/messages.py, `case_name`)."""
    return name


def uniform(rng, lo, hi, places=3):
    """A float drawn from [lo, hi], rounded to `places` decimals: (hi - lo) 10^places values."""
    return round(rng.uniform(lo, hi), places)


def central_difference(f, x, h=1e-5):
    """(f(x + h) - f(x - h)) / 2h: the slope of f at x, from two evaluations."""
    return (f(x + h) - f(x - h)) / (2.0 * h)


def boundary_row(rng, n, total=4096):
    """n probabilities k / 4096 (floats add them exactly) and a u exactly on a running total
    that a later probability above 0 follows: u < running picks that later index."""
    cuts = sorted(rng.randrange(total + 1) for _ in range(n - 1))
    weights = [b - a for a, b in zip([0] + cuts, cuts + [total])]
    edges = [sum(weights[: j + 1]) for j in range(n)]
    inside = [e for e in edges if 0 < e < total]
    if not inside:  # every weight on one index: draw again
        return boundary_row(rng, n, total)
    return [w / total for w in weights], rng.choice(inside) / total


def then_wants(expect, refusal_case):
    """The wants of the valid case a hidden refusal case carries (`then`), as the child
    sends them (grader/runners/refusal.py): keys prefixed "then: ". [] when it has none."""
    then = refusal_case["inputs"].get("then")
    if then is None:
        return []
    wants = []
    for want in expect(then).wants:
        if isinstance(want, WantList):
            wants.append(replace(want, name=f"then: {want.name}"))
        else:
            label = want.label or want.key
            setup = msg("then, on valid arguments: {setup}", setup=want.setup) if want.setup else ""
            wants.append(replace(want, key=f"then: {want.key}", label=label, setup=setup))
    return wants
