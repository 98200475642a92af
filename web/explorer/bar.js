// The explorer's expression form (the box, Build and the examples menu) and the box under
// it that says why an expression was refused, with the refused part marked.

import presets from "../../explorer/presets.json";
import { el } from "./dom.js";
import { say, t } from "../i18n.js";

// The examples menu: explorer/presets.json, the one list the Python package reads too
// (explorer.PRESETS); esbuild inlines it into the bundle.
export const PRESETS = presets;

export class ExpressionBar {
  /**
   * @param id          (name) -> an id unique to this explorer on the page
   * @param expression  the expression the box starts with
   * @param onBuild     called when the reader asks for the box's expression to be built
   */
  constructor(id, expression, onBuild) {
    this.input = el("input", {
      type: "text",
      id: id("expr"),
      "data-role": "expression",
      value: expression,
      spellcheck: "false",
      autocomplete: "off",
      autocapitalize: "off",
      "aria-describedby": id("error"),
    });
    this.preset = el(
      "select",
      { "data-role": "preset", "aria-label": t("explorer.presetLabel") },
      el("option", { value: "", text: t("explorer.examples") }),
      ...PRESETS.map((p) => el("option", { value: p, text: p })),
    );
    this.form = el(
      "form",
      { class: "gx-bar" },
      el("label", { for: id("expr"), text: t("explorer.expression") }),
      this.input,
      el("button", { type: "submit", class: "md-button gx-button", text: t("explorer.build") }),
      this.preset,
    );
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      onBuild();
    });
    this.preset.addEventListener("change", () => {
      if (!this.preset.value) return;
      this.input.value = this.preset.value;
      this.preset.value = "";
      onBuild();
    });
    this.error = el("div", {
      class: "gx-error",
      "data-role": "error",
      id: id("error"),
      role: "alert",
      hidden: true,
    });
  }

  get text() {
    return this.input.value;
  }

  set text(value) {
    this.input.value = value;
  }

  /** Say why `text` was refused (`error`: {message, start, end}, and the message's `key` and
   *  `values` in web/locales when Python gave them) and mark where. */
  showError(text, error) {
    this.error.hidden = false;
    this.error.textContent = "";
    const start = Math.max(0, Math.min(error.start ?? 0, text.length));
    const end = Math.max(start, Math.min(error.end ?? start, text.length));
    const message = say(error) ?? error.message;
    this.error.append(el("p", { class: "gx-error__message", text: message }));
    if (text && end > start) {
      this.error.append(
        el(
          "pre",
          { class: "gx-error__where", "aria-hidden": "true" },
          text.slice(0, start),
          el("mark", { text: text.slice(start, end) }),
          text.slice(end),
        ),
      );
    }
    this.input.setAttribute("aria-invalid", "true");
  }

  hideError() {
    this.error.hidden = true;
    this.error.textContent = "";
    this.input.removeAttribute("aria-invalid");
  }
}
