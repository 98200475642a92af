// Saved work in localStorage, keyed by course / page / cell (or exercise file).
// Each saved edit carries the hash of the original it was made from, so a changed
// lesson is noticed and the learner can be offered the new version.

const COURSE = "derivative-to-gpt";
const VERSION = 1;

/** FNV-1a, 32 bits, as 8 hex digits: enough to notice that an original changed. */
export function hashText(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, "0");
}

function storage() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage disabled (private mode, sandboxed frame): saving is skipped
  }
}

export function cellKey(page, index) {
  return `${COURSE}/v${VERSION}/page/${page}/cell/${index}`;
}

export function exerciseKey(file) {
  return `${COURSE}/v${VERSION}/exercise/${file}`;
}

/** {code, base} or null. */
export function loadEdit(key) {
  const raw = storage()?.getItem(key);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw);
    return typeof value?.code === "string" ? value : null;
  } catch {
    return null;
  }
}

/** Save `code` as an edit of `original`; an edit equal to the original is dropped. */
export function saveEdit(key, code, original) {
  const store = storage();
  if (!store) return;
  try {
    if (code === original) store.removeItem(key);
    else store.setItem(key, JSON.stringify({ code, base: hashText(original), saved: Date.now() }));
  } catch {
    // Quota exceeded: the page keeps working, only this edit is not kept.
  }
}

export function forgetEdit(key) {
  storage()?.removeItem(key);
}

export function isDone(file) {
  return storage()?.getItem(`${exerciseKey(file)}/done`) === "1";
}

export function markDone(file, done) {
  const store = storage();
  if (!store) return;
  if (done) store.setItem(`${exerciseKey(file)}/done`, "1");
  else store.removeItem(`${exerciseKey(file)}/done`);
}
