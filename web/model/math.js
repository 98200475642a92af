// The few numbers the page computes itself: softmax at a temperature (the slider
// reshapes the bars without asking Python), the top-k and top-p filters (the same rules as
// engine.gpt.filter_probs) and one draw from the probabilities shown.

/** softmax(z / T): the probabilities the model gives at temperature T (T > 0). */
export function softmaxAt(logits, temperature) {
  const scaled = logits.map((z) => z / temperature);
  const top = Math.max(...scaled); // subtracting the largest keeps exp from overflowing
  const e = scaled.map((z) => Math.exp(z - top));
  const total = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / total);
}

/** The ranking the filters walk: largest probability first, equal ones by index. */
function ranking(probs) {
  return probs.map((_, i) => i).sort((a, b) => probs[b] - probs[a] || a - b);
}

/** probs with every index outside `kept` at 0 and the rest divided by their sum. */
function keep(probs, kept) {
  let total = 0;
  for (const i of kept) total += probs[i];
  const out = probs.map(() => 0);
  for (const i of kept) out[i] = probs[i] / total;
  return out;
}

/** Top-k, then top-p, as engine.gpt.filter_probs: k (null: off) keeps the first k of the
 *  ranking; p (null: off) then keeps, of what is left renormalised, each token while the
 *  tokens ranked before it add up to less than p, so the token that crosses p is kept;
 *  p = 1 is off too, as in the engine (a running total can reach 1 a hair early).
 *  Returns { probs, cut }: the renormalised list and, per index, null (kept), "top-k" or
 *  "top-p" (the filter that cut it). With both off, probs come back as they are. */
export function filterProbs(probs, k = null, p = null) {
  const cut = probs.map(() => null);
  if (k === null && p === null) return { probs: probs.slice(), cut };
  const order = ranking(probs);
  let q = probs.slice();
  if (k !== null) {
    const kept = order.slice(0, k);
    for (const i of order.slice(k)) cut[i] = "top-k";
    q = keep(q, kept);
  }
  if (p !== null && p < 1) {
    const head = [];
    let before = 0;
    for (const i of order) {
      if (before >= p) {
        if (cut[i] === null) cut[i] = "top-p";
        continue;
      }
      head.push(i);
      before += q[i];
    }
    q = keep(q, head);
  }
  return { probs: q, cut };
}

/** The index a uniform number u in [0, 1) lands on when the probabilities are laid end to
 *  end on [0, 1): a weighted wheel. Never an index whose probability is 0. */
export function drawIndex(probs, u) {
  let edge = 0;
  let last = -1;
  for (let i = 0; i < probs.length; i++) {
    if (probs[i] <= 0) continue;
    edge += probs[i];
    last = i;
    if (u < edge) return i;
  }
  return last; // rounding left the sum a hair under 1 and u fell in the gap
}

/** Uniform numbers in [0, 1) from a seed (mulberry32), so a test can replay a draw. */
export function seededUniform(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The largest |x| in a list of lists (0 for none): one scale for a group of strips. */
export function largestMagnitude(...lists) {
  let top = 0;
  for (const list of lists) for (const x of list.flat(Infinity)) top = Math.max(top, Math.abs(x));
  return top;
}

/** A number as the page prints it: 3 significant digits, plain for ordinary sizes. */
export function fmt(x) {
  if (x === 0) return "0";
  const a = Math.abs(x);
  if (a >= 1e-3 && a < 1e4) return Number(x.toPrecision(3)).toString();
  return x.toExponential(2);
}
