"""The sandbox probe's runner: not an exercise. `sandbox.probe` runs it to learn whether an
isolation level works here, so that the answer depends on no day of the course."""


def run(module, case):
    return {"probe": 1.0}
