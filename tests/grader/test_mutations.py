"""Planted bugs in each solution must lose marks, and the messages should name the bug.

The mutants are made from our own references and run in process: no learner code here.
"""

import pytest

from .mutants import mutant_failures, reference_failures

# (exercise, old text, new text, what the bug is, a phrase the feedback should contain)
MUTANTS = [
    (
        "day06_backward.py",
        "self.grad += (1.0 - t * t) * out.grad",
        "self.grad = (1.0 - t * t) * out.grad",
        "= for += in the tanh the day 6 file carries",
        "+=",
    ),
    (
        "day08_more_ops.py",
        "self.grad += out.grad\n",
        "self.grad = out.grad\n",
        "= for += in the + the day 8 file carries",
        "+=",
    ),
    (
        "day05_add_mul.py",
        "self.grad += out.grad\n",
        "self.grad = out.grad\n",
        "= for += in add",
        "+=",
    ),
    (
        "day05_add_mul.py",
        "self.grad += other.data * out.grad",
        "self.grad = other.data * out.grad",
        "= for += in mul",
        "+=",
    ),
    (
        "day05_add_mul.py",
        "other.grad += out.grad\n",
        "other.grad += 1.0\n",
        "dropped out.grad in add",
        "out.grad",
    ),
    (
        "day05_add_mul.py",
        "self.grad += other.data * out.grad",
        "self.grad += other.data",
        "dropped out.grad in mul",
        "out.grad",
    ),
    (
        "day05_add_mul.py",
        "other.grad += self.data * out.grad",
        "other.grad -= self.data * out.grad",
        "flipped sign in mul",
        "sign",
    ),
    (
        "day05_add_mul.py",
        "self.grad += other.data * out.grad",
        "self.grad += 2 * other.data * out.grad",
        "wrong factor",
        "expected",
    ),
    (
        "day05_add_mul.py",
        "self.grad += other.data * out.grad\n            other.grad += self.data * out.grad",
        "self.grad += self.data * out.grad\n            other.grad += other.data * out.grad",
        "swapped operands",
        "swapper",
    ),
    (
        "day05_add_mul.py",
        "self.grad += out.grad\n            other.grad += out.grad",
        "pass",
        "empty add body",
        "nothing",
    ),
    (
        "day06_backward.py",
        "        self.grad = 1.0\n        for v in reversed(",
        "        for v in reversed(",
        "no seed",
        "1.0",
    ),
    (
        "day06_backward.py",
        "for v in reversed(self.topological_order())",
        "for v in self.topological_order()",
        "forward order",
        "expected",
    ),
    (
        "day06_backward.py",
        "            if v not in seen:\n                seen.add(v)\n",
        "            if True:\n",
        "no visited set",
        "expected",
    ),
    (
        "day06_backward.py",
        "                order.append(v)\n",
        "                pass\n        order.append(self)\n",
        "only the output",
        "missing",
    ),
    (
        "day08_more_ops.py",
        "self.grad += k * self.data ** (k - 1) * out.grad",
        "self.grad += k * self.data ** k * out.grad",
        "power rule off by one",
        "k - 1",
    ),
    (
        "day08_more_ops.py",
        "self.grad += k * self.data ** (k - 1) * out.grad",
        "self.grad = k * self.data ** (k - 1) * out.grad",
        "= for += in pow",
        "+=",
    ),
    (
        "day08_more_ops.py",
        "self.grad += out.data * out.grad",
        "self.grad += out.data",
        "dropped out.grad in exp",
        "out.grad",
    ),
    (
        "day08_more_ops.py",
        "self.grad += (1.0 - out.data**2) * out.grad",
        "self.grad += (out.data**2 - 1.0) * out.grad",
        "flipped tanh",
        "sign",
    ),
    (
        "day08_more_ops.py",
        "(1.0 if self.data > 0 else 0.0)",
        "(1.0 if self.data >= 0 else 0.0)",
        "relu at 0",
        "relu'(0)",
    ),
    (
        "day08_more_ops.py",
        "self.grad += (1.0 - out.data**2) * out.grad",
        "pass",
        "empty tanh body",
        "nothing",
    ),
    (
        "day08_more_ops.py",
        "return self + (-other)",
        "return other + (-self)",
        "swapped sub",
        "expected",
    ),
    (
        "day08_more_ops.py",
        "return self * other**-1",
        "return Value(self.data / other.data, (self, other), '/')",
        "div not from primitives",
        "expected",
    ),
    (
        "day09_gradient_descent.py",
        "p.data -= learning_rate * p.grad",
        "p.data += learning_rate * p.grad",
        "ascent",
        "uphill",
    ),
    (
        "day09_gradient_descent.py",
        "p.data -= learning_rate * p.grad",
        "p.data -= p.grad",
        "no learning rate",
        "learning rate",
    ),
    (
        "day09_gradient_descent.py",
        "p.data -= learning_rate * p.grad",
        "p.data -= learning_rate * p.grad\n        p.grad = 0.0",
        "clears grad",
        "day 13",
    ),
    (
        "day09_gradient_descent.py",
        "p.data -= learning_rate * p.grad",
        "pass",
        "empty body",
        "did not change",
    ),
    (
        "day13_training_loop.py",
        "    zero_grad(params)\n    loss =",
        "    loss =",
        "no zero_grad",
        "zero_grad",
    ),
    (
        "day13_training_loop.py",
        "        p.grad = 0.0\n",
        "        pass\n",
        "zero_grad does nothing",
        "not reset",
    ),
    (
        "day13_training_loop.py",
        "        p.data -= learning_rate * p.grad\n    return",
        "        p.data += learning_rate * p.grad\n    return",
        "ascent",
        "expected",
    ),
    (
        "day13_training_loop.py",
        "    return loss.data\n",
        "    return mean_squared_error([model(x) for x in xs], ys).data\n",
        "loss after the update",
        "expected",
    ),
    (
        "day13_training_loop.py",
        "    return loss.data\n",
        "    return loss\n",
        "returns a Value",
        "loss.data",
    ),
]


@pytest.mark.parametrize(
    "exercise, old, new, bug, phrase", MUTANTS, ids=[m[3] + ":" + m[0][:5] for m in MUTANTS]
)
def test_a_planted_bug_loses_marks_and_is_named(exercise, old, new, bug, phrase):
    failures = mutant_failures(exercise, old, new)
    assert failures, f"{bug}: every case still passes"
    assert any(phrase in m for m in failures), (
        f"{bug}: no message mentions {phrase!r}: {failures[:3]}"
    )


def test_the_unmutated_solutions_pass():
    for exercise in {m[0] for m in MUTANTS}:
        assert not reference_failures(exercise), exercise
