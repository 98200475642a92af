// The explorer's timeline controls (Forward, Backward, step, play, the scrubber and
// "All gradients") and its checkboxes (local derivatives, final gradients, derived ops
// expanded). They only report presses; explorer.js keeps the timeline.

import { el } from "./dom.js";

export class TimelineControls {
  /** @param on  {forward, backward, prev, next, play, finish, scrub(step)} callbacks */
  constructor(on) {
    const button = (action, text, title) =>
      el("button", { type: "button", class: "md-button gx-button", "data-action": action, title, text });
    this.buttons = {
      forward: button("forward", "▶ Forward", "Play the forward pass from the inputs"),
      backward: button("backward", "◀ Backward", "Play the backward pass from the output"),
      prev: button("prev", "« Back", "One step back (←)"),
      play: button("play", "Play", "Play or pause (space)"),
      next: button("next", "Step »", "One step forward (→)"),
      finish: button("finish", "All gradients", "Finish the backward pass: reveal every gradient"),
    };
    this.scrub = el("input", {
      type: "range",
      "data-role": "scrub",
      min: "0",
      max: "0",
      step: "1",
      value: "0",
      "aria-label": "Step of the timeline",
    });
    this.scrub.addEventListener("input", () => on.scrub(Number(this.scrub.value)));
    for (const action of ["forward", "backward", "prev", "next", "play", "finish"]) {
      this.buttons[action].addEventListener("click", () => on[action]());
    }
    this.playing(false);
    this.element = el(
      "div",
      { class: "gx-controls", role: "group", "aria-label": "Timeline" },
      this.buttons.forward,
      this.buttons.backward,
      this.buttons.prev,
      this.buttons.play,
      this.buttons.next,
      this.scrub,
      this.buttons.finish,
    );
  }

  /** The Play button says what it will do: play, or pause what is playing. */
  playing(on) {
    this.buttons.play.textContent = on ? "Pause" : "Play";
    this.buttons.play.setAttribute("aria-pressed", String(on));
  }

  /** Show the timeline at `step` of the `mode` pass's `count` steps. */
  show(mode, step, count) {
    this.scrub.max = String(count);
    this.scrub.value = String(step);
    this.scrub.setAttribute("aria-valuetext", `${mode} step ${step} of ${count}`);
    this.buttons.forward.setAttribute("aria-pressed", String(mode === "forward"));
    this.buttons.backward.setAttribute("aria-pressed", String(mode === "backward"));
  }

  setEnabled(on) {
    for (const c of [...Object.values(this.buttons), this.scrub]) c.disabled = !on;
  }
}

/**
 * The checkboxes, started from `toggles` ({locals, final, expand}); `onToggle(name, on)`
 * after each change.
 */
export function toggleBoxes(toggles, onToggle) {
  const toggle = (name, text) => {
    const box = el("input", { type: "checkbox", "data-toggle": name, checked: toggles[name] });
    box.addEventListener("change", () => onToggle(name, box.checked));
    return el("label", { class: "gx-toggle" }, box, ` ${text}`);
  };
  return el(
    "div",
    { class: "gx-toggles" },
    toggle("locals", "Local derivatives"),
    toggle("final", "Final gradients"),
    toggle("expand", "Expand derived ops (− and ÷)"),
  );
}
