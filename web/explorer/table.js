// The text alternative under the graph: a table of its nodes and one of its arrows, with
// the same numbers the drawing shows at this step of the timeline.

import { el } from "./dom.js";
import { chainFormula, num, opName } from "./format.js";
import { t } from "../i18n.js";

const head = (...names) =>
  el("thead", {}, el("tr", {}, ...names.map((h) => el("th", { scope: "col", text: h }))));

/** The two tables of `view` (of `expression`) at timeline snapshot `snap`. */
export function graphTables(view, snap, expression) {
  const byId = new Map(view.nodes.map((n) => [n.id, n]));
  const nodes = el(
    "table",
    {},
    el("caption", { text: t("explorer.nodesCaption", { expression }) }),
    head("Node", "Operation", "Value", "Grad"),
    el(
      "tbody",
      {},
      ...view.nodes.map((n) =>
        el(
          "tr",
          {},
          el("th", { scope: "row" }, el("code", { text: n.label })),
          el("td", { text: opName(n) }),
          el("td", { text: snap.valued.has(n.id) ? num(n.data) : "--" }),
          el("td", { text: snap.reached.has(n.id) ? num(n.grad) : "--" }),
        ),
      ),
    ),
  );
  const edges = el(
    "table",
    {},
    el("caption", {
      text: t("explorer.arrowsCaption"),
    }),
    head(
      t("explorer.col.input"),
      t("explorer.col.result"),
      t("explorer.col.local"),
      t("explorer.col.contribution"),
    ),
    el(
      "tbody",
      {},
      ...view.edges.map((e) =>
        el(
          "tr",
          {},
          el("td", {}, el("code", { text: byId.get(e.source).label })),
          el("td", {}, el("code", { text: byId.get(e.target).label })),
          el("td", { text: num(e.local_grad) }),
          el("td", { text: snap.sent.has(e.id) ? chainFormula(e, byId.get(e.target).grad) : "--" }),
        ),
      ),
    ),
  );
  return [nodes, edges];
}
