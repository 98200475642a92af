"""Day 19 · Softmax and the cross-entropy loss, built from Values.

Lesson: docs/lessons/day19_softmax.md

softmax turns logits z (any real numbers) into probabilities:

    p_i = exp(z_i - m) / sum_j exp(z_j - m),   m = max_j z_j

Subtracting the largest logit m changes nothing in p but keeps exp from overflowing
(exp(710) is too large for a float). Take m as a plain number (the .data of the largest
logit): a shift by any constant leaves p unchanged.

The cross-entropy of one prediction is minus the log of the probability given to the
token that really came next (`target`):

    loss = -log p_target        and then   d loss / d z_i = p_i - 1[i = target]

Build both from Value operations (`-`, `.exp()`, `/`, `.log()`) so that backward()
reaches every logit.

Check your work:  python -m grader --exercise day19_softmax.py
"""


def softmax(logits):
    """The probabilities of a list of Value logits, as a list of Values of the same length."""
    biggest = logits[0].data
    for z in logits:
        if z.data > biggest:
            biggest = z.data
    shifted = []
    for z in logits:
        shifted.append((z - biggest).exp())
    denominator = shifted[0]
    for s in shifted[1:]:
        denominator = denominator + s
    probs = []
    for s in shifted:
        probs.append(s / denominator)
    return probs


def cross_entropy(logits, target):
    """-log softmax(logits)[target], as one Value (target is an index into logits)."""
    probs = softmax(logits)
    loss = probs[target].log()
    return loss * -1


if __name__ == "__main__":
    from engine import Value

    z = [Value(2.0), Value(1.0), Value(0.0)]
    print([round(p.data, 6) for p in softmax(z)])  # expect [0.665241, 0.244728, 0.090031]
    loss = cross_entropy(z, 0)
    loss.backward()
    print(round(loss.data, 6), [round(v.grad, 6) for v in z])
    # expect 0.407606 [-0.334759, 0.244728, 0.090031]
