// The status line: where Python stands (idle, loading, ready, error), announced politely.
// Below it, once per page, a notice when this browser does not keep the learner's work.

import { onStorageProblem, probeStorage } from "./storage.js";

let unsubscribe = null;
let unsubscribeStorage = null;

const STORAGE_NOTICE = {
  full: "This browser's storage for this site is full, so your work will not be kept: edits and finished exercises last only until you reload or close this tab. Download your exercises (⤓ All exercises), or all your work with Export my work on the course map, to keep them.",
  disabled:
    "This browser does not let the site save anything (storage is turned off, as in some private windows), so your work will not be kept: edits and finished exercises last only until you reload or close this tab. Download your exercises (⤓ All exercises), or all your work with Export my work on the course map, to keep them.",
};

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
    notice.textContent = STORAGE_NOTICE[reason] ?? STORAGE_NOTICE.disabled;
    line.after(notice);
  });
  probeStorage();
  return line;
}
