"""Neurons, layers and multi-layer perceptrons built from `Value`s (micrograd's API)."""

import random

from .errors import said
from .value import Value

__all__ = ["Module", "Neuron", "Layer", "MLP"]

_ACTIVATIONS = {"relu": "ReLU", "tanh": "Tanh", "linear": "Linear"}


class Module:
    """Anything with parameters: gives `parameters()` and `zero_grad()`."""

    def parameters(self):
        return []

    def zero_grad(self):
        for p in self.parameters():
            p.grad = 0.0


class Neuron(Module):
    """w·x + b, then a nonlinearity (ReLU unless `nonlin=False` or another `act`)."""

    def __init__(self, nin, nonlin=True, act="relu"):
        if act not in _ACTIVATIONS:
            raise said(
                ValueError,
                "nn.act",
                f"act must be one of {sorted(_ACTIVATIONS)}, got {act!r}",
                acts=sorted(_ACTIVATIONS),
                act=repr(act),
            )
        self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(0.0)
        self.act = act if nonlin else "linear"

    @property
    def nonlin(self):
        return self.act != "linear"

    def __call__(self, x):
        if len(x) != len(self.w):
            raise said(
                ValueError,
                "nn.inputs",
                f"this neuron takes {len(self.w)} inputs, got {len(x)}",
                n=len(self.w),
                got=len(x),
            )
        z = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        if self.act == "relu":
            return z.relu()
        if self.act == "tanh":
            return z.tanh()
        return z

    def parameters(self):
        return self.w + [self.b]

    def __repr__(self):
        return f"{_ACTIVATIONS[self.act]}Neuron({len(self.w)})"


class Layer(Module):
    """`nout` neurons that all read the same inputs."""

    def __init__(self, nin, nout, **kwargs):
        self.neurons = [Neuron(nin, **kwargs) for _ in range(nout)]

    def __call__(self, x):
        out = [n(x) for n in self.neurons]
        return out[0] if len(out) == 1 else out

    def parameters(self):
        return [p for n in self.neurons for p in n.parameters()]

    def __repr__(self):
        return f"Layer of [{', '.join(str(n) for n in self.neurons)}]"


class MLP(Module):
    """Layers in sequence; every layer but the last is nonlinear."""

    def __init__(self, nin, nouts, act="relu"):
        sizes = [nin] + list(nouts)
        self.layers = [
            Layer(sizes[i], sizes[i + 1], nonlin=i != len(nouts) - 1, act=act)
            for i in range(len(nouts))
        ]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
            if isinstance(x, Value):
                x = [x]
        return x[0] if len(x) == 1 else x

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]

    def __repr__(self):
        return f"MLP of [{', '.join(str(layer) for layer in self.layers)}]"
