// Runnable cells: `<div class="course-cell" data-cell>` blocks written by the
// `pyodide` fence. Each becomes an editor with Run / Stop / Reset and an output area.
//
// Cells of one page share one namespace in page order. Running a cell first runs
// every earlier cell that has not run in the current Python session ("run-above"),
// so no cell fails for want of a name defined above it. A cell the learner stopped
// (or its time limit did) is skipped, with a note, until the learner edits it or runs
// it by itself: a runaway is never started again behind their back.
//
// A cell is named on the page by its first line ("the cell above starting x = 3"), with a link
// to it: the page shows no cell numbers. A run waiting its turn says for what ("waiting for
// the cell above starting “import time” to finish…"), and a run
// past a second shows its time ("running… 3 s") beside the buttons.

import { getText } from "./editor.js";
import { button } from "./button.js";
import { RunBox } from "./runbox.js";
import { SavedEdit } from "./saved.js";
import { cellKey } from "./storage.js";
import { t, tParts } from "./i18n.js";

const DEFAULT_TIME_LIMIT = 60; // seconds; a cell lifts it with ```pyodide timeout="600"
const MAX_TIME_LIMIT = 3600; // the most a page may give (hooks/fences.py's MAX_TIMEOUT)
const FIRST_LINE_CHARS = 40; // a cell is named by its first line, cut to this length

// page -> {generation, ran: Set<cell index>}: which cells this Python session has run.
const sessions = new Map();

function session(client, page) {
  let s = sessions.get(page);
  if (!s || s.generation !== client.generation) {
    s = { generation: client.generation, ran: new Set() };
    sessions.set(page, s);
  }
  return s;
}

function describeStop(reply, limit) {
  if (reply.reason === "timeout") {
    return t("cell.stoppedTimeout", { limit });
  }
  if (reply.restarted) return t("cell.stoppedRestarted");
  return t("stopped");
}

class Cell extends RunBox {
  constructor(el, index, ctx) {
    super(el, ctx);
    this.index = index;
    this.original = el.querySelector("pre code, pre")?.textContent.replace(/\n$/, "") ?? "";
    this.limit = Number(el.dataset.timeout) || DEFAULT_TIME_LIMIT;
    this.key = cellKey(ctx.page, index);
    this.blocker = null; // the cell above this run waits for (run-above)
    this.stoppedByLearner = false; // skipped by run-above until edited or run by itself
    this.build();
  }

  build() {
    const { el, index } = this;
    el.dataset.cell = String(index);
    el.id ||= `course-cell-${index + 1}`; // what a note's link to this cell points at
    el.dataset.state = "idle";
    this.group(t("cell.group", { n: index + 1 }));

    this.edit = new SavedEdit(this.key, this.original, t("cell.changed"));
    this.controls({
      run: button("run", t("run.button"), t("run.title")),
      onRun: () => this.run(),
      stopTitle: t("cell.stopTitle"),
      resetTitle: t("cell.resetTitle"),
      verb: "running",
    });
    const toolbar = this.toolbar(this.runButton, this.stopButton, this.resetButton);
    const host = this.editor({
      doc: this.edit.text,
      label: t("cell.editorLabel", { n: index + 1 }),
      onRun: () => this.run(),
      onChange: (text) => this.changed(text),
    });
    const out = this.outputArea("output", t("cell.outputLabel", { n: index + 1 }));

    el.append(host, toolbar, this.edit.notice, out);
    this.edit.offerNewVersion(() => this.reset());
  }

  changed(text) {
    this.stoppedByLearner = false; // an edited cell is the learner's fix: run-above may run it
    this.edit.changed(text);
  }

  // States (RunBox.setState): idle | waiting (its turn has not come) | running | done | error

  /** Run this cell after any earlier cell this session has not run yet. */
  async run() {
    if (this.busy) return;
    this.edit.keep(); // Run keeps the edit at once, not after the typing pause
    const { cells, client, page } = this.ctx;
    this.stopped = false;
    this.stoppedByLearner = false; // run by itself: no longer a cell to skip
    this.setState("waiting");
    this.output.clear();
    // The page's engine first (myengine.js: the learner's, being installed or taken out).
    const engineReady = this.ctx.hooks.beforeRun?.();
    if (engineReady) {
      this.runStatus.waiting(t("run.waitingForEngine"));
      await engineReady;
      if (this.stopped) {
        this.output.note(t("stopped"));
        this.setState("idle");
        return;
      }
    }
    for (const earlier of cells.slice(0, this.index)) {
      if (session(client, page).ran.has(earlier.index)) continue;
      if (earlier.stoppedByLearner) {
        const key = earlier.stopReason === "timeout" ? "cell.skippedTimeout" : "cell.skippedStopped";
        this.output.note(tParts(key, { cell: earlier.link() }), "skipped");
        continue;
      }
      this.runStatus.waiting(t("run.waitingFor", { what: earlier.name(true) }));
      this.blocker = earlier;
      const ok = await earlier.execute();
      this.blocker = null;
      if (this.stopped) {
        this.output.note(t("stopped"));
        this.setState("idle");
        return;
      }
      if (!ok) {
        this.output.note(tParts("cell.failedAbove", { cell: earlier.link(true) }), "error-note");
        this.setState("error");
        return;
      }
    }
    // The notes about skipped cells above stay: they explain what follows.
    await this.execute({ keepOutput: true });
  }

