// The next-symbol probabilities: the bars at the temperature T (and, from day 40, after the
// top-k and top-p filters), computed from the last position's logits on the page, and Sample,
// which draws a symbol from them. Test hooks: input[data-role=temperature], input[data-role=top-k],
// input[data-role=top-p], [data-action=sample], [data-role=probs] > [data-token] (data-p;
// data-cut: the filter that cut the symbol); the explorer's data-last-sample and data-finished.

import { el } from "../../explorer/dom.js";
import { TextAlternative, numberTable } from "../charts.js";
import { drawIndex, filterProbs, softmaxAt } from "../math.js";
import { t, tParts } from "../../i18n.js";

export class ProbsView {
  /** `x` is the model explorer (model-explorer.js) the view belongs to. */
  constructor(x) {
    this.x = x;
    this.temperature = 1;
    this.topK = null; // null: off, every symbol kept
    this.topP = null; // null: off (the slider at 1)
    this.finished = null; // the name Sample ended with BOS: never extended
    this.node = this.build();
  }

  build() {
    const { node, body } = this.x.section(
      "probs",
      t("probs.title"),
      t(this.x.sampling ? (this.x.filters ? "probs.whatFilters" : "probs.whatSampling") : "probs.what"),
      t(
        this.x.filters
          ? "probs.questionFilters"
          : this.x.sampling
            ? "probs.questionSampling"
            : "probs.question",
      ),
    );
    const tId = this.x.id("temperature");
    this.tOut = el("output", { for: tId, text: "1.0" });
    this.tInput = el("input", {
      id: tId,
      type: "range",
      min: "0.1",
      max: "2",
      step: "0.1",
      value: "1",
      "data-role": "temperature",
    });
    this.tInput.addEventListener("input", () => {
      this.temperature = Number(this.tInput.value);
      this.tOut.textContent = this.temperature.toFixed(1);
      this.redraw();
    });
    const filterFields = this.x.filters ? this.buildFilters() : [];
    this.sampleButton = el("button", {
      type: "button",
      class: "md-button gm-button",
      "data-action": "sample",
      text: t("probs.sample"),
    });
    this.sampleButton.addEventListener("click", () =>
      this.finished === null ? this.sample() : this.newName(),
    );
    this.sampleNote = el("p", { class: "gm-sample-note", role: "status", "aria-live": "polite" });
    this.probsCaption = el("p", { class: "gm-caption", id: this.x.id("probs-caption") });
    this.probs = el("ol", {
      class: "gm-probs",
      "data-role": "probs",
      "aria-labelledby": this.x.id("probs-caption"),
    });
    this.probsTable = new TextAlternative();
    body.append(
      ...(this.x.sampling
        ? [
            el(
              "div",
              { class: "gm-controls" },
              el(
                "div",
                { class: "gm-field" },
                el("label", { for: tId }, ...tParts("probs.temperature", { value: this.tOut })),
                this.tInput,
              ),
              ...filterFields,
              this.sampleButton,
            ),
          ]
        : []),
      this.sampleNote,
      this.probsCaption,
      this.probs,
      this.probsTable.element,
    );
    return node;
  }

  /** forward_view's answer: the bars of its last position. */
  draw(data) {
    this.logits = data.positions[data.positions.length - 1].logits;
    this.redraw();
  }

  /** The prefix changed: the note spoke of the old one, and a new name is not finished. */
  typed() {
    this.sampleNote.textContent = "";
    this.finish(null);
  }

  /** The top-k and top-p sliders: k from 1 to every symbol (off), p from 0.05 to 1 (off). */
  buildFilters() {
    const kId = this.x.id("top-k");
    const pId = this.x.id("top-p");
    this.kOut = el("output", { for: kId, text: t("probs.kOff") });
    this.kInput = el("input", {
      id: kId,
      type: "range",
      min: "1",
      max: "27",
      step: "1",
      value: "27",
      "data-role": "top-k",
      "aria-describedby": this.x.id("top-k-help"),
    });
    this.pOut = el("output", { for: pId, text: t("probs.pOff") });
    this.pInput = el("input", {
      id: pId,
      type: "range",
      min: "0.05",
      max: "1",
      step: "0.05",
      value: "1",
      "data-role": "top-p",
      "aria-describedby": this.x.id("top-p-help"),
    });
    const changed = () => {
      const symbols = this.x.forwardData?.symbols.length ?? 27;
      const k = Number(this.kInput.value);
      this.topK = k >= symbols ? null : k;
      this.kOut.textContent = this.topK === null ? t("probs.kOff") : String(k);
      const p = Number(this.pInput.value);
      this.topP = p >= 1 ? null : p;
      this.pOut.textContent = this.topP === null ? t("probs.pOff") : p.toFixed(2);
      this.redraw();
    };
    this.kInput.addEventListener("input", changed);
    this.pInput.addEventListener("input", changed);
    return [
      el(
        "div",
        { class: "gm-field" },
        el("label", { for: kId }, ...tParts("probs.topK", { value: this.kOut })),
        this.kInput,
        el("span", {
          class: "gm-help",
          id: this.x.id("top-k-help"),
          text: t("probs.kHelp"),
        }),
      ),
      el(
        "div",
        { class: "gm-field" },
        el("label", { for: pId }, ...tParts("probs.topP", { value: this.pOut })),
        this.pInput,
        el("span", {
          class: "gm-help",
          id: this.x.id("top-p-help"),
          text: t("probs.pHelp"),
        }),
      ),
    ];
  }

