// The status line: where Python stands (idle, loading, ready, error), announced politely.

let unsubscribe = null;

export function mountStatus(root, client) {
  unsubscribe?.();
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
  return line;
}
