// The attention view: one map per head, row t the query at position t, its weights over the
// keys 0..t. Test hooks: [data-head=N] (data-weights).

import { el } from "../../explorer/dom.js";
import { Heatmap, TextAlternative, legend, numberTable } from "../charts.js";
import { fmt } from "../math.js";
import { t } from "../../i18n.js";

export class AttentionView {
  /** `x` is the model explorer (model-explorer.js) the view belongs to. */
  constructor(x) {
    this.x = x;
    this.node = this.build();
  }

  build() {
    const { node, body } = this.x.section(
      "attention",
      t("attention.title"),
      t("attention.what"),
      t("attention.question"),
    );
    this.heads = el("div", { class: "gm-heads" });
    this.headMaps = [];
    this.attTables = new TextAlternative();
    body.append(this.heads, legend(1, false, t("attention.weight")), this.attTables.element);
    return node;
  }

  draw(data, rows) {
    const nHead = data.model.n_head;
    if (this.headMaps.length !== nHead) {
      this.headMaps = [];
      this.heads.replaceChildren();
      for (let h = 0; h < nHead; h++) {
        const map = new Heatmap({
          label: t("attention.mapLabel", { h }),
          describe: (r, c, v) =>
            t("attention.cell", {
              h,
              query: this.x.symbolAt(r),
              r,
              key: this.x.symbolAt(c),
              c,
              weight: fmt(v),
            }),
        });
        const box = el(
          "div",
          { class: "gm-head", "data-head": h },
          el("h4", { text: t("attention.head", { h }) }),
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
      const cols = data.tokens.map((token, i) => `${i}\n${token.symbol}`);
      this.headMaps[h].map.update(w, { rowLabels: rows, colLabels: cols, top: 1 });
    }
    this.attTables.set(() =>
      weights.map((w, h) => numberTable(t("attention.table", { h }), rows, rows, w, t("attention.corner"))),
    );
  }
}
