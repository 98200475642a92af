"""The engine's errors carry their page message (engine.errors.said; web/locales/*.json, keys
"engine.error.*"): a lesson page on a Russian or Estonian page says them in its language. Each
is raised here for real: its key is the one expected, its English page message filled with its
values is str(exc) word for word, and every other language fills every placeholder. The
converted modules raise no plain English message a page could not translate."""

from __future__ import annotations

import ast
import json
import tempfile
from pathlib import Path
from unittest import mock

import pytest

from engine import Value, batched, boundary, data, diagnostics, mine, plot
from engine import batched_gpt as bg
from engine import checkpoint as ckpt
from engine import gpt as g
from engine.bpe import BPETokenizer, apply_merges, count_pairs, train_merges
from engine.gradcheck import assert_gradients, gradcheck, numerical_grad
from engine.nn import Neuron
from engine.optim import SGD, Adam
from engine.regularize import dropout
from engine.schedule import lr_at
from engine.snapshot import Snapshot
from engine.tensor import Tensor, broadcast_shape, cross_entropy, stack_rows
from engine.tokenizer import Tokenizer
from engine.train import _non_negative_float, _positive_int
from tests.i18n.page_messages import catalog, needs_node, node_json, page_says, render

ROOT = Path(__file__).resolve().parents[2]
# Every module of the engine: each error names its page message.
MODULES = sorted(p.name for p in (ROOT / "engine").glob("*.py"))


def _params():
    return [Value(1.0)]


def _model():
    return g.init_gpt(g.GPTConfig(vocab_size=5, n_embd=4, n_head=2, block_size=3))


class _FiveSymbols:
    vocab_size = 5


class _Tokenizer:
    vocab_size = 9


def _t(*shape):
    return Tensor.zeros(*shape)


def _checkpoint(**fields):
    """Checkpoint JSON text: a valid header for a 3-symbol model with `fields` on top."""
    config = {"vocab_size": 3, "n_embd": 4, "n_head": 2, "n_layer": 1, "block_size": 3}
    text = {"format": ckpt.FORMAT, "version": ckpt.VERSION, "config": config, "chars": "ab"}
    return json.dumps({**text, "params": {}, **fields})


_FILES = tempfile.TemporaryDirectory()  # removed when the test run ends


def _file(content: bytes):
    """The path of a new file holding `content`."""
    path = Path(_FILES.name) / f"{len(list(Path(_FILES.name).iterdir()))}.json"
    path.write_bytes(content)
    return path


def _unreadable():
    """load() of a file the system will not let it read (as root, chmod cannot make one)."""
    refuse = mock.patch.object(Path, "read_text", side_effect=PermissionError(13, "denied"))
    with refuse:
        ckpt.load(_file(b"{}"))


class _LearnerValue:
    """A learner's day 8 Value with no log of its own: engine.mine lends the course's."""

    def __init__(self, data, _children=(), _op=""):
        self.data, self.grad, self._prev, self._op = data, 0.0, set(_children), _op
        self._backward = lambda: None


def _bridged(data):
    return mine.bridge_value(_LearnerValue, "day08_more_ops.py")[0](data)


class _TwoWeights:
    w, b, act = [1.0, 2.0], 0.0, "tanh"


def _raise(exc):
    raise exc


def _parser_said(msg):
    """The reason of a JSONDecodeError saying `msg`: the parser's words of a newer Python."""
    _raise(ckpt._json_reason(json.JSONDecodeError(msg, "[1,]", 3)))


