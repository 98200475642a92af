// The few numbers the page computes itself: softmax at a temperature (the slider
// reshapes the bars without asking Python) and one draw from the probabilities shown.

/** softmax(z / T): the probabilities the model gives at temperature T (T > 0). */
export function softmaxAt(logits, temperature) {
  const scaled = logits.map((z) => z / temperature);
  const top = Math.max(...scaled); // subtracting the largest keeps exp from overflowing
  const e = scaled.map((z) => Math.exp(z - top));
  const total = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / total);
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
