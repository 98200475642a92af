"""The model explorer's top-k and top-p (web/model/math.js, `filterProbs`) are engine.gpt's.

The page filters the bars itself, without asking Python, so its rules must be the
engine's: the same ranking (ties by index), the token that crosses p kept, top-k before
top-p, renormalised. Node runs math.js on random distributions (and on ties and totals
that reach p exactly); every result must be what `engine.gpt.filter_probs` gives, and a
symbol is marked cut exactly where the engine gives 0 to a symbol above 0.
"""

import json
import random
import shutil
import subprocess

import pytest

from engine.gpt import filter_probs, next_token_probs

from .conftest import ROOT

NODE = shutil.which("node")

_SCRIPT = """
import { filterProbs } from %s;
const cases = JSON.parse(process.argv[1]);
console.log(JSON.stringify(cases.map(([probs, k, p]) => filterProbs(probs, k, p))));
"""


def run_math_js(cases):
    if NODE is None:
        pytest.skip("needs Node.js to run web/model/math.js")
    url = json.dumps((ROOT / "web" / "model" / "math.js").as_uri())
    out = subprocess.run(
        [NODE, "--input-type=module", "-e", _SCRIPT % url, json.dumps(cases)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


def random_cases(n=200):
    rng = random.Random(40)
    cases = []
    for _ in range(n):
        logits = [round(rng.uniform(-3, 3), 3) for _ in range(rng.randint(2, 27))]
        if rng.random() < 0.3:  # equal logits: equal probabilities to rank by index
            logits[rng.randrange(len(logits))] = logits[0]
        probs = next_token_probs(logits, round(rng.uniform(0.1, 2.0), 1))
        k = rng.choice([None, rng.randint(1, len(probs))])
        p = rng.choice([None, round(rng.uniform(0.05, 1.0), 2)])
        cases.append([probs, k, p])
    # totals that reach p exactly (k / 4096 adds exactly in floats), and ties at the k-th place
    cases += [
        [[0.125, 0.5, 0.125, 0.25], None, 0.75],
        [[0.25, 0.25, 0.25, 0.25], 2, None],
        [[0.25, 0.25, 0.25, 0.25], None, 0.5],
        [[0.5, 0.3, 0.2], 2, 0.6],
        [[0.7, 0.15, 0.06, 0.04, 0.03, 0.02], None, 0.8],
        # p = 1 is off in both: a running total of floats reaches 1 before a token of 1e-20
        [next_token_probs([0.0, -46.0]), None, 1.0],
        [next_token_probs([0.0, -46.0, -1.0]), 2, 1.0],
    ]
    return cases


def test_the_page_filters_as_the_engine_does():
    cases = random_cases()
    results = run_math_js(cases)
    assert len(results) == len(cases)
    for (probs, k, p), got in zip(cases, results):
        want = filter_probs(probs, k, p)
        assert got["probs"] == pytest.approx(want, abs=1e-12), (probs, k, p)
        cut = [i for i, x in enumerate(want) if x == 0 and probs[i] > 0]
        assert [i for i, c in enumerate(got["cut"]) if c] == cut, (probs, k, p)


def test_the_page_names_the_filter_that_cut_each_symbol():
    (got,) = run_math_js([[[0.5, 0.3, 0.2], 2, 0.6]])
    # top-k 2 cuts the third symbol; top-p 0.6 then cuts the second (0.625 >= 0.6)
    assert got["cut"] == [None, "top-p", "top-k"]
    assert got["probs"] == [1, 0, 0]


def test_top_p_1_is_off():
    probs = next_token_probs([0.0, -46.0])
    (got,) = run_math_js([[probs, None, 1]])
    assert got == {"probs": probs, "cut": [None, None]}


def test_with_both_filters_off_the_probabilities_are_untouched():
    probs = next_token_probs([2.0, 1.0, 0.0, -0.5], 0.7)
    (got,) = run_math_js([[probs, None, None]])
    assert got == {"probs": probs, "cut": [None] * 4}