# (what raises, the page message it names): every raise site of the converted modules.
RAISES = [
    (lambda: Value("2.0"), "value.notReal"),
    (lambda: Value(1.0) + None, "value.notReal"),
    (lambda: Value(Value(1.0)), "value.gotValue"),
    (lambda: Value(2.0) ** "3", "exponent.notReal"),
    (lambda: Value(2.0) ** [3], "exponent.notReal"),
    (lambda: Value(2.0) ** Value(3.0), "value.powValue"),
    (lambda: Value(0.0) ** -1, "value.zeroToNegative"),
    (lambda: Value(0.0) ** 0.5, "value.infiniteSlope"),
    (lambda: Value(-2.0) ** 0.5, "value.notRealPower"),
    (lambda: Value(1e200) ** 3, "value.powOverflow"),
    (lambda: Value(1000.0).exp(), "value.expOverflow"),
    (lambda: Value(0.0).log(), "value.logNotPositive"),
    (lambda: Value(3.0) / 0, "value.divideByZero"),
    (lambda: 2 ** Value(3.0), "value.numberPowValue"),
    (lambda: Neuron(2, act="sigmoid"), "nn.act"),
    (lambda: Neuron(2)([1.0]), "nn.inputs"),
    (lambda: SGD([]), "optim.noParameters"),
    (lambda: SGD(_params(), lr=0), "optim.lr"),
    (lambda: SGD(_params(), momentum=1.0), "optim.momentum"),
    (lambda: Adam(_params(), betas=(0.9, 1.5)), "optim.betas"),
    (lambda: broadcast_shape((2, 3), (4,)), "tensor.broadcast"),
    (lambda: Tensor(_t(2)), "tensor.gotTensor"),
    (lambda: Tensor("12"), "tensor.notData"),
    (lambda: Tensor([[1.0], [1.0, 2.0]]), "tensor.ragged"),
    (lambda: _t(2, 3).sum(axis=2), "tensor.axis"),
    (lambda: Tensor([1.0, 2.0, 3.0], (2, 2)), "tensor.fill"),
    (lambda: _t(2).item(), "tensor.item"),
    (lambda: len(Tensor(1.0)), "tensor.noLength"),
    (lambda: _t(2) ** _t(2), "tensor.powNotNumber"),
    (lambda: _t(2).log(), "tensor.logNotPositive"),
    (lambda: _t(2, 3).reshape(4, 2), "tensor.reshape"),
    (lambda: _t(2, 3).permute(0, 0), "tensor.permute"),
    (lambda: _t(2, 2) @ [[1.0]], "tensor.matmulNotTensor"),
    (lambda: _t(2) @ _t(2, 2), "tensor.matmulAxes"),
    (lambda: _t(2, 3) @ _t(2, 3), "tensor.matmulShapes"),
    (lambda: _t(3).rows([0]), "tensor.rowsNot2d"),
    (lambda: _t(3, 2).rows([0, 5]), "tensor.rowOutside"),
    (lambda: _t(1, 2).masked_fill([[True, False], [False, True]], 0.0), "tensor.mask"),
    (lambda: _t(2).backward(), "tensor.backwardNotScalar"),
    (lambda: _t(3, 2).rows(["0"]), "tensor.rowIds"),
    (lambda: _t(3, 2).rows([[0], [0, 1]]), "tensor.rowIdsRagged"),
    (lambda: cross_entropy(_t(3), [0]), "tensor.crossEntropyShape"),
    (lambda: cross_entropy(_t(2, 3), [0]), "tensor.targetsCount"),
    (lambda: cross_entropy(_t(1, 3), [3]), "tensor.target"),
    (lambda: stack_rows([_t(2), _t(3)]), "tensor.stackRows"),
    (lambda: g.GPTConfig(n_layer=0), "gpt.configSize"),
    (lambda: g.GPTConfig(n_embd=6, n_head=4), "gpt.heads"),
    (lambda: g.dot([Value(1.0)], []), "gpt.dot"),
    (lambda: g.linear([Value(1.0)], [[Value(1.0), Value(2.0)]]), "gpt.linear"),
    (lambda: g.softmax([]), "gpt.softmaxEmpty"),
    (lambda: g.cross_entropy([Value(1.0)], 1), "gpt.target"),
    (lambda: g.mean([]), "gpt.meanEmpty"),
    (lambda: g.gpt(_model(), 7, 0, *g.new_kv_cache(_model().config)), "gpt.tokenId"),
    (lambda: g.gpt(_model(), 1, 3, *g.new_kv_cache(_model().config)), "gpt.position"),
    (lambda: g.gpt(_model(), 1, 1, *g.new_kv_cache(_model().config)), "gpt.kvCache"),
    (lambda: g.document_loss(_model(), [1]), "gpt.shortSequence"),
    (lambda: g.evaluate(_model(), []), "gpt.evaluateEmpty"),
    (lambda: g.lr_at(5, 5, 0.01), "gpt.step"),
    (lambda: g.train_step(_model(), None, [], 0.01), "gpt.emptyBatch"),
    (lambda: next(g.training(_model(), [])), "gpt.noSequences"),
    (lambda: next(g.training(_model(), [[1, 2]], steps=0)), "gpt.stepsBatch"),
    (lambda: g.next_token_probs([1.0], temperature=-1), "gpt.temperature"),
    (lambda: g.filter_probs([1.0], top_k=0), "gpt.topK"),
    (lambda: g.filter_probs([1.0], top_p=2), "gpt.topP"),
    (lambda: g.filter_probs([0.0, 0.0]), "gpt.probs"),
    (lambda: g.sample(_model(), _Tokenizer(), None), "gpt.tokenizer"),
    (lambda: Tokenizer(""), "tokenizer.empty"),
    (lambda: Tokenizer("aba"), "tokenizer.repeated"),
    (lambda: Tokenizer("a."), "tokenizer.bosReserved"),
    (lambda: Tokenizer("ab").encode("abC"), "tokenizer.notInVocabulary"),
    (lambda: Tokenizer("ab").symbol(3), "tokenizer.tokenId"),
    (lambda: lr_at(0, 5, 5, 0.01), "schedule.warmup"),
    (lambda: lr_at(-1, 1, 5, 0.01), "schedule.step"),
    (lambda: lr_at(0, 1, 5, 0.01, lr_min=0.1), "schedule.lrRange"),
    (lambda: lr_at(0, 1, 5, 0.01, decay="step"), "schedule.decay"),
    (lambda: dropout([1.0], 0.5), "regularize.dropoutNotTensor"),
    (lambda: dropout(_t(2), 1.0), "regularize.dropoutP"),
    (lambda: dropout(_t(2), 0.5), "regularize.dropoutRng"),
    (lambda: data.load_names("/no/such/names.txt"), "data.noNamesFile"),
    (lambda: data.split_names(["a"], fraction=2), "data.fraction"),
    (lambda: data.split_three(["a"], fractions=(0.5, 0.5)), "data.fractions"),
    (lambda: data.split_three(["a"], fractions=(0.5, 0.5, 0.5)), "data.fractionsSum"),
    (lambda: diagnostics.mean([None]), "diagnostics.notNumbers"),
    (lambda: diagnostics.mean([]), "diagnostics.empty"),
    (lambda: diagnostics.update_ratio([1.0], [1.0, 2.0]), "diagnostics.lengths"),
    (lambda: diagnostics.update_ratio([1.0, 1.0], [1.0, 2.0]), "diagnostics.zeroSpread"),
    (lambda: diagnostics.histogram([1.0, 2.0], bins=0), "diagnostics.histogram"),
    (lambda: gradcheck(lambda v: 1.0, [1.0]), "gradcheck.notValue"),
    (lambda: numerical_grad(lambda v: 1.0, [1.0]), "gradcheck.notValue"),
    (lambda: batched.MLPLM(_t(5, 2), _t(4, 3), None, None, None, 3), "batched.w1Columns"),
    (lambda: batched.batch([[0]], [1], 2, None), "batched.batchSize"),
    (lambda: batched.AdamW([_t(2)], weight_decay=-1), "batched.weightDecay"),
    (lambda: bg.causal_mask(0), "batchedGpt.causalMask"),
    (lambda: bg.attention(_t(1, 2, 6), None, None, None, None, 4), "batchedGpt.heads"),
    (lambda: bg.forward(None, g.GPTConfig(), [1, 2]), "batchedGpt.idxNotBatch"),
    (lambda: bg.forward(None, g.GPTConfig(), [[1, 2], [1]]), "batchedGpt.lengths"),
    (lambda: bg.forward(None, g.GPTConfig(block_size=2), [[1, 2, 3]]), "batchedGpt.blockSize"),
    (lambda: bg.loss(None, g.GPTConfig(), [[1, 2]], [[1]]), "batchedGpt.targetsShape"),
    (lambda: bg.batch_of_names([[0, 1, 0], [0, 0]]), "batchedGpt.namesLength"),
    (lambda: boundary.two_moons(1), "boundary.points"),
    (lambda: boundary.two_moons(10, noise=-1), "boundary.noise"),
    (lambda: boundary.BoundaryFigure(None, [(0.0, 0.0)], []), "boundary.labels"),
    (lambda: boundary.BoundaryFigure(None, [], []), "boundary.noPoints"),
    (lambda: plot.Figure().line([1.0, 2.0], xs=[1.0]), "plot.lengths"),
    (lambda: plot.Figure().svg(), "plot.nothingToDraw"),
    (lambda: plot.Progress(0, 0), "plot.progressTotal"),
    (lambda: ckpt.dumps(_model(), Tokenizer()), "checkpoint.tokenizer"),
    (lambda: ckpt._matrix("wte", [[1.0]], (2, 2)), "checkpoint.rows"),
    (lambda: ckpt._matrix("wte", "x", (2, 2)), "checkpoint.rows"),
    (lambda: ckpt._matrix("wte", [[1.0]], (1, 2)), "checkpoint.entries"),
    (lambda: ckpt._matrix("wte", [["1"]], (1, 1)), "checkpoint.notNumber"),
    (lambda: ckpt.loads("{"), "checkpoint.notJson"),
    (lambda: ckpt.loads("[]"), "checkpoint.format"),
    (lambda: ckpt.loads(_checkpoint(version=2)), "checkpoint.version"),
    (lambda: ckpt.loads(json.dumps({"format": ckpt.FORMAT, "version": 1})), "checkpoint.noField"),
    (lambda: ckpt.loads(_checkpoint(config={"n_layer": 0})), "checkpoint.config"),
    (lambda: ckpt.loads(_checkpoint(chars="")), "checkpoint.chars"),
    (lambda: ckpt.loads(_checkpoint(chars="abc")), "checkpoint.vocabSize"),
    (lambda: ckpt.loads(_checkpoint()), "checkpoint.matrices"),
    (lambda: ckpt.load("/no/such/checkpoint.json"), "checkpoint.noFile"),
    (lambda: ckpt.load(_file(b"\xff\xfe")), "checkpoint.notText"),
    (lambda: ckpt.load(_file(b"[]")), "checkpoint.inFile"),
    (lambda: ckpt.load(_FILES.name), "checkpoint.folder"),
    (_unreadable, "checkpoint.noPermission"),
    (lambda: ckpt.load(None), "checkpoint.notPath"),
    (lambda: ckpt.load(_file(b"{}") / "checkpoint.json"), "checkpoint.fileOnTheWay"),
    (lambda: ckpt.load(Path(_FILES.name) / ("n" * 5000)), "checkpoint.cannotRead"),
    (lambda: ckpt.loads(None), "checkpoint.notString"),
    (lambda: ckpt.loads(b"\xff["), "checkpoint.bytesNotText"),
    (lambda: ckpt.loads("[" * 100_000), "checkpoint.tooDeep"),
    (lambda: ckpt.loads("1" * 5000), "checkpoint.hugeNumber"),
    (
        lambda: _parser_said("Illegal trailing comma before end of array"),
        "checkpoint.json.trailingCommaArray",
    ),
    (
        lambda: _parser_said("Illegal trailing comma before end of object"),
        "checkpoint.json.trailingCommaObject",
    ),
    (lambda: _bridged(1.0).no_such_name, "mine.noAttribute"),
    (lambda: _bridged(-1.0).log(), "mine.logNotPositive"),
    (lambda: mine._neuron_call(None)(_TwoWeights(), [1.0]), "nn.inputs"),
    (
        lambda: mine._flat_matmul(lambda *_: ([0.0], (1, 1)))([1.0] * 4, [1.0] * 4, 2, 2, 2),
        "mine.matmulShape",
    ),
    (lambda: mine.parts_line([], "de"), "words.lang"),
    (lambda: _parser_said("A reason no Python says yet"), "checkpoint.json.other"),
    (lambda: apply_merges(5, [], 2), "bpe.notIds"),
    (lambda: apply_merges([0, "1"], [], 2), "bpe.notInt"),
    (lambda: apply_merges([0, 1], [(0, 1, 2)], 2), "bpe.pair"),
    (lambda: count_pairs("ab"), "bpe.countPairs"),
    (lambda: train_merges([[0, 1]], -1, 2), "bpe.numMerges"),
    (lambda: train_merges([[0, 5]], 1, 2), "bpe.idOutside"),
    (lambda: BPETokenizer(""), "bpe.empty"),
    (lambda: BPETokenizer("aba"), "bpe.repeated"),
    (lambda: BPETokenizer("a."), "bpe.bosReserved"),
    (lambda: BPETokenizer("ab", [(0, 2)]), "bpe.mergeOrder"),
    (lambda: BPETokenizer("ab").encode("abC"), "bpe.notInVocabulary"),
    (lambda: BPETokenizer("ab").piece(3), "bpe.tokenId"),
    (lambda: Snapshot(_model(), 0, 1, [], tokenizer=Tokenizer()), "snapshot.tokenizer"),
    (lambda: Snapshot(_model(), 0, 1, [], tokenizer=_FiveSymbols(), head=2), "snapshot.head"),
    (lambda: _positive_int("0"), "train.positiveInt"),
    (lambda: _non_negative_float("-0.5"), "train.nonNegative"),
    (lambda: assert_gradients(lambda v: Value(v[0].data * 2.0), [1.0]), "gradcheck.differs"),
]


