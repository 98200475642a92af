// A file of the learner's work, so thirty days of it can move to another browser or outlive
// this one's storage: "Export my work" writes every saved edit, answer, finished exercise (and the
// code that passed it), finished explorer task and the My engine switch to one JSON file; "Import my work" reads such a file whole, checks
// every item, plans a merge with what this browser holds, and writes it all or nothing. No DOM
// here: the course map's buttons are transferui.js. Items are read and written through
// storage.js.

import { COURSE, EXERCISE_FILE, VERSION, isMyEngineOn, savedWork, writeWork } from "./storage.js";
import { t } from "./i18n.js";

/** The marker of a work file; the course and the storage version are fields of their own. */
export const FORMAT = "course-work";
export const MAX_FILE_BYTES = 5 * 1024 * 1024;
const MB = 1024 * 1024;

const isText = (v) => typeof v === "string";
const isTime = (v) => v === undefined || (typeof v === "number" && Number.isFinite(v) && v >= 0);
const isPlain = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

/** {code, base, saved} as storage.js saves an edit (a cell's or an exercise file's). */
function readEdit(v) {
  if (!isPlain(v) || !isText(v.code)) return { problem: "transfer.problem.code" };
  if (v.base !== undefined && !isText(v.base)) return { problem: "transfer.problem.base" };
  if (!isTime(v.saved)) return { problem: "transfer.problem.saved" };
  return { value: { code: v.code, base: v.base, saved: v.saved } };
}

/** {state, answer, saved} as storage.js saves an answer to a check for understanding. */
function readAnswer(v) {
  if (!isPlain(v) || !["right", "wrong"].includes(v.state)) return { problem: "transfer.problem.state" };
  if (!Array.isArray(v.answer) || !v.answer.every(isText)) return { problem: "transfer.problem.answer" };
  if (!isTime(v.saved)) return { problem: "transfer.problem.saved" };
  return { value: { state: v.state, answer: v.answer, saved: v.saved } };
}

function readDone(v) {
  return v === "1" ? { value: "1" } : { problem: "transfer.problem.notOne" };
}

function readTask(v) {
  return v === "done" ? { value: "done" } : { problem: "transfer.problem.notDone" };
}

/** {code, saved}: the code of an exercise file that passed its checks (storage.js's savePassed). */
function readPassed(v) {
  if (!isPlain(v) || !isText(v.code)) return { problem: "transfer.problem.code" };
  if (!isTime(v.saved)) return { problem: "transfer.problem.saved" };
  return { value: { code: v.code, saved: v.saved } };
}

function readSetting(v) {
  return v === "on" ? { value: "on" } : { problem: "transfer.problem.notOn" };
}

// The kinds of item, by their key after the course's prefix (storage.js's cellKey and the rest).
// Marks (an exercise passed, a guided task done) are stored as plain text; the rest as JSON.
const KINDS = [
  { kind: "cell", what: "transfer.kind.cell", pattern: /^page\/(.+)\/cell\/(\d+)$/, read: readEdit },
  {
    kind: "answer",
    what: "transfer.kind.answer",
    pattern: /^page\/(.+)\/question\/([^/]+)$/,
    read: readAnswer,
  },
  { kind: "done", what: "transfer.kind.done", pattern: /^exercise\/([^/]+)\/done$/, read: readDone },
  { kind: "task", what: "transfer.kind.task", pattern: /^page\/(.+)\/task\/([^/]+)$/, read: readTask },
  { kind: "exercise", what: "transfer.kind.exercise", pattern: /^exercise\/([^/]+)$/, read: readEdit },
  {
    kind: "passed",
    what: "transfer.kind.passed",
    // Only an exercise file's name: "my engine" runs this code.
    pattern: new RegExp(`^exercise\\/(${EXERCISE_FILE})\\/passed$`),
    read: readPassed,
  },
  { kind: "setting", what: "transfer.kind.setting", pattern: /^setting\/(my-engine)$/, read: readSetting },
];

// A setting is on or absent, like a mark: importing turns it on, never off.
const isMark = (kind) => kind === "done" || kind === "task" || kind === "setting";

function kindOf(key) {
  for (const k of KINDS) {
    const m = k.pattern.exec(key);
    if (m) return { ...k, parts: m.slice(1) };
  }
  return null;
}

