// The microGPT explorer: type a prefix, see what the model computes at each position
// (embeddings, each head's attention, the residual stream, the next-symbol probabilities),
// where the gradient of one name's loss goes, and, while a training cell runs, the model
// learning. All numbers come from `explorer.model` in the worker (engineFor); the page only
// reshapes the probabilities for the temperature slider and the top-k and top-p filters,
// and draws a letter from them.
//
// Test hooks: [data-gpt-explorer] (data-state: busy | ready | error; data-shown: the prefix
// drawn), input[data-role=prefix], input[data-role=temperature], input[data-role=top-k],
// input[data-role=top-p] (with the view word "filters"), [data-action=sample],
// [data-head=N] (data-weights), [data-role=probs] > [data-token] (data-p; data-cut: the
// filter that cut the symbol),
// [data-matrix] (data-norm), [data-role=contributions], [data-role=model]. Events (bubbling):
// "gpt-explorer:forward" once the forward views are redrawn, "gpt-explorer:drawn" once all are.

import { el } from "../explorer/dom.js";
import { Heatmap, TextAlternative, legend, lossCurve, numberTable } from "./charts.js";
import { drawIndex, filterProbs, fmt, largestMagnitude, seededUniform, softmaxAt } from "./math.js";

export const VIEWS = ["embeddings", "attention", "residual", "probs", "backward", "training"];
const GROUPS = {
  all: VIEWS,
  forward: ["embeddings", "attention", "residual", "probs"],
};

const engines = new WeakMap();
const OWNER = { label: "the model explorer" }; // what a cell queued behind it says it waits for
/** One engine per Python client (web/client.js), shared by every explorer of every page:
 *  forward(prefix), backward(name, position) resolve with explorer.model's dicts (the worker
 *  loads the package) or reject with its message; onModel(listener) hears every snapshot a
 *  training cell shows; lastModel() is the latest one, or null (none yet, or Python restarted). */
export function engineFor(client) {
  const call = (name, args) =>
    client.call({ module: "explorer.model", name, args, timeLimit: 60, owner: OWNER });
  if (!engines.has(client)) {
    engines.set(client, {
      forward: (prefix) => call("forward_view", [prefix]),
      backward: (name, position) => call("backward_view", position === null ? [name] : [name, position]),
      onModel: (listener) => client.onModel(listener),
      lastModel: () => client.lastModel,
      boot: () => client.boot(),
    });
  }
  return engines.get(client);
}

/** Mount every explorer under `root` not mounted yet. */
export function mountModelExplorers(root, engine) {
  const boxes = [...root.querySelectorAll("[data-gpt-explorer]:not([data-mounted])")];
  return boxes.map((box) => new ModelExplorer(box, engine));
}

/** The views a block asks for: data-views="forward", "probs,attention", "all" (default). */
export function parseViews(text) {
  const wanted = new Set();
  for (const word of (text || "all").split(/[\s,]+/).filter(Boolean)) {
    for (const view of GROUPS[word] ?? [word]) if (VIEWS.includes(view)) wanted.add(view);
  }
  return VIEWS.filter((v) => wanted.has(v));
}

/** The words for the model in use, e.g. "your model, trained 120 steps in this tab". */
export function describeModel(model) {
  if (!model) return "";
  const steps = Number(model.steps).toLocaleString("en-US");
  if (model.source === "trained") return `your model, trained ${steps} steps in this tab`;
  let loss = "";
  if (model.loss !== null && model.loss !== undefined) {
    const names = model.held_out_names
      ? ` on ${model.held_out_names} held-out names it never trained on`
      : "";
    loss = `; loss ${model.loss.toFixed(4)}${names}`;
  }
  return `the checkpoint shipped with the course, a saved copy of trained weights (${steps} steps${loss})`;
}