# (what raises, its page message, the page message of the cause it quotes): an error whose
# cause is said in the page's language too (a value that is itself a message).
CAUSES = [
    (lambda: ckpt.loads(""), "checkpoint.notJson", "checkpoint.json.expectingValue"),
    (lambda: ckpt.loads("{"), "checkpoint.notJson", "checkpoint.json.propertyName"),
    (lambda: ckpt.loads('{"a" 1}'), "checkpoint.notJson", "checkpoint.json.colon"),
    (lambda: ckpt.loads("[1 2]"), "checkpoint.notJson", "checkpoint.json.comma"),
    (lambda: ckpt.loads('"abc'), "checkpoint.notJson", "checkpoint.json.unterminatedString"),
    (lambda: ckpt.loads('"a\x01"'), "checkpoint.notJson", "checkpoint.json.controlCharacter"),
    (lambda: ckpt.loads('"\\q"'), "checkpoint.notJson", "checkpoint.json.escape"),
    (lambda: ckpt.loads('"\\u12"'), "checkpoint.notJson", "checkpoint.json.unicodeEscape"),
    (lambda: ckpt.loads("[] x"), "checkpoint.notJson", "checkpoint.json.extraData"),
    (lambda: ckpt.loads("\ufeff[]"), "checkpoint.notJson", "checkpoint.json.bom"),
    (lambda: ckpt.load(_file(b"[1 2]")), "checkpoint.inFile", "checkpoint.notJson"),
    (
        lambda: ckpt.loads(_checkpoint(config=[3])),
        "checkpoint.config",
        "checkpoint.configNotObject",
    ),
    (
        lambda: ckpt.loads(_checkpoint(config={"vocab_size": 3, "heads": 2})),
        "checkpoint.config",
        "checkpoint.configField",
    ),
    (lambda: ckpt.loads(_checkpoint(chars=[1, 2])), "checkpoint.chars", "checkpoint.charsNotText"),
    (lambda: ckpt.loads(_checkpoint(chars=3)), "checkpoint.chars", "checkpoint.charsNotText"),
]


