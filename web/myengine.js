// The "My engine" switch of a lesson page from day 6 on: the page's cells run on the code of the
// learner's own passed exercises (engine/mine.py) instead of the course engine.
//
// The switch is remembered in the learner's work (storage.js, so it follows an export and the
// course server); the code is what each exercise's Check last passed (savePassed). Turning it on
// sends every passed file to `engine.mine.install`, which swaps in the parts it can use and says
// which in one line; the namespaces of the pages run so far are then dropped, so the cells run
// again on the new engine. A file that cannot load (a syntax error, a refused deletion, a loop
// that never ends: the time limit stops it) leaves the course engine in place and the switch off,
// with one line saying which file and what to do; the learner's stored work is never changed.
//
// The engine lives in the worker, which outlives instant navigation and may restart: before any
// cell runs (cells.js's beforeRun), the worker is brought to what this page wants: the learner's
// engine on a page whose switch is on, the course's everywhere else.
//
// The explorers' Python (explorer/) is imported on the course engine before an install and keeps
// it (engine.mine only swaps what is imported after it): with the switch on, a line by each
// explorer says so.

import { resetNamespaces } from "./cells.js";
import { isMyEngineOn, PASSED_EVENT, passedSources, setMyEngineOn } from "./storage.js";
import { say, t } from "./i18n.js";
import { partsLine, speedNote } from "./myenginetext.js";

const FIRST_DAY = 6; // the first lesson whose cells use the engine a learner wrote
const INSTALL_LIMIT = 10; // seconds: a file whose loading takes longer never ends
const SPEED_LIMIT = 30;
// How many times its time limit a cell gets on the learner's engine. speed_ratio measures a
// small MLP step (2 to 3 times slower); a GPT built from the learner's own softmax and
// cross-entropy, op by op, runs up to about 9 times slower than the course's fused ones.
const SLOWER = 10;
const OWNER = {
  get label() {
    return t("myEngine.owner");
  },
}; // a cell waiting behind it says so

// What the worker holds now. `generation`: the client's generation it was installed in (a
// restarted worker has the course engine again); `report`: install's answer.
const worker = { generation: -1, report: null, ratio: null, explorers: new Set(), sources: "" };
let busy = null; // the change under way (a promise), if any
let onPassed = () => {}; // the page shown now: what it does when an exercise passes
document.addEventListener(PASSED_EVENT, () => onPassed());

// The explorers' modules, imported (on the course engine) before an install: a cheap call each.
const EXPLORERS = [
  { selector: "[data-explorer]", module: "explorer", name: "is_variable", args: ["a"] },
  { selector: "[data-model-explorer]", module: "explorer.model", name: "shipped.cache_info", args: [] },
];

function installedNow(client) {
  return worker.generation === client.generation && worker.report !== null;
}

/** Whether the passed files changed since the install (an exercise passed since). */
function passedSince() {
  return worker.sources !== JSON.stringify(passedSources());
}

/** The learner's message of a MyEngineError, in the page's language when it names its page
 *  message (myEngine.error.*), else in English out of its traceback; null for another error. */
function engineError(err) {
  const said = String(err?.key ?? "").startsWith("myEngine.error.") ? say(err) : null;
  if (said) return said.replace(/\s+/g, " ").trim();
  const text = String(err?.message ?? "");
  const at = text.lastIndexOf("MyEngineError: ");
  if (at < 0) return null;
  return text
    .slice(at + "MyEngineError: ".length)
    .replace(/\s+/g, " ")
    .trim();
}

/** One line for a failed install: which file, what went wrong, what to do. */
function failureLine(err, restarted) {
  const message = engineError(err);
  if (message) {
    // engine.mine's message names the file; "(or in the file)" is for a notebook's files.
    return t("myEngine.failed", { message: message.replace(" (or in the file)", "") });
  }
  const stopped =
    restarted || err?.type === "KeyboardInterrupt" || /KeyboardInterrupt/.test(err?.message ?? "");
  if (stopped) {
    // The traceback of an interrupted load names the learner's file (engine.mine compiles it so).
    const file = /File "(day(\d+)_\w+\.py)"/.exec(err?.message ?? "");
    return file
      ? t("myEngine.fileTooSlow", { day: Number(file[2]), file: file[1], limit: INSTALL_LIMIT })
      : t("myEngine.someFileTooSlow", { limit: INSTALL_LIMIT });
  }
  return t("myEngine.notLoaded", { error: err?.type || "Error" });
}

/** Call engine.mine's `name` in the page's Python (its parts, or the course's back). */
function mine(client, name, args = [], timeLimit = INSTALL_LIMIT) {
  return client.call({ module: "engine.mine", name, args, timeLimit, owner: OWNER });
}

/** Bring the worker to `want` (true: the learner's engine, with `explorers` imported first).
 *  Resolves {ok, line} for the page to show. */
