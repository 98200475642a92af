// The backward view: for the loss of one name, the gradient's size for each weight matrix and
// its |gradient| per entry, and for one position the size of the gradient of its loss with
// respect to each earlier input vector. Test hooks: input[data-role=name],
// select[data-role=position], [data-role=loss], [data-role=contributions], [data-matrix] (data-norm).

import { el } from "../../explorer/dom.js";
import { Heatmap, TextAlternative, numberTable } from "../charts.js";
import { messageOf } from "../words.js";
import { fmt, largestMagnitude } from "../math.js";

export class BackwardView {
  /** `x` is the model explorer (model-explorer.js) the view belongs to. */
  constructor(x) {
    this.x = x;
    this.node = this.build();
  }

  build() {
    const { node, body } = this.x.section(
      "backward",
      "Backward: where the gradient of one name's loss goes",
      [
        "The loss of one name is the mean, over its positions, of −log of the probability " +
          "the model gave the true next symbol (the name is read as a finished name: BOS, its " +
          "letters, BOS). One backward() from that loss gives every weight its gradient. The " +
          "maps at the bottom show, for each weight matrix, |gradient| per entry (the " +
          "stronger the colour, the larger, within this matrix: each map has its own scale, " +
          "its strongest cell is its own largest entry; a pale cell is small, a cell with no " +
          "colour is exactly 0) and one number, the gradient's size: its length, the square " +
          "root of the sum of its squared entries (the L2 norm; not RMSNorm). The matrix with " +
          "the largest size comes first. A large gradient means this name's loss is sensitive " +
          "to those weights now, not that they matter most; matrices of different sizes are " +
          "not directly comparable, and Adam rescales each weight's step, so the largest " +
          "gradient is not the largest change in training.",
        "The bars above the maps are for one position t only, from a second backward() of " +
          "position t's loss alone: for each position s from 0 to t (t itself included, the " +
          "last bar), the size of the gradient of that loss with respect to position s's " +
          "input vector x_s (the row of wte for its symbol plus the row of wpe for s). It " +
          "says how sensitive position t's loss is, right now, to a small change of x_s; it is " +
          "not the effect of replacing the letter at s. Because x_s is divided by its root " +
          "mean square first, only changes of its direction count, and a shorter x_s gives a " +
          "larger number. An earlier position reaches position t only through attention.",
      ],
      "Predict first: which rows of wte will get a gradient that is not 0 from this name, " +
        "and why does every row of lm_head get one?",
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
    this.gradTables = new TextAlternative("The bars' and the gradients' sizes as tables");
    body.append(
      el(
        "div",
        { class: "gm-controls" },
        el(
          "div",
          { class: "gm-field" },
          el("label", { for: nameId, text: "Name for the loss" }),
          this.nameInput,
          el("span", { class: "gm-help", text: "read as a finished name: BOS, its letters, BOS" }),
        ),
        el(
          "div",
          { class: "gm-field" },
          el("label", { for: posId, text: "Position t" }),
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
    this.lossLine.textContent = `No gradients for "${name}": ${messageOf(err)}`;
    this.matrices.replaceChildren();
    this.contributions.replaceChildren();
    this.contribCaption.textContent = "";
    this.matrixMaps.clear();
    this.gradTables.set(() => []);
  }

  /** backward_view's answer (the explorer says which model when no forward view does). */
  draw(data) {
    const symbols = data.tokens?.map((t) => t.symbol) ?? [];
    const n = data.losses.length;
    this.lossLine.textContent =
      `Loss of "${data.name}": ${fmt(data.loss)}, the mean of ${n} position loss${n === 1 ? "" : "es"} (` +
      data.losses.map((l, t) => `${t}: ${fmt(l)}`).join(", ") +
      ").";
    const select = this.positionSelect;
    const options = data.losses.map((_, t) =>
      el("option", { value: t, text: `${t}: after ${symbols[t] ?? t}, predicting ${symbols[t + 1] ?? "?"}` }),
    );
    select.replaceChildren(...options);
    select.value = String(data.position);
    this.drawContributions(data, symbols);
    const sorted = [...data.matrices].sort((a, b) => b.norm - a.norm);
    const boxes = sorted.map((m) => {
      let entry = this.matrixMaps.get(m.name);
      if (!entry) {
        const map = new Heatmap({
          label: `|gradient| of ${m.name}`,
          cell: Math.max(...m.shape) > 32 ? "0.5rem" : "0.7rem",
          describe: (r, c, v) => `${m.name}[${r}][${c}]: |grad| ${fmt(v)}`,
        });
        const title = el("h4");
        const box = el("div", { class: "gm-matrix", "data-matrix": m.name }, title, map.element);
        entry = { map, box, title };
        this.matrixMaps.set(m.name, entry);
      }
      entry.box.dataset.norm = String(m.norm);
      entry.title.textContent = `${m.name} (${m.shape[0]}×${m.shape[1]}): gradient size ${fmt(m.norm)}`;
      const rowLabels = rowNames(m.name, m.shape[0], data.symbols);
      const colLabels = Array.from({ length: m.shape[1] }, () => "");
      entry.map.update(m.abs_grad, { rowLabels, colLabels, top: largestMagnitude(m.abs_grad) });
      return entry.box;
    });
    this.matrices.replaceChildren(...boxes);
    this.gradTables.set(() => [
      numberTable(
        `Position ${data.position}'s loss: the size of its gradient with respect to the input vector of each position 0 to ${data.position}`,
        data.contributions.map((_, s) => `${s} ${symbols[s] ?? ""}`),
        ["size"],
        data.contributions.map((c) => [c]),
        "position",
      ),
      numberTable(
        "Gradient size (length) of each matrix",
        sorted.map((m) => m.name),
        ["rows", "columns", "size"],
        sorted.map((m) => [m.shape[0], m.shape[1], m.norm]),
        "matrix",
      ),
      ...sorted.map((m) =>
        numberTable(
          `|gradient| of ${m.name}`,
          rowNames(m.name, m.shape[0], data.symbols).map((r, i) => r || String(i)),
          Array.from({ length: m.shape[1] }, (_, c) => String(c)),
          m.abs_grad,
          "row",
        ),
      ),
    ]);
  }

  drawContributions(data, symbols) {
    const t = data.position;
    const values = data.contributions;
    const top = Math.max(...values, 0) || 1;
    this.contribCaption.textContent =
      `Position ${t} (${symbols[t] ?? t}, predicting ${symbols[t + 1] ?? "?"}): the size of the gradient of its loss ` +
      `with respect to the input vector of each position 0 to ${t} (${t} itself is the last bar).`;
    this.contributions.replaceChildren(
      ...values.map((v, s) => {
        const bar = el("span", { class: "gm-bar" });
        bar.style.width = `${((v / top) * 100).toFixed(2)}%`;
        return el(
          "li",
          {
            "data-position": s,
            "data-value": String(v),
            "aria-label": `position ${s} (${symbols[s] ?? s}): ${fmt(v)}`,
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
