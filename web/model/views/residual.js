// The residual stream view: the vector of each position after the embeddings, after
// attention and after the MLP of each layer.

import { el } from "../../explorer/dom.js";
import { Heatmap, TextAlternative, legend, numberTable } from "../charts.js";
import { fmt, largestMagnitude } from "../math.js";
import { t } from "../../i18n.js";

export class ResidualView {
  /** `x` is the model explorer (model-explorer.js) the view belongs to. */
  constructor(x) {
    this.x = x;
    this.node = this.build();
  }

  build() {
    const { node, body } = this.x.section(
      "residual",
      t("residual.title"),
      t("residual.what"),
      t("residual.question"),
    );
    this.residualMaps = el("div", { class: "gm-triple" });
    this.resLegend = el("div");
    this.resTables = new TextAlternative();
    this.resMaps = [];
    body.append(this.residualMaps, this.resLegend, this.resTables.element);
    return node;
  }

  draw(data, rows) {
    const stages = [[t("residual.afterEmbeddings"), data.positions.map((p) => p.residual.embed)]];
    const layers = data.positions[0].residual.layers.length;
    for (let l = 0; l < layers; l++) {
      const [attn, mlp] =
        layers > 1
          ? ["residual.afterAttnLayer", "residual.afterMlpLayer"]
          : ["residual.afterAttn", "residual.afterMlp"];
      stages.push([t(attn, { l }), data.positions.map((p) => p.residual.layers[l].after_attn)]);
      stages.push([t(mlp, { l }), data.positions.map((p) => p.residual.layers[l].after_mlp)]);
    }
    if (this.resMaps.length !== stages.length) {
      this.resMaps = stages.map(([title]) => {
        const map = new Heatmap({
          label: t("residual.mapLabel", { stage: title.toLowerCase() }),
          diverging: true,
          describe: (r, c, v) =>
            t("residual.cell", {
              stage: title.toLowerCase(),
              r,
              symbol: this.x.symbolAt(r),
              c,
              value: fmt(v),
            }),
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
    this.resLegend.replaceChildren(legend(top, true, t("residual.legend")));
    this.resTables.set(() =>
      stages.map(([title, values]) =>
        numberTable(
          t("residual.mapLabel", { stage: title.toLowerCase() }),
          rows,
          cols,
          values,
          t("embeddings.corner"),
        ),
      ),
    );
  }
}