async function change(client, want, explorers) {
  const generation = client.generation;
  if (!want) {
    if (installedNow(client)) {
      try {
        await mine(client, "uninstall");
      } catch {
        // a worker that restarted meanwhile has the course engine anyway
      }
      resetNamespaces(client);
    }
    worker.report = null;
    worker.ratio = null;
    return { ok: true, line: "" };
  }
  const fresh = worker.generation !== client.generation;
  if (fresh) worker.explorers = new Set();
  const missing = explorers.filter((e) => !worker.explorers.has(e.module));
  try {
    // The explorers keep the engine they were imported with: the course's.
    if (missing.length && installedNow(client)) {
      await mine(client, "uninstall");
    }
    for (const e of missing) {
      await client.call({
        module: e.module,
        name: e.name,
        args: e.args,
        timeLimit: SPEED_LIMIT,
        owner: OWNER,
      });
      worker.explorers.add(e.module);
    }
    const sources = passedSources();
    const report = await mine(client, "install", [sources]);
    worker.generation = client.generation;
    worker.report = report;
    worker.sources = JSON.stringify(sources);
    worker.ratio = null;
    resetNamespaces(client);
    try {
      worker.ratio = await mine(client, "speed_ratio", [], SPEED_LIMIT);
    } catch {
      worker.ratio = null; // no estimate: no note on training cells
    }
    return { ok: true, line: partsLine(report.parts) };
  } catch (err) {
    const restarted = client.generation !== generation;
    const line = failureLine(err, restarted);
    worker.report = null;
    worker.ratio = null;
    if (!restarted) {
      try {
        await mine(client, "uninstall");
      } catch {
        // nothing more to undo
      }
    }
    resetNamespaces(client);
    return { ok: false, line };
  }
}

/** The note of a long (training) cell run on the learner's engine, or null. */
function longRunNote(on) {
  if (!on() || !worker.report || !worker.ratio) return null;
  return speedNote(worker.ratio, worker.report.parts);
}

/** The page's day (its badge), or null for a page that is not a lesson. */
function pageDay(root) {
  const day = Number(root.querySelector(".day-badge[data-day]")?.getAttribute("data-day"));
  return Number.isInteger(day) && day > 0 ? day : null;
}

/** Mount the switch on a lesson page from day 6 on with cells; on every page, make sure the
 *  cells run on the engine the page wants (`hooks`: cells.js's). */
export function mountMyEngine(root, { client, cells, hooks }) {
  const day = pageDay(root);
  const hasSwitch = cells.length > 0 && day !== null && day >= FIRST_DAY;
  const explorers = EXPLORERS.filter((e) => root.querySelector(e.selector));
  let input = null;
  let parts = null;
  let notes = [];
  const on = () => hasSwitch && isMyEngineOn();

  const show = (line) => {
    if (!parts) return;
    parts.textContent = line;
    parts.hidden = !line;
    for (const note of notes) {
      // A cell's note only once the part it is about is the learner's (else it prints the page's).
      const part = note.dataset.part;
      const yours = !part || worker.report?.parts?.some((row) => row.part === part && row.yours);
      note.hidden = !(input.checked && line && worker.report && yours);
    }
  };

  /** Bring the worker to what this page wants; a promise when that takes a call, else null. */
  const ensure = () => {
    if (busy) return busy.then(() => ensure()); // the page may want another state by then
    const want = on();
    const ready = want
      ? installedNow(client) && !passedSince() && explorers.every((e) => worker.explorers.has(e.module))
      : !installedNow(client);
    if (ready) return null;
    if (input) {
      input.disabled = true;
      if (want) show(t("myEngine.loading"));
    }
    busy = change(client, want, explorers).then((result) => {
      busy = null;
      if (!result.ok) setMyEngineOn(false);
      if (input?.isConnected) {
        input.disabled = false;
        input.checked = on();
        show(result.line);
      }
      return result;
    });
    return busy;
  };
  hooks.beforeRun = ensure;
  hooks.longRunNote = () => longRunNote(on);
  hooks.timeFactor = () => (on() && worker.report ? SLOWER : 1);

  if (hasSwitch) {
    const box = document.createElement("div");
    box.className = "course-my-engine";
    const label = document.createElement("label");
    input = document.createElement("input");
    input.type = "checkbox";
    input.dataset.role = "my-engine";
    input.checked = isMyEngineOn();
    label.append(input, ` ${t("myEngine.switch")}`);
    label.title = t("myEngine.switchTitle");
    parts = document.createElement("span");
    parts.className = "course-my-engine__parts";
    parts.dataset.role = "my-engine-parts";
    parts.setAttribute("role", "status");
    parts.setAttribute("aria-live", "polite");
    parts.hidden = true;
    box.append(label, parts);
    const first = cells[0].el;
    first.parentElement?.insertBefore(box, first);
    notes = [...root.querySelectorAll("[data-explorer], [data-model-explorer]")].map((el) => {
      const note = document.createElement("p");
      note.className = "course-my-engine__explorer";
      note.dataset.role = "my-engine-explorer";
      note.textContent = t(
        el.matches("[data-model-explorer]") ? "myEngine.modelExplorerNote" : "myEngine.explorerNote",
      );
      note.hidden = true;
      el.before(note);
      return note;
    });
    // A cell whose numbers describe the engine itself (```pyodide my_engine="...") says so.
    for (const c of cells) {
      const what = c.el.dataset.myEngine;
      if (!what) continue;
      const note = document.createElement("p");
      note.className = "course-my-engine__explorer";
      note.dataset.role = "my-engine-cell-note";
      note.dataset.part = c.el.dataset.myEnginePart ?? "";
      note.textContent = t("myEngine.cellNote", { what });
      note.hidden = true;
      c.el.before(note);
      notes.push(note);
    }
    input.addEventListener("change", () => {
      setMyEngineOn(input.checked);
      if (!ensure()) show(on() ? partsLine(worker.report?.parts) : "");
    });
    if (installedNow(client) && on()) show(partsLine(worker.report.parts));
  }
  // An exercise passed on this page joins the engine at once (install again with it).
  onPassed = () => {
    if (on()) ensure();
  };
  // The page's engine at once: the parts line shows, and the first Run finds it ready.
  if (on() || installedNow(client)) ensure();
}
