"""The `explorer` fence: what a lesson's block renders, and the blocks it refuses."""

import json
import re

import pytest
from explorer_fence import (
    ExplorerError,
    explorer_fence,
    format_explorer,
    trace_attribute,
    validate_explorer,
)

from explorer import explore


def render(body):
    return format_explorer(body, "explorer", "course-explorer", {}, None)


def test_renders_a_mount_point_with_the_escaped_expression():
    html = render("(a + b) * c\n")
    assert 'data-explorer data-expression="(a + b) * c"' in html
    assert "<pre" in html  # readable without JavaScript
    # Only the parser's grammar reaches the attribute: nothing there needs escaping,
    # because an expression with < & or " is refused before any HTML is written.
    with pytest.raises(ExplorerError, match="comparisons are not allowed"):
        render("a < 2")
    assert explorer_fence()["name"] == "explorer"


@pytest.mark.parametrize("body", ["a ** b", "__import__('os')", "a +", "a\nb"])
def test_refuses_what_the_explorer_would_refuse(body):
    with pytest.raises(ExplorerError, match="explorer block"):
        render(body)


def _embedded(page):
    """The trace a block carries, read back as a browser reads its attribute."""
    from html.parser import HTMLParser

    found = []

    class Blocks(HTMLParser):
        def handle_starttag(self, tag, attrs):
            found.extend(v for k, v in attrs if k == "data-explorer-trace")

    Blocks().feed(page)
    assert len(found) == 1, page
    return json.loads(found[0])


@pytest.mark.parametrize(
    "body, options, values",
    [
        ("(a*b + c) * f", {}, {}),
        ("a*b + a", {"values": {"a": 2.0, "b": 3.0}}, {"a": 2.0, "b": 3.0}),
        ("-2 * (3 * x**2 + 1)", {}, {}),
    ],
)
def test_the_block_carries_the_graph_explore_returns(body, options, values):
    html = format_explorer(body, "explorer", "course-explorer", options, None)
    assert _embedded(html) == explore(body, values)


def test_the_embedded_graph_uses_the_fences_values():
    options = {}
    assert validate_explorer("explorer", {"values": '{"a": 2, "b": 3}'}, options, {}, None)
    html = format_explorer("a*b + a", "explorer", "course-explorer", options, None)
    # The live explorer reads the same values from the block.
    assert 'data-explorer-values="{&quot;a&quot;: 2.0, &quot;b&quot;: 3.0}"' in html
    result = _embedded(html)
    nodes = {n["label"]: n for n in result["trace"]["nodes"]}
    # a*b + a at a=2, b=3: 2*3 + 2 = 8; d/da = b + 1 = 4, d/db = a = 2.
    assert nodes["a*b+a"]["data"] == 8.0
    assert (nodes["a"]["grad"], nodes["b"]["grad"]) == (4.0, 2.0)


@pytest.mark.parametrize(
    "options, says",
    [
        ({"value": "{}"}, "unknown option 'value'"),
        ({"values": "{a: 2}"}, "values is not JSON"),
        ({"values": "[2]"}, "must be a JSON object"),
        ({"values": '{"ab": 2}'}, "'ab' in values is not a variable"),
        ({"values": '{"a": "2"}'}, "the value of a must be a finite number"),
        ({"values": '{"a": true}'}, "the value of a must be a finite number"),
    ],
)
def test_bad_values_are_refused_with_the_fix(options, says):
    with pytest.raises(ExplorerError, match=re.escape(says)):
        validate_explorer("explorer", options, {}, {}, None)


def test_values_outside_a_functions_domain_stop_the_build():
    with pytest.raises(ExplorerError, match="positive input"):
        format_explorer("log(a)", "explorer", "course-explorer", {"values": {"a": -1.0}}, None)


def test_the_embedded_json_stays_inside_its_attribute():
    data = {"label": "\"'><script>x</script><!-- & -->"}
    page = f'<div data-explorer-trace="{trace_attribute(data)}"></div><p>after</p>'
    assert "<script>" not in page and _embedded(page) == data


def test_a_fence_option_reaches_the_block_in_markdown():
    markdown = pytest.importorskip("markdown")
    md = markdown.Markdown(
        extensions=["pymdownx.superfences"],
        extension_configs={"pymdownx.superfences": {"custom_fences": [explorer_fence()]}},
    )
    html = md.convert("```explorer values='{\"a\": 5}'\na * a\n```\n")
    # a*a at a=5: 25; d/da = 2a = 10.
    nodes = {n["label"]: n for n in _embedded(html)["trace"]["nodes"]}
    assert nodes["a*a"]["data"] == 25.0 and nodes["a"]["grad"] == 10.0
