// One editor's saved work, as cells and exercises share it: the text to open with, saving
// while the learner types (and at once on Run or Check), Reset, and the notice that the
// original changed since the learner edited it.

import { button } from "./button.js";
import { setText } from "./editor.js";
import { forgetEdit, hashText, loadEdit, saveNow, saveSoon } from "./storage.js";

export class SavedEdit {
  /** `changedText` starts the notice, e.g. "This exercise file has changed since you edited it." */
  constructor(key, original, changedText) {
    this.key = key;
    this.original = original;
    this.saved = loadEdit(key);
    this.notice = document.createElement("div");
    this.notice.className = "course-notice";
    this.notice.hidden = true;
    this.changedText = changedText;
  }

  /** The text the editor opens with: the learner's edit if there is one. */
  get text() {
    return this.saved ? this.saved.code : this.original;
  }

  /** Offer the new original when the edit was made from an older one; `reset` puts it back. */
  offerNewVersion(reset) {
    if (!this.saved || this.saved.base === hashText(this.original)) return;
    this.notice.hidden = false;
    this.notice.replaceChildren(
      `${this.changedText} `,
      Object.assign(button("use-new", "Use the new version", "Replace your edit with the current original"), {
        onclick: reset,
      }),
    );
  }

  /** The learner typed: save after the pause in typing. */
  changed(text) {
    saveSoon(this.key, text, this.original);
  }

  /** Run or Check: keep the edit now, not after the typing pause. */
  keep() {
    saveNow(this.key);
  }

  /** Put back the original in `view` and forget the edit. */
  reset(view) {
    setText(view, this.original);
    forgetEdit(this.key);
    this.notice.hidden = true;
  }
}
