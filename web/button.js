// A button of a cell or an exercise, found by tests and tools through data-action.

export function button(action, label, title) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = `md-button course-button course-button--${action}`;
  b.dataset.action = action;
  b.textContent = label;
  b.title = title;
  return b;
}
