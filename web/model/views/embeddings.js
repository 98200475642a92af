// The embeddings view: one row per position, the token embedding (a row of wte) beside the
// position embedding (a row of wpe).

import { el } from "../../explorer/dom.js";
import { Heatmap, TextAlternative, legend, numberTable } from "../charts.js";
import { fmt, largestMagnitude } from "../math.js";
import { t } from "../../i18n.js";

export class EmbeddingsView {
  /** `x` is the model explorer (model-explorer.js) the view belongs to. */
  constructor(x) {
    this.x = x;
    this.node = this.build();
  }

  build() {
    const { node, body } = this.x.section(
      "embeddings",
      t("embeddings.title"),
      t("embeddings.what"),
      t("embeddings.question"),
    );
    const describe = (kind) => (r, c, v) => t(kind, { r, symbol: this.x.symbolAt(r), c, value: fmt(v) });
    this.tokMap = new Heatmap({
      label: t("embeddings.tokLabel"),
      describe: describe("embeddings.tokCell"),
      diverging: true,
    });
    this.posMap = new Heatmap({
      label: t("embeddings.posLabel"),
      describe: describe("embeddings.posCell"),
      diverging: true,
    });
    this.embLegend = el("div");
    this.embTables = new TextAlternative();
    body.append(
      el(
        "div",
        { class: "gm-pair" },
        el("div", {}, el("h4", { text: t("embeddings.tokHeading") }), this.tokMap.element),
        el("div", {}, el("h4", { text: t("embeddings.posHeading") }), this.posMap.element),
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
    this.embLegend.replaceChildren(legend(top, true, t("embeddings.legend")));
    this.embTables.set(() => [
      numberTable(t("embeddings.tokTable"), rows, cols, tok, t("embeddings.corner")),
      numberTable(t("embeddings.posTable"), rows, cols, pos, t("embeddings.corner")),
    ]);
  }
}
