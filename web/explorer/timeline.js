// What the explorer shows at one point of its timeline. Pure: (view, mode, step) in,
// sets of revealed things out, so every control (play, step, scrub) shares one truth.
//
// Forward mode, step s: the leaves and the first s operations of `view.forward` have
// their values. Backward mode (values all known), step s: the first s entries of
// `view.backward` are reached: their gradient is complete, and each has sent its
// contribution down every input arrow (`sends`).

import { chainFormula, forwardFormula, num } from "./format.js";
import { t } from "../i18n.js";

export function stepCount(view, mode) {
  return mode === "forward" ? view.forward.length : view.backward.length;
}

/**
 * @param view  one view from explore(): {nodes, edges, forward, backward}
 * @param mode  "forward" | "backward"
 * @param step  0..stepCount
 * @param revealAll  the "final gradients" toggle: every gradient shown at once
 */
export function snapshot(view, mode, step, revealAll = false) {
  const byId = new Map(view.nodes.map((n) => [n.id, n]));
  const edgeById = new Map(view.edges.map((e) => [e.id, e]));
  const valued = new Set();
  const reached = new Set();
  const sent = new Set();
  const activeNodes = new Set();
  const activeEdges = new Set();
  let narration = "";

  if (mode === "forward") {
    for (const n of view.nodes) if (n.kind !== "operation") valued.add(n.id);
    for (let i = 0; i < step; i++) valued.add(view.forward[i]);
    if (step > 0) {
      const id = view.forward[step - 1];
      activeNodes.add(id);
      const ins = view.edges.filter((e) => e.target === id).sort((a, b) => a.slot - b.slot);
      for (const e of ins) activeEdges.add(e.id);
      const node = byId.get(id);
      narration = t("explorer.narrate.forwardStep", {
        step,
        count: view.forward.length,
        formula: `${node.label} = ${forwardFormula(
          node,
          ins.map((e) => byId.get(e.source)),
        )}`,
      });
    } else {
      narration = t("explorer.narrate.forward");
    }
  } else {
    for (const n of view.nodes) valued.add(n.id);
    for (let i = 0; i < step; i++) {
      const s = view.backward[i];
      reached.add(s.node);
      for (const e of s.sends) sent.add(e);
    }
    if (step > 0) {
      const s = view.backward[step - 1];
      const node = byId.get(s.node);
      activeNodes.add(s.node);
      for (const e of s.sends) activeEdges.add(e);
      narration = t("explorer.narrate.backwardStep", {
        step,
        count: view.backward.length,
        sentence: backwardSentence(view, node, step === 1, edgeById, byId),
      });
    } else {
      narration = t("explorer.narrate.backward");
    }
  }
  if (revealAll) {
    for (const n of view.nodes) reached.add(n.id);
    for (const e of view.edges) sent.add(e.id);
  }
  return { valued, reached, sent, activeNodes, activeEdges, narration };
}

function backwardSentence(view, node, isRoot, edgeById, byId) {
  if (isRoot) return t("explorer.narrate.root", { label: node.label });
  const incoming = view.edges.filter((e) => e.source === node.id);
  const parts = incoming.map((e) =>
    t("explorer.narrate.from", {
      formula: chainFormula(e, byId.get(e.target).grad),
      label: byId.get(e.target).label,
    }),
  );
  const key = incoming.length > 1 ? "explorer.narrate.sum" : "explorer.narrate.total";
  return t(key, { label: node.label, parts: parts.join(" + "), total: num(node.grad) });
}
