// The 2-D drawing of one step of the timeline: an SVG of the graph's cards and arrows,
// laid out by layout.js, with what the step has revealed (values, grads, the chain rule
// on each arrow that has sent its gradient back) and the pulses of the arrows it is on.

import { chainFormula, num, opName, opSymbol } from "./format.js";
import { t } from "../i18n.js";

const SVGNS = "http://www.w3.org/2000/svg";
const LABEL_CHARS = 17; // what fits on a card; longer labels get an ellipsis and a tooltip

function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function pathThrough(points) {
  let d = `M${points[0].x},${points[0].y}`;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1];
    const b = points[i];
    if (Math.abs(a.y - b.y) < 0.5) {
      d += ` L${b.x},${b.y}`;
    } else {
      const dx = (b.x - a.x) / 2;
      d += ` C${a.x + dx},${a.y} ${b.x - dx},${b.y} ${b.x},${b.y}`;
    }
  }
  return d;
}

/** The <defs> with the arrowhead marker every edge of one drawing ends with. */
function arrowDefs(id) {
  const marker = svg("marker", {
    id,
    viewBox: "0 0 10 10",
    refX: "9",
    refY: "5",
    markerWidth: "7",
    markerHeight: "7",
    orient: "auto-start-reverse",
  });
  marker.append(svg("path", { d: "M0,0 L10,5 L0,10 z", class: "gx-arrowhead" }));
  const defs = svg("defs");
  defs.append(marker);
  return defs;
}

/** A dot that runs along path `d`, forward or back, once its animation is begun. */
function pulseAlong(d, backward) {
  const pulse = svg("circle", { r: 5, class: "gx-pulse" });
  const motion = svg("animateMotion", {
    dur: "0.8s",
    begin: "indefinite",
    fill: "freeze",
    path: d,
    calcMode: "linear",
    keyPoints: backward ? "1;0" : "0;1",
    keyTimes: "0;1",
  });
  pulse.append(motion);
  return pulse;
}

/**
 * The SVG of `view` at timeline snapshot `snap`.
 * @param geometry  layout(view.nodes, view.edges)
 * @param options   {arrow: the arrowhead's id (unique on the page), expression,
 *                   locals: label unsent arrows with their local derivative,
 *                   backward: the pulses run back, animate: add them at all}
 */
export function drawGraph(view, snap, geometry, options) {
  const root = svg("svg", {
    class: "gx-svg",
    viewBox: `0 0 ${geometry.width} ${geometry.height}`,
    role: "img",
    "aria-label": t("explorer.graphAria", { expression: options.expression, count: view.nodes.length }),
  });
  root.append(arrowDefs(options.arrow));
  for (const group of view.groups) root.append(drawGroup(view, group, geometry));
  const byId = new Map(view.nodes.map((n) => [n.id, n]));
  for (const e of view.edges) root.append(drawEdge(e, byId.get(e.target), snap, geometry, options));
  for (const n of view.nodes) root.append(drawNode(n, snap, geometry));
  return root;
}

/** The outline of a derived operation around its primitives (expanded view). */
function drawGroup(view, group, g) {
  // Around the operations only: the -1 constant sits with the other leaves, far left.
  const ops = group.members.filter((m) => view.nodes.find((n) => n.id === m)?.kind === "operation");
  const boxes = ops.map((m) => g.nodes.get(m)).filter(Boolean);
  const x0 = Math.min(...boxes.map((b) => b.x)) - 10;
  const y0 = Math.min(...boxes.map((b) => b.y)) - 22;
  const x1 = Math.max(...boxes.map((b) => b.x + b.w)) + 10;
  const y1 = Math.max(...boxes.map((b) => b.y + b.h)) + 10;
  const hull = svg("g", { class: "gx-group", "data-group": group.id });
  hull.append(
    svg("rect", { x: x0, y: y0, width: x1 - x0, height: y1 - y0, rx: 10 }),
    svg(
      "text",
      { x: x0 + 8, y: y0 + 14 },
      t("explorer.derivedGroup", { label: group.label, op: group.op === "neg" ? "−x" : group.op }),
    ),
  );
  return hull;
}

