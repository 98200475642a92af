// What a cell or an exercise says beside its buttons about its run: what it waits for
// ("waiting for cell 2 to finish…"), then, past a second, how long it has run
// ("running… 3 s", updated each second). Empty and hidden when nothing runs.

import { t } from "./i18n.js";

export class RunStatus {
  /** verb: "running" or "checking" (the messages "run.running", "run.checking"). */
  constructor(verb = "running") {
    this.verb = verb;
    this.el = document.createElement("span");
    this.el.className = "course-run-status";
    this.el.dataset.runStatus = "";
    this.el.hidden = true;
    this.timer = null;
  }

  show(text) {
    this.el.textContent = text;
    this.el.hidden = !text;
  }

  waiting(text) {
    this.stopClock();
    this.show(text);
  }

  running() {
    this.stopClock();
    this.show("");
    const start = performance.now();
    this.timer = setInterval(() => {
      const seconds = Math.round((performance.now() - start) / 1000);
      if (seconds >= 1) this.show(t(`run.${this.verb}`, { seconds }));
    }, 1000);
  }

  /** Follow a client request's onProgress. */
  progress({ state, text }) {
    if (state === "running") this.running();
    else this.waiting(text);
  }

  stopClock() {
    clearInterval(this.timer);
    this.timer = null;
  }

  clear() {
    this.stopClock();
    this.show("");
  }
}
