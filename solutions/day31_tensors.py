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
    n = max(len(a), len(b))
    padded_a = (1,) * (n - len(a)) + tuple(a)
    padded_b = (1,) * (n - len(b)) + tuple(b)
    out = []
    for sa, sb in zip(padded_a, padded_b):
        if sa != sb and sa != 1 and sb != 1:
            raise ValueError(f"shapes {tuple(a)} and {tuple(b)} do not broadcast: {sa} vs {sb}")
        out.append(max(sa, sb))
    return tuple(out)


def broadcast_to(data, shape, out_shape):
    """The flat data of (data, shape) repeated out to out_shape."""
    padded = (1,) * (len(out_shape) - len(shape)) + tuple(shape)
    steps = strides(padded)
    out = []
    for flat in range(size(out_shape)):
        source, rest = 0, flat
        for axis in reversed(range(len(out_shape))):
            index = rest % out_shape[axis]
            rest //= out_shape[axis]
            if padded[axis] != 1:
                source += index * steps[axis]
        out.append(data[source])
    return out


def sum_axis(data, shape, axis, keepdims=False):
    """(data, shape) of the sums of (data, shape) along `axis`."""
    n = shape[axis]
    inner = size(shape[axis + 1 :])
    out = []
    for outer in range(size(shape[:axis])):
        start = outer * n * inner
        for i in range(inner):
            out.append(sum(data[start + p * inner + i] for p in range(n)))
    if keepdims:
        return out, tuple(shape[:axis]) + (1,) + tuple(shape[axis + 1 :])
    return out, tuple(shape[:axis]) + tuple(shape[axis + 1 :])


def matmul(a, a_shape, b, b_shape):
    """(data, (n, m)) of the product of a, (n, k), and b, (k, m)."""
    n, k = a_shape
    m = b_shape[1]
    out = []
    for i in range(n):
        for j in range(m):
            out.append(sum(a[i * k + p] * b[p * m + j] for p in range(k)))
    return out, (n, m)


if __name__ == "__main__":
    x, shape = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], (2, 3)
    print(broadcast_shape((2, 3), (3,)))  # expect (2, 3)
    print(broadcast_to([10.0, 20.0, 30.0], (3,), (2, 3)))
    # expect [10.0, 20.0, 30.0, 10.0, 20.0, 30.0]
    print(sum_axis(x, shape, 0))  # expect ([5.0, 7.0, 9.0], (3,))
    print(sum_axis(x, shape, 1, keepdims=True))  # expect ([6.0, 15.0], (2, 1))
    print(matmul(x, shape, [1.0, 0.0, 0.0, 1.0, 1.0, -1.0], (3, 2)))
    # expect ([4.0, -1.0, 10.0, -1.0], (2, 2))