/** Plural words: plural(4, "letter") is "4 letters". */
const plural = (n, word, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

let count = 0;

/** Runs one request at a time and keeps only the newest wish: a reply for an older prefix
 *  is dropped, never drawn over a newer one. */
class Latest {
  constructor(work) {
    this.work = work; // async (wish, isLatest) => void
    this.wish = undefined;
    this.serial = 0;
    this.busy = false;
  }

  request(wish) {
    this.wish = wish;
    this.serial += 1;
    if (!this.busy) this.pump();
  }

  async pump() {
    this.busy = true;
    while (this.wish !== undefined) {
      const wish = this.wish;
      const serial = this.serial;
      this.wish = undefined;
      await this.work(wish, () => serial === this.serial);
    }
    this.busy = false;
  }
}

export class ModelExplorer {
  constructor(root, engine) {
    this.root = root;
    this.engine = engine;
    this.n = ++count;
    root.dataset.mounted = "";
    this.views = parseViews(root.dataset.views);
    // "no-sampling": the bars without the temperature slider and Sample (before day 27).
    const words = (root.dataset.views ?? "").split(/[\s,]+/);
    this.sampling = !words.includes("no-sampling");
    // "filters": top-k and top-p controls beside the temperature (from day 40).
    this.filters = this.sampling && words.includes("filters");
    this.topK = null; // null: off, every symbol kept
    this.topP = null; // null: off (the slider at 1)
    this.prefix = (root.dataset.prefix ?? "emm").toLowerCase();
    this.name = null; // the backward view's name; null follows the prefix
    this.position = null; // the backward view's position; null = the name's last
    this.temperature = 1;
    this.forwardData = null;
    this.uniform = root.dataset.seed ? seededUniform(Number(root.dataset.seed)) : Math.random;
    this.timer = null;
    this.latest = new Latest((wish, isLatest) => this.compute(wish, isLatest));
    this.build();
    this.offModel = engine.onModel((data) => {
      if (!root.isConnected) {
        this.offModel?.(); // a page left by instant navigation
        return;
      }
      this.snapshot(data);
    });
    // A training cell that ran before this explorer was drawn (another page of this tab).
    const last = engine.lastModel?.();
    if (last && this.has("training")) this.drawTraining(last);
    this.refresh();
  }

  id(part) {
    return `gm${this.n}-${part}`;
  }

  has(view) {
    return this.views.includes(view);
  }

  forwardViews() {
    return ["embeddings", "attention", "residual", "probs"].some((v) => this.has(v));
  }

  // -- the page ---------------------------------------------------------------------------

  build() {
    const prefixId = this.id("prefix");
    this.input = el("input", {
      id: prefixId,
      type: "text",
      "data-role": "prefix",
      value: this.prefix,
      autocomplete: "off",
      autocapitalize: "none",
      spellcheck: "false",
      maxlength: "32",
      "aria-describedby": this.id("prefix-help"),
    });
    this.input.addEventListener("input", () => this.typed());
    this.modelLine = el("p", { class: "gm-model", "data-role": "model" });
    this.status = el("p", { class: "gm-status", role: "status", "aria-live": "polite" });
    this.status.textContent = "Starting Python, which computes the model's numbers…";
    const controls = el(
      "div",
      { class: "gm-controls" },
      el(
        "div",
        { class: "gm-field" },
        el("label", { for: prefixId, text: this.forwardViews() ? "Prefix" : "Prefix (also the name below)" }),
        this.input,
        el("span", {
          class: "gm-help",
          id: this.id("prefix-help"),
          text: "letters a-z; the model reads BOS, then these",
        }),
      ),
      this.modelLine,
      this.status,
    );
    const sections = [];
    if (this.has("embeddings")) sections.push(this.buildEmbeddings());
    if (this.has("attention")) sections.push(this.buildAttention());
    if (this.has("residual")) sections.push(this.buildResidual());
    if (this.has("probs")) sections.push(this.buildProbs());
    if (this.has("backward")) sections.push(this.buildBackward());
    if (this.has("training")) sections.push(this.buildTraining());
    for (const old of this.root.querySelectorAll(".gm-fallback")) old.hidden = true;
    this.root.append(controls, ...sections);
  }

  section(view, title, what, question) {
    const heading = this.id(`${view}-title`);
    const body = el("div", { class: "gm-body" });
    const node = el(
      "section",
      { class: "gm-view", "data-view": view, "aria-labelledby": heading },
      el("h3", { id: heading, text: title }),
      // `what` is one paragraph, or a list of them.
      ...[what]
        .flat()
        .map((text, i) =>
          el(
            "p",
            { class: "gm-what" },
            ...(i ? [] : [el("strong", { text: "What you are looking at. " })]),
            text,
          ),
        ),
      el("p", { class: "gm-question" }, el("strong", { text: "A question to answer with it. " }), question),
      body,
    );
    return { node, body };
  }

  buildEmbeddings() {
    const { node, body } = this.section(
      "embeddings",
      "Embeddings",
      "One row per position: BOS (shown as .) first, then the prefix's letters. On the left, " +
        "the token embedding (the row of wte for that position's symbol); on the right, the " +
        "position embedding (the row of wpe for the position's number). Each has one cell per " +
        "dimension of the embedding. The model adds the two vectors and divides the sum by its " +
        "root mean square (RMSNorm): that is where the residual stream starts. Orange cells " +
        "are above zero, blue cells below; the stronger the colour, the larger the size.",
      "Two positions that hold the same letter: are their token embeddings the same, and " +
        "what then tells the model they are at different places in the name?",
    );
    const describe = (kind) => (r, c, v) =>
      `${kind}, position ${r} (${this.symbolAt(r)}), dimension ${c}: ${fmt(v)}`;
    this.tokMap = new Heatmap({
      label: "Token embeddings, one row per position",
      describe: describe("token embedding"),
      diverging: true,
    });
    this.posMap = new Heatmap({
      label: "Position embeddings, one row per position",
      describe: describe("position embedding"),
      diverging: true,
    });
    this.embLegend = el("div");
    this.embTables = new TextAlternative();
    body.append(
      el(
        "div",
        { class: "gm-pair" },
        el("div", {}, el("h4", { text: "Token embedding (wte row)" }), this.tokMap.element),
        el("div", {}, el("h4", { text: "Position embedding (wpe row)" }), this.posMap.element),
      ),
      this.embLegend,
      this.embTables.element,
    );
    return node;
  }

  buildAttention() {
    const { node, body } = this.section(
      "attention",
      "Attention",
      "One map per head. Row t belongs to the query at position t; its cells are the " +
        "attention weights over positions 0 to t (the keys; position 0 is BOS, shown as .), " +
        "so the row is one softmax and adds up to 1. A weight says how much of that " +
        "position's value vector the head brings back to position t. Cells right of the " +
        "diagonal are missing: a position never looks at a later one. The stronger the " +
        "colour, the more weight. A large weight is not by itself a large effect: what " +
        "arrives also depends on the value vector and on wo, and attention is one of two " +
        "branches that add to the stream. The weights show where a head reads, not why the " +
        "model predicts what it does.",
      "Before you look at the last row: which position (itself included) will get each " +
        "head's largest weight, and will the heads agree?",
    );
    this.heads = el("div", { class: "gm-heads" });
    this.headMaps = [];
    this.attTables = new TextAlternative();
    body.append(this.heads, legend(1, false, "attention weight"), this.attTables.element);
    return node;
  }

  buildResidual() {
    const { node, body } = this.section(
      "residual",
      "Residual stream",
      "The residual stream is the vector each position carries up the model: the residual " +
        "road of day 24, to which each branch adds its output. One row per position, at " +
        "three points: after the embeddings (their sum, divided by its root mean square, " +
        "RMSNorm), after the attention branch is added to it, and after the MLP branch is " +
        "added. A branch adds and replaces nothing, so a cell that keeps its colour from one " +
        "map to the next is one the branch barely changed. The last map is what lm_head " +
        "turns into the logits.",
      "Predict, then compare the last row in the three maps: after which step, attention " +
        "or the MLP, do more cells change colour? Attention is the only step where a " +
        "position can take in earlier letters.",
    );
    this.residualMaps = el("div", { class: "gm-triple" });
    this.resLegend = el("div");
    this.resTables = new TextAlternative();
    this.resMaps = [];
    body.append(this.residualMaps, this.resLegend, this.resTables.element);
    return node;
  }

  buildProbs() {
    const { node, body } = this.section(
      "probs",
      "Next-symbol probabilities",
      this.sampling
        ? "What the model says comes after the prefix. The 27 logits of the last position are " +
            "divided by the temperature T, then softmax turns them into probabilities, shown " +
            "largest first. T = 1 is the model as trained; a T below 1 sharpens the bars, a T " +
            "above 1 flattens them (day 27). Sample draws one symbol with exactly the " +
            "probabilities shown and appends it; drawing BOS (shown as .), which also marks " +
            "the end of a name, ends the name instead." +
            (this.filters
              ? " Then the filters of day 40 cut the tail: top-k keeps the k most likely " +
                "symbols, top-p the fewest most likely symbols whose probabilities add up to " +
                "at least p (top-k first, top-p on what it left). The kept bars are divided " +
                "by their sum; the cut ones are at 0, marked cut, and Sample never draws them."
              : "")
        : "What the model says comes after the prefix: softmax turns the 27 logits of the " +
            "last position into probabilities, shown largest first. BOS (shown as .) also " +
            "marks the end of a name: its bar is the probability that the name ends here.",
      this.filters
        ? "Set top-p to 0.5 and predict: does it keep the same number of symbols after " +
            "every prefix? Then try it after a prefix where the model is sure and after one " +
            "where it is not."
        : this.sampling
          ? "Before you move the slider to its lowest value: how many symbols will keep a bar " + "above 1%?"
          : "Before you look: which symbol will the model make most likely after the prefix, " +
            "and will its bar be above 50%?",
    );
    const tId = this.id("temperature");
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
      this.drawProbs();
    });
    const filterFields = this.filters ? this.buildFilters() : [];
    this.sampleButton = el("button", {
      type: "button",
      class: "md-button gm-button",
      "data-action": "sample",
      text: "Sample the next symbol",
    });
    this.sampleButton.addEventListener("click", () => this.sample());
    this.sampleNote = el("p", { class: "gm-sample-note", role: "status", "aria-live": "polite" });
    this.probsCaption = el("p", { class: "gm-caption", id: this.id("probs-caption") });
    this.probs = el("ol", {
      class: "gm-probs",
      "data-role": "probs",
      "aria-labelledby": this.id("probs-caption"),
    });
    this.probsTable = new TextAlternative();
    body.append(
      ...(this.sampling
        ? [
            el(
              "div",
              { class: "gm-controls" },
              el(
                "div",
                { class: "gm-field" },
                el("label", { for: tId }, "Temperature T = ", this.tOut),
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

  /** The top-k and top-p sliders: k from 1 to every symbol (off), p from 0.05 to 1 (off). */
  buildFilters() {
    const kId = this.id("top-k");
    const pId = this.id("top-p");
    this.kOut = el("output", { for: kId, text: "all (off)" });
    this.kInput = el("input", {
      id: kId,
      type: "range",
      min: "1",
      max: "27",
      step: "1",
      value: "27",
      "data-role": "top-k",
      "aria-describedby": this.id("top-k-help"),
    });
    this.pOut = el("output", { for: pId, text: "1.00 (off)" });
    this.pInput = el("input", {
      id: pId,
      type: "range",
      min: "0.05",
      max: "1",
      step: "0.05",
      value: "1",
      "data-role": "top-p",
      "aria-describedby": this.id("top-p-help"),
    });
    const changed = () => {
      const symbols = this.forwardData?.symbols.length ?? 27;
      const k = Number(this.kInput.value);
      this.topK = k >= symbols ? null : k;
      this.kOut.textContent = this.topK === null ? "all (off)" : String(k);
      const p = Number(this.pInput.value);
      this.topP = p >= 1 ? null : p;
      this.pOut.textContent = this.topP === null ? "1.00 (off)" : p.toFixed(2);
      this.drawProbs();
    };
    this.kInput.addEventListener("input", changed);
    this.pInput.addEventListener("input", changed);
    return [
      el(
        "div",
        { class: "gm-field" },
        el("label", { for: kId }, "Top-k: keep k = ", this.kOut),
        this.kInput,
        el("span", {
          class: "gm-help",
          id: this.id("top-k-help"),
          text: "the k most likely symbols; the rightmost stop keeps them all",
        }),
      ),
      el(
        "div",
        { class: "gm-field" },
        el("label", { for: pId }, "Top-p: p = ", this.pOut),
        this.pInput,
        el("span", {
          class: "gm-help",
          id: this.id("top-p-help"),
          text: "the fewest most likely symbols holding at least p; 1 keeps them all",
        }),
      ),
    ];
  }

  /** What the filters are set to, in words ("" when both are off). */
  filterWords() {
    const parts = [];
    if (this.topK !== null) parts.push(`top-k ${this.topK}`);
    if (this.topP !== null) parts.push(`top-p ${this.topP.toFixed(2)}`);
    return parts.join(", then ");
  }

  buildBackward() {
    const { node, body } = this.section(
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
    const nameId = this.id("name");
    const posId = this.id("position");
    this.nameInput = el("input", {
      id: nameId,
      type: "text",
      "data-role": "name",
      autocomplete: "off",
      autocapitalize: "none",
      spellcheck: "false",
      maxlength: "32",
    });
    this.nameInput.value = this.prefix;
    this.nameInput.addEventListener("input", () => {
      this.name = this.nameInput.value.trim() ? this.nameInput.value : null;
      this.position = null;
      this.typed();
    });
    this.positionSelect = el("select", { id: posId, "data-role": "position" });
    this.positionSelect.addEventListener("change", () => {
      this.position = Number(this.positionSelect.value);
      this.refresh();
    });
    this.lossLine = el("p", { class: "gm-loss", "data-role": "loss" });
    this.matrices = el("div", { class: "gm-matrices" });
    this.matrixMaps = new Map();
    this.contribCaption = el("p", { class: "gm-caption", id: this.id("contrib-caption") });
    this.contributions = el("ol", {
      class: "gm-probs gm-contrib",
      "data-role": "contributions",
      "aria-labelledby": this.id("contrib-caption"),
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

  buildTraining() {
    const { node, body } = this.section(
      "training",
      "Training, live",
      "While a training cell of day 26 or day 30 runs in this tab, it sends a snapshot " +
        "every few steps: the training loss so far (one name per step, so it is noisy), three " +
        "names sampled from the model as it is at that step, and one head's attention " +
        "weights for a fixed name. When training ends, or you press the cell's Stop button, " +
        "the weights trained so far stay in this tab's Python, and the other views use them. " +
        "If Stop has to restart Python, your model is gone and the checkpoint is used again.",
      this.has("backward") && !this.forwardViews()
        ? "Predict first: the samples at step 25 and at step 50, which look more like names?"
        : "The loss falls fastest in the first steps: what do the samples look like then, and " +
            "what do they look like once the curve flattens?",
    );
    this.trainLine = el("p", { class: "gm-train-line", "data-role": "training-status" });
    this.trainLine.textContent =
      "No training snapshot has reached this view yet: run the training cell of day 26 or " +
      "day 30, and this view follows it. If you trained a model earlier in this tab, the " +
      "other views already use it (the line under the prefix says which model).";
    this.curveBox = el("div", { class: "gm-curve-box" });
    this.samples = el("ul", { class: "gm-samples", "data-role": "samples" });
    this.trainMap = new Heatmap({
      label: "Attention of one head during training",
      describe: (r, c, v) =>
        `query ${this.trainSymbols?.[r] ?? r} (position ${r}) looks at ${this.trainSymbols?.[c] ?? c} (position ${c}): ${fmt(v)}`,
    });
    this.trainHeading = el("h4", { text: "Attention of one head" });
    this.trainTables = new TextAlternative();
    this.trainMap.element.hidden = true;
    body.append(
      this.trainLine,
      el(
        "div",
        { class: "gm-pair" },
        el("div", {}, el("h4", { text: "Loss" }), this.curveBox, el("h4", { text: "Samples" }), this.samples),
        el("div", {}, this.trainHeading, this.trainMap.element),
      ),
      this.trainTables.element,
    );
    return node;
  }

  // -- asking Python ------------------------------------------------------------------------

  /** A keystroke asks at once: one request is in flight at a time, and letters typed while
   *  it runs are asked for together, as the newest prefix (Latest). */
  typed() {
    if (this.sampleNote) this.sampleNote.textContent = ""; // it spoke of the old prefix
    this.refresh();
  }

  refresh() {
    clearTimeout(this.waiting);
    // A running cell goes first in the worker's queue: say so if the answer takes a while.
    this.waiting = setTimeout(() => {
      if (this.root.dataset.state === "busy")
        this.status.textContent =
          "Waiting for Python: the views redraw as soon as it is free (a running cell goes first).";
    }, 1500);
    this.prefix = this.input.value;
    if (this.nameInput && this.name === null) this.nameInput.value = this.prefix;
    this.root.dataset.state = "busy";
    this.latest.request({ prefix: this.prefix, name: this.name ?? this.prefix, position: this.position });
  }

  async compute({ prefix, name, position }, isLatest) {
    const forwardViews = ["embeddings", "attention", "residual", "probs"].some((v) => this.has(v));
    // Both questions go to the worker at once: it computes the gradients while the page
    // draws the forward views.
    const forward = forwardViews || !this.has("backward") ? this.engine.forward(prefix) : null;
    const backward = this.has("backward") ? this.engine.backward(name, position) : null;
    backward?.catch(() => {}); // its failure is read below, after the forward views
    try {
      if (forward) {
        const data = await forward;
        if (!isLatest()) return;
        this.drawForward(data, prefix);
        this.root.dispatchEvent(
          new CustomEvent("gpt-explorer:forward", { bubbles: true, detail: { prefix } }),
        );
      }
      if (backward) {
        let data = null;
        try {
          data = await backward;
        } catch (err) {
          if (!isLatest()) return;
          if (err.restarted || err.interrupted) throw err;
          this.backwardError(name, err);
        }
        if (!isLatest()) return;
        if (data) this.drawBackward(data);
      }
      this.retried = false;
      this.root.dataset.state = "ready";
      this.root.dataset.shown = prefix;
      this.root.dispatchEvent(new CustomEvent("gpt-explorer:drawn", { bubbles: true, detail: { prefix } }));
    } catch (err) {
      if (!isLatest()) return;
      // Stop restarted Python under the call (its model is gone): ask the new one, once.
      if ((err.restarted || err.interrupted) && !this.retried) {
        this.retried = true;
        this.refresh();
        return;
      }
      this.root.dataset.state = "error";
      this.root.dataset.shown = prefix;
      this.status.textContent = messageOf(err);
      this.input.setAttribute("aria-invalid", "true");
    }
  }

  // -- forward ------------------------------------------------------------------------------

  symbolAt(position) {
    return this.forwardData?.tokens[position]?.symbol ?? String(position);
  }

  drawForward(data, prefix) {
    this.forwardData = data;
    this.input.removeAttribute("aria-invalid");
    const model = describeModel(data.model);
    this.modelLine.textContent = `Model in use: ${model}.`;
    const letters = data.tokens.length - 1; // what the model read, not what was typed
    this.status.textContent = `Showing "${data.prefix}": BOS and ${plural(letters, "letter")}, ${plural(data.tokens.length, "position")}.`;
    const rows = data.tokens.map((t, i) => `${i} ${t.symbol}`);
    if (this.has("embeddings")) this.drawEmbeddings(data, rows);
    if (this.has("attention")) this.drawAttention(data, rows);
    if (this.has("residual")) this.drawResidual(data, rows);
    if (this.has("probs")) {
      this.logits = data.positions[data.positions.length - 1].logits;
      this.drawProbs();
    }
  }

  drawEmbeddings(data, rows) {
    const tok = data.positions.map((p) => p.tok_emb);
    const pos = data.positions.map((p) => p.pos_emb);
    const top = largestMagnitude(tok, pos);
    const cols = tok[0].map((_, i) => String(i));
    this.tokMap.update(tok, { rowLabels: rows, colLabels: cols, top });
    this.posMap.update(pos, { rowLabels: rows, colLabels: cols, top });
    this.embLegend.replaceChildren(legend(top, true, "value of one embedding dimension"));
    this.embTables.set(() => [
      numberTable("Token embeddings (rows of wte)", rows, cols, tok, "position"),
      numberTable("Position embeddings (rows of wpe)", rows, cols, pos, "position"),
    ]);
  }

  drawAttention(data, rows) {
    const nHead = data.model.n_head;
    if (this.headMaps.length !== nHead) {
      this.headMaps = [];
      this.heads.replaceChildren();
      for (let h = 0; h < nHead; h++) {
        const map = new Heatmap({
          label: `Head ${h} attention: rows are query positions, columns key positions`,
          describe: (r, c, v) =>
            `head ${h}, query ${this.symbolAt(r)} (position ${r}) to key ${this.symbolAt(c)} (position ${c}): weight ${fmt(v)}`,
        });
        const box = el(
          "div",
          { class: "gm-head", "data-head": h },
          el("h4", { text: `Head ${h}` }),
          map.element,
        );
        this.heads.append(box);
        this.headMaps.push({ map, box });
      }
    }
    const weights = [];
    for (let h = 0; h < nHead; h++) {
      const w = data.positions.map((p) => p.heads[h]);
      weights.push(w);
      this.headMaps[h].box.dataset.weights = JSON.stringify(w);
      this.headMaps[h].map.update(w, { rowLabels: rows, colLabels: rows, top: 1 });
    }
    this.attTables.set(() =>
      weights.map((w, h) =>
        numberTable(`Head ${h}: row = query position, column = key position`, rows, rows, w, "query \\ key"),
      ),
    );
  }

  drawResidual(data, rows) {
    const stages = [["After the embeddings", data.positions.map((p) => p.residual.embed)]];
    const layers = data.positions[0].residual.layers.length;
    for (let l = 0; l < layers; l++) {
      const tag = layers > 1 ? ` (layer ${l})` : "";
      stages.push([`After attention${tag}`, data.positions.map((p) => p.residual.layers[l].after_attn)]);
      stages.push([`After the MLP${tag}`, data.positions.map((p) => p.residual.layers[l].after_mlp)]);
    }
    if (this.resMaps.length !== stages.length) {
      this.resMaps = stages.map(([title]) => {
        const map = new Heatmap({
          label: `Residual stream ${title.toLowerCase()}`,
          diverging: true,
          describe: (r, c, v) =>
            `${title.toLowerCase()}, position ${r} (${this.symbolAt(r)}), dimension ${c}: ${fmt(v)}`,
        });
        return map;
      });
      this.residualMaps.replaceChildren(
        ...stages.map(([title], i) => el("div", {}, el("h4", { text: title }), this.resMaps[i].element)),
      );
    }
    const top = largestMagnitude(...stages.map(([, v]) => v));
    const cols = stages[0][1][0].map((_, i) => String(i));
    stages.forEach(([, values], i) =>
      this.resMaps[i].update(values, { rowLabels: rows, colLabels: cols, top }),
    );
    this.resLegend.replaceChildren(legend(top, true, "value in the residual stream"));
    this.resTables.set(() =>
      stages.map(([title, values]) =>
        numberTable(`Residual stream ${title.toLowerCase()}`, rows, cols, values, "position"),
      ),
    );
  }

  /** The bars at the current temperature, from the last position's logits (no Python). */
  drawProbs() {
    const data = this.forwardData;
    if (!data || !this.logits) return;
    const atT = softmaxAt(this.logits, this.temperature);
    // Temperature first, then top-k, then top-p (engine.gpt.sampling_probs's order).
    const { probs: p, cut } = filterProbs(atT, this.topK, this.topP);
    this.shown = p;
    const order = p.map((_, i) => i).sort((a, b) => this.logits[b] - this.logits[a] || a - b);
    const last = data.tokens[data.tokens.length - 1].symbol;
    const filters = this.filterWords();
    const kept = p.filter((x) => x > 0).length;
    this.probsCaption.textContent = filters
      ? `After "${data.prefix}" (last symbol ${last}), at T = ${this.temperature.toFixed(1)}, then ${filters}: ${kept} of the ${p.length} symbols kept and renormalised, the others cut to 0 (marked "cut"); most likely first.`
      : `After "${data.prefix}" (last symbol ${last}), at T = ${this.temperature.toFixed(1)}: the 27 symbols, most likely first.`;
    const items = order.map((i) => {
      const symbol = data.symbols[i];
      const words = i === this.bosId() ? `${symbol} (end of name)` : symbol;
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
        attrs["aria-label"] =
          `${words}: cut by ${cut[i]}, 0% (${(atT[i] * 100).toFixed(1)}% before the filters)`;
        number = "cut";
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
    if (!room)
      this.sampleNote.textContent = `The model reads at most ${data.model.block_size} positions: this prefix is as long as it can be.`;
    this.probsTable.set(() => [
      this.filters
        ? numberTable(
            `Probabilities at T = ${this.temperature.toFixed(1)} before and after the filters (${filters || "both off"}), with the logits`,
            order.map((i) => data.symbols[i]),
            ["logit", "at T", "sampled from"],
            order.map((i) => [this.logits[i], atT[i], p[i]]),
            "symbol",
          )
        : numberTable(
            `Probabilities at T = ${this.temperature.toFixed(1)}, with the logits`,
            order.map((i) => data.symbols[i]),
            ["logit", "probability"],
            order.map((i) => [this.logits[i], p[i]]),
            "symbol",
          ),
    ]);
  }

  bosId() {
    return this.forwardData?.tokens[0]?.id ?? -1;
  }

  sample() {
    if (!this.shown || this.root.dataset.state !== "ready") return;
    const i = drawIndex(this.shown, this.uniform());
    const data = this.forwardData;
    const symbol = data.symbols[i];
    const p = this.shown[i];
    // The prefix the bars belong to, as the model read it (typed spaces and capitals gone).
    this.root.dataset.lastSample = JSON.stringify({ symbol, p, prefix: data.prefix });
    const pct = `${(p * 100).toFixed(1)}%`;
    if (i === this.bosId()) {
      this.sampleNote.textContent = `Drew ${symbol} (BOS), the end of a name (probability ${pct}): the name "${data.prefix}" is finished, nothing appended. Clear the Prefix box to start a new name.`;
      return;
    }
    this.input.value = data.prefix + symbol;
    this.refresh();
    this.sampleNote.textContent = `Drew ${symbol} (probability ${pct}) and appended it.`;
  }

  // -- backward -----------------------------------------------------------------------------

  backwardError(name, err) {
    this.lossLine.textContent = `No gradients for "${name}": ${messageOf(err)}`;
    this.matrices.replaceChildren();
    this.contributions.replaceChildren();
    this.contribCaption.textContent = "";
    this.matrixMaps.clear();
    this.gradTables.set(() => []);
  }

  drawBackward(data) {
    const symbols = data.tokens?.map((t) => t.symbol) ?? [];
    if (!this.forwardViews()) {
      // No forward view says which model this is: the backward view does.
      this.modelLine.textContent = `Model in use: ${describeModel(data.model)}.`;
      this.status.textContent = `Showing the gradients of "${data.name}".`;
      this.input.removeAttribute("aria-invalid");
    }
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

  // -- training -----------------------------------------------------------------------------

  snapshot(data) {
    if (this.has("training")) this.drawTraining(data);
    // The model changed: the other views ask again (their call waits for the training run).
    if (this.views.some((v) => v !== "training")) this.refresh();
  }

  drawTraining(data) {
    const losses = data.losses ?? [];
    const steps = data.steps ?? data.step;
    // Each point is the mean loss of a run of steps; loss_steps says the step each run ends at.
    const points = losses.map((l, i) => [data.loss_steps?.[i] ?? i + 1, l]);
    const last = points.length ? points[points.length - 1][1] : null;
    this.root.dataset.trainingStep = String(data.step);
    const loss = last === null ? "" : `, training loss ${fmt(last)} (one name per step, so noisy)`;
    this.trainLine.textContent = `Step ${data.step} of ${steps}${loss}.`;
    this.curveBox.replaceChildren(
      lossCurve(points, {
        steps,
        label: `Loss against step, ${points.length} points up to step ${data.step}`,
      }),
    );
    this.samples.replaceChildren(...(data.samples ?? []).map((s) => el("li", { text: s || "(empty name)" })));
    const att = data.attention;
    if (att?.weights?.length) {
      const letters = (att.tokens ?? [".", ...att.name.split("")]).slice(0, att.weights.length);
      this.trainSymbols = letters;
      this.trainHeading.textContent = `Head ${att.head}'s attention for "${att.name}"`;
      this.trainMap.element.hidden = false;
      this.trainMap.update(att.weights, {
        rowLabels: letters.map((s, i) => `${i} ${s}`),
        colLabels: letters,
        top: 1,
      });
    }
    this.trainTables.set(() => [
      numberTable(
        "Loss at each step shown",
        points.map(([s]) => String(s)),
        ["loss"],
        points.map(([, l]) => [l]),
        "step",
      ),
      ...(att?.weights?.length
        ? [
            numberTable(
              `Head ${att.head}'s attention for "${att.name}"`,
              this.trainSymbols,
              this.trainSymbols,
              att.weights,
              "query \\ key",
            ),
          ]
        : []),
    ]);
  }
}

/** Row names of a weight matrix: symbols for wte and lm_head, position numbers for wpe. */
function rowNames(name, rows, symbols) {
  if ((name === "wte" || name === "lm_head") && symbols?.length === rows) return symbols;
  if (name === "wpe") return Array.from({ length: rows }, (_, i) => String(i));
  return Array.from({ length: rows }, () => "");
}

/** The message of an error from Python: its last line, without the exception's type. */
function messageOf(err) {
  const text = String(err?.message ?? err ?? "something went wrong");
  return text.replace(/^[A-Za-z]*Error: /, "");
}
