// A layered left-to-right layout of a computation graph (a small Sugiyama layout).
//
// Every operation sits one column right of its furthest input, so the root is alone in
// the last column. Leaves sit in the first column; in a deep graph (a long sum, say)
// each leaf sits just left of its first use instead, so the first column does not
// become a tall stack far from where its values are used. An edge that jumps over
// columns gets a dummy point per skipped column, which keeps it from crossing cards.
// Rows are ordered by barycentre sweeps (fewest crossings kept), then each column is
// pulled towards its neighbours and pushed apart where cards would overlap. A column
// is as wide as its longest label needs, so short labels make a narrow graph.

export const SIZES = {
  nodeWidth: 156, // the widest card: a label of `labelChars` characters
  minNodeWidth: 112, // room for "value −98.01" and "grad −1.2e−4"
  labelChars: 17, // longer labels are cut (explorer.js)
  charWidth: 7.8, // of the bold 13px monospace label
  cardPadding: 54, // left padding, the operation badge and right padding
  nodeHeight: 74,
  columnGap: 132, // room for an arrow's label "grad × local = contribution"
  rowGap: 34,
  dummyHeight: 14,
  margin: 16,
  portSpread: 22, // vertical distance between the two input ports of an operation
  deep: 5, // more columns than this: leaves move next to their first use
};

/** The width of a card for `label`, between the narrowest and the widest card. */
export function cardWidth(label, S = SIZES) {
  const chars = Math.min(label.length, S.labelChars);
  return Math.round(Math.min(S.nodeWidth, Math.max(S.minNodeWidth, S.cardPadding + chars * S.charWidth)));
}

/**
 * @param {{id:number, label:string}[]} nodes  in topological order (inputs before results)
 * @param {{id:number, source:number, target:number, slot:number}[]} edges
 * @returns {{width, height, nodes: Map<id,{x,y,w,h,column}>, edges: Map<edgeId,{points}>}}
 */
export function layout(nodes, edges, sizes = SIZES) {
  const S = { ...SIZES, ...sizes };
  const inputs = new Map(nodes.map((n) => [n.id, []]));
  for (const e of edges) inputs.get(e.target).push(e);

  // Columns: longest path from the leaves.
  const column = new Map();
  const moved = new Set();
  for (const n of nodes) {
    const ins = inputs.get(n.id);
    column.set(n.id, ins.length ? 1 + Math.max(...ins.map((e) => column.get(e.source))) : 0);
  }
  const columns = 1 + Math.max(0, ...column.values());
  if (columns > S.deep) {
    for (const e of edges) {
      if (inputs.get(e.source).length) continue;
      const next = column.get(e.target) - 1;
      const current = column.get(e.source);
      // The first use (smallest column) wins; a leaf not moved yet is at 0.
      if (!moved.has(e.source) || next < current) column.set(e.source, next);
      moved.add(e.source);
    }
  }

  // Items per column: real nodes and one dummy per skipped column of a long edge.
  const items = new Map(); // key -> {key, column, height, real, up: [{key, port}], down: [{key, port}]}
  const add = (key, col, height, real) => {
    const item = { key, column: col, height, real, up: [], down: [] };
    items.set(key, item);
    return item;
  };
  for (const n of nodes) add(`n${n.id}`, column.get(n.id), S.nodeHeight, true);
  const chains = new Map();
  const portsOf = (target) => inputs.get(target).length;
  for (const e of edges) {
    const from = column.get(e.source);
    const to = column.get(e.target);
    const chain = [`n${e.source}`];
    for (let c = from + 1; c < to; c++) chain.push(add(`d${e.id}:${c}`, c, S.dummyHeight, false).key);
    chain.push(`n${e.target}`);
    chains.set(e.id, chain);
    // Port offset (in rows) where the last link enters the target: slot 0 above slot 1.
    const port = portsOf(e.target) > 1 ? e.slot / (portsOf(e.target) - 1) - 0.5 : 0;
    for (let i = 0; i + 1 < chain.length; i++) {
      const last = i + 1 === chain.length - 1;
      items.get(chain[i]).up.push({ key: chain[i + 1], port: last ? port : 0 });
      items.get(chain[i + 1]).down.push({ key: chain[i], port: last ? port : 0 });
    }
  }

  const layers = Array.from({ length: columns }, () => []);
  for (const item of items.values()) layers[item.column].push(item);
  order(layers);
  const y = place(layers, S);

  const widths = Array(columns).fill(S.minNodeWidth);
  for (const n of nodes) {
    const c = column.get(n.id);
    widths[c] = Math.max(widths[c], cardWidth(n.label ?? "", S));
  }
  const lefts = [S.margin];
  for (let c = 1; c < columns; c++) lefts.push(lefts[c - 1] + widths[c - 1] + S.columnGap);
  const x = (col) => lefts[col];
  const result = { nodes: new Map(), edges: new Map(), columns };
  let bottom = 0;
  for (const item of items.values()) bottom = Math.max(bottom, y.get(item.key) + item.height);
  for (const n of nodes) {
    result.nodes.set(n.id, {
      x: x(column.get(n.id)),
      y: y.get(`n${n.id}`),
      w: widths[column.get(n.id)],
      h: S.nodeHeight,
      column: column.get(n.id),
    });
  }
  for (const e of edges) {
    const chain = chains.get(e.id);
    const source = result.nodes.get(e.source);
    const target = result.nodes.get(e.target);
    const points = [{ x: source.x + source.w, y: source.y + source.h / 2 }];
    for (const key of chain.slice(1, -1)) {
      const item = items.get(key);
      const cx = x(item.column);
      const cy = y.get(key) + item.height / 2;
      points.push({ x: cx, y: cy }, { x: cx + widths[item.column], y: cy });
    }
    const n = portsOf(e.target);
    const offset = n > 1 ? (e.slot / (n - 1) - 0.5) * S.portSpread : 0;
    points.push({ x: target.x, y: target.y + target.h / 2 + offset });
    result.edges.set(e.id, { points });
  }
  result.width = x(columns - 1) + widths[columns - 1] + S.margin;
  result.height = bottom + S.margin;
  return result;
}

