// The learner's progress, from the exercise "done" flags the runtime saves in localStorage
// (web/storage.js: `derivative-to-gpt/v1/exercise/<file>/done` = "1"). Marks the days on the
// course map and the lessons in the navigation. Runs again on every page of instant navigation
// and whenever an exercise on the page changes state.
(function () {
  const PREFIX = "derivative-to-gpt/v1/exercise/";

  function isDone(file) {
    try {
      return globalThis.localStorage?.getItem(`${PREFIX}${file}/done`) === "1";
    } catch {
      return false; // storage disabled: show nothing as done
    }
  }

  function lessonFile(href) {
    const m = /lessons\/(day\d\d_[a-z0-9_]+)\/?(?:index\.html)?(?:[#?].*)?$/.exec(href || "");
    return m ? `${m[1]}.py` : null;
  }

  function mark() {
    let done = 0;
    const marks = document.querySelectorAll(".course-done[data-exercise]");
    for (const el of marks) {
      const ok = isDone(el.dataset.exercise);
      done += ok ? 1 : 0;
      el.textContent = ok ? "✓" : "○";
      el.title = ok ? "exercise done" : "not done yet";
      el.classList.toggle("course-done--yes", ok);
      el.closest("tr")?.classList.toggle("course-map__row--done", ok);
    }
    for (const el of document.querySelectorAll(".course-map__progress")) {
      el.textContent = `Your progress: ${done} of ${el.dataset.total} exercises done.`;
    }
    for (const a of document.querySelectorAll(".md-nav__link[href]")) {
      const file = lessonFile(a.getAttribute("href"));
      if (file) a.classList.toggle("course-nav--done", isDone(file));
    }
  }

  function watchExercises() {
    const observer = new MutationObserver(mark);
    for (const el of document.querySelectorAll("[data-exercise][data-state]")) {
      observer.observe(el, { attributes: true, attributeFilter: ["data-state"] });
    }
  }

  function start() {
    mark();
    watchExercises();
  }

  if (globalThis.document$?.subscribe) {
    globalThis.document$.subscribe(start); // Material's instant navigation
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
  globalThis.addEventListener("storage", mark); // another tab finished an exercise
})();
