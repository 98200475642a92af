"""Small actions on the course's cells, through their stable test hooks."""

from __future__ import annotations

import time

PLAYGROUND = "playground/"


def cell(page, index):
    return page.locator(f"[data-cell='{index}']")


def set_code(block, text):
    """Replace the editor's text the way a paste would (no auto-indent on the way)."""
    editor = block.locator(".cm-content")
    editor.click()
    page = block.page
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(text)


def editor_text(block):
    """The text in the block's editor, once the page has made it (after a load, the block
    is there before its editor)."""
    block.locator(".cm-editor").wait_for(state="attached")
    return block.evaluate("el => el.querySelector('.cm-editor').courseEditor.state.doc.toString()")


def stop_grace(page, ms):
    """Give Stop's interrupt `ms` milliseconds before Python is restarted (web/client.js, 5 s
    by default): with a long grace, an interrupt is told from a restart on a loaded machine."""
    page.add_init_script(f"globalThis.courseStopGraceMs = {int(ms)};")


# Longer than any wait of a test: a Stop that ends before it was an interrupt.
LONG_GRACE_MS = 120_000


def wait_state(block, states, timeout=60.0):
    """Wait until the block's data-state is one of `states`; return it."""
    states = (states,) if isinstance(states, str) else tuple(states)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = block.get_attribute("data-state")
        if state in states:
            return state
        block.page.wait_for_timeout(25)
    shown = (
        block.locator("[data-output]").inner_text()
        if block.locator("[data-output]").count()
        else ""
    )
    raise AssertionError(
        f"state stayed {block.get_attribute('data-state')!r}, wanted {states}; output: {shown!r}"
    )


def run(block, timeout=60.0):
    """Click Run and wait for the run to end; return the final state."""
    # Mark the block first, so a run that ends before the first poll is still seen.
    block.evaluate("el => { el.dataset.state = 'before-test-run' }")
    block.locator("[data-action=run]").click()
    return wait_state(block, ("done", "error", "idle"), timeout=timeout)


def output(block):
    return block.locator("[data-output]").inner_text()


def run_status(block):
    """What the block says about its run beside its buttons (waiting, elapsed time), or ""."""
    status = block.locator("[data-run-status]")
    return "" if status.is_hidden() else status.inner_text()


def saved_code(page, key):
    """The code saved under `key` in localStorage, or None."""
    return page.evaluate("k => JSON.parse(localStorage.getItem(k) || 'null')?.code ?? null", key)


def click_and_read_saved(block, action, key):
    """Click the block's `action` button and read what is saved under `key`, in one go.

    Both happen in the page in one task: no timer can fire between them, so only
    a save made by the click itself is seen.
    """
    return block.evaluate(
        "(el, [action, key]) => {"
        " el.querySelector(`[data-action=${action}]`).click();"
        " return JSON.parse(localStorage.getItem(key) || 'null')?.code ?? null }",
        [action, key],
    )
