// A file of the learner's work, so thirty days of it can move to another browser or outlive
// this one's storage: "Export my work" writes every saved edit, answer, finished exercise (and the
// code that passed it), finished explorer task and the My engine switch to one JSON file; "Import my work" reads such a file whole, checks
// every item, plans a merge with what this browser holds, and writes it all or nothing. No DOM
// here: the course map's buttons are transferui.js. Items are read and written through
// storage.js.

import { COURSE, EXERCISE_FILE, VERSION, isMyEngineOn, savedWork, writeWork } from "./storage.js";

/** The marker of a work file; the course and the storage version are fields of their own. */
export const FORMAT = "course-work";
export const MAX_FILE_BYTES = 5 * 1024 * 1024;
const MB = 1024 * 1024;

const isText = (v) => typeof v === "string";
const isTime = (v) => v === undefined || (typeof v === "number" && Number.isFinite(v) && v >= 0);
const isPlain = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

/** {code, base, saved} as storage.js saves an edit (a cell's or an exercise file's). */
function readEdit(v) {
  if (!isPlain(v) || !isText(v.code)) return { problem: "its code is not text" };
  if (v.base !== undefined && !isText(v.base)) return { problem: "its base is not text" };
  if (!isTime(v.saved)) return { problem: "its saved time is not a time" };
  return { value: { code: v.code, base: v.base, saved: v.saved } };
}

/** {state, answer, saved} as storage.js saves an answer to a check for understanding. */
function readAnswer(v) {
  if (!isPlain(v) || !["right", "wrong"].includes(v.state))
    return { problem: "its state is not right or wrong" };
  if (!Array.isArray(v.answer) || !v.answer.every(isText))
    return { problem: "its answer is not a list of texts" };
  if (!isTime(v.saved)) return { problem: "its saved time is not a time" };
  return { value: { state: v.state, answer: v.answer, saved: v.saved } };
}

function readDone(v) {
  return v === "1" ? { value: "1" } : { problem: 'it is not "1"' };
}

function readTask(v) {
  return v === "done" ? { value: "done" } : { problem: 'it is not "done"' };
}

/** {code, saved}: the code of an exercise file that passed its checks (storage.js's savePassed). */
function readPassed(v) {
  if (!isPlain(v) || !isText(v.code)) return { problem: "its code is not text" };
  if (!isTime(v.saved)) return { problem: "its saved time is not a time" };
  return { value: { code: v.code, saved: v.saved } };
}

function readSetting(v) {
  return v === "on" ? { value: "on" } : { problem: 'it is not "on"' };
}

// The kinds of item, by their key after the course's prefix (storage.js's cellKey and the rest).
// Marks (an exercise passed, a guided task done) are stored as plain text; the rest as JSON.
const KINDS = [
  { kind: "cell", what: "a cell edit", pattern: /^page\/(.+)\/cell\/(\d+)$/, read: readEdit },
  { kind: "answer", what: "an answer", pattern: /^page\/(.+)\/question\/([^/]+)$/, read: readAnswer },
  { kind: "done", what: "a done mark", pattern: /^exercise\/([^/]+)\/done$/, read: readDone },
  { kind: "task", what: "a finished task", pattern: /^page\/(.+)\/task\/([^/]+)$/, read: readTask },
  { kind: "exercise", what: "an exercise edit", pattern: /^exercise\/([^/]+)$/, read: readEdit },
  {
    kind: "passed",
    what: "a passed exercise's code",
    // Only an exercise file's name: "my engine" runs this code.
    pattern: new RegExp(`^exercise\\/(${EXERCISE_FILE})\\/passed$`),
    read: readPassed,
  },
  { kind: "setting", what: "a setting", pattern: /^setting\/(my-engine)$/, read: readSetting },
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
  if (day) return `Day ${Number(day[1])}`;
  if (page === "index") return "Home";
  return page.charAt(0).toUpperCase() + page.slice(1);
}

