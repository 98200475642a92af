"""Fixtures of the lesson tests: their long independent computations start ahead (ahead.py)."""

import pytest

from . import ahead


@pytest.fixture(scope="session", autouse=True)
def independent_computations_ahead(request):
    """At the first lesson test, start the declared computations of the modules that run."""
    modules = {getattr(item, "module", None) for item in request.session.items}
    ahead.start({m.__name__ for m in modules if m is not None})
    yield
    ahead.stop()
