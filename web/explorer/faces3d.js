// What the 3-D view's cards and arrow labels say at one step of the timeline: the words and
// numbers of the 2-D drawing, as plain data. Kept out of the 3-D chunk (scene3d.js), which
// only paints them, so that chunk shares no code with the page's bundle.

import { chainFormula, num, opSymbol } from "./format.js";
import { t } from "../i18n.js";

const LABEL_CHARS = 17; // as on the 2-D card

/** Everything one card shows at one step (also the key of its texture). */
export function cardFace(node, snap) {
  const valued = snap.valued.has(node.id);
  const reached = snap.reached.has(node.id);
  let tag = "";
  if (node.derived) tag = t("explorer.tag.derived");
  else if (node.op === "**") tag = t("explorer.tag.exponent");
  else if (node.kind === "constant") tag = t("explorer.tag.constant");
  const label = node.label.length > LABEL_CHARS ? `${node.label.slice(0, LABEL_CHARS - 1)}…` : node.label;
  return {
    label,
    op: opSymbol(node),
    tag,
    value: t("explorer.value", { value: valued ? num(node.data) : "--" }),
    grad: t("explorer.grad", { value: reached ? num(node.grad) : "--" }),
    kind: node.kind,
    derived: Boolean(node.derived),
    valued,
    reached,
    active: snap.activeNodes.has(node.id),
  };
}

/**
 * One arrow at one step: its label (the chain rule once the gradient has come back along
 * it, else its local derivative if those are shown) and whether it is sent or active.
 */
export function arrowFace(edge, target, snap, showLocals) {
  const sent = snap.sent.has(edge.id);
  let words = "";
  if (sent) words = chainFormula(edge, target.grad);
  else if (showLocals) words = t("explorer.local", { value: num(edge.local_grad) });
  return { words, sent, active: snap.activeEdges.has(edge.id) };
}

/** The faces of a whole view at one step: {cards: Map id→face, arrows: Map id→face}. */
export function faces(view, snap, showLocals) {
  const byId = new Map(view.nodes.map((n) => [n.id, n]));
  return {
    cards: new Map(view.nodes.map((n) => [n.id, cardFace(n, snap)])),
    arrows: new Map(view.edges.map((e) => [e.id, arrowFace(e, byId.get(e.target), snap, showLocals)])),
  };
}
