// The variables' sliders, and each one's range. A range input snaps its value to
// min + k·step, so a slider that starts at a lesson's 0.25 on a 0.1 grid would sit at 0.3
// while the graph computes with 0.25. Each slider gets the coarsest grid its start value
// lies on.

import { el } from "./dom.js";
import { num } from "./format.js";
import { NARROW } from "./viewport.js";
import { t } from "../i18n.js";

const RANGE = { min: -10, max: 10 };
const STEPS = [0.1, 0.05, 0.01, 0.005, 0.001];

function onGrid(value, step) {
  const k = value / step;
  return Math.abs(k - Math.round(k)) < 1e-9 * Math.max(1, Math.abs(k));
}

/** min, max and step (as attribute strings) for a slider that starts at `value`. */
export function sliderRange(value) {
  // Start the grid at the start value when it lies outside the usual range.
  const min = Math.min(RANGE.min, value);
  const step = STEPS.find((s) => onGrid(value - min, s)) ?? STEPS[STEPS.length - 1];
  return { min: String(min), max: String(Math.max(RANGE.max, value)), step: String(step) };
}

/**
 * The variables' sliders, one per variable of the graph. On a phone they come after the
 * graph (a dozen sliders would push it off the screen), elsewhere before the timeline:
 * moved in the page, not only drawn there, so the keyboard meets them in the order seen.
 */
export class Sliders {
  /** @param onInput  (name, value) after the reader moves a slider */
  constructor(onInput) {
    this.onInput = onInput;
    this.element = el(
      "fieldset",
      { class: "gx-vars", hidden: true },
      el("legend", { text: t("explorer.variables") }),
    );
  }

  /** One slider per variable ({name, value}); none shows no box at all. */
  show(variables) {
    for (const row of this.element.querySelectorAll(".gx-var")) row.remove();
    this.element.hidden = variables.length === 0;
    for (const { name, value } of variables) {
      const input = el("input", {
        type: "range",
        "data-var": name,
        ...sliderRange(value),
        value: String(value),
        "aria-label": t("explorer.valueOf", { name }),
      });
      const shown = el("output", { text: num(value) });
      const update = () => {
        const x = Number(input.value);
        shown.textContent = num(x);
        this.onInput(name, x);
      };
      input.addEventListener("input", update);
      input.addEventListener("change", update);
      this.element.append(
        el("label", { class: "gx-var" }, el("span", { class: "gx-var__name", text: name }), input, shown),
      );
    }
  }

  hide() {
    this.element.hidden = true;
  }

  /** Wait for Python: the graph drawn before it answers cannot be recomputed yet. */
  disable() {
    for (const slider of this.element.querySelectorAll("input")) slider.disabled = true;
  }

  /** Sit before `wide` on a wide screen, before `narrow` on a phone, as the screen turns. */
  place(wide, narrowPlace) {
    const query = window.matchMedia?.(NARROW);
    const put = () => (query?.matches ? narrowPlace : wide).before(this.element);
    put();
    const follow = () => (this.element.isConnected ? put() : query.removeEventListener("change", follow));
    query?.addEventListener("change", follow);
  }
}
