"""`Tensor`: many numbers with one shape, and one node in the graph for all of them.

A `Value` is one number and one node; a matrix product of two 64 x 64 matrices made of
Values builds about half a million nodes, and Python walks every one of them twice. A
`Tensor` holds all of a matrix's numbers in one flat list, row after row ("row-major"),
with its `shape`, and an operation on whole tensors is one node whose backward pass
works on whole lists at once.

    >>> x = Tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> x.shape, x.data
    ((2, 2), [1.0, 2.0, 3.0, 4.0])
    >>> (x * 10 + Tensor([1.0, -1.0])).tolist()      # [1, -1] is broadcast over the rows
    [[11.0, 19.0], [31.0, 39.0]]

Broadcasting follows NumPy's and PyTorch's rule: shapes are lined up from the right; two
sizes agree when they are equal or one of them is 1 (a missing size counts as 1); the
result has the larger size on each axis. In the backward pass, a tensor that was
broadcast receives the sum of the gradients of every place it was copied to.

Each operation records its inputs (`_children`) and a function that turns the output's
gradient into the inputs' gradients (`_backward`). That function never refers to its own
output, so the graph holds no reference cycles.
"""

import math
import random
from numbers import Real
from operator import add, mul, neg, sub, truediv

from .errors import said

__all__ = ["Tensor", "broadcast_shape", "cross_entropy", "softmax", "stack_rows"]


# -- shapes ----------------------------------------------------------------------------------


