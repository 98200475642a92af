// The explorer's timeline controls (Forward, Backward, step, play, the scrubber and
// "All gradients") and its checkboxes (local derivatives, final gradients, derived ops
// expanded). They only report presses; explorer.js keeps the timeline.

import { el } from "./dom.js";
import { t } from "../i18n.js";

export class TimelineControls {
  /** @param on  {forward, backward, prev, next, play, finish, scrub(step)} callbacks */
  constructor(on) {
    const button = (action, text, title) =>
      el("button", { type: "button", class: "md-button gx-button", "data-action": action, title, text });
    this.buttons = {
      forward: button("forward", t("explorer.forward"), t("explorer.forwardTitle")),
      backward: button("backward", t("explorer.backward"), t("explorer.backwardTitle")),
      prev: button("prev", t("explorer.prev"), t("explorer.prevTitle")),
      play: button("play", t("explorer.play"), t("explorer.playTitle")),
      next: button("next", t("explorer.next"), t("explorer.nextTitle")),
      finish: button("finish", t("explorer.finish"), t("explorer.finishTitle")),
    };
    this.scrub = el("input", {
      type: "range",
      "data-role": "scrub",
      min: "0",
      max: "0",
      step: "1",
      value: "0",
      "aria-label": t("explorer.scrubLabel"),
    });
    this.scrub.addEventListener("input", () => on.scrub(Number(this.scrub.value)));
    for (const action of ["forward", "backward", "prev", "next", "play", "finish"]) {
      this.buttons[action].addEventListener("click", () => on[action]());
    }
    this.playing(false);
    this.element = el(
      "div",
      { class: "gx-controls", role: "group", "aria-label": t("explorer.timeline") },
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
    this.scrub.setAttribute("aria-valuetext", t(`explorer.step.${mode}`, { step, count }));
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
    toggle("locals", t("explorer.toggleLocals")),
    toggle("final", t("explorer.toggleFinal")),
    toggle("expand", t("explorer.toggleExpand")),
  );
}