/** "Day 5" for "lessons/day05_add_mul", "Playground" for "playground". */
function pageName(page) {
  const day = /(?:^|\/)day(\d+)_/.exec(page);
  if (day) return t("transfer.day", { n: Number(day[1]) });
  if (page === "index") return t("transfer.home");
  return page.charAt(0).toUpperCase() + page.slice(1);
}

/** An item as a learner knows it: "Day 5, cell 2", "day05_add_mul.py", "Day 7, question x". */
export function describeItem(key) {
  const k = kindOf(key);
  if (!k) return key;
  const [a, b] = k.parts;
  if (k.kind === "cell") return t("transfer.item.cell", { page: pageName(a), n: Number(b) + 1 }); // from 1, as on the page
  if (k.kind === "answer") return t("transfer.item.answer", { page: pageName(a), id: b });
  if (k.kind === "done") return t("transfer.item.done", { file: a });
  if (k.kind === "task") return t("transfer.item.task", { page: pageName(a), id: b });
  if (k.kind === "passed") return t("transfer.item.passed", { file: a });
  if (k.kind === "setting") return t("transfer.item.setting");
  return a;
}

/** {key: value} of the items storage.js keeps ({key: stored text}) that the course can read. */
function readStored(stored) {
  const items = {};
  for (const [key, text] of Object.entries(stored)) {
    const k = kindOf(key);
    if (!k || text === null) continue;
    let raw;
    try {
      raw = isMark(k.kind) ? text : JSON.parse(text);
    } catch {
      continue; // unreadable here too (storage.js's loadEdit skips it): nothing to keep
    }
    const { value } = k.read(raw);
    if (value !== undefined) items[key] = value;
  }
  return items;
}

/** {edits, done, answers, tasks}: how many of each an item list holds. */
export function countItems(items) {
  const counts = { edits: 0, done: 0, answers: 0, tasks: 0 };
  for (const key of Object.keys(items)) {
    const kind = kindOf(key)?.kind;
    if (kind === "done") counts.done++;
    else if (kind === "task") counts.tasks++;
    else if (kind === "answer") counts.answers++;
    else if (kind === "cell" || kind === "exercise") counts.edits++;
  }
  return counts;
}

/** "12 edits, 4 exercises done, 30 answers" (and ", 2 tasks done" when there are any). */
export function describeCounts({ edits, done, answers, tasks = 0 }) {
  return [
    t("transfer.count.edits", { count: edits }),
    t("transfer.count.done", { count: done }),
    t("transfer.count.answers", { count: answers }),
    ...(tasks ? [t("transfer.count.tasks", { count: tasks })] : []),
  ].join(", ");
}

