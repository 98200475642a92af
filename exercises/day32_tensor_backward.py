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
    raise NotImplementedError(
        "Day 32: write unbroadcast. Read docs/lessons/day32_tensor_backward.md"
    )


def sum_axis_backward(grad, shape, axis, mean=False):
    """The gradient of x (flat, `shape`) from the gradient of its sum (or mean) over `axis`."""
    raise NotImplementedError(
        "Day 32: write sum_axis_backward. Read docs/lessons/day32_tensor_backward.md"
    )


def matmul_backward(a, b, grad, n, k, m):
    """(dA, dB), flat, for C = A @ B with A (n, k), B (k, m) and C's gradient `grad` (n, m)."""
    raise NotImplementedError(
        "Day 32: write matmul_backward. Read docs/lessons/day32_tensor_backward.md"
    )


if __name__ == "__main__":
    print(unbroadcast([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], (2, 3), (3,)))  # expect [5.0, 7.0, 9.0]
    print(unbroadcast([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], (2, 3), (2, 1)))  # expect [6.0, 15.0]
    print(sum_axis_backward([1.0, -2.0], (2, 3), 1))  # expect [1.0, 1.0, 1.0, -2.0, -2.0, -2.0]
    x, w = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [1.0, 0.0, 0.0, 1.0, 1.0, -1.0]
    print(matmul_backward(x, w, [1.0, -1.0, 2.0, 0.0], 2, 3, 2))
    # expect ([1.0, -1.0, 2.0, 2.0, 0.0, 2.0], [9.0, -1.0, 12.0, -2.0, 15.0, -3.0])
