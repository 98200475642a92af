// Exercise blocks: `<div class="course-exercise" data-exercise="dayNN_slug.py">`
// written by the `exercise` fence from the exercise file itself. The editor holds
// the file; Check runs the exercise's public checks in the worker (the same
// functions the CPython grader runs); Stop ends them like a cell's Stop; hints open
// one at a time.
//
// The exercise files are written for a checkout (`python -m grader`, docs/lessons/...):
// the page shows that wording the page's way (wording.js), and leaves the files as they are.

import { zipSync, strToU8 } from "fflate";
import { getText, setText } from "./editor.js";
import { pageLanguage } from "./language.js";
import { button } from "./button.js";
import { RunBox } from "./runbox.js";
import { SavedEdit } from "./saved.js";
import { exerciseKey, flushSaves, isDone, loadEdit, markDone, savePassed } from "./storage.js";
import { serverURL } from "./server.js";
import { Submissions } from "./submit.js";
import { onServerMerge } from "./sync.js";
import { exerciseAnchor, pageWording, rewriteMessage } from "./wording.js";
import { t } from "./i18n.js";

const DEFAULT_TIME_LIMIT = 60; // seconds; a block's data-timeout overrides it

/** The line (from 1) of the first function body the learner writes: its "your code"
 *  comment or its NotImplementedError; 1 when the file has neither. */
