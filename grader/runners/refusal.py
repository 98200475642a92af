"""A refusal (learner code raising ValueError on bad arguments) is only the child's word.

So a hidden case that asks for one also carries `then`: a valid case of the same exercise,
run in the same child after the refusal. Its numbers are checked by the trusted side like
any case's, so claiming to have raised earns nothing on its own.
"""


def refusal(call, run, module, then=None):
    """{"raised ValueError": 1.0 or 0.0} for `call()`, and the values of `run(module, then)`
    under keys that start with "then: "."""
    try:
        call()
    except ValueError:
        raised = 1.0
    else:
        raised = 0.0
    values = {"raised ValueError": raised}
    if then is not None:
        values.update({f"then: {key}": value for key, value in run(module, then).items()})
    return values
