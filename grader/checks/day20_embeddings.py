"""Checks of exercises/day20_embeddings.py: one-hot vectors and embedding lookups.

Expected values come from the definitions: the embedding of token x is row x of the
table, and with L = sum_t w_t . e_t the gradient of row i is the sum of the w_t of the
positions where token i sits (0 for a row never used). Likely bugs (a copied row that
cuts the gradient, an index off by one, a row missing from a repeat) are named by the
numbers they give.
"""

from grader.messages import msg
from grader.verdict import EXACT, Expectation, Pattern, Want

from .cases import case, uniform

TITLE = msg("Day 20: embeddings")
# The engine in the sandbox, {module: names hidden} (grader/engine_view.py): Value
# alone; nothing else is needed.
ENGINE = {"value": ()}
ENGINE_BY_KIND = {}

LESSON_TABLE = [[0.1, 0.2], [0.3, -0.4], [0.5, 0.6]]


def public_cases():
    return [
        case("one_hot", "one-hot of token 1 among 3", queries=[[1, 3]]),
        case("one_hot", "one-hot of BOS, the last of 27", queries=[[26, 27]]),
        case("embed", "the lesson's row 1", table=LESSON_TABLE, tokens=[1], w=[[2.0, -1.0]]),
        case("embed", "the first row", table=LESSON_TABLE, tokens=[0], w=[[1.5, 0.5]]),
        case(
            "one_hot_product",
            "onehot(1) @ C gives row 1",
            table=LESSON_TABLE,
            tokens=[1],
            w=[[2.0, -1.0]],
        ),
        case(
            "one_hot_product",
            "onehot(2) @ C gives row 2",
            table=LESSON_TABLE,
            tokens=[2],
            w=[[-1.0, 3.0]],
        ),
        case(
            "sequence",
            "the lesson's sequence [1, 0, 1]: row 1 collects twice",
            table=LESSON_TABLE,
            tokens=[1, 0, 1],
            w=[[2.0, -1.0]] * 3,
        ),
        case(
            "sequence",
            "one token four times",
            table=LESSON_TABLE,
            tokens=[2, 2, 2, 2],
            w=[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [-1.0, 2.0]],
        ),
    ]


HIDDEN_SPACE = (
    "≈10^11 or more each: 4 one-hots of a random token among 2 to 40; a table of 4 to 8 "
    "rows of 2 to 5 numbers in [-2, 2] to 3 decimals, with random tokens and weights"
)


def hidden_cases(rng):
    V, d = rng.randint(4, 8), rng.randint(2, 5)

    def numbers(n):
        return [uniform(rng, -2, 2) for _ in range(n)]

    def table():
        return [numbers(d) for _ in range(V)]

    queries = []
    for _ in range(4):
        size = rng.randint(2, 40)
        queries.append([rng.randrange(size), size])
    T = rng.randint(3, 7)
    tokens = [rng.randrange(V) for _ in range(T - 1)]
    tokens.insert(rng.randrange(T), rng.choice(tokens))  # a token that repeats
    return [
        case("one_hot", "one-hots of random tokens", public=False, queries=queries),
        case(
            "embed",
            "a random table and token",
            public=False,
            table=table(),
            tokens=[rng.randrange(V)],
            w=[numbers(d)],
        ),
        case(
            "one_hot_product",
            "one_hot @ a random table",
            public=False,
            table=table(),
            tokens=[rng.randrange(V)],
            w=[numbers(d)],
        ),
        case(
            "sequence",
            "a random sequence with a repeated token",
            public=False,
            table=table(),
            tokens=tokens,
            w=[numbers(d) for _ in range(T)],
        ),
    ]


# -- what a right answer gives ---------------------------------------------------------


def _one_hot(token, V):
    """The wants of one_hot(token, V), and a pattern for each index the 1.0 could be at."""
    name, setup = f"one_hot({token}, {V})", f"token = {token}, vocab_size = {V}"
    wants = [Want(f"len({name})", float(V), EXACT, setup)]
    wants += [Want(f"{name}[{i}]", 1.0 if i == token else 0.0, EXACT, setup) for i in range(V)]
    misplaced = [
        Pattern(
            {f"len({name})": float(V)}
            | {f"{name}[{i}]": 1.0 if i == at else 0.0 for i in range(V)},
            msg(
                "the 1.0 is at index {at} ({setup}): it belongs at index token = "
                "{token}, so that one_hot(token) @ table picks row token",
                at=at,
                setup=setup,
                token=token,
            ),
            replace=True,
        )
        for at in range(V)
        if at != token
    ]
    return wants, misplaced


def expect(case):
    x = case["inputs"]
    if case["kind"] == "one_hot":
        wants, patterns = [], []
        for token, V in x["queries"]:
            more_wants, more_patterns = _one_hot(token, V)
            wants += more_wants
            patterns += more_patterns
        return Expectation(
            wants, hint=msg("1.0 at index token, 0.0 everywhere else"), patterns=patterns
        )

    table, tokens, w = x["table"], x["tokens"], x["w"]
    d = len(table[0])
    setup = msg(
        "C = {C}, tokens = {tokens}, loss = sum over positions t of w_t . e_t, w = {w}",
        C=str(table),
        tokens=str(tokens),
        w=str(w),
    )
    wants = [Want("len(embeddings)", float(len(tokens)), EXACT, setup)]
    for t, token in enumerate(tokens):
        wants.append(Want(f"len(e[{t}])", float(d), EXACT, setup))
        for k in range(d):
            bugs = [
                (
                    table[j][k],
                    msg(
                        "this is row {j}: the embedding of token {token} is row {token}",
                        j=j,
                        token=token,
                    ),
                )
                for j in (token - 1, token + 1)
                if 0 <= j < len(table) and table[j][k] != table[token][k]
            ]
            wants.append(Want(f"e[{t}][{k}]", table[token][k], EXACT, setup, bugs))
    for i in range(len(table)):
        for k in range(d):
            g = sum(w[t][k] for t, token in enumerate(tokens) if token == i)
            bugs = []
            if g != 0.0:
                bugs.append(
                    (
                        0.0,
                        msg(
                            "no gradient reached the table: return the row itself (or Values "
                            "built from it with * and +), not new Values copied from .data"
                        ),
                    )
                )
            wants.append(Want(f"C[{i}][{k}].grad", g, (1e-12, 1e-12), setup, bugs))
    return Expectation(
        wants,
        hint=msg(
            "each row's gradient is the sum of w_t over the positions t where its token is used"
        ),
    )