def _raised(raises):
    with pytest.raises(Exception) as caught:
        raises()
    return caught.value


@pytest.mark.parametrize("raises, key", RAISES)
def test_the_english_page_message_is_the_error_word_for_word(raises, key):
    exc = _raised(raises)
    assert exc.key == f"engine.error.{key}"
    assert json.loads(json.dumps(exc.values)) == exc.values  # plain JSON data
    assert render(exc.key, exc.values, "en") == str(exc)


@pytest.mark.parametrize("lang", ["ru", "et"])
@pytest.mark.parametrize("raises, key", RAISES)
def test_every_language_says_it_with_its_values(raises, key, lang):
    exc = _raised(raises)
    said = render(exc.key, exc.values, lang)  # a KeyError for a value the message lacks
    assert said != str(exc)
    for value in exc.values.values():
        # a cause that names its own message is said in this language too
        nested = isinstance(value, dict)
        assert (render(value["key"], value["values"], lang) if nested else value) in said


def test_every_engine_error_on_the_page_is_raised_by_some_site():
    keys = {key for key in catalog("en") if key.startswith("engine.error.")}
    raised = {key for _, key in RAISES} | {cause for _, _, cause in CAUSES}
    assert keys == {f"engine.error.{key}" for key in raised}


@pytest.mark.parametrize("raises, key, cause", CAUSES)
def test_a_quoted_cause_is_a_page_message_of_its_own(raises, key, cause):
    exc = _raised(raises)
    assert exc.key == f"engine.error.{key}"
    assert render(exc.key, exc.values, "en") == str(exc)
    quoted = [v for v in exc.values.values() if isinstance(v, dict)]
    assert [v["key"] for v in quoted] == [f"engine.error.{cause}"]
    for lang in ("ru", "et"):
        said = render(quoted[0]["key"], quoted[0]["values"], lang)
        assert said not in render(quoted[0]["key"], quoted[0]["values"], "en")
        assert said in render(exc.key, exc.values, lang)


