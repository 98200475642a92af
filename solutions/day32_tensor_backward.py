"""Day 32 · The backward pass of a tensor, on flat lists.

Lesson: docs/lessons/day32_tensor_backward.md

As on day 31, a tensor is a flat list of numbers in row-major order and a shape tuple.
`grad` is always the gradient of the loss with respect to an operation's OUTPUT (the
upstream gradient), flat, with the output's shape. Write the gradient with respect to the
input(s), with plain Python lists (no engine, no numpy):

1. unbroadcast(grad, grad_shape, shape): a tensor x of `shape` was broadcast to grad_shape
   (broadcast_shape(shape, grad_shape) == grad_shape) and used there; `grad` has
   grad_shape. Return x's gradient, flat, with x's shape: each entry of x receives the
   sum of the gradients of every place it was copied to (the axes missing at the left of
   `shape`, and the axes where `shape` has size 1).
2. sum_axis_backward(grad, shape, axis, mean=False): y is x of `shape` summed over `axis`
   (0 <= axis < len(shape)), without keepdims, so `grad` has the shape of x without that
   axis. Return x's gradient, flat, with x's shape: every entry of x receives the gradient
   of the sum it went into. With mean=True, y was the mean over the axis: divide by
   shape[axis].
3. matmul_backward(a, b, grad, n, k, m): C = A @ B for A of shape (n, k) and B of shape
   (k, m), given flat as `a` and `b`; `grad` is C's gradient, shape (n, m). Return
   (dA, dB), flat: dA = grad @ B^T, of shape (n, k), and dB = A^T @ grad, of shape (k, m).

Check your work:  python -m grader --exercise day32_tensor_backward.py
"""


def size(shape):
    """How many numbers a tensor of this shape holds: the product of its sizes."""
    n = 1
    for s in shape:
        n *= s
    return n


def strides(shape):
    """How far to move in the flat list for one step along each axis (row-major)."""
    out, step = [], 1
    for s in reversed(shape):
        out.append(step)
        step *= s
    return tuple(reversed(out))


def unbroadcast(grad, grad_shape, shape):
    """The gradient of x (flat, `shape`) from the gradient of x broadcast to grad_shape."""
    padded = (1,) * (len(grad_shape) - len(shape)) + tuple(shape)
    steps = strides(padded)
    out = [0.0] * size(shape)
    for flat in range(size(grad_shape)):
        target, rest = 0, flat
        for axis in reversed(range(len(grad_shape))):
            index = rest % grad_shape[axis]
            rest //= grad_shape[axis]
            if padded[axis] != 1:
                target += index * steps[axis]
        out[target] += grad[flat]
    return out


def sum_axis_backward(grad, shape, axis, mean=False):
    """The gradient of x (flat, `shape`) from the gradient of its sum (or mean) over `axis`."""
    n = shape[axis]
    inner = size(shape[axis + 1 :])
    scale = 1.0 / n if mean else 1.0
    out = []
    for outer in range(size(shape[:axis])):
        for _copy in range(n):  # the n entries along the axis
            for i in range(inner):
                out.append(grad[outer * inner + i] * scale)
    return out


def matmul_backward(a, b, grad, n, k, m):
    """(dA, dB), flat, for C = A @ B with A (n, k), B (k, m) and C's gradient `grad` (n, m)."""
    da = [sum(grad[i * m + j] * b[p * m + j] for j in range(m)) for i in range(n) for p in range(k)]
    db = [sum(a[i * k + p] * grad[i * m + j] for i in range(n)) for p in range(k) for j in range(m)]
    return da, db


if __name__ == "__main__":
    print(unbroadcast([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], (2, 3), (3,)))  # expect [5.0, 7.0, 9.0]
    print(unbroadcast([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], (2, 3), (2, 1)))  # expect [6.0, 15.0]
    print(sum_axis_backward([1.0, -2.0], (2, 3), 1))  # expect [1.0, 1.0, 1.0, -2.0, -2.0, -2.0]
    x, w = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [1.0, 0.0, 0.0, 1.0, 1.0, -1.0]
    print(matmul_backward(x, w, [1.0, -1.0, 2.0, 0.0], 2, 3, 2))
    # expect ([1.0, -1.0, 2.0, 2.0, 0.0, 2.0], [9.0, -1.0, 12.0, -2.0, 15.0, -3.0])
