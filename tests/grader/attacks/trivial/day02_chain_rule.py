# No chain rule: every sensitivity 0 except the output's own 1.
def chain_derivative(links, x):
    return 0.0, 0.0


def sensitivities(links, x):
    return [0.0] * len(links) + [1.0]