@pytest.mark.parametrize("text", ["", "{", '{"a" 1}', "[1 2]", '"abc', "[] x", "\ufeff[]"])
def test_a_json_error_gives_the_page_its_position_as_numbers_not_the_parsers_words(text):
    with pytest.raises(json.JSONDecodeError) as parsed:
        json.loads(text)
    exc = _raised(lambda: ckpt.loads(text))
    assert (exc.values["line"], exc.values["column"]) == (
        str(parsed.value.lineno),
        str(parsed.value.colno),
    )
    assert parsed.value.msg in str(exc)  # English quotes the parser word for word
    assert parsed.value.msg not in json.dumps(exc.values)  # the page has its own words


def _plain_raises(source):
    """Lines of `source` that raise an exception built from English text of their own
    (raise X("...") or raise X(f"...")) instead of through `said`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
            continue
        call = node.exc
        if isinstance(call.func, ast.Name) and call.func.id == "said":
            continue
        if (
            isinstance(call.func, ast.Name)
            and call.func.id == "MyEngineError"
            and len(call.args) > 1
        ):
            continue  # engine.mine's refusal, with its page message (myEngine.error.*)
        texts = [a for a in call.args if isinstance(a, (ast.JoinedStr, ast.Constant))]
        if any(isinstance(a, ast.JoinedStr) or isinstance(a.value, str) for a in texts):
            found.append(node.lineno)
    return found


def test_the_source_check_finds_a_plain_english_raise():
    source = 'def f(x):\n    raise ValueError(f"bad {x}")\n\ndef g():\n    raise TypeError("no")\n'
    assert _plain_raises(source) == [2, 5]
    assert _plain_raises('raise said(ValueError, "a.b", "text")\nraise\n') == []
    assert _plain_raises('raise MyEngineError("text", "myEngine.error.x")\n') == []
    assert _plain_raises('raise MyEngineError(f"no {x}")\n') == [1]


@pytest.mark.parametrize("name", MODULES)
def test_engine_modules_raise_no_plain_english_message(name):
    assert _plain_raises((ROOT / "engine" / name).read_text("utf-8")) == []


def test_a_cell_that_raises_one_hands_the_page_its_message():
    from web import cellrun

    reply = json.loads(cellrun.run("from engine import Value\nValue('x')\n", "errors", "<cell>"))
    error = reply["error"]
    assert error["type"] == "TypeError"
    assert error["key"] == "engine.error.value.notReal"
    assert render(error["key"], error["values"], "en") == error["message"]
    assert error["traceback"].endswith(f"TypeError: {error['message']}\n")


def test_a_cell_with_a_plain_error_names_no_message():
    from web import cellrun

    error = json.loads(cellrun.run("1 / 0\n", "errors", "<cell>"))["error"]
    assert "key" not in error and "values" not in error


# -- what a cell's output shows (web/errortext.js, in Node with the page's message files) ------

SCRIPT = """
import { readFileSync } from "node:fs";
const [i18n, errortext, lang, errors] = process.argv.slice(2);
const { setLanguage } = await import(i18n);
setLanguage(lang);
const { errorText } = await import(errortext);
console.log(JSON.stringify(JSON.parse(readFileSync(errors, "utf8")).map(errorText)));
"""


def shown(errors, lang, tmp_path):
    """Each cell error as the output of a `lang` page shows it."""
    data = tmp_path / "errors.json"
    data.write_text(json.dumps(errors), "utf-8")
    web = ROOT / "web"
    args = [(web / "i18n.js").as_uri(), (web / "errortext.js").as_uri(), lang, str(data)]
    return node_json(SCRIPT, args, tmp_path)


@pytest.fixture(scope="module")
def cell_errors():
    """A cell's engine error and a cell's plain Python error, as cellrun.run reports them."""
    from web import cellrun

    cells = ["from engine import Value\nx = Value(2.0)\nx ** 'two'\n", "1 / 0\n"]
    return [json.loads(cellrun.run(code, "shown", "<cell>"))["error"] for code in cells]


@needs_node
@pytest.mark.parametrize("lang", ["en", "ru", "et"])
def test_a_cell_shows_an_engine_error_in_the_page_language(cell_errors, lang, tmp_path):
    keyed, plain = cell_errors
    engine_error, python_error = shown(cell_errors, lang, tmp_path)
    assert python_error == plain["traceback"]  # no page message: Python's own text
    if lang == "en":
        assert engine_error == keyed["traceback"]
        return
    said = render(keyed["key"], keyed["values"], lang)
    assert said != keyed["message"]
    head, last = keyed["traceback"].rstrip("\n").rsplit("\n", 1)
    assert last == f"TypeError: {keyed['message']}"
    assert engine_error == f"{head}\nTypeError: {said}\n"


# -- a Russian or Estonian notebook says them as the page does (engine.errors.message_in) ------


@needs_node
@pytest.mark.parametrize("lang", ["ru", "et"])
def test_a_notebook_says_every_engine_error_as_its_page_does(lang, tmp_path):
    from engine.errors import message_in

    raised = [_raised(raises) for raises, _ in RAISES]
    page = page_says(raised, lang, tmp_path)
    assert [message_in(exc, lang) for exc in raised] == page
    assert all(said != str(exc) for said, exc in zip(page, raised, strict=True))
    assert [message_in(exc) for exc in raised] == [str(exc) for exc in raised]


def test_an_error_that_names_no_page_message_keeps_its_text():
    from engine.errors import message_in

    for lang in ("en", "ru", "et"):
        assert message_in(ZeroDivisionError("division by zero"), lang) == "division by zero"
    with pytest.raises(ValueError, match="not 'de'"):
        message_in(ZeroDivisionError("division by zero"), "de")


@needs_node
@pytest.mark.parametrize("lang", ["ru", "et"])
def test_a_value_the_error_lacks_is_left_as_the_page_leaves_it(lang, tmp_path):
    from engine.errors import message_in, said

    lacking = said(ValueError, "optim.lr", "the learning rate must be positive")
    assert [message_in(lacking, lang)] == page_says([lacking], lang, tmp_path)


# -- engine.gradcheck's report table, in the words of the page's messages -----------------------

TABLE_WORDS = ("input", "numeric", "relError", "differs", "agree", "differ")


def _reports():
    """A report whose gradients agree and one whose second input's gradient differs."""
    agree = gradcheck(lambda v: (v[0] * v[1]).tanh(), [0.5, -2.0])
    differ = gradcheck(lambda v: v[0] + Value(v[1].data * 3.0), [1.0, 2.0])
    assert agree.ok and not differ.ok
    return agree, differ


@pytest.mark.parametrize("lang", ["en", "ru", "et"])
def test_the_report_table_says_the_page_s_words_in_aligned_columns(lang):
    words = {name: render(f"engine.gradcheck.{name}", {}, lang) for name in TABLE_WORDS}
    for report in _reports():
        english = str(report).split("\n")
        lines = report.table(lang).split("\n")
        assert len(lines) == len(english) == len(report.inputs) + 2
        assert (
            lines[0].split()
            == [words["input"], "x", "backward()", words["numeric"]] + words["relError"].split()
        )
        assert lines[-1] == words["agree" if report.ok else "differ"]
        for row, english_row in zip(lines[1:-1], english[1:-1]):
            flagged = row.endswith(f"  {words['differs']}")
            assert flagged == english_row.endswith("  <-- differs")
            numbers = row.removesuffix(f"  {words['differs']}")
            assert numbers.split() == english_row.removesuffix("  <-- differs").split()
            assert len(numbers) == len(lines[0])  # each number under its heading


def test_the_english_table_is_str_of_the_report():
    for report in _reports():
        assert report.table() == report.table("en") == str(report)
    with pytest.raises(ValueError) as caught:
        report.table("de")
    assert caught.value.key == "engine.error.words.lang"