/** "derivative-to-gpt-work-2026-11-25.json", the day in the learner's own time zone. */
export function fileName(now) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${COURSE}-work-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.json`;
}

/** The file "Export my work" saves: {format, course, storageVersion, siteVersion, exported, items}.
 *  `siteVersion` is the course version the map page carries (hooks/course_map.py). */
export function exportWork({ siteVersion = "", now = new Date() } = {}) {
  const items = readStored(savedWork());
  return {
    format: FORMAT,
    course: COURSE,
    storageVersion: VERSION,
    siteVersion,
    exported: now.toISOString(),
    items,
  };
}

/** A message when a file of `bytes` is too large to be read at all; null when it may be read. */
export function checkFileSize(bytes) {
  if (bytes <= MAX_FILE_BYTES) return null;
  const size = (bytes / MB).toFixed(1);
  return t("transfer.error.tooLarge", { size, max: MAX_FILE_BYTES / MB });
}

/** A file's text read whole and checked: {work: {items, siteVersion, exported}} or {error}. */
export function readWorkFile(text) {
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    return { error: t("transfer.error.notJson") };
  }
  if (!isPlain(data) || data.format !== FORMAT) {
    return { error: t("transfer.error.notExported") };
  }
  if (data.course !== COURSE) {
    const other = String(data.course ?? "unnamed").slice(0, 80);
    return { error: t("transfer.error.otherCourse", { other }) };
  }
  const version = data.storageVersion;
  if (!Number.isInteger(version) || version < 1) {
    return { error: t("transfer.error.noVersion") };
  }
  if (version > VERSION) {
    return { error: t("transfer.error.newer", { version, current: VERSION }) };
  }
  if (!isPlain(data.items)) {
    return { error: t("transfer.error.noItems") };
  }
  const items = {};
  for (const [key, raw] of Object.entries(data.items)) {
    const k = kindOf(key);
    const name = key.length > 80 ? `${key.slice(0, 80)}…` : key;
    if (!k) {
      return { error: t("transfer.error.unknownItem", { name }) };
    }
    const { value, problem } = k.read(raw);
    if (problem) {
      return { error: t("transfer.error.unreadableItem", { name, what: t(k.what), problem: t(problem) }) };
    }
    items[key] = value;
  }
  return {
    work: {
      items,
      siteVersion: isText(data.siteVersion) ? data.siteVersion : "",
      exported: isText(data.exported) ? data.exported : "",
    },
  };
}

const savedAt = (v) => v?.saved ?? 0;

function same(kind, a, b) {
  if (isMark(kind)) return true; // both say done
  if (kind === "answer") return a.state === b.state && JSON.stringify(a.answer) === JSON.stringify(b.answer);
  return a.code === b.code && (a.base ?? "") === (b.base ?? "");
}

/** What importing `fileItems` over `localItems` would do, item by item (keys sorted):
 *  {add, replace, newerHere, same}. Where both hold a different item, the newer `saved` time
 *  wins (`replace`: the file's; `newerHere`: this browser's); on a tie, the file's, as its
 *  import was asked for. A mark (a pass, a finished task) is only ever added: importing never undoes one. */
export function planMerge(fileItems, localItems) {
  const plan = { add: [], replace: [], newerHere: [], same: [] };
  for (const key of Object.keys(fileItems).sort()) {
    const mine = localItems[key];
    const theirs = fileItems[key];
    if (mine === undefined) plan.add.push(key);
    else if (same(kindOf(key).kind, theirs, mine)) plan.same.push(key);
    else if (savedAt(theirs) >= savedAt(mine)) plan.replace.push(key);
    else plan.newerHere.push(key);
  }
  return plan;
}

/** What an import of `plan` would change of "my engine", in one line, or null. Code kept as
 *  passed runs unseen on every lesson page from day 6 while the switch is on, so the preview
 *  names it and the switch rather than only counting them among the new items. `on`: whether
 *  the switch is on in this browser. */
export function describeEngineChanges(plan, on = isMyEngineOn()) {
  const keys = [...plan.add, ...plan.replace];
  const files = keys
    .map(kindOf)
    .filter((k) => k?.kind === "passed")
    .map((k) => k.parts[0]);
  const turnsOn = !on && plan.add.includes("setting/my-engine");
  if (!files.length && !turnsOn) return null;
  const listed = files.slice(0, 5).join(", ");
  const code =
    files.length > 5
      ? t("transfer.engine.codeMore", { files: listed, more: files.length - 5 })
      : t("transfer.engine.code", { files: listed });
  if (!on && !turnsOn) return t("transfer.engine.brings", { code });
  const what = files.length ? code : t("transfer.engine.yourCode");
  return t(turnsOn ? "transfer.engine.turnsOn" : "transfer.engine.isOn", { what });
}

/** The plan of importing `work` (readWorkFile's) into this browser, as planMerge says. */
export function planImport(work) {
  return { ...planMerge(work.items, readStored(savedWork())), items: work.items };
}

/** The keys a plan writes: new items and the file's newer ones, and with `keepNewer` false
 *  also those where this browser's are newer. */
export function keysToWrite(plan, { keepNewer = true } = {}) {
  return [...plan.add, ...plan.replace, ...(keepNewer ? [] : plan.newerHere)];
}

/** Write the planned items all or nothing: {written: n} or {error} (and then nothing changed). */
export function applyImport(plan, options) {
  const keys = keysToWrite(plan, options);
  const entries = keys.map((key) => {
    const value = plan.items[key];
    return [key, typeof value === "string" ? value : JSON.stringify(value)];
  });
  const refused = writeWork(entries);
  if (!refused) return { written: keys.length };
  return { error: t(refused === "full" ? "transfer.error.full" : "transfer.error.refused") };
}