/** One arrow, input to result: its label (local derivative or chain rule) and its pulse. */
function drawEdge(e, target, snap, geometry, { arrow, locals, animate, backward }) {
  const points = geometry.edges.get(e.id).points;
  const d = pathThrough(points);
  const sent = snap.sent.has(e.id);
  const active = snap.activeEdges.has(e.id);
  const group = svg("g", {
    class: `gx-edge${sent ? " gx-edge--sent" : ""}${active ? " gx-edge--active" : ""}`,
    "data-edge": e.id,
    "data-source": e.source,
    "data-target": e.target,
  });
  group.append(svg("path", { d, "marker-end": `url(#${arrow})` }));
  let label = "";
  if (sent) label = chainFormula(e, target.grad);
  else if (locals) label = t("explorer.local", { value: num(e.local_grad) });
  if (label) {
    const a = points[points.length - 2];
    const b = points[points.length - 1];
    const t = 0.5;
    const lx = a.x + (b.x - a.x) * t;
    const ly = a.y + (b.y - a.y) * t + (e.slot === 0 ? -7 : 15);
    const text = svg("text", { x: lx, y: ly, "text-anchor": "middle", class: "gx-edge-label" }, label);
    text.dataset.role = sent ? "chain" : "local";
    group.append(text);
  }
  if (active && animate) {
    group.append(pulseAlong(d, backward));
    group.dataset.pulse = "";
  }
  return group;
}

/** One card: label, operation, value and grad (each "--" until the pass reaches it). */
function drawNode(n, snap, geometry) {
  const box = geometry.nodes.get(n.id);
  const valued = snap.valued.has(n.id);
  const reached = snap.reached.has(n.id);
  const classes = ["gx-node", `gx-node--${n.kind}`];
  if (valued) classes.push("gx-node--valued");
  if (reached) classes.push("gx-node--reached");
  if (snap.activeNodes.has(n.id)) classes.push("gx-node--active");
  if (n.derived) classes.push("gx-node--derived");
  const node = svg("g", { class: classes.join(" "), transform: `translate(${box.x},${box.y})` });
  node.setAttribute("data-node", String(n.id));
  node.setAttribute("data-label", n.label);
  node.setAttribute("data-kind", n.kind);
  node.setAttribute("data-value", valued ? String(n.data) : "");
  node.setAttribute("data-grad", reached ? String(n.grad) : "");
  const title = t("explorer.nodeTitle", {
    label: n.label,
    op: opName(n),
    value: valued ? num(n.data) : t("explorer.notComputed"),
    grad: reached ? num(n.grad) : t("explorer.notReached"),
  });
  node.append(svg("title", {}, title));
  node.append(svg("rect", { width: box.w, height: box.h, rx: 8, class: "gx-card" }));
  const shortLabel = n.label.length > LABEL_CHARS ? `${n.label.slice(0, LABEL_CHARS - 1)}…` : n.label;
  node.append(svg("text", { x: 10, y: 19, class: "gx-label" }, shortLabel));
  node.append(svg("text", { x: box.w - 10, y: 19, "text-anchor": "end", class: "gx-op" }, opSymbol(n)));
  const tag = n.derived
    ? t("explorer.tag.derived")
    : n.op === "**"
      ? t("explorer.tag.exponent")
      : n.kind === "constant"
        ? t("explorer.tag.constant")
        : "";
  if (tag) node.append(svg("text", { x: box.w - 10, y: 34, "text-anchor": "end", class: "gx-tag" }, tag));
  node.append(
    svg(
      "text",
      { x: 10, y: 47, class: "gx-value" },
      t("explorer.value", { value: valued ? num(n.data) : "--" }),
    ),
  );
  node.append(
    svg(
      "text",
      { x: 10, y: 65, class: "gx-grad" },
      t("explorer.grad", { value: reached ? num(n.grad) : "--" }),
    ),
  );
  return node;
}
