"""The `explorer` fence: what a lesson's block renders, and the blocks it refuses."""

import pytest
from explorer_fence import ExplorerError, explorer_fence, format_explorer


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
