// The page's side of the service worker (web/sw.js): register it, reload once when it first
// takes over a page that is not cross-origin isolated (its headers then make the page
// isolated), ask it to keep the whole course for offline use once the page has settled (never
// while Python starts), and say when a new version of the course is ready. The course map
// shows how much of the course this browser keeps.

import { pageLanguage } from "./language.js";
import { flushSaves } from "./storage.js";
import { t, tParts } from "./i18n.js";

const RELOADED = "derivative-to-gpt/isolation-reload";

/** What the worker last said: {version, cached, total, bytes, error?} or {unsupported}. */
let cacheState = null;
const stateListeners = new Set();

function setCacheState(state) {
  cacheState = state;
  for (const listener of stateListeners) listener(state);
}

/** Call `listener` with the offline cache's state now (if known) and on every change. */
export function onCacheState(listener) {
  stateListeners.add(listener);
  if (cacheState) listener(cacheState);
  return () => stateListeners.delete(listener);
}

function reloadOnceForIsolation() {
  try {
    if (sessionStorage.getItem(RELOADED)) return false; // this browser does not isolate: no loop
    sessionStorage.setItem(RELOADED, "1");
  } catch {
    return false; // no session storage: a reload loop could not be ruled out
  }
  location.reload();
  return true;
}

function updateNotice(registration) {
  if (document.querySelector(".course-update-notice")) return;
  const notice = document.createElement("div");
  notice.className = "course-update-notice";
  notice.setAttribute("role", "status");
  const reload = document.createElement("button");
  reload.type = "button";
  reload.className = "md-button course-button";
  reload.dataset.action = "update";
  reload.textContent = t("offline.reload");
  reload.onclick = () => {
    flushSaves();
    const waiting = registration.waiting;
    if (waiting) waiting.postMessage({ type: "skip-waiting" });
    else location.reload(); // another tab has already switched to the new version
  };
  notice.append(...tParts("offline.newVersion", { reload }));
  document.body.append(notice);
}

/** Register the service worker; once `settled` resolves (the page has loaded, and its Python
 *  has started and run what was asked at once), ask it to keep the course for offline use. */
export function startServiceWorker(siteRoot, settled = Promise.resolve()) {
  const sw = navigator.serviceWorker;
  if (!sw || !globalThis.isSecureContext) {
    setCacheState({ unsupported: true });
    return;
  }
  const controlledAtLoad = Boolean(sw.controller);
  // The shared files and the pages of the language read here; another language's pages
  // are kept once a page of that language is opened.
  const lang = pageLanguage(siteRoot);
  const keepCourse = () => settled.then(() => sw.controller?.postMessage({ type: "cache-course", lang }));
  sw.addEventListener("message", (event) => {
    if (event.data?.type === "course-cache") setCacheState(event.data);
  });
  sw.addEventListener("controllerchange", () => {
    if (!controlledAtLoad) {
      // First install on a host without isolation headers: one reload brings them.
      if (!globalThis.crossOriginIsolated && reloadOnceForIsolation()) return;
      keepCourse();
    } else {
      location.reload(); // the learner chose the new version here or in another tab
    }
  });
  sw.register(new URL("sw.js", siteRoot).href, { scope: siteRoot.pathname })
    .then((registration) => {
      const offer = () => {
        if (registration.waiting && sw.controller) updateNotice(registration);
      };
      offer();
      registration.addEventListener("updatefound", () => {
        registration.installing?.addEventListener("statechange", offer);
      });
      // Fill the cache (or finish filling it) whenever a page of the course is opened.
      if (sw.controller) keepCourse();
    })
    .catch(() => {
      // No service worker (blocked, or a browser without one): the course still runs online.
      setCacheState({ unsupported: true });
    });
}

function describe(state) {
  if (state.unsupported) return t("offline.unsupported");
  const mb = (state.bytes / 1e6).toFixed(1);
  if (state.cached === state.total) {
    return t("offline.ready", { mb });
  }
  if (state.error) {
    return t("offline.partial", { cached: state.cached, total: state.total });
  }
  return t("offline.keeping", { cached: state.cached, total: state.total });
}

let unsubscribeMap = null;

/** On the course map: a line saying whether the course works offline in this browser. */
export function showOfflineState(root) {
  unsubscribeMap?.();
  unsubscribeMap = null;
  const progress = root.querySelector(".course-map__progress");
  if (!progress) return;
  const line = document.createElement("p");
  line.className = "course-offline";
  line.dataset.offline = "unknown";
  line.setAttribute("role", "status");
  progress.closest("p")?.after(line);
  unsubscribeMap = onCacheState((state) => {
    line.dataset.offline = state.unsupported
      ? "unsupported"
      : state.cached === state.total
        ? "ready"
        : "partial";
    line.textContent = describe(state);
  });
}