export function firstLineToWrite(text) {
  const lines = text.split("\n");
  const i = lines.findIndex((line) => /#\s*your code|NotImplementedError/i.test(line));
  return i + 1 || 1;
}

class Exercise extends RunBox {
  constructor(el, ctx) {
    super(el, ctx);
    this.file = el.dataset.exercise;
    this.original = el.querySelector("pre code, pre")?.textContent ?? "";
    this.hints = [...el.querySelectorAll(".course-exercise__hint")].map((h) => h.innerHTML);
    this.shown = 0;
    this.key = exerciseKey(this.file);
    this.build();
  }

  build() {
    const { el, file } = this;
    el.dataset.state = "idle";
    el.id = exerciseAnchor(file); // where the messages' "lesson's exercise section" links land
    this.group(t("exercise.group", { file }));

    const header = document.createElement("div");
    header.className = "course-exercise__header";
    const name = document.createElement("code");
    name.textContent = `exercises/${file}`;
    this.badge = document.createElement("span");
    this.badge.className = "course-exercise__done";
    this.badge.textContent = t("exercise.done");
    this.badge.hidden = !isDone(file);
    header.append(name, this.badge);

    this.edit = new SavedEdit(this.key, this.original, t("exercise.changed"));
    const host = this.editor({
      doc: this.edit.text,
      label: t("exercise.editorLabel", { file }),
      onRun: () => this.check(),
      onChange: (text) => this.edit.changed(text),
      cursorLine: firstLineToWrite(this.edit.text),
      extensions: [pageWording(this.ctx.siteRoot)],
    });

    this.controls({
      run: button("check", t("check.button"), t("check.title")),
      onRun: () => this.check(),
      stopTitle: t("exercise.stopTitle"),
      resetTitle: t("exercise.resetTitle"),
      verb: "checking",
    });
    this.hintButton = button("hint", t("hint.button"), t("hint.title"));
    this.downloadButton = button("download", t("download.button"), t("download.title"));
    // A site built for a course server (SUBMIT_URL): Submit, and the submissions below.
    this.submissions = serverURL()
      ? new Submissions(file, { getCode: () => getText(this.view), keep: () => this.edit.keep() })
      : null;
    const toolbar = this.toolbar(
      this.runButton,
      ...(this.submissions ? [this.submissions.button] : []),
      this.stopButton,
      this.hintButton,
      this.resetButton,
      this.downloadButton,
    );
    this.hintButton.hidden = this.hints.length === 0;
    this.updateHintButton();

    this.hintList = document.createElement("ol");
    this.hintList.className = "course-exercise__hints";
    this.hintList.hidden = true;

    const result = this.outputArea("result", t("exercise.resultLabel", { file }));

    el.append(header, host, toolbar, this.edit.notice, this.hintList, result);
    if (this.submissions) {
      el.append(this.submissions.el);
      this.followServerMerge();
    }
    this.hintButton.addEventListener("click", () => this.nextHint());
    this.downloadButton.addEventListener("click", () => downloadAll(this.ctx.siteRoot));

    this.edit.offerNewVersion(() => this.reset());
  }

  /** Work brought from the course server replaced this file's edit: an editor the learner
   *  has not typed in since the page opened shows it (one they have typed in keeps theirs). */
  followServerMerge() {
    const opened = getText(this.view);
    const stop = onServerMerge((keys) => {
      if (!this.el.isConnected) return stop();
      if (!keys.includes(`exercise/${this.file}`) || getText(this.view) !== opened) return;
      const saved = loadEdit(this.key);
      if (saved) setText(this.view, saved.code);
    });
  }

  updateHintButton() {
    const n = this.hints.length;
    this.hintButton.textContent =
      this.shown < n ? t("hint.next", { n: this.shown + 1, count: n }) : t("hint.allShown", { count: n });
    this.hintButton.disabled = this.shown >= n;
  }

  nextHint() {
    if (this.shown >= this.hints.length) return;
    const li = document.createElement("li");
    li.innerHTML = this.hints[this.shown]; // written by the site build from the lesson's Markdown
    this.hintList.append(li);
    this.hintList.hidden = false;
    this.shown += 1;
    this.updateHintButton();
    window.renderMathInElement?.(li);
  }

  // States (RunBox.setState): idle | waiting (its turn has not come) | running | pass | fail

  async check() {
    if (this.busy) return;
    this.edit.keep(); // Check keeps the edit at once, not after the typing pause
    this.setState("waiting");
    this.output.clear();
    // Read when Check is pressed: a block may carry its own limit, like a cell.
    const limit = Number(this.el.dataset.timeout) || DEFAULT_TIME_LIMIT;
    const source = getText(this.view);
    const { job, promise } = this.ctx.client.check({
      exercise: this.file,
      source,
      lang: pageLanguage(this.ctx.siteRoot), // the checks' messages in the page's language
      timeLimit: limit,
      owner: { label: t("exercise.owner", { file: this.file }), page: this.ctx.page },
      onProgress: (progress) => this.progress(progress, () => this.output.note(t("exercise.checking"))),
    });
    this.job = job;
    const reply = await promise;
    this.job = null;
    this.output.clear();
    const checks = reply.value?.checks;
    if (reply.ok && Array.isArray(checks)) {
      this.showChecks(checks, reply.value.file_error);
      const passed = checks.length > 0 && checks.every((c) => c.passed);
      this.setState(passed ? "pass" : "fail");
      if (passed) {
        markDone(this.file);
        savePassed(this.file, source); // what "my engine" runs (myengine.js); the edit stays as it is
      }
      this.badge.hidden = !isDone(this.file);
      return;
    }
    if (reply.interrupted && reply.reason === "timeout") {
      this.output.note(t("exercise.stoppedTimeout", { limit }), "stopped");
      this.setState("fail");
    } else if (reply.interrupted) {
      this.output.note(
        reply.restarted && reply.reason === "stop" ? t("exercise.stoppedRestarted") : t("stopped"),
        "stopped",
      );
      this.setState("idle");
    } else {
      this.showError(reply);
      this.setState("fail");
    }
  }

  /** The checks' results; `fileError`: the file itself did not run (said once, not per check). */
  showChecks(checks, fileError) {
    const passed = checks.filter((c) => c.passed).length;
    this.output.note(
      t("exercise.passed", { passed, count: checks.length }),
      passed === checks.length ? "pass" : "fail",
    );
    if (fileError) {
      this.output.note(t("exercise.fileError", { count: checks.length }), "fail");
      const pre = document.createElement("pre");
      pre.className = "course-output__error";
      pre.append(...rewriteMessage(fileError, this.ctx.siteRoot));
      this.output.append(pre);
    }
    const list = document.createElement("ul");
    list.className = "course-checks";
    for (const c of checks) {
      const li = document.createElement("li");
      li.dataset.passed = String(c.passed);
      const mark = document.createElement("span");
      mark.className = "course-checks__mark";
      mark.textContent = c.passed ? "✓" : "✗";
      mark.setAttribute("aria-label", t(c.passed ? "exercise.checkPassed" : "exercise.checkFailed"));
      const name = document.createElement("strong");
      name.textContent = c.label || c.name;
      li.append(mark, " ", name);
      if (c.message) {
        const msg = document.createElement("pre");
        msg.append(...rewriteMessage(c.message, this.ctx.siteRoot));
        li.append(msg);
      }
      list.append(li);
    }
    this.output.append(list);
  }
}

/** Download every exercise file as one zip laid out like `exercises/`, with saved edits. */
export async function downloadAll(siteRoot) {
  const index = await (await fetch(new URL("exercises/index.json", siteRoot))).json();
  const files = {};
  flushSaves(); // the edit typed a moment ago is in the zip too
  for (const file of index.files) {
    const text =
      loadEdit(exerciseKey(file))?.code ??
      (await (await fetch(new URL(`exercises/${file}`, siteRoot))).text());
    files[`exercises/${file}`] = strToU8(text);
  }
  const blob = new Blob([zipSync(files)], { type: "application/zip" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = "exercises.zip";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

export function mountExercises(root, ctx) {
  return [...root.querySelectorAll(".course-exercise")].map((el) => new Exercise(el, ctx));
}
