// The status line: where Python stands (idle, loading, ready, error), announced politely.
// Below it, once per page, a notice when this browser does not keep the learner's work.

import { onStorageProblem, probeStorage } from "./storage.js";
import { t } from "./i18n.js";

let unsubscribe = null;
let unsubscribeStorage = null;

const STORAGE_NOTICE = { full: "storage.full", disabled: "storage.disabled" };

export function mountStatus(root, client) {
  unsubscribe?.();
  unsubscribeStorage?.();
  const line = document.createElement("p");
  line.className = "course-status";
  line.setAttribute("role", "status");
  line.setAttribute("aria-live", "polite");
  const anchor = root.querySelector(".course-cell, .course-exercise");
  (anchor?.parentElement ?? root).insertBefore(line, anchor);
  unsubscribe = client.onStatus(({ phase, message }) => {
    line.dataset.pythonStatus = phase;
    line.textContent = message; // every message names Python itself
  });

  // One notice per page, however many edits fail after it.
  let notice = null;
  unsubscribeStorage = onStorageProblem((reason) => {
    if (notice?.isConnected) return;
    notice = document.createElement("p");
    notice.className = "course-storage-notice";
    notice.setAttribute("role", "alert");
    notice.dataset.storageProblem = reason;
    notice.textContent = t(STORAGE_NOTICE[reason] ?? STORAGE_NOTICE.disabled);
    line.after(notice);
  });
  probeStorage();
  return line;
}
