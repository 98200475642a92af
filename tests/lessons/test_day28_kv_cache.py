"""Day 28: the work table from the formulas and by counting, and the identical logits."""

import inspect

import pytest

from .pages import assert_states, lesson

PAGE = lesson("day28_kv_cache")
N, D, LAYERS = 16, 16, 1


@pytest.fixture(scope="module")
def namespace():
    return PAGE.run_cells()


def count_work(cached):
    """Positions run and query-key products when writing N tokens, counted step by step."""
    runs = products = 0
    for t in range(N):
        if cached:
            runs += 1
            products += t + 1
        else:
            for s in range(t + 1):  # rerun positions 0..t; position s reads s + 1 keys
                runs += 1
                products += s + 1
    return runs, products


def test_work_table_stated():
    slow_runs, slow_products = count_work(cached=False)
    fast_runs, fast_products = count_work(cached=True)
    assert slow_runs == N * (N + 1) // 2 and fast_runs == N
    assert slow_products == N * (N + 1) * (N + 2) // 6
    assert_states(PAGE, slow_runs, "136")
    assert_states(PAGE, 2 * slow_runs, "272")
    assert_states(PAGE, 2 * fast_runs, "32")
    assert_states(PAGE, slow_products, "816")
    assert fast_products == slow_runs
    assert_states(PAGE, 2 * LAYERS * N * D, "512")
    assert_states(PAGE, slow_runs - fast_runs, "120")
    assert "| positions run through the model | 136 | 16 |" in PAGE.text
    assert "| query·key products per head | 816 | 136 |" in PAGE.text


def test_figure_counts_stated():
    assert_states(PAGE, sum(range(1, 6)), "15")


def test_cells_count_the_runs_and_agree_exactly(namespace):
    assert namespace["slow_tokens"] == namespace["fast_tokens"]
    assert namespace["slow_logits"] == namespace["fast_logits"]  # identical, not close
    assert namespace["calls"] == 16 + 5  # the cached writer, then the 5 runs of the next cell
    # Both were timed (how much faster is for benchmarks: a shared machine can invert two
    # short timings, as a CI run did); the counts above are what the page's claim rests on.
    assert namespace["slow_seconds"] > 0 and namespace["fast_seconds"] > 0


def test_cache_contents(namespace):
    keys, values = namespace["keys"], namespace["values"]
    assert len(keys) == len(values) == 1
    assert len(keys[0]) == 5 and all(len(k) == 16 for k in keys[0])
    assert namespace["kept"] == 2 * 5 * 16


def test_trap_a_cache_kept_across_a_training_step_is_stale():
    from engine.gpt import document_loss, gpt, init_gpt, make_optimizer, new_kv_cache

    model = init_gpt(seed=28)
    tokens = [26, 4, 12, 12, 0, 26]  # "emma", BOS on both ends
    keys, values = new_kv_cache(model.config)
    for pos in range(3):
        gpt(model, tokens[pos], pos, keys, values)
    optimizer = make_optimizer(model)
    optimizer.zero_grad()
    document_loss(model, tokens).backward()
    optimizer.step()
    stale = [z.data for z in gpt(model, tokens[3], 3, keys, values)]
    keys, values = new_kv_cache(model.config)
    for pos in range(4):
        fresh = [z.data for z in gpt(model, tokens[pos], pos, keys, values)]
    assert stale != fresh
    # document_loss makes a fresh cache for every name it scores.
    assert "keys, values = new_kv_cache(model.config)" in inspect.getsource(document_loss)
    text = " ".join(PAGE.text.split())
    assert "**Keeping a cache across a training step.**" in text
    assert "Training with a shared cache" not in text
