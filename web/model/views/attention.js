// The attention view: one map per head, row t the query at position t, its weights over the
// keys 0..t. Test hooks: [data-head=N] (data-weights).

import { el } from "../../explorer/dom.js";
import { Heatmap, TextAlternative, legend, numberTable } from "../charts.js";
import { fmt } from "../math.js";

export class AttentionView {
  /** `x` is the model explorer (model-explorer.js) the view belongs to. */
  constructor(x) {
    this.x = x;
    this.node = this.build();
  }

  build() {
    const { node, body } = this.x.section(
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

  draw(data, rows) {
    const nHead = data.model.n_head;
    if (this.headMaps.length !== nHead) {
      this.headMaps = [];
      this.heads.replaceChildren();
      for (let h = 0; h < nHead; h++) {
        const map = new Heatmap({
          label: `Head ${h} attention: rows are query positions, columns key positions`,
          describe: (r, c, v) =>
            `head ${h}, query ${this.x.symbolAt(r)} (position ${r}) to key ${this.x.symbolAt(c)} (position ${c}): weight ${fmt(v)}`,
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
      // A key's column is one cell wide: its position and its symbol, one over the other.
      const cols = data.tokens.map((t, i) => `${i}\n${t.symbol}`);
      this.headMaps[h].map.update(w, { rowLabels: rows, colLabels: cols, top: 1 });
    }
    this.attTables.set(() =>
      weights.map((w, h) =>
        numberTable(`Head ${h}: row = query position, column = key position`, rows, rows, w, "query \\ key"),
      ),
    );
  }
}
