// Entry point of the course runtime on every page. Loaded once; Material's instant
// navigation swaps page contents and emits on `document$`, and each emission mounts
// the new page's cells and exercises against the same Python worker.

import { PythonClient } from "./client.js";
import { mountCells } from "./cells.js";
import { mountMyEngine } from "./myengine.js";
import { mountExercises } from "./exercises.js";
import { mountStatus } from "./status.js";
import { mountExplorerPage } from "./explorer/index.js";
import { mountModelExplorerPage } from "./model/index.js";
import { flushSaves } from "./storage.js";
import { showProgress } from "./progress.js";
import { mountQuestions } from "./questions.js";
import { showOfflineState, startServiceWorker } from "./offline.js";
import { mountTransfer } from "./transferui.js";
import { loadSession, serverURL } from "./server.js";
import { startSync } from "./sync.js";
import { mountAccount } from "./account.js";
import { mountAccess } from "./access.js";
import { mountLanguageSwitch, pageLanguage, withoutLanguage } from "./language.js";
import { setLanguage } from "./i18n.js";

const here = new URL(import.meta.url); // <site>/assets/course/course.js
const siteRoot = new URL("../../", here);
setLanguage(pageLanguage(siteRoot)); // what the runtime says, in the page's language (i18n.js)

const client = new PythonClient({
  indexURL: new URL("pyodide/", siteRoot).href,
  workerURL: new URL("worker.js", here).href,
});
// For other parts of the site (the graph explorer): one worker per tab.
globalThis.coursePython = client;
// Python is already loading if the page's <head> started it: take that worker now.
if (globalThis.courseEarlyPython) client.boot();
// Isolation on hosts without headers, the course offline, and new versions (web/sw.js).
// The course (25 MB) is kept for offline use only once the page has settled, so that
// keeping it never competes with Python's start on a learner's first visit.
startServiceWorker(siteRoot, pageSettled());
// A site built for a course server (SUBMIT_URL): who is signed in, and their work follows them.
// A static site has no such server: nothing is asked of one.
const courseServer = serverURL();
if (courseServer) {
  startSync();
  loadSession();
}

/** Resolves once the page first loaded has settled: loaded and idle, and when it runs Python,
 *  Python started and the runs asked for meanwhile (a first Run pressed at once) done. */
async function pageSettled() {
  if (document.readyState !== "complete") {
    await new Promise((resolve) => window.addEventListener("load", resolve, { once: true }));
  }
  await new Promise((resolve) => {
    if ("requestIdleCallback" in window) requestIdleCallback(resolve, { timeout: 2000 });
    else setTimeout(resolve, 500);
  });
  if (client.worker) await client.settled();
}

/** The page's path inside the site without its language, e.g. "lessons/day05_add_mul" for
 *  the English, Russian and Estonian page alike ("index" for the home page): the work saved on
 *  a page is the same in every language (language.js). */
function pageKey() {
  let path = decodeURIComponent(location.pathname);
  if (path.startsWith(siteRoot.pathname)) path = path.slice(siteRoot.pathname.length);
  path = withoutLanguage(path.replace(/index\.html$/, ""));
  return path.replace(/\/+$/, "") || "index";
}

/** Typeset the page's math with the site's KaTeX. A lesson's is \( \) and \[ \] (arithmatex);
 *  a notebook's page (mkdocs-jupyter) keeps the notebook's own $ and $$. */
function renderMath(root) {
  const delimiters = [
    { left: "\\[", right: "\\]", display: true },
    { left: "\\(", right: "\\)", display: false },
  ];
  if (root.querySelector(".jupyter-wrapper")) {
    delimiters.unshift({ left: "$$", right: "$$", display: true }, { left: "$", right: "$", display: false });
  }
  window.renderMathInElement?.(root, {
    delimiters,
    ignoredClasses: ["course-cell", "course-exercise"],
    throwOnError: false,
  });
}

/** Arriving at "#exercise-…" (a check message's link to the lesson): show that exercise.
 *  Its id is given by the runtime, so neither the browser nor Material could scroll to it. */
function scrollToExercise() {
  const id = decodeURIComponent(location.hash.slice(1));
  if (!id.startsWith("exercise-")) return;
  document.getElementById(id)?.scrollIntoView({ block: "start" });
}

function mount() {
  flushSaves(); // edits typed on the page just left (instant navigation) are kept
  const root = document.querySelector("article") ?? document.body;
  renderMath(root);
  mountAccess(root); // names for math labels, keys for what scrolls (after the math is typeset)
  const page = pageKey();
  mountLanguageSwitch(siteRoot);
  if (courseServer) mountAccount(root);
  const hooks = {}; // how the page's engine is chosen before a cell runs (myengine.js)
  const cells = mountCells(root, { client, page, hooks });
  mountMyEngine(root, { client, cells, hooks }); // before the explorers: they keep the course engine
  const exercises = mountExercises(root, { client, page, siteRoot });
  mountQuestions(root, { page });
  showProgress(root);
  showOfflineState(root);
  mountTransfer(root); // the course map's Export my work / Import my work
  mountExplorerPage(root, client, { page });
  mountModelExplorerPage(root, client); // the model explorer: its own chunk, on demand
  if (cells.length + exercises.length === 0) return;
  mountStatus(root, client);
  if (exercises.length) scrollToExercise();
  // Idle prefetch: Python loads while the reader reads, so the first Run is quick.
  const prefetch = () => client.boot();
  if ("requestIdleCallback" in window) requestIdleCallback(prefetch, { timeout: 1500 });
  else setTimeout(prefetch, 500);
}

// Instant navigation: pending edits are written as soon as the location changes,
// before the next page replaces this one (pagehide and visibilitychange cover the rest).
window.location$?.subscribe?.(() => flushSaves());
if (window.document$?.subscribe) window.document$.subscribe(() => mount());
else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mount);
else mount();
