// Saved work in localStorage, keyed by course / page / cell (or exercise file).
// Each saved edit carries the hash of the original it was made from, so a changed
// lesson is noticed and the learner can be offered the new version.
//
// Edits are saved a moment after the last keystroke (saveSoon), at once on Run and
// Check (saveNow), and every pending save is written when the page is hidden or left
// (pagehide, visibilitychange) and on Material's instant navigation (flushSaves).
// When storage is full or disabled, the edit is kept in memory for this tab and the
// page is told once (onStorageProblem), so the learner knows their work is not kept.

export const COURSE = "derivative-to-gpt";
/** The version of the keys and values below; a file of exported work carries it. */
export const VERSION = 1;
// Every item of the learner's work has a key under this prefix (the probe's does not).
const WORK_PREFIX = `${COURSE}/v${VERSION}/`;
// Outside the work's prefix: never exported, never sent to the server.
const OWNER_KEY = `${COURSE}/server-account`;
const SAVE_DELAY_MS = 300;

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

// What could not be written, kept for the life of this tab (instant navigation included).
const memory = new Map();
const problemListeners = new Set();
let problem = null;

/** Called with a reason once storage fails (at once if it already has); returns an unsubscribe. */
export function onStorageProblem(listener) {
  problemListeners.add(listener);
  if (problem) listener(problem);
  return () => problemListeners.delete(listener);
}

const changeListeners = new Set();

/** Called (with no argument) after any item of the learner's work was written or removed, in
 *  this tab; returns an unsubscribe. The course server's progress sync (sync.js) listens. */
export function onWorkChanged(listener) {
  changeListeners.add(listener);
  return () => changeListeners.delete(listener);
}

function changed(key) {
  if (!key.startsWith(WORK_PREFIX)) return;
  for (const listener of changeListeners) listener();
}

function failed(reason) {
  const first = problem === null;
  problem ??= reason;
  if (first) for (const listener of problemListeners) listener(problem);
}

function read(key) {
  if (memory.has(key)) return memory.get(key);
  try {
    return storage()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** Write (or, with value null, remove) one item; false when storage refused it. */
function write(key, value) {
  const store = storage();
  try {
    if (!store) throw new Error("storage is disabled");
    if (value === null) store.removeItem(key);
    else store.setItem(key, value);
    memory.delete(key);
    changed(key);
    return true;
  } catch (err) {
    memory.set(key, value); // null: removed, for this tab at least
    failed(err?.name === "QuotaExceededError" ? "full" : "disabled");
    return false;
  }
}

/** Find out at once whether this browser keeps anything (a disabled storage is told on load). */
export function probeStorage() {
  const key = `${COURSE}/probe`;
  if (write(key, "1")) write(key, null);
  else memory.delete(key);
}

export function cellKey(page, index) {
  return `${WORK_PREFIX}page/${page}/cell/${index}`;
}

export function exerciseKey(file) {
  return `${WORK_PREFIX}exercise/${file}`;
}

/** A check for understanding: `page` as in cellKey, `id` the question's own (never renamed). */
export function questionKey(page, id) {
  return `${WORK_PREFIX}page/${page}/question/${id}`;
}

/** A guided task of a page (the explorer's): `id` the task's own, as in data-task. */
export function taskKey(page, id) {
  return `${COURSE}/v${VERSION}/page/${page}/task/${id}`;
}

export function isTaskDone(key) {
  return read(key) === "done";
}

export function markTaskDone(key) {
  write(key, "done");
}

/** {state: "right" | "wrong", answer: [what the learner typed or chose]} or null. */
export function loadAnswer(key) {
  try {
    const value = JSON.parse(read(key) ?? "null");
    return ["right", "wrong"].includes(value?.state) && Array.isArray(value.answer) ? value : null;
  } catch {
    return null;
  }
}

export function saveAnswer(key, state, answer) {
  write(key, JSON.stringify({ state, answer, saved: Date.now() }));
}

/** {code, base} or null. */
export function loadEdit(key) {
  const raw = read(key);
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
  cancelSave(key);
  if (code === original) write(key, null);
  else write(key, JSON.stringify({ code, base: hashText(original), saved: Date.now() }));
}

// key -> {code, original, timer}: edits waiting for a pause in typing.
const pending = new Map();

/** Save a moment after the last keystroke (each call restarts the wait). */
export function saveSoon(key, code, original) {
  clearTimeout(pending.get(key)?.timer);
  const timer = setTimeout(() => saveNow(key), SAVE_DELAY_MS);
  pending.set(key, { code, original, timer });
}

/** Write the pending edit of `key` now, if there is one. */
export function saveNow(key) {
  const edit = pending.get(key);
  if (edit) saveEdit(key, edit.code, edit.original);
}

/** Drop the pending edit of `key` (Reset puts back the original). */
export function cancelSave(key) {
  clearTimeout(pending.get(key)?.timer);
  pending.delete(key);
}

/** Write every pending edit now. */
export function flushSaves() {
  for (const key of [...pending.keys()]) saveNow(key);
}

// The page is being left, reloaded, or hidden (a tab switch, a phone's home button,
// which may be the last chance before the browser discards the tab).
globalThis.addEventListener?.("pagehide", flushSaves);
globalThis.document?.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "hidden") flushSaves();
});

