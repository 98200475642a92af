"""Day 31 · Tensors: a flat list and a shape.

Lesson: docs/lessons/day31_tensors.md

A tensor here is two things: `data`, a flat list of numbers in row-major order (the last
axis changes fastest), and `shape`, a tuple of sizes, one per axis. The matrix
[[1, 2, 3], [4, 5, 6]] is data = [1, 2, 3, 4, 5, 6] with shape = (2, 3). Write four
functions on them with plain Python lists (no engine, no numpy):

1. broadcast_shape(a, b): the shape of x + y for x of shape a and y of shape b. Line the
   two shapes up from the right (a missing size counts as 1); on each axis the two sizes
   must be equal or one of them 1, and the result has the larger. Otherwise raise
   ValueError with a message that names the two shapes.
2. broadcast_to(data, shape, out_shape): the flat data of the tensor (data, shape) copied
   out to the larger shape out_shape (broadcast_shape(shape, out_shape) == out_shape).
   The number at an index of out_shape is the number at the same index of shape, except
   that along an axis where shape has size 1 (or no axis, at the left) the index is 0.
3. sum_axis(data, shape, axis, keepdims=False): the sums along `axis` (0 <= axis <
   len(shape)), as (data, shape), data in row-major order of the result's shape. The
   axis leaves the shape, or stays with size 1 when keepdims is true.
4. matmul(a, a_shape, b, b_shape): the product of an (n, k) matrix and a (k, m) matrix,
   as (data, (n, m)): entry (i, j) is the sum over p of a[i, p] * b[p, j].

Shapes are tuples of whole numbers >= 1; return them as tuples.

Check your work:  python -m grader --exercise day31_tensors.py
"""


def size(shape):
    """How many numbers a tensor of this shape holds: the product of its sizes."""
    n = 1
    for s in shape:
        n *= s
    return n


def strides(shape):
    """How far to move in the flat list for one step along each axis (row-major).

    strides((2, 3, 4)) == (12, 4, 1): the number at index (i, j, k) is
    data[12 * i + 4 * j + 1 * k]."""
    out, step = [], 1
    for s in reversed(shape):
        out.append(step)
        step *= s
    return tuple(reversed(out))


def broadcast_shape(a, b):
    """The shape of x + y for x of shape a and y of shape b, or ValueError."""
    raise NotImplementedError("Day 31: write broadcast_shape. Read docs/lessons/day31_tensors.md")


def broadcast_to(data, shape, out_shape):
    """The flat data of (data, shape) repeated out to out_shape."""
    raise NotImplementedError("Day 31: write broadcast_to. Read docs/lessons/day31_tensors.md")


def sum_axis(data, shape, axis, keepdims=False):
    """(data, shape) of the sums of (data, shape) along `axis`."""
    raise NotImplementedError("Day 31: write sum_axis. Read docs/lessons/day31_tensors.md")


def matmul(a, a_shape, b, b_shape):
    """(data, (n, m)) of the product of a, (n, k), and b, (k, m)."""
    raise NotImplementedError("Day 31: write matmul. Read docs/lessons/day31_tensors.md")


if __name__ == "__main__":
    x, shape = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], (2, 3)
    print(broadcast_shape((2, 3), (3,)))  # expect (2, 3)
    print(broadcast_to([10.0, 20.0, 30.0], (3,), (2, 3)))
    # expect [10.0, 20.0, 30.0, 10.0, 20.0, 30.0]
    print(sum_axis(x, shape, 0))  # expect ([5.0, 7.0, 9.0], (3,))
    print(sum_axis(x, shape, 1, keepdims=True))  # expect ([6.0, 15.0], (2, 1))
    print(matmul(x, shape, [1.0, 0.0, 0.0, 1.0, 1.0, -1.0], (3, 2)))
    # expect ([4.0, -1.0, 10.0, -1.0], (2, 2))
