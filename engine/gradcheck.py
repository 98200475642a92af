"""Compare the gradients `backward()` computes with central differences.

    d f / d x_i  ~  (f(x + h e_i) - f(x - h e_i)) / (2 h)

The error of this estimate shrinks like h**2, so it is a trustworthy referee for
any smooth function of Values (keep inputs away from kinks such as relu at 0).
"""

from dataclasses import dataclass

from .errors import said
from .value import Value
from .words import in_language, language

__all__ = ["GradCheck", "gradcheck", "numerical_grad", "assert_gradients"]


def _evaluate(f, xs):
    out = f([Value(x) for x in xs])
    if not isinstance(out, Value):
        raise said(
            TypeError,
            "gradcheck.notValue",
            f"gradcheck: f must return a Value, got {type(out).__name__}",
            type=type(out).__name__,
        )
    return out


def numerical_grad(f, xs, h=1e-6):
    """Central-difference estimate of the gradient of `f` at the floats `xs`."""
    grads = []
    for i in range(len(xs)):
        up = list(xs)
        down = list(xs)
        up[i] += h
        down[i] -= h
        grads.append((_evaluate(f, up).data - _evaluate(f, down).data) / (2 * h))
    return grads


@dataclass
class GradCheck:
    """The outcome of a gradient check: one row per input."""

    inputs: list
    analytic: list
    numeric: list
    rtol: float
    atol: float

    def errors(self):
        """Relative error of each input's gradient (absolute where both are tiny)."""
        return [abs(a - n) / max(abs(a), abs(n), 1.0) for a, n in zip(self.analytic, self.numeric)]

    @property
    def ok(self):
        return all(
            abs(a - n) <= self.atol + self.rtol * max(abs(a), abs(n))
            for a, n in zip(self.analytic, self.numeric)
        )

    def __bool__(self):
        return self.ok

    def __str__(self):
        return self.table(language())

    def table(self, lang="en"):
        """The report, one row per input, in `lang` ("en", "ru", "et": the page's words,
        engine.words); str(report) is it in the engine's language (engine.words.set_language:
        English unless a page or notebook set its own). A column is as wide as its heading."""
        words = _table_words(lang)
        input_, numeric, error = (words[k] for k in ("input", "numeric", "relError"))
        w_in, w_num, w_err = max(6, len(input_)), max(14, len(numeric)), max(11, len(error))
        rows = [
            f"{input_:>{w_in}} {'x':>12} {'backward()':>14} {numeric:>{w_num}} {error:>{w_err}}"
        ]
        for i, (x, a, n, e) in enumerate(
            zip(self.inputs, self.analytic, self.numeric, self.errors())
        ):
            agree = abs(a - n) <= self.atol + self.rtol * max(abs(a), abs(n))
            flag = "" if agree else f"  {words['differs']}"
            rows.append(f"{i:>{w_in}} {x:>12.6g} {a:>14.8g} {n:>{w_num}.8g} {e:>{w_err}.2e}{flag}")
        rows.append(words["agree"] if self.ok else words["differ"])
        return "\n".join(rows)


# The table's words in English; other languages' are the page's (engine.gradcheck.* in
# web/locales, copied to engine/data/words.json).
_ENGLISH = {
    "input": "input",
    "numeric": "numeric",
    "relError": "rel. error",
    "differs": "<-- differs",
    "agree": "gradients agree",
    "differ": "gradients DIFFER",
}


def _table_words(lang):
    page = in_language(lang)
    if page is None:
        return _ENGLISH
    return {name: page[f"engine.gradcheck.{name}"] for name in _ENGLISH}


def gradcheck(f, xs, h=1e-6, rtol=1e-5, atol=1e-7):
    """Check `f` (a function from a list of Values to one Value) at the floats `xs`."""
    xs = [float(x) for x in xs]
    values = [Value(x) for x in xs]
    out = f(values)
    if not isinstance(out, Value):
        raise said(
            TypeError,
            "gradcheck.notValue",
            f"gradcheck: f must return a Value, got {type(out).__name__}",
            type=type(out).__name__,
        )
    out.backward()
    return GradCheck(xs, [v.grad for v in values], numerical_grad(f, xs, h), rtol, atol)


def assert_gradients(f, xs, **kwargs):
    """Raise AssertionError with the report if `backward()` and central differences differ."""
    result = gradcheck(f, xs, **kwargs)
    if not result.ok:
        raise said(
            AssertionError,
            "gradcheck.differs",
            f"backward() disagrees with central differences:\n{result}",
            report=result,
        )
    return result
