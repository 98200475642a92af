// The embeddings view: one row per position, the token embedding (a row of wte) beside the
// position embedding (a row of wpe).

import { el } from "../../explorer/dom.js";
import { Heatmap, TextAlternative, legend, numberTable } from "../charts.js";
import { fmt, largestMagnitude } from "../math.js";

export class EmbeddingsView {
  /** `x` is the model explorer (model-explorer.js) the view belongs to. */
  constructor(x) {
    this.x = x;
    this.node = this.build();
  }

  build() {
    const { node, body } = this.x.section(
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
      `${kind}, position ${r} (${this.x.symbolAt(r)}), dimension ${c}: ${fmt(v)}`;
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

  draw(data, rows) {
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
}
