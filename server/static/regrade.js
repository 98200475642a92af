// A re-grade's page: asks the server how far it is every two seconds and shows it, until
// every submission has a result again. The page works without it (reload to see).
// Its words are the page's, in the page's language: the box holds the progress text as
// patterns with {done} and {total}, one for each plural category of the language
// (data-graded-one, -few, -many, -other), chosen here with Intl.PluralRules.
(function () {
  "use strict";
  const box = document.querySelector("[data-progress-url]");
  if (!box) return;
  const url = box.dataset.progressUrl;
  const text = box.querySelector("[data-progress-text]");
  const bar = box.querySelector("progress");
  const finished = box.querySelector("[data-when-done]");
  const overtaken = box.querySelector("[data-when-overtaken]");
  const plural = new Intl.PluralRules(document.documentElement.lang || "en");

  function fill(pattern, progress) {
    return pattern.replace("{done}", String(progress.done)).replace("{total}", String(progress.total));
  }

  function gradedText(progress) {
    const data = box.dataset;
    const category = plural.select(progress.done);
    const key = `graded${category[0].toUpperCase()}${category.slice(1)}`;
    const pattern = data[key] ?? data.gradedOther ?? data.gradedMany;
    return pattern === undefined ? null : fill(pattern, progress);
  }

  function show(progress) {
    if (progress.state === "overtaken") {
      overtaken.hidden = false;
      const link = overtaken.querySelector("a");
      // The link's own query (?lang=) stays: the page it opens speaks the same language.
      const query = new URL(link.href, document.baseURI).search;
      link.href = `/instructor/regrades/${Number(progress.newer)}${query}`;
      return;
    }
    const said = gradedText(progress);
    if (said !== null) text.textContent = said;
    bar.max = Math.max(progress.total, 1);
    bar.value = progress.done;
    if (box.dataset.doneOf !== undefined) bar.textContent = fill(box.dataset.doneOf, progress);
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
