"""engine: a small scalar autograd engine, from a derivative to a working GPT.

>>> from engine import Value
>>> a, b = Value(2.0), Value(-3.0)
>>> L = a * b + a
>>> L.backward()
>>> a.grad, b.grad
(-2.0, 2.0)
"""

from .value import Value, zero_grad

__all__ = ["Value", "zero_grad"]
__version__ = "0.1.0"