  /** Run this cell's code now (or join the run already under way); true when it finished without an error. */
  execute({ keepOutput = false } = {}) {
    // A cell run above another while it is still running must not be queued a second time.
    this.pending ??= this.executeOnce(keepOutput).finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  async executeOnce(keepOutput) {
    const { client, page, ns } = this.ctx;
    this.setState("waiting");
    if (!keepOutput) this.output.clear();
    const note = this.limit > DEFAULT_TIME_LIMIT ? this.ctx.hooks.longRunNote?.() : null;
    if (note) this.output.note(note, "my-engine");
    // On the learner's engine (slower: myengine.js) a cell gets longer before its limit stops it.
    const limit = Math.min(this.limit * (this.ctx.hooks.timeFactor?.() ?? 1), MAX_TIME_LIMIT);
    const { job, promise } = client.run({
      ns,
      code: getText(this.view),
      filename: `<cell ${this.index + 1}>`,
      timeLimit: limit,
      owner: { label: this.name(), page },
      onProgress: (progress) => this.progress(progress),
      onStream: (stream, text) => this.output.text(stream, text),
      onFigure: (svg, key) => this.output.figure(svg, key),
    });
    this.job = job;
    const reply = await promise;
    this.job = null;
    if (reply.ok) {
      session(client, page).ran.add(this.index);
      if (reply.truncated) this.output.note(t("cell.outputCut"));
      this.setState("done");
      return true;
    }
    session(client, page).ran.delete(this.index);
    if (reply.interrupted) {
      // Stopped while it ran, by the learner or its time limit: a runaway, not to be
      // run again by a cell below until the learner edits it or runs it.
      if (job.running && !reply.cancelled && reply.reason !== "restart") {
        this.stoppedByLearner = true;
        this.stopReason = reply.reason;
      }
      this.output.note(describeStop(reply, limit), "stopped");
      this.setState("idle");
    } else {
      this.showError(reply);
      this.setState("error");
    }
    return false;
  }

  /** The cell's first line as the learner sees it now, shortened: how the page names a cell
   *  (cells carry no numbers on the page). */
  firstLine() {
    const line = getText(this.view)
      .split("\n")
      .map((l) => l.trim())
      .find(Boolean);
    if (!line) return "";
    return line.length > FIRST_LINE_CHARS ? `${line.slice(0, FIRST_LINE_CHARS - 1)}…` : line;
  }

  /** "the cell starting x = 3" ("the cell above starting …" with `above`), in plain text. */
  name(above = false) {
    const first = this.firstLine();
    if (!first) return t(above ? "cell.nameEmptyAbove" : "cell.nameEmpty");
    return t(above ? "cell.nameAbove" : "cell.name", { first });
  }

  /** The cell's name ("the cell above starting …"; "The …" with `capital`) as a link that
   *  scrolls to it and puts the cursor in its editor. */
  link(capital = false) {
    const a = document.createElement("a");
    a.href = `#${this.el.id}`;
    a.className = "course-cell-link";
    const first = this.firstLine();
    if (first) {
      const code = document.createElement("code");
      code.textContent = first;
      a.append(...tParts(capital ? "cell.linkAboveStart" : "cell.linkAbove", { code }));
    } else {
      a.append(t(capital ? "cell.linkEmptyAboveStart" : "cell.linkEmptyAbove"));
    }
    a.addEventListener("click", (event) => {
      // Not the browser's nor the instant navigation's jump to the anchor: either would
      // take the focus from the editor.
      event.preventDefault();
      event.stopPropagation();
      this.el.scrollIntoView({ block: "center" });
      this.view.focus();
    });
    return a;
  }

  stop() {
    this.stopped = true;
    // This cell's own run (running or queued), else the cell above it waits for.
    const target = this.job ?? this.blocker?.job;
    if (target) this.ctx.client.stop(target, "stop");
  }
}

/** Forget the namespace of every page run in this Python (the engine changed under them):
 *  each page's cells run again, on the new engine, when next needed. */
export function resetNamespaces(client) {
  for (const page of sessions.keys()) client.resetNamespace(page);
  sessions.clear();
}

/** Turn every cell under `root` into a live cell; returns the Cell objects.
 *  `hooks` (filled by myengine.js): beforeRun() returns a promise to wait for before a run, or
 *  nothing; longRunNote() a note for a cell with a long time limit (a training cell), or null;
 *  timeFactor() how many times its time limit a cell gets now (1 on the course engine). */
export function mountCells(root, { client, page, hooks = {} }) {
  const ctx = { client, page, ns: page, cells: [], hooks };
  root.querySelectorAll(".course-cell").forEach((el, i) => ctx.cells.push(new Cell(el, i, ctx)));
  return ctx.cells;
}
