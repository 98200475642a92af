// A box that runs the learner's code, as a cell (cells.js) and an exercise (exercises.js)
// share it: a labelled group whose data-state says where its run is, an editor, the button
// that runs (▶ Run, or ✓ Check) with ■ Stop and ↺ Reset, the run status beside them, and an
// output area. Each kind lays these out in its own order and says what a run does.

import { createEditor } from "./editor.js";
import { Output } from "./output.js";
import { button } from "./button.js";
import { RunStatus } from "./runstatus.js";
import { t } from "./i18n.js";
import { errorText } from "./errortext.js";

export class RunBox {
  constructor(el, ctx) {
    this.el = el;
    this.ctx = ctx;
    this.job = null; // the client's job for the run under way, for Stop
  }

  /** The box as an empty group, named `label` to assistive technology. */
  group(label) {
    this.el.setAttribute("role", "group");
    this.el.setAttribute("aria-label", label);
    this.el.replaceChildren();
  }

  /** The editor (this.view) in its host element, which is returned; `options` as createEditor's. */
  editor(options) {
    const host = document.createElement("div");
    host.className = "course-editor";
    this.view = createEditor({ parent: host, ...options });
    return host;
  }

  /** The buttons: `run` (made with button()) calls `onRun`; Stop, off until a run, stops it;
   *  Reset puts back the original. The run status says `verb` ("running", "checking"). */
  controls({ run, onRun, stopTitle, resetTitle, verb }) {
    this.runButton = run;
    this.stopButton = button("stop", t("stop.button"), stopTitle);
    this.stopButton.disabled = true;
    this.resetButton = button("reset", t("reset.button"), resetTitle);
    this.runStatus = new RunStatus(verb);
    this.runButton.addEventListener("click", onRun);
    this.stopButton.addEventListener("click", () => this.stop());
    this.resetButton.addEventListener("click", () => this.reset());
  }

  /** The toolbar (returned): `buttons` in this order, then the run status. */
  toolbar(...buttons) {
    const toolbar = document.createElement("div");
    toolbar.className = "course-toolbar";
    toolbar.append(...buttons, this.runStatus.el);
    return toolbar;
  }

  /** The output area (this.output; its element is returned), empty: marked `data-<mark>`,
   *  named `label`. */
  outputArea(mark, label) {
    const el = document.createElement("div");
    el.className = "course-output";
    el.dataset[mark] = "";
    this.output = new Output(el, label);
    this.output.clear();
    return el;
  }

  reset() {
    this.edit.reset(this.view);
  }

  get busy() {
    return this.el.dataset.state === "running" || this.el.dataset.state === "waiting";
  }

  /** idle | waiting (its turn has not come) | running | what each kind says of a finished run.
   *  While busy, the run button is off and Stop on. */
  setState(state) {
    this.el.dataset.state = state;
    const busy = this.busy;
    this.stopButton.disabled = !busy;
    this.runButton.disabled = busy;
    if (!busy) this.runStatus.clear();
  }

  /** Follow a client request's onProgress: the box is "running" once its code starts (and
   *  then, the first time, `started` is called), and the run status says how it goes. */
  progress(progress, started) {
    if (progress.state === "running" && this.el.dataset.state !== "running") {
      this.setState("running");
      started?.();
    }
    this.runStatus.progress(progress);
  }

  /** A run that raised: its traceback (or its type and message) in the output, an engine
   *  error's message in the page's language (errortext.js). */
  showError(reply) {
    if (reply.error?.type === "MissingChecks") this.output.error(t("exercise.missingChecks"));
    else this.output.error(errorText(reply.error));
  }

  stop() {
    if (this.job) this.ctx.client.stop(this.job, "stop");
  }
}
