// The residual stream view: the vector of each position after the embeddings, after
// attention and after the MLP of each layer.

import { el } from "../../explorer/dom.js";
import { Heatmap, TextAlternative, legend, numberTable } from "../charts.js";
import { fmt, largestMagnitude } from "../math.js";

export class ResidualView {
  /** `x` is the model explorer (model-explorer.js) the view belongs to. */
  constructor(x) {
    this.x = x;
    this.node = this.build();
  }

  build() {
    const { node, body } = this.x.section(
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

  draw(data, rows) {
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
            `${title.toLowerCase()}, position ${r} (${this.x.symbolAt(r)}), dimension ${c}: ${fmt(v)}`,
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
}
