// The learner's progress on every page: the course map's marks and counts, and the lessons of
// the left navigation whose exercise is done. It reads the "done" flags and the answers
// storage.js keeps, and runs again on every page of instant navigation and whenever an
// exercise or a question changes state, or an import brings work from another browser.

import { isDone, loadAnswer, questionKey } from "./storage.js";
import { t } from "./i18n.js";

/** How many of a day's questions (the map's `data-questions`) were answered right. */
function answered(el) {
  const ids = el.dataset.questions.split(" ").filter(Boolean);
  const right = ids.filter((id) => loadAnswer(questionKey(el.dataset.page, id))?.state === "right");
  return { right: right.length, total: ids.length };
}

/** "day05_add_mul.py" for a link to that lesson's page (not to a heading inside a page). */
function lessonFile(href) {
  const m = /lessons\/(day\d\d_[a-z0-9_]+)\/?(?:index\.html)?$/.exec(href || "");
  return m ? `${m[1]}.py` : null;
}

/** Mark the page's progress from what storage holds now (after an import, say). */
export function markProgress() {
  let done = 0;
  for (const el of document.querySelectorAll(".course-done[data-exercise]")) {
    const ok = isDone(el.dataset.exercise);
    done += ok ? 1 : 0;
    el.textContent = ok ? "✓" : "○";
    el.title = t(ok ? "map.exerciseDone" : "map.notDone");
    el.classList.toggle("course-done--yes", ok);
    el.closest("tr")?.classList.toggle("course-map__row--done", ok);
  }
  let right = 0;
  let questions = 0;
  for (const el of document.querySelectorAll(".course-answers[data-questions]")) {
    const day = answered(el);
    right += day.right;
    questions += day.total;
    el.textContent = `${day.right}/${day.total}`;
    el.title = t("map.questionsRight", { right: day.right, count: day.total });
    el.classList.toggle("course-answers--all", day.right === day.total);
  }
  for (const el of document.querySelectorAll(".course-map__progress")) {
    const total = Number(el.dataset.total);
    el.textContent = questions
      ? t("map.progressQuestions", {
          done,
          count: total,
          right,
          questions: t("map.questions", { count: questions }),
        })
      : t("map.progress", { done, count: total });
  }
  // The primary navigation only: the page's own contents list links to headings (#...),
  // which Material rewrites to absolute addresses of the same lesson.
  for (const a of document.querySelectorAll(".md-nav--primary .md-nav__link[href]")) {
    const file = lessonFile(a.getAttribute("href"));
    if (file) a.classList.toggle("course-nav--done", isDone(file));
  }
}

/** Mark the page now, and again when one of its exercises passes or another tab saves. */
export function showProgress(root) {
  markProgress();
  const observer = new MutationObserver(markProgress);
  for (const el of root.querySelectorAll("[data-exercise][data-state], [data-question][data-state]")) {
    observer.observe(el, { attributes: true, attributeFilter: ["data-state"] });
  }
}

globalThis.addEventListener?.("storage", markProgress); // another tab finished an exercise