/** Remove every item of the learner's work from this browser (pending edits too): for a
 *  learner taking over a shared browser from another account (sync.js). */
export function clearWork() {
  for (const key of [...pending.keys()]) cancelSave(key);
  for (const key of [...memory.keys()]) if (key.startsWith(WORK_PREFIX)) memory.delete(key);
  const store = storage();
  try {
    const keys = [];
    for (let i = 0; i < (store?.length ?? 0); i++) {
      const key = store.key(i);
      if (key?.startsWith(WORK_PREFIX)) keys.push(key);
    }
    for (const key of keys) store.removeItem(key);
  } catch {
    // storage disabled: nothing was kept there
  }
}

/** Which course-server account this browser's work was last synced with (or null). */
export function workOwner() {
  return read(OWNER_KEY);
}

export function setWorkOwner(owner) {
  write(OWNER_KEY, owner);
}

export function forgetEdit(key) {
  cancelSave(key);
  write(key, null);
}

export function isDone(file) {
  return read(`${exerciseKey(file)}/done`) === "1";
}

export function markDone(file) {
  write(`${exerciseKey(file)}/done`, "1");
}

/** An exercise file's name ("day08_more_ops.py"), as a pattern's source: code kept as passed
 *  under any other name (an imported or synced item) is never read, exported or run. */
export const EXERCISE_FILE = "day\\d{2}_[a-z0-9_]{1,40}\\.py";
const PASSED_ITEM = new RegExp(`^exercise\\/(${EXERCISE_FILE})\\/passed$`);

/** Where the code of `file` that last passed its checks is kept: apart from the learner's edit
 *  (exerciseKey), so neither ever changes the other. */
export function passedKey(file) {
  return `${exerciseKey(file)}/passed`;
}

/** Keep `code` as the code of `file` that passed its checks ("my engine" runs it). */
export function savePassed(file, code) {
  write(passedKey(file), JSON.stringify({ code, saved: Date.now() }));
  globalThis.document?.dispatchEvent(new CustomEvent(PASSED_EVENT, { detail: { file } }));
}

/** The event on `document` when an exercise's passing code is saved (myengine.js listens). */
export const PASSED_EVENT = "course-exercise-passed";

/** The code of `file` that last passed its checks, or null. */
export function loadPassed(file) {
  return loadEdit(passedKey(file))?.code ?? null;
}

/** {exercise file: code that passed its checks} of every exercise passed in this browser. */
export function passedSources() {
  const sources = {};
  for (const key of Object.keys(savedWork())) {
    const file = PASSED_ITEM.exec(key)?.[1];
    if (!file) continue;
    const code = loadPassed(file);
    if (code !== null) sources[file] = code;
  }
  return sources;
}

// The learner's "my engine" switch (web/myengine.js): "on", or no item when off.
const MY_ENGINE_KEY = `${WORK_PREFIX}setting/my-engine`;

export function isMyEngineOn() {
  return read(MY_ENGINE_KEY) === "on";
}

export function setMyEngineOn(on) {
  write(MY_ENGINE_KEY, on ? "on" : null);
}

/** Every item of the learner's work, {key after the course's prefix: stored text}: what this
 *  browser keeps, and what only this tab holds because storage refused it (so an export saves
 *  it too). Pending edits are written first. */
export function savedWork() {
  flushSaves();
  const items = {};
  try {
    const store = storage();
    for (let i = 0; i < (store?.length ?? 0); i++) {
      const key = store.key(i);
      if (key?.startsWith(WORK_PREFIX)) items[key.slice(WORK_PREFIX.length)] = store.getItem(key);
    }
  } catch {
    // storage disabled: what this tab holds is all there is
  }
  for (const [key, value] of memory) {
    if (!key.startsWith(WORK_PREFIX)) continue;
    if (value === null) delete items[key.slice(WORK_PREFIX.length)];
    else items[key.slice(WORK_PREFIX.length)] = value;
  }
  return items;
}

/** Write every [key after the prefix, text] of `entries`, or none: when storage refuses one,
 *  what was already written is put back as it was. Returns null, or why ("full", "disabled"). */
export function writeWork(entries) {
  const store = storage();
  if (!store) return "disabled";
  const before = [];
  try {
    for (const [key, value] of entries) {
      before.push([WORK_PREFIX + key, store.getItem(WORK_PREFIX + key)]);
      store.setItem(WORK_PREFIX + key, value);
    }
  } catch (err) {
    for (const [key, value] of before.reverse()) {
      try {
        if (value === null) store.removeItem(key);
        else store.setItem(key, value); // it fitted before, and the newer items are gone again
      } catch {
        // nothing more can be done: the browser refuses even what it held
      }
    }
    return err?.name === "QuotaExceededError" ? "full" : "disabled";
  }
  for (const [key] of entries) memory.delete(WORK_PREFIX + key); // storage holds it now
  if (entries.length) changed(WORK_PREFIX);
  return null;
}