/** An item as a learner knows it: "Day 5, cell 2", "day05_add_mul.py", "Day 7, question x". */
export function describeItem(key) {
  const k = kindOf(key);
  if (!k) return key;
  const [a, b] = k.parts;
  if (k.kind === "cell") return `${pageName(a)}, cell ${Number(b) + 1}`; // counted from 1, as on the page
  if (k.kind === "answer") return `${pageName(a)}, question “${b}”`;
  if (k.kind === "done") return `${a} (done)`;
  if (k.kind === "task") return `${pageName(a)}, task “${b}” (done)`;
  if (k.kind === "passed") return `${a} (the code that passed)`;
  if (k.kind === "setting") return "the My engine switch";
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

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

/** "12 edits, 4 exercises done, 30 answers" (and ", 2 tasks done" when there are any). */
export function describeCounts({ edits, done, answers, tasks = 0 }) {
  return [
    plural(edits, "edit", "edits"),
    `${plural(done, "exercise", "exercises")} done`,
    plural(answers, "answer", "answers"),
    ...(tasks ? [`${plural(tasks, "task", "tasks")} done`] : []),
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

const CHOOSE = 'Choose the .json file that "Export my work" saved';
const NOTHING = "nothing was imported";

/** A message when a file of `bytes` is too large to be read at all; null when it may be read. */
export function checkFileSize(bytes) {
  if (bytes <= MAX_FILE_BYTES) return null;
  const size = (bytes / MB).toFixed(1);
  return `This file is ${size} MB, too large to be a file of your work (at most ${MAX_FILE_BYTES / MB} MB). ${CHOOSE}: ${NOTHING}.`;
}

/** A file's text read whole and checked: {work: {items, siteVersion, exported}} or {error}. */
export function readWorkFile(text) {
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    return { error: `This file is not a file of your work (it is not JSON). ${CHOOSE}: ${NOTHING}.` };
  }
  if (!isPlain(data) || data.format !== FORMAT) {
    return { error: `This file is not a file of exported work. ${CHOOSE}: ${NOTHING}.` };
  }
  if (data.course !== COURSE) {
    const other = String(data.course ?? "unnamed").slice(0, 80);
    return { error: `This file is from another course (${other}), not this one: ${NOTHING}.` };
  }
  const version = data.storageVersion;
  if (!Number.isInteger(version) || version < 1) {
    return { error: `This file does not say which version of the course saved it. ${CHOOSE}: ${NOTHING}.` };
  }
  if (version > VERSION) {
    return {
      error: `This file was saved by a newer version of the course than this page (its work is kept as version ${version}; this page reads version ${VERSION}). Reload the course to get its newest version, then import again: ${NOTHING}.`,
    };
  }
  if (!isPlain(data.items)) {
    return { error: `This file has no list of items. ${CHOOSE}: ${NOTHING}.` };
  }
  const items = {};
  for (const [key, raw] of Object.entries(data.items)) {
    const k = kindOf(key);
    const name = key.length > 80 ? `${key.slice(0, 80)}…` : key;
    if (!k) {
      return {
        error: `This file holds an item the course does not know (“${name}”); it may have been changed by hand: ${NOTHING}.`,
      };
    }
    const { value, problem } = k.read(raw);
    if (problem) {
      return {
        error: `In this file, “${name}” is not ${k.what} the course can read (${problem}); it may have been changed by hand: ${NOTHING}.`,
      };
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
  const more = files.length > 5 ? ` and ${files.length - 5} more` : "";
  const code = `this file's code that passed ${files.slice(0, 5).join(", ")}${more}`;
  if (!on && !turnsOn) return `It brings ${code}; My engine runs it only once you turn My engine on.`;
  const what = files.length ? code : "the code you passed";
  const start = turnsOn ? "It turns My engine on" : "My engine is on here";
  return `${start}: from day 6 the lesson cells run on ${what}. Import only a file you exported yourself.`;
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
  const why =
    refused === "full"
      ? "This browser's storage for the course became full midway"
      : "This browser refused to save the imported work";
  return {
    error: `${why}, so what was written was taken back: ${NOTHING}, and your work here is as it was.`,
  };
}
