// The backward view: for the loss of one name, the gradient's size for each weight matrix and
// its |gradient| per entry, and for one position the size of the gradient of its loss with
// respect to each earlier input vector. Test hooks: input[data-role=name],
// select[data-role=position], [data-role=loss], [data-role=contributions], [data-matrix] (data-norm).

import { el } from "../../explorer/dom.js";
import { Heatmap, TextAlternative, numberTable } from "../charts.js";
import { messageOf } from "../words.js";
import { fmt, largestMagnitude } from "../math.js";
import { t } from "../../i18n.js";

export class BackwardView {
  /** `x` is the model explorer (model-explorer.js) the view belongs to. */
  constructor(x) {
    this.x = x;
    this.node = this.build();
  }

  build() {
    const { node, body } = this.x.section(
      "backward",
      t("backward.title"),
      [t("backward.what"), t("backward.whatBars")],
      t("backward.question"),
    );
    const nameId = this.x.id("name");
    const posId = this.x.id("position");
    this.nameInput = el("input", {
      id: nameId,
      type: "text",
      "data-role": "name",
      autocomplete: "off",
      autocapitalize: "none",
      spellcheck: "false",
      maxlength: "32",
    });
    this.nameInput.value = this.x.prefix;
    this.nameInput.addEventListener("input", () => {
      this.x.name = this.nameInput.value.trim() ? this.nameInput.value : null;
      this.x.position = null;
      this.x.typed();
    });
    this.positionSelect = el("select", { id: posId, "data-role": "position" });
    this.positionSelect.addEventListener("change", () => {
      this.x.position = Number(this.positionSelect.value);
      this.x.refresh();
    });
    this.lossLine = el("p", { class: "gm-loss", "data-role": "loss" });
    this.matrices = el("div", { class: "gm-matrices" });
    this.matrixMaps = new Map();
    this.contribCaption = el("p", { class: "gm-caption", id: this.x.id("contrib-caption") });
    this.contributions = el("ol", {
      class: "gm-probs gm-contrib",
      "data-role": "contributions",
      "aria-labelledby": this.x.id("contrib-caption"),
    });
    this.gradTables = new TextAlternative(t("backward.tables"));
    body.append(
      el(
        "div",
        { class: "gm-controls" },
        el(
          "div",
          { class: "gm-field" },
          el("label", { for: nameId, text: t("backward.nameLabel") }),
          this.nameInput,
          el("span", { class: "gm-help", text: t("backward.nameHelp") }),
        ),
        el(
          "div",
          { class: "gm-field" },
          el("label", { for: posId, text: t("backward.positionLabel") }),
          this.positionSelect,
        ),
      ),
      this.lossLine,
      this.contribCaption,
      this.contributions,
      this.matrices,
      this.gradTables.element,
    );
    return node;
  }

  /** The name follows the prefix until one is typed in its own box. */
  follow(prefix) {
    if (this.x.name === null) this.nameInput.value = prefix;
  }

  error(name, err) {
    this.lossLine.textContent = t("backward.error", { name, error: messageOf(err) });
    this.matrices.replaceChildren();
    this.contributions.replaceChildren();
    this.contribCaption.textContent = "";
    this.matrixMaps.clear();
    this.gradTables.set(() => []);
  }

  /** backward_view's answer (the explorer says which model when no forward view does). */
  draw(data) {
    const symbols = data.tokens?.map((token) => token.symbol) ?? [];
    this.lossLine.textContent = t("backward.loss", {
      name: data.name,
      loss: fmt(data.loss),
      count: data.losses.length,
      losses: data.losses.map((l, p) => `${p}: ${fmt(l)}`).join(", "),
    });
    const select = this.positionSelect;
    const options = data.losses.map((_, p) =>
      el("option", {
        value: p,
        text: t("backward.option", { p, after: symbols[p] ?? p, next: symbols[p + 1] ?? "?" }),
      }),
    );
    select.replaceChildren(...options);
    select.value = String(data.position);
    this.drawContributions(data, symbols);
    const sorted = [...data.matrices].sort((a, b) => b.norm - a.norm);
    const boxes = sorted.map((m) => {
      let entry = this.matrixMaps.get(m.name);
      if (!entry) {
        const map = new Heatmap({
          label: t("backward.absGrad", { name: m.name }),
          cell: Math.max(...m.shape) > 32 ? "0.5rem" : "0.7rem",
          describe: (r, c, v) => t("backward.cell", { name: m.name, r, c, value: fmt(v) }),
        });
        const title = el("h4");
        const box = el("div", { class: "gm-matrix", "data-matrix": m.name }, title, map.element);
        entry = { map, box, title };
        this.matrixMaps.set(m.name, entry);
      }
      entry.box.dataset.norm = String(m.norm);
      entry.title.textContent = t("backward.matrixTitle", {
        name: m.name,
        rows: m.shape[0],
        cols: m.shape[1],
        size: fmt(m.norm),
      });
      const rowLabels = rowNames(m.name, m.shape[0], data.symbols);
      const colLabels = Array.from({ length: m.shape[1] }, () => "");
      entry.map.update(m.abs_grad, { rowLabels, colLabels, top: largestMagnitude(m.abs_grad) });
      return entry.box;
    });
    this.matrices.replaceChildren(...boxes);
    this.gradTables.set(() => [
      numberTable(
        t("backward.contribTable", { p: data.position }),
        data.contributions.map((_, s) => `${s} ${symbols[s] ?? ""}`),
        [t("backward.size")],
        data.contributions.map((c) => [c]),
        t("embeddings.corner"),
      ),
      numberTable(
        t("backward.sizesTable"),
        sorted.map((m) => m.name),
        [t("backward.rows"), t("backward.columns"), t("backward.size")],
        sorted.map((m) => [m.shape[0], m.shape[1], m.norm]),
        t("backward.matrix"),
      ),
      ...sorted.map((m) =>
        numberTable(
          t("backward.absGrad", { name: m.name }),
          rowNames(m.name, m.shape[0], data.symbols).map((r, i) => r || String(i)),
          Array.from({ length: m.shape[1] }, (_, c) => String(c)),
          m.abs_grad,
          t("backward.row"),
        ),
      ),
    ]);
  }

  drawContributions(data, symbols) {
    const p = data.position;
    const values = data.contributions;
    const top = Math.max(...values, 0) || 1;
    this.contribCaption.textContent = t("backward.caption", {
      p,
      symbol: symbols[p] ?? p,
      next: symbols[p + 1] ?? "?",
    });
    this.contributions.replaceChildren(
      ...values.map((v, s) => {
        const bar = el("span", { class: "gm-bar" });
        bar.style.width = `${((v / top) * 100).toFixed(2)}%`;
        return el(
          "li",
          {
            "data-position": s,
            "data-value": String(v),
            "aria-label": t("backward.bar", { s, symbol: symbols[s] ?? s, value: fmt(v) }),
          },
          el("span", { class: "gm-sym", "aria-hidden": "true", text: `${s} ${symbols[s] ?? ""}` }),
          el("span", { class: "gm-track", "aria-hidden": "true" }, bar),
          el("span", { class: "gm-num", "aria-hidden": "true", text: fmt(v) }),
        );
      }),
    );
  }
}

/** Row names of a weight matrix: symbols for wte and lm_head, position numbers for wpe. */
function rowNames(name, rows, symbols) {
  if ((name === "wte" || name === "lm_head") && symbols?.length === rows) return symbols;
  if (name === "wpe") return Array.from({ length: rows }, (_, i) => String(i));
  return Array.from({ length: rows }, () => "");
}
