// One editor's saved work, as cells and exercises share it: the text to open with, saving
// while the learner types (and at once on Run or Check), Reset, and the notice that the
// original changed since the learner edited it.

import { button } from "./button.js";
import { getText, setText } from "./editor.js";
import { forgetEdit, hashText, loadEdit, saveNow, saveSoon } from "./storage.js";
import { t, tParts } from "./i18n.js";

const UNDO_KEY = /Mac|iPhone|iPad/.test(globalThis.navigator?.platform ?? "") ? "⌘Z" : "Ctrl+Z";

export class SavedEdit {
  /** `changedText` starts the notice, e.g. "This exercise file has changed since you edited it." */
  constructor(key, original, changedText) {
    this.key = key;
    this.original = original;
    this.saved = loadEdit(key);
    this.notice = document.createElement("div");
    this.notice.className = "course-notice";
    this.notice.hidden = true;
    this.notice.setAttribute("role", "status"); // what Reset did is said as it happens
    this.changedText = changedText;
    this.resetShown = false;
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
      Object.assign(button("use-new", t("saved.useNew"), t("saved.useNewTitle")), { onclick: reset }),
    );
  }

  /** The learner typed: save after the pause in typing. */
  changed(text) {
    saveSoon(this.key, text, this.original);
    // What Reset said is out of date once the text changes again (an undo, or typing).
    if (this.resetShown && text !== this.original) {
      this.resetShown = false;
      this.notice.hidden = true;
    }
  }

  /** Run or Check: keep the edit now, not after the typing pause. */
  keep() {
    saveNow(this.key);
  }

  /** Put back the original in `view` and forget the edit. The learner's text stays in the
   *  editor's history (Ctrl+Z brings it back), and the notice says so, with an Undo button. */
  reset(view) {
    const previous = getText(view);
    if (previous === this.original) {
      this.say(t("saved.alreadyOriginal"));
      forgetEdit(this.key);
      this.resetShown = true;
      return;
    }
    setText(view, this.original);
    forgetEdit(this.key);
    const undo = button("undo-reset", t("saved.undo"), t("saved.undoTitle"));
    undo.onclick = () => {
      setText(view, previous); // saved like any edit (changed() hides this notice)
      view.focus();
    };
    this.say(...tParts("saved.resetDone", { key: UNDO_KEY, undo }));
    this.resetShown = true;
  }

  /** Show `parts` in the notice under the editor (until the next edit). */
  say(...parts) {
    this.notice.hidden = false;
    this.notice.replaceChildren(...parts);
  }
}