  /** What the filters are set to, in words ("" when both are off). */
  filterWords() {
    const k = this.topK;
    const p = this.topP === null ? null : this.topP.toFixed(2);
    if (k !== null && p !== null) return t("probs.filterBoth", { k, p });
    if (k !== null) return t("probs.filterK", { k });
    if (p !== null) return t("probs.filterP", { p });
    return "";
  }

  /** The bars at the current temperature, from the last position's logits (no Python). */
  redraw() {
    const data = this.x.forwardData;
    if (!data || !this.logits) return;
    const atT = softmaxAt(this.logits, this.temperature);
    // Temperature first, then top-k, then top-p (engine.gpt.sampling_probs's order).
    const { probs: p, cut } = filterProbs(atT, this.topK, this.topP);
    this.shown = p;
    const order = p.map((_, i) => i).sort((a, b) => this.logits[b] - this.logits[a] || a - b);
    const last = data.tokens[data.tokens.length - 1].symbol;
    const filters = this.filterWords();
    const kept = p.filter((x) => x > 0).length;
    const temperature = this.temperature.toFixed(1);
    this.probsCaption.textContent = filters
      ? t("probs.captionFiltered", { prefix: data.prefix, last, temperature, filters, kept, total: p.length })
      : t("probs.caption", { prefix: data.prefix, last, temperature });
    const items = order.map((i) => {
      const symbol = data.symbols[i];
      const words = i === this.x.bosId() ? t("probs.endOfName", { symbol }) : symbol;
      const bar = el("span", { class: "gm-bar" });
      bar.style.width = `${(p[i] * 100).toFixed(2)}%`;
      const attrs = {
        "data-token": symbol,
        "data-p": String(p[i]),
        "aria-label": `${words}: ${(p[i] * 100).toFixed(1)}%`,
      };
      let number = `${(p[i] * 100).toFixed(1)}%`;
      if (cut[i]) {
        attrs["data-cut"] = cut[i];
        attrs.class = "gm-cut";
        attrs["aria-label"] = t("probs.cutLabel", { words, by: cut[i], before: (atT[i] * 100).toFixed(1) });
        number = t("probs.cut");
      }
      return el(
        "li",
        attrs,
        el("span", { class: "gm-sym", "aria-hidden": "true", text: symbol }),
        el("span", { class: "gm-track", "aria-hidden": "true" }, bar),
        el("span", { class: "gm-num", "aria-hidden": "true", text: number }),
      );
    });
    this.probs.replaceChildren(...items);
    const room = data.tokens.length < data.model.block_size;
    if (this.sampleButton) this.sampleButton.disabled = !room;
    if (!room) this.sampleNote.textContent = t("probs.full", { n: data.model.block_size });
    this.probsTable.set(() => [
      this.x.filters
        ? numberTable(
            t("probs.tableFiltered", { temperature, filters: filters || t("probs.bothOff") }),
            order.map((i) => data.symbols[i]),
            [t("probs.colLogit"), t("probs.colAtT"), t("probs.colSampled")],
            order.map((i) => [this.logits[i], atT[i], p[i]]),
            t("probs.colSymbol"),
          )
        : numberTable(
            t("probs.table", { temperature }),
            order.map((i) => data.symbols[i]),
            [t("probs.colLogit"), t("probs.colProbability")],
            order.map((i) => [this.logits[i], p[i]]),
            t("probs.colSymbol"),
          ),
    ]);
  }

  sample() {
    if (!this.shown || this.x.root.dataset.state !== "ready") return;
    const i = drawIndex(this.shown, this.x.uniform());
    const data = this.x.forwardData;
    const symbol = data.symbols[i];
    const p = this.shown[i];
    // The prefix the bars belong to, as the model read it (typed spaces and capitals gone).
    this.x.root.dataset.lastSample = JSON.stringify({ symbol, p, prefix: data.prefix });
    const pct = `${(p * 100).toFixed(1)}%`;
    if (i === this.x.bosId()) {
      this.sampleNote.textContent = t("probs.drewBos", { symbol, pct, prefix: data.prefix });
      this.finish(data.prefix);
      return;
    }
    this.x.input.value = data.prefix + symbol;
    this.x.refresh();
    this.sampleNote.textContent = t("probs.drew", { symbol, pct });
  }

  /** The name is finished: Sample becomes "Start a new name" until the prefix changes. */
  finish(name) {
    this.finished = name;
    if (name === null) delete this.x.root.dataset.finished;
    else this.x.root.dataset.finished = name;
    if (this.sampleButton)
      this.sampleButton.textContent = t(name === null ? "probs.sample" : "probs.newName");
  }

  /** After a finished name: an empty prefix, from which Sample draws a new name's first letter. */
  newName() {
    this.x.input.value = "";
    this.x.typed();
    this.sampleNote.textContent = t("probs.newNameNote");
  }
}
