"""Day 24 · RMSNorm and the residual connection.

Lesson: docs/lessons/day24_rmsnorm_residual.md

RMSNorm rescales a vector x of n Values so that its root mean square is about 1:

    mean_square = (x_1^2 + ... + x_n^2) / n
    scale       = (mean_square + eps) ** -0.5
    y_i         = x_i * scale

eps keeps the scale finite when x is all zeros. The scale must be a Value built from
x, so that backward() sees how every x_j changes it: each y_i depends on every x_j.

A residual connection adds a block's output to its input: out_i = x_i + f(x)_i. The
gradient then has a direct road back: d out_i / d x_i = 1 + d f(x)_i / d x_i.

Check your work:  python -m grader --exercise day24_rmsnorm_residual.py
"""


def rmsnorm(x, eps=1e-5):
    """x divided by its root mean square (with eps inside the root): a list of Values."""
    mean_square = sum((xi * xi for xi in x), 0.0) / len(x)
    scale = (mean_square + eps) ** -0.5
    return [xi * scale for xi in x]


def residual(x, f):
    """x + f(x), entry by entry: `f` maps a list of Values to a list of the same length."""
    return [xi + fi for xi, fi in zip(x, f(x))]


if __name__ == "__main__":
    from engine import Value

    x = [Value(3.0), Value(4.0)]
    print([round(v.data, 6) for v in rmsnorm(x)])  # expect [0.848528, 1.131371]
    out = residual(x, lambda v: [vi.tanh() for vi in v])
    print([round(v.data, 6) for v in out])  # expect [3.995055, 4.999329]
