"""The `model-explorer` fence: the box a page's block renders, and the blocks it refuses."""

import re

import markdown
import pytest
from model_fence import (
    LONGEST_PREFIX,
    ModelExplorerError,
    format_model_explorer,
    former_model_fence,
    model_fence,
)

from engine.gpt import GPTConfig


def render(text):
    """A page's Markdown through superfences with the course's fence, as MkDocs runs it."""
    return markdown.markdown(
        text,
        extensions=["pymdownx.superfences"],
        extension_configs={
            "pymdownx.superfences": {"custom_fences": [model_fence(), former_model_fence()]}
        },
    )


def test_a_bare_block_shows_every_view_from_emm():
    html = render("```model-explorer\n```\n")
    assert re.search(
        r'<div class="course-model-explorer" data-model-explorer data-prefix="emm"', html
    )
    assert 'data-views="all"' in html
    assert "needs JavaScript" in html  # a sentence for readers without it


def test_prefix_and_view_reach_the_page():
    html = render('```model-explorer prefix="ann" view="probs, attention"\n```\n')
    assert 'data-prefix="ann"' in html
    assert 'data-views="probs,attention"' in html


def test_the_longest_prefix_fills_the_block_after_bos():
    assert LONGEST_PREFIX == GPTConfig().block_size - 1 == 15
    assert 'data-prefix="' + "a" * 15 + '"' in render(
        f'```model-explorer prefix="{"a" * 15}"\n```\n'
    )


def test_no_sampling_is_passed_on_with_the_views():
    html = render('```model-explorer view="forward, no-sampling"\n```\n')
    assert 'data-views="forward,no-sampling"' in html


def test_filters_are_passed_on_with_the_views():
    html = render('```model-explorer prefix="em" view="probs, filters"\n```\n')
    assert 'data-views="probs,filters"' in html


@pytest.mark.parametrize(
    "fence, message",
    [
        ('```model-explorer prefix="Emm"\n```', "only the letters a-z, and 'E' is not one"),
        ('```model-explorer prefix="em3"\n```', "'3' is not one"),
        (
            f'```model-explorer prefix="{"a" * 16}"\n```',
            "has 16 letters; the model reads at most 15",
        ),
        ('```model-explorer view="sideways"\n```', "choose from all, forward, embeddings"),
        ('```model-explorer colour="red"\n```', "unknown option 'colour'"),
        ('```model-explorer view="no-sampling"\n```', "choose from all, forward"),
        ('```model-explorer view="filters"\n```', "or filters to add the top-k and top-p sliders"),
        ('```model-explorer view="probs,filters,no-sampling"\n```', "keep one of the two"),
    ],
)
def test_a_bad_option_stops_the_build_with_its_reason(fence, message):
    with pytest.raises(ModelExplorerError, match=re.escape(message)):
        render(fence + "\n")


def test_a_body_is_refused():
    with pytest.raises(ModelExplorerError, match="takes no body"):
        format_model_explorer("emm\n", "model-explorer", "course-model-explorer", {}, None)


def test_a_notebook_gets_a_note_instead_of_the_block():
    from tools import notebooks

    text = (
        "---\nday: 1\ntitle: T\nphase: 1\n---\n\n# T\n\nLook:\n\n"
        '```model-explorer prefix="ann" view="probs"\n```\n\nThen more.\n'
    )
    _, cells = notebooks.split_page(text)
    assert len(cells) == 1 and "```" not in cells[0][1]
    note = cells[0][1]
    assert "> **Model explorer.** On the course site" in note
    # The note is a quote wrapped over several lines: read its words as one line.
    words = " ".join(note.replace("\n> ", " ").split())
    assert "(the next-symbol probabilities)" in words
    assert "starting from the prefix `ann`" in words
    assert note.rstrip().endswith("Then more.")


def test_the_former_name_of_the_fence_stops_the_build_and_gives_the_new_one():
    with pytest.raises(ModelExplorerError, match="now called model-explorer"):
        render('```gpt-explorer prefix="emm"\n```\n')