/** Order each column by barycentre sweeps; keep the order with the fewest crossings. */
function order(layers) {
  const position = new Map();
  const index = () => layers.forEach((layer) => layer.forEach((item, i) => position.set(item.key, i)));
  index();
  const bary = (item, side) => {
    const links = item[side];
    if (!links.length) return null;
    let sum = 0;
    for (const l of links) sum += position.get(l.key) + (side === "up" ? l.port * 0.5 : 0);
    return sum / links.length;
  };
  const sortLayer = (layer, side) => {
    const keyed = layer.map((item, i) => ({ item, b: bary(item, side) ?? i }));
    keyed.sort((p, q) => p.b - q.b);
    layer.splice(0, layer.length, ...keyed.map((k) => k.item));
  };
  let best = layers.map((l) => [...l]);
  let fewest = crossings(layers, position);
  for (let sweep = 0; sweep < 8 && fewest > 0; sweep++) {
    if (sweep % 2 === 0) {
      // Right to left: place inputs in the order their results use them.
      for (let c = layers.length - 2; c >= 0; c--) {
        sortLayer(layers[c], "up");
        index();
      }
    } else {
      for (let c = 1; c < layers.length; c++) {
        sortLayer(layers[c], "down");
        index();
      }
    }
    const now = crossings(layers, position);
    if (now < fewest) {
      fewest = now;
      best = layers.map((l) => [...l]);
    }
  }
  best.forEach((l, c) => layers[c].splice(0, layers[c].length, ...l));
}

function crossings(layers, position) {
  let count = 0;
  for (let c = 0; c + 1 < layers.length; c++) {
    const links = [];
    for (const item of layers[c]) {
      for (const l of item.up) links.push([position.get(item.key), position.get(l.key) + l.port * 0.5]);
    }
    for (let i = 0; i < links.length; i++) {
      for (let j = i + 1; j < links.length; j++) {
        const [a1, b1] = links[i];
        const [a2, b2] = links[j];
        if ((a1 - a2) * (b1 - b2) < 0) count++;
      }
    }
  }
  return count;
}

/** Vertical positions: stack, then pull each column towards its neighbours' centres. */
function place(layers, S) {
  const y = new Map();
  const gap = (a, b) => (a.real && b.real ? S.rowGap : S.rowGap / 2);
  for (const layer of layers) {
    let top = 0;
    layer.forEach((item, i) => {
      if (i) top += gap(layer[i - 1], item);
      y.set(item.key, top);
      top += item.height;
    });
  }
  const centre = (item) => y.get(item.key) + item.height / 2;
  const isLeaf = (key) => {
    const item = layersItem(layers, key);
    return item.real && item.down.length === 0;
  };
  const portY = (link) => link.port * S.portSpread;
  const settle = (layer, want) => {
    // Keep the order; move each item as close to `want` as the items above allow,
    // then shift the column so its average error is zero.
    let floor = -Infinity;
    const tops = layer.map((item, i) => {
      const top = Math.max(want(item) - item.height / 2, floor);
      floor = top + item.height + (i + 1 < layer.length ? gap(item, layer[i + 1]) : 0);
      return top;
    });
    for (let i = layer.length - 2; i >= 0; i--) {
      // Pull back up where the push-down overshot, without overlapping below.
      const limit = tops[i + 1] - gap(layer[i], layer[i + 1]) - layer[i].height;
      tops[i] = Math.min(Math.max(tops[i], want(layer[i]) - layer[i].height / 2), limit);
    }
    layer.forEach((item, i) => y.set(item.key, tops[i]));
  };
  for (let round = 0; round < 6; round++) {
    const towards = (side) => (item) => {
      // An operation follows the operations it uses, not its leaves (which follow it), so
      // a long chain such as a sum of many terms stays level instead of sliding down.
      const all = item[side];
      const ops = side === "down" ? all.filter((l) => !isLeaf(l.key)) : all;
      const links = ops.length ? ops : all;
      if (!links.length) return centre(item);
      let sum = 0;
      for (const l of links) {
        const other = centre(layersItem(layers, l.key));
        sum += side === "up" ? other + portY(l) : other - portY(l);
      }
      return sum / links.length;
    };
    for (let c = layers.length - 2; c >= 0; c--) settle(layers[c], towards("up"));
    for (let c = 1; c < layers.length; c++) settle(layers[c], towards("down"));
  }
  // Shift everything so the topmost item starts at the margin.
  let top = Infinity;
  for (const [, v] of y) top = Math.min(top, v);
  for (const [k, v] of y) y.set(k, v - top + S.margin);
  return y;
}

const lookup = new WeakMap();
function layersItem(layers, key) {
  let map = lookup.get(layers);
  if (!map) {
    map = new Map();
    for (const layer of layers) for (const item of layer) map.set(item.key, item);
    lookup.set(layers, map);
  }
  return map.get(key);
}
