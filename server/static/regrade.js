// A re-grade's page: asks the server how far it is every two seconds and shows it, until
// every submission has a result again. The page works without it (reload to see).
(function () {
  "use strict";
  const box = document.querySelector("[data-progress-url]");
  if (!box) return;
  const url = box.dataset.progressUrl;
  const text = box.querySelector("[data-progress-text]");
  const bar = box.querySelector("progress");
  const finished = box.querySelector("[data-when-done]");
  const overtaken = box.querySelector("[data-when-overtaken]");

  function show(progress) {
    if (progress.state === "overtaken") {
      overtaken.hidden = false;
      overtaken.querySelector("a").href = `/instructor/regrades/${Number(progress.newer)}`;
      return;
    }
    text.textContent = `${progress.done} of ${progress.total} graded`;
    bar.max = Math.max(progress.total, 1);
    bar.value = progress.done;
    bar.textContent = `${progress.done} of ${progress.total}`;
    finished.hidden = progress.state !== "done";
  }

  async function poll() {
    try {
      const response = await fetch(url, {
        credentials: "same-origin",
        cache: "no-store",
        headers: { accept: "application/json" },
      });
      if (response.ok) {
        const progress = await response.json();
        show(progress);
        if (progress.state === "done" || progress.state === "overtaken") return;
      } else if (response.status === 404 || response.status === 401) {
        return; // signed out, or not ours: nothing more to show
      }
    } catch (error) {
      // The network or the server hiccuped: ask again at the next beat.
    }
    setTimeout(poll, 2000);
  }

  if (!finished.hidden || !overtaken.hidden) return;
  setTimeout(poll, 1000);
})();
