"""Day 11 · A layer and a multi-layer perceptron.

Lesson: docs/lessons/day11_mlp.md

A layer (`dense`) is day 10's neuron once per row of a weight matrix W: row j of W
and bias b[j] make neuron j, and every neuron reads the same inputs x. An MLP applies
layers in sequence; every layer ends in ReLU except the last, which is linear.

  W: one row per neuron (output), one column per input; b: one bias per neuron.

Check your work:  python -m grader --exercise day11_mlp.py
"""

from engine import Value


def dense(x, W, b, act="relu"):
    """The outputs of one layer, a list with one Value per row of W.

    `act` is "relu", "tanh" or "linear" (no activation).
    """
    # your code: see the hints under the exercise on the lesson page
    raise NotImplementedError("Day 11: write dense. Read docs/lessons/day11_mlp.md")


def mlp(x, layers):
    """Run `x` through `layers`, a list of (W, b) pairs: ReLU after every layer but the last.

    Returns the list of the last layer's outputs.
    """
    # your code: see the hints under the exercise on the lesson page
    raise NotImplementedError("Day 11: write mlp. Read docs/lessons/day11_mlp.md")


def parameter_count(nin, nouts):
    """How many weights and biases an MLP with `nin` inputs and layer sizes `nouts` has."""
    # your code: see the hints under the exercise on the lesson page
    raise NotImplementedError("Day 11: write parameter_count. Read docs/lessons/day11_mlp.md")


if __name__ == "__main__":
    W1 = [[Value(1.0), Value(-1.0)], [Value(0.5), Value(0.5)]]
    b1 = [Value(0.5), Value(0.0)]
    W2 = [[Value(2.0), Value(-1.0)]]
    b2 = [Value(1.0)]
    (y,) = mlp([Value(1.0), Value(2.0)], [(W1, b1), (W2, b2)])
    y.backward()
    print(
        f"y = {y.data} (expect -0.5); parameters of MLP(2, [16, 16, 1]): "
        f"{parameter_count(2, [16, 16, 1])} (expect 337)"
    )
