"""The microGPT-style baseline: its Value and its model code, as the one-file microGPT writes them.

The Value already stores local gradients instead of closures and uses `__slots__`;
what it keeps from the textbook is the recursive topological sort. The model code
makes one Value per `*` and `+` (`sum` of products, softmax from `exp` and `/`,
`-log p` for the loss). `benchmarks/gpt.py` times a training step of this pair
against `engine.gpt` on `engine.Value`, on the same weights and the same names.
"""

import math


class MicroValue:
    __slots__ = ("data", "grad", "_children", "_local_grads")

    def __init__(self, data, children=(), local_grads=()):
        self.data = data
        self.grad = 0
        self._children = children
        self._local_grads = local_grads

    def __add__(self, other):
        other = other if isinstance(other, MicroValue) else MicroValue(other)
        return MicroValue(self.data + other.data, (self, other), (1, 1))

    def __mul__(self, other):
        other = other if isinstance(other, MicroValue) else MicroValue(other)
        return MicroValue(self.data * other.data, (self, other), (other.data, self.data))

    def __pow__(self, k):
        return MicroValue(self.data**k, (self,), (k * self.data ** (k - 1),))

    def log(self):
        return MicroValue(math.log(self.data), (self,), (1 / self.data,))

    def exp(self):
        return MicroValue(math.exp(self.data), (self,), (math.exp(self.data),))

    def relu(self):
        return MicroValue(max(0, self.data), (self,), (float(self.data > 0),))

    def __neg__(self):
        return self * -1

    def __radd__(self, other):
        return self + other

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return other + (-self)

    def __rmul__(self, other):
        return self * other

    def __truediv__(self, other):
        return self * other**-1

    def __rtruediv__(self, other):
        return other * self**-1

    def backward(self):
        topo, visited = [], set()

        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._children:
                    build_topo(child)
                topo.append(v)

        build_topo(self)
        self.grad = 1
        for v in reversed(topo):
            for child, local_grad in zip(v._children, v._local_grads):
                child.grad += local_grad * v.grad


# -- the model code, for any Value class with the operations above ------------------------------


def linear(x, w):
    return [sum(wi * xi for wi, xi in zip(wo, x)) for wo in w]


def softmax(logits):
    max_val = max(val.data for val in logits)
    exps = [(val - max_val).exp() for val in logits]
    total = sum(exps)
    return [e / total for e in exps]


def rmsnorm(x):
    ms = sum(xi * xi for xi in x) / len(x)
    scale = (ms + 1e-5) ** -0.5
    return [xi * scale for xi in x]


def gpt(params, n_layer, n_head, token_id, pos_id, keys, values):
    x = [t + p for t, p in zip(params["wte"][token_id], params["wpe"][pos_id])]
    x = rmsnorm(x)
    head_dim = len(x) // n_head
    for li in range(n_layer):
        x_residual = x
        x = rmsnorm(x)
        q = linear(x, params[f"layer{li}.attn_wq"])
        k = linear(x, params[f"layer{li}.attn_wk"])
        v = linear(x, params[f"layer{li}.attn_wv"])
        keys[li].append(k)
        values[li].append(v)
        x_attn = []
        for h in range(n_head):
            hs = h * head_dim
            q_h = q[hs : hs + head_dim]
            k_h = [ki[hs : hs + head_dim] for ki in keys[li]]
            v_h = [vi[hs : hs + head_dim] for vi in values[li]]
            attn_logits = [
                sum(q_h[j] * k_h[t][j] for j in range(head_dim)) / head_dim**0.5
                for t in range(len(k_h))
            ]
            attn_weights = softmax(attn_logits)
            head_out = [
                sum(attn_weights[t] * v_h[t][j] for t in range(len(v_h))) for j in range(head_dim)
            ]
            x_attn.extend(head_out)
        x = linear(x_attn, params[f"layer{li}.attn_wo"])
        x = [a + b for a, b in zip(x, x_residual)]
        x_residual = x
        x = rmsnorm(x)
        x = linear(x, params[f"layer{li}.mlp_fc1"])
        x = [xi.relu() for xi in x]
        x = linear(x, params[f"layer{li}.mlp_fc2"])
        x = [a + b for a, b in zip(x, x_residual)]
    return linear(x, params["lm_head"])


def document_loss(params, n_layer, n_head, block_size, tokens):
    n = min(block_size, len(tokens) - 1)
    keys, values = [[] for _ in range(n_layer)], [[] for _ in range(n_layer)]
    losses = []
    for pos_id in range(n):
        logits = gpt(params, n_layer, n_head, tokens[pos_id], pos_id, keys, values)
        probs = softmax(logits)
        losses.append(-probs[tokens[pos_id + 1]].log())
    return (1 / n) * sum(losses)