def _size(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def _strides(shape):
    """How far to move in the flat list for one step along each axis (row-major)."""
    strides, step = [], 1
    for s in reversed(shape):
        strides.append(step)
        step *= s
    return tuple(reversed(strides))


def broadcast_shape(a, b):
    """The shape of `x op y` for x of shape `a` and y of shape `b`, or a ValueError."""
    out = []
    for i in range(1, max(len(a), len(b)) + 1):
        sa = a[-i] if i <= len(a) else 1
        sb = b[-i] if i <= len(b) else 1
        if sa != sb and 1 not in (sa, sb):
            raise said(
                ValueError,
                "tensor.broadcast",
                f"shapes {a} and {b} cannot be broadcast: axis -{i} has sizes {sa} and {sb}; "
                "sizes must be equal or one of them 1 (reshape one of the tensors)",
                a=a,
                b=b,
                axis=i,
                sa=sa,
                sb=sb,
            )
        out.append(max(sa, sb))
    return tuple(reversed(out))


def _expand_index(shape, out_shape):
    """For each position of `out_shape` (row-major), the flat index of the element of a
    tensor of `shape` that broadcasting puts there."""
    pad = len(out_shape) - len(shape)
    strides = (0,) * pad + tuple(0 if s == 1 else st for s, st in zip(shape, _strides(shape)))
    index = [0]
    for size, stride in zip(out_shape, strides):
        index = [i + k * stride for i in index for k in range(size)]
    return index


def _nest(flat, shape):
    if not shape:
        return flat[0]
    if len(shape) == 1:
        return list(flat)
    step = len(flat) // shape[0] if shape[0] else 0
    return [_nest(flat[i * step : (i + 1) * step], shape[1:]) for i in range(shape[0])]


def _flatten(data):
    """(flat list of floats, shape) of a number or of nested lists of equal lengths."""
    if isinstance(data, Real) and not isinstance(data, bool):
        return [float(data)], ()
    if isinstance(data, Tensor):
        raise said(
            TypeError,
            "tensor.gotTensor",
            "Tensor(...) got a Tensor; use it as it is, or .tolist() it first",
        )
    if not isinstance(data, (list, tuple)) or not data:
        raise said(
            TypeError,
            "tensor.notData",
            f"a Tensor is made from a number or from nested lists of numbers, got {data!r}",
            data=repr(data),
        )
    parts = [_flatten(d) for d in data]
    shape = parts[0][1]
    if any(s != shape for _, s in parts):
        raise said(
            ValueError,
            "tensor.ragged",
            f"the rows of a Tensor must all have one shape; got shapes {sorted({s for _, s in parts})}",
            shapes=sorted({s for _, s in parts}),
        )
    return [x for flat, _ in parts for x in flat], (len(data), *shape)


def _axis(axis, ndim):
    if not -ndim <= axis < ndim:
        raise said(
            ValueError,
            "tensor.axis",
            f"axis {axis} is outside a tensor of {ndim} axes (use 0..{ndim - 1})",
            axis=axis,
            ndim=ndim,
            last=ndim - 1,
        )
    return axis % ndim


# -- the tensor ------------------------------------------------------------------------------


class Tensor:
    """Numbers of one `shape`, stored flat in `data`; `grad` (same length) after backward().

    Like a Value, a leaf Tensor (one you make yourself, such as weights) accumulates its
    gradient over backward passes: call `zero_grad()` before a new one.
    """

    __slots__ = ("data", "shape", "grad", "_children", "_backward", "_op")

    def __init__(self, data, shape=None, _children=(), _backward=None, _op=""):
        if shape is None:
            data, shape = _flatten(data)
        else:
            shape = tuple(shape)
            if len(data) != _size(shape):
                raise said(
                    ValueError,
                    "tensor.fill",
                    f"{len(data)} numbers cannot fill a tensor of shape {shape}",
                    n=len(data),
                    shape=shape,
                )
            data = [float(x) for x in data] if not _children else data
        self.data = data
        self.shape = shape
        self.grad = [0.0] * len(data)
        self._children = _children
        self._backward = _backward
        self._op = _op

    # -- making tensors ---------------------------------------------------------------------

    @classmethod
    def zeros(cls, *shape):
        return cls([0.0] * _size(shape), shape)

    @classmethod
    def randn(cls, *shape, std=1.0, rng=None):
        """Gaussian numbers of mean 0 and standard deviation `std`, from `rng` (a random.Random)."""
        rng = random.Random(0) if rng is None else rng
        return cls([rng.gauss(0.0, std) for _ in range(_size(shape))], shape)

    # -- looking at it ----------------------------------------------------------------------

    @property
    def ndim(self):
        return len(self.shape)

    def numel(self):
        return len(self.data)

    def item(self):
        if len(self.data) != 1:
            raise said(
                ValueError,
                "tensor.item",
                f"item() needs a tensor of one number, this one has shape {self.shape}",
                shape=self.shape,
            )
        return self.data[0]

    def tolist(self):
        return _nest(self.data, self.shape)

    def grad_tolist(self):
        return _nest(self.grad, self.shape)

    def __repr__(self):
        return f"Tensor(shape={self.shape}, data={self.tolist()})"

    def __len__(self):
        if not self.shape:
            raise said(TypeError, "tensor.noLength", "a tensor of shape () has no length")
        return self.shape[0]

    # -- element-wise operations, with broadcasting ----------------------------------------

    def _binary(self, other, f, grads, op):
        """out = f(a, b) element by element; `grads(a, b, out)` gives (da, db) per element."""
        other = other if isinstance(other, Tensor) else Tensor(other)
        a, b = self, other
        if a.shape == b.shape:
            shape, ia, ib = a.shape, None, None
            ad, bd = a.data, b.data
        else:
            shape = broadcast_shape(a.shape, b.shape)
            ia = _expand_index(a.shape, shape) if a.shape != shape else None
            ib = _expand_index(b.shape, shape) if b.shape != shape else None
            ad = a.data if ia is None else [a.data[i] for i in ia]
            bd = b.data if ib is None else [b.data[i] for i in ib]
        data = list(map(f, ad, bd))

        def backward(g):
            da, db = grads(ad, bd, data, g)
            _accumulate(a, da, ia)
            _accumulate(b, db, ib)

        return Tensor(data, shape, (a, b), backward, op)

    def __add__(self, other):
        return self._binary(other, add, lambda a, b, out, g: (g, g), "+")

    def __sub__(self, other):
        return self._binary(other, sub, lambda a, b, out, g: (g, list(map(neg, g))), "-")

    def __mul__(self, other):
        return self._binary(
            other, mul, lambda a, b, out, g: (list(map(mul, g, b)), list(map(mul, g, a))), "*"
        )

    def __truediv__(self, other):
        def grads(a, b, out, g):
            da = list(map(truediv, g, b))
            return da, [-gi * oi / bi for gi, oi, bi in zip(g, out, b)]

        return self._binary(other, truediv, grads, "/")

    def __radd__(self, other):
        return self + other

    def __rsub__(self, other):
        return Tensor(other) - self

    def __rmul__(self, other):
        return self * other

    def __rtruediv__(self, other):
        return Tensor(other) / self

    def __neg__(self):
        return self * -1.0

    def _unary(self, data, local, op):
        """out = f(x) element by element, with local derivatives `local` (a list)."""

        def backward(g):
            _accumulate(self, list(map(mul, g, local)), None)

        return Tensor(data, self.shape, (self,), backward, op)

    def __pow__(self, k):
        if not isinstance(k, Real):
            raise said(
                TypeError,
                "tensor.powNotNumber",
                "Tensor ** k needs a plain number k (the exponent gets no gradient)",
            )
        data = [x**k for x in self.data]
        return self._unary(data, [k * x ** (k - 1) for x in self.data], f"**{k}")

    def exp(self):
        data = [math.exp(x) for x in self.data]
        return self._unary(data, data, "exp")

    def log(self):
        if any(x <= 0 for x in self.data):
            raise said(
                ValueError,
                "tensor.logNotPositive",
                "log of a number <= 0 is undefined; the tensor holds one",
            )
        return self._unary([math.log(x) for x in self.data], [1 / x for x in self.data], "log")

    def tanh(self):
        data = [math.tanh(x) for x in self.data]
        return self._unary(data, [1 - t * t for t in data], "tanh")

    def relu(self):
        return self._unary(
            [x if x > 0 else 0.0 for x in self.data],
            [1.0 if x > 0 else 0.0 for x in self.data],
            "relu",
        )

    # -- reductions ------------------------------------------------------------------------

    def sum(self, axis=None, keepdims=False):
        """The sum of every number (axis=None), or along one axis, which disappears unless
        `keepdims` keeps it with size 1. Backward: every summed number gets the sum's gradient."""
        if axis is None:
            shape = (1,) * self.ndim if keepdims else ()
            data = [math.fsum(self.data)]
            index = [0] * len(self.data)
        else:
            axis = _axis(axis, self.ndim)
            kept = self.shape[:axis] + (1,) + self.shape[axis + 1 :]
            index = _reduce_index(self.shape, axis)
            data = [0.0] * _size(kept)
            for x, i in zip(self.data, index):
                data[i] += x
            shape = kept if keepdims else self.shape[:axis] + self.shape[axis + 1 :]

        def backward(g):
            _accumulate(self, [g[i] for i in index], None)

        return Tensor(data, shape, (self,), backward, "sum")

    def mean(self, axis=None, keepdims=False):
        n = len(self.data) if axis is None else self.shape[_axis(axis, self.ndim)]
        return self.sum(axis, keepdims) * (1.0 / n)

    def max_data(self, axis=-1):
        """The largest number along `axis` (kept, size 1) as a constant tensor: no gradient."""
        axis = _axis(axis, self.ndim)
        kept = self.shape[:axis] + (1,) + self.shape[axis + 1 :]
        out = [-math.inf] * _size(kept)
        for x, i in zip(self.data, _reduce_index(self.shape, axis)):
            if x > out[i]:
                out[i] = x
        return Tensor(out, kept)

    # -- changing the shape ----------------------------------------------------------------

    def reshape(self, *shape):
        """The same numbers in the same order, seen with another shape; one -1 is inferred."""
        shape = tuple(shape[0]) if len(shape) == 1 and isinstance(shape[0], tuple) else shape
        if shape.count(-1) == 1:
            known = _size([s for s in shape if s != -1])
            shape = tuple(len(self.data) // known if s == -1 else s for s in shape)
        if _size(shape) != len(self.data):
            raise said(
                ValueError,
                "tensor.reshape",
                f"cannot reshape a tensor of shape {self.shape} into {shape}",
                shape=self.shape,
                into=shape,
            )

        def backward(g):
            _accumulate(self, g, None)

        return Tensor(self.data, shape, (self,), backward, "reshape")

    def permute(self, *axes):
        """The axes in a new order: out.shape[i] = self.shape[axes[i]]."""
        if sorted(axes) != list(range(self.ndim)):
            raise said(
                ValueError,
                "tensor.permute",
                f"permute needs each of the axes 0..{self.ndim - 1} once, got {axes}",
                last=self.ndim - 1,
                axes=axes,
            )
        shape = tuple(self.shape[a] for a in axes)
        strides = _strides(self.shape)
        index = [0]
        for a in axes:
            index = [i + k * strides[a] for i in index for k in range(self.shape[a])]
        data = [self.data[i] for i in index]

        def backward(g):
            grad = [0.0] * len(index)
            for gi, i in zip(g, index):
                grad[i] = gi
            _accumulate(self, grad, None)

        return Tensor(data, shape, (self,), backward, "permute")

    def transpose(self, a=-2, b=-1):
        """Swap two axes (by default the last two: the matrix transpose)."""
        axes = list(range(self.ndim))
        a, b = _axis(a, self.ndim), _axis(b, self.ndim)
        axes[a], axes[b] = axes[b], axes[a]
        return self.permute(*axes)

    @property
    def T(self):
        return self.transpose()

    # -- matrix multiplication -------------------------------------------------------------

    def __matmul__(self, other):
        """(..., n, k) @ (..., k, m) -> (..., n, m). The leading axes broadcast; a 2-D right
        side (k, m) is shared by every matrix of the left side."""
        if not isinstance(other, Tensor):
            raise said(TypeError, "tensor.matmulNotTensor", "@ needs two Tensors")
        a, b = self, other
        if a.ndim < 2 or b.ndim < 2:
            raise said(
                ValueError,
                "tensor.matmulAxes",
                f"@ needs tensors of 2 or more axes, got shapes {a.shape} and {b.shape}",
                a=a.shape,
                b=b.shape,
            )
        (n, k), (k2, m) = a.shape[-2:], b.shape[-2:]
        if k != k2:
            raise said(
                ValueError,
                "tensor.matmulShapes",
                f"@ cannot multiply {a.shape} by {b.shape}: the last axis of the left ({k}) "
                f"must equal the second-to-last of the right ({k2})",
                a=a.shape,
                b=b.shape,
                k=k,
                k2=k2,
            )
        if b.ndim == 2:  # every row of every matrix of `a` times one matrix: one big product
            rows = _size(a.shape[:-1])
            data = _matmul(a.data, b.data, rows, k, m)
            shape = a.shape[:-1] + (m,)

            def backward(g):
                # dA = dC B^T, dB = A^T dC, with A seen as one (rows, k) matrix
                _accumulate(a, _matmul(g, _transpose(b.data, k, m), rows, m, k), None)
                _accumulate(b, _matmul(_transpose(a.data, rows, k), g, k, rows, m), None)

            return Tensor(data, shape, (a, b), backward, "@")
        lead = broadcast_shape(a.shape[:-2], b.shape[:-2])
        ia = _expand_index(a.shape[:-2], lead)
        ib = _expand_index(b.shape[:-2], lead)
        sa, sb, so = n * k, k * m, n * m
        data = []
        for i, j in zip(ia, ib):
            data += _matmul(a.data[i * sa : (i + 1) * sa], b.data[j * sb : (j + 1) * sb], n, k, m)

        def backward(g):
            da, db = [0.0] * len(a.data), [0.0] * len(b.data)
            for t, (i, j) in enumerate(zip(ia, ib)):
                gt = g[t * so : (t + 1) * so]
                at, bt = a.data[i * sa : (i + 1) * sa], b.data[j * sb : (j + 1) * sb]
                for p, x in enumerate(_matmul(gt, _transpose(bt, k, m), n, m, k)):
                    da[i * sa + p] += x
                for p, x in enumerate(_matmul(_transpose(at, n, k), gt, k, n, m)):
                    db[j * sb + p] += x
            _accumulate(a, da, None)
            _accumulate(b, db, None)

        return Tensor(data, lead + (n, m), (a, b), backward, "@")

    # -- picking rows ----------------------------------------------------------------------

    def rows(self, ids):
        """Rows of a 2-D tensor by index: an embedding lookup. `ids` is a list of ints, or
        nested lists of them; the result's shape is ids' shape + (columns,). Backward: each
        picked row's gradient is added to that row (a row picked twice gets both)."""
        if self.ndim != 2:
            raise said(
                ValueError,
                "tensor.rowsNot2d",
                f"rows() picks rows of a 2-D tensor, this one has shape {self.shape}",
                shape=self.shape,
            )
        flat, shape = _flatten_ids(ids)
        n, c = self.shape
        for i in flat:
            if not 0 <= i < n:
                raise said(
                    IndexError,
                    "tensor.rowOutside",
                    f"row {i} is outside a tensor of {n} rows (0..{n - 1})",
                    row=i,
                    n=n,
                    last=n - 1,
                )
        data = [x for i in flat for x in self.data[i * c : (i + 1) * c]]

        def backward(g):
            grad = [0.0] * len(self.data)
            for r, i in enumerate(flat):
                for j in range(c):
                    grad[i * c + j] += g[r * c + j]
            _accumulate(self, grad, None)

        return Tensor(data, shape + (c,), (self,), backward, "rows")

    def masked_fill(self, mask, value):
        """A copy with `value` wherever `mask` (nested lists of bools or a Tensor of 0/1,
        broadcast to this shape) is true; those places pass no gradient back."""
        mask = mask if isinstance(mask, Tensor) else Tensor(_as_numbers(mask))
        if broadcast_shape(self.shape, mask.shape) != self.shape:
            raise said(
                ValueError,
                "tensor.mask",
                f"a mask of shape {mask.shape} does not fit a tensor of {self.shape}",
                mask=mask.shape,
                shape=self.shape,
            )
        flags = mask.data
        if mask.shape != self.shape:
            flags = [flags[i] for i in _expand_index(mask.shape, self.shape)]
        keep = [m == 0.0 for m in flags]
        value = float(value)
        data = [x if k else value for x, k in zip(self.data, keep)]

        def backward(g):
            _accumulate(self, [gi if k else 0.0 for gi, k in zip(g, keep)], None)

        return Tensor(data, self.shape, (self,), backward, "masked_fill")

    # -- the backward pass -----------------------------------------------------------------

    def backward(self):
        """Fill `.grad` of every tensor this one was computed from with d(self)/d(it).

        `self` must hold one number (a loss)."""
        if len(self.data) != 1:
            raise said(
                ValueError,
                "tensor.backwardNotScalar",
                f"backward() starts from one number (a loss), this tensor has shape {self.shape}; "
                "reduce it first, e.g. loss = x.mean()",
                shape=self.shape,
            )
        order, seen = [], set()
        stack = [(self, False)]
        while stack:  # depth-first, without recursion: graphs can be deep
            node, done = stack.pop()
            if done:
                order.append(node)
            elif id(node) not in seen:
                seen.add(id(node))
                stack.append((node, True))
                stack.extend((c, False) for c in node._children if id(c) not in seen)
        for node in order:
            if node._children:
                node.grad = [0.0] * len(node.data)
        self.grad = [1.0]
        for node in reversed(order):
            if node._backward is not None:
                node._backward(node.grad)

    def zero_grad(self):
        self.grad = [0.0] * len(self.data)


# -- helpers ---------------------------------------------------------------------------------


def _accumulate(t, g, index):
    """Add the output's gradient `g` into t.grad; `index` maps broadcast places back to t."""
    grad = t.grad
    if index is None:
        t.grad = list(map(add, grad, g))
    else:
        for gi, i in zip(g, index):
            grad[i] += gi


def _reduce_index(shape, axis):
    """For each position of `shape`, its flat index once `axis` is reduced to size 1."""
    kept = shape[:axis] + (1,) + shape[axis + 1 :]
    return _expand_index(kept, shape)


def _matmul(a, b, n, k, m):
    """The flat (n, m) product of flat a (n, k) and flat b (k, m)."""
    columns = [b[j::m] for j in range(m)]
    out = []
    for i in range(n):
        row = a[i * k : (i + 1) * k]
        out += [sum(map(mul, row, col)) for col in columns]
    return out


def _transpose(a, n, m):
    """The flat (m, n) transpose of flat a (n, m)."""
    return [x for j in range(m) for x in a[j::m]]


def _flatten_ids(ids):
    if isinstance(ids, int) and not isinstance(ids, bool):
        return [ids], ()
    if not isinstance(ids, (list, tuple)) or not ids:
        raise said(
            TypeError,
            "tensor.rowIds",
            f"row ids are an int or nested lists of ints, got {ids!r}",
            ids=repr(ids),
        )
    parts = [_flatten_ids(i) for i in ids]
    shape = parts[0][1]
    if any(s != shape for _, s in parts):
        raise said(
            ValueError, "tensor.rowIdsRagged", "nested lists of row ids must all have one shape"
        )
    return [i for flat, _ in parts for i in flat], (len(ids), *shape)


def _as_numbers(mask):
    if isinstance(mask, bool):
        return 1.0 if mask else 0.0
    return [_as_numbers(m) for m in mask] if isinstance(mask, (list, tuple)) else mask


# -- composite operations --------------------------------------------------------------------


def softmax(x, axis=-1):
    """exp(x) / sum(exp(x)) along `axis`, with the axis' maximum subtracted first (day 19).

    One node: its backward pass is dx = p * (g - sum(g * p)) along the axis."""
    shifted = x - x.max_data(axis)  # a constant shift: it changes no probability
    e = [math.exp(v) for v in shifted.data]
    axis = _axis(axis, x.ndim)
    index = _reduce_index(x.shape, axis)
    totals = [0.0] * (len(e) // x.shape[axis])
    for v, i in zip(e, index):
        totals[i] += v
    p = [v / totals[i] for v, i in zip(e, index)]

    def backward(g):
        dots = [0.0] * len(totals)
        for gi, pi, i in zip(g, p, index):
            dots[i] += gi * pi
        _accumulate(x, [pi * (gi - dots[i]) for gi, pi, i in zip(g, p, index)], None)

    return Tensor(p, x.shape, (x,), backward, "softmax")


def cross_entropy(logits, targets):
    """The mean of -log softmax(logits[r])[targets[r]] over the rows r of (N, V) logits.

    One node: its backward pass gives row r the gradient (softmax(logits[r]) - onehot) / N."""
    if logits.ndim != 2:
        raise said(
            ValueError,
            "tensor.crossEntropyShape",
            f"cross_entropy takes (N, V) logits, got shape {logits.shape}: reshape first",
            shape=logits.shape,
        )
    n, v = logits.shape
    targets = list(targets)
    if len(targets) != n:
        raise said(
            ValueError,
            "tensor.targetsCount",
            f"{n} rows of logits need {n} targets, got {len(targets)}",
            n=n,
            got=len(targets),
        )
    total, grad = 0.0, []
    for r, t in enumerate(targets):
        if not 0 <= t < v:
            raise said(
                IndexError,
                "tensor.target",
                f"target {t} is not an index of the {v} logits",
                target=t,
                v=v,
            )
        z = logits.data[r * v : (r + 1) * v]
        top = max(z)
        log_sum = top + math.log(sum(math.exp(zi - top) for zi in z))
        total += log_sum - z[t]
        p = [math.exp(zi - log_sum) / n for zi in z]
        p[t] -= 1.0 / n
        grad += p

    def backward(g):
        _accumulate(logits, [g[0] * x for x in grad], None)

    return Tensor([total / n], (), (logits,), backward, "cross_entropy")


def stack_rows(tensors):
    """One (N, C) tensor from N tensors of shape (C,); each gets its row's gradient back."""
    tensors = list(tensors)
    c = tensors[0].shape
    if any(t.shape != c or len(c) != 1 for t in tensors):
        raise said(ValueError, "tensor.stackRows", "stack_rows needs tensors of one shape (C,)")
    width = c[0]

    def backward(g):
        for r, t in enumerate(tensors):
            _accumulate(t, g[r * width : (r + 1) * width], None)

    data = [x for t in tensors for x in t.data]
    return Tensor(data, (len(tensors), width), tuple(tensors), backward, "stack")
