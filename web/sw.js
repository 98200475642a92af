// The course's service worker, one for two jobs:
//
// 1. Cross-origin isolation on any host. Every same-origin response it hands to a page gets
//    COOP/COEP, so a static host that cannot set headers (GitHub Pages) still gives the page
//    SharedArrayBuffer, and Stop interrupts Python instead of restarting it.
// 2. Offline after the first visit. Every file of the build (lessons, Pyodide, the wheels, the
//    explorer) is kept in one cache named after the build; pages are served from it, so a
//    learner on a train reads, runs cells, checks exercises and trains microGPT.
//
// The build (hooks/site_build.py) writes this file to the site's root with BUILD filled in:
// {version, headers, files: {path: [sha256 prefix, bytes, ahead]}}: files `ahead` (true) are kept
// on the first visit; a page in one language ("ru") on the first visit of a page in that
// language; the others (the notebooks' pages) once a page asks for them. A new build is a new version:
// it fills its own cache while the old one still serves (reusing files whose hash did not
// change, fetching the rest past the HTTP cache, checking every hash), then replaces it when
// the learner reloads from the notice or closes the course's tabs. No stale file survives.
//
// The first install takes over at once and fills its cache afterwards, when the page asks
// ("cache-course"): the page's one reload for isolation then comes at once, not after 20 MB,
// and the page asks only once it has settled (web/main.js: its Python started and its first
// runs done), so that a first visit's 25 MB never compete with Python's start.
//
// A build for a course server (SUBMIT_URL) gives BUILD.server, its address: the server's own
// paths there (api/, signin/, instructor/, health) are left to the network, untouched, never
// kept nor served from the cache, so a server on the site's own origin answers them itself.

const BUILD = self.__COURSE_BUILD__;
const CACHE = `course-${BUILD.version}`;
const SCOPE = new URL(self.registration.scope);
const PARALLEL = 6;

/** The site path a request stands for: "lessons/day01_derivative/", or null if not ours. */
function sitePath(url) {
  if (url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return null;
  return decodeURIComponent(url.pathname.slice(SCOPE.pathname.length)).replace(/(^|\/)index\.html$/, "$1");
}

const SERVER = BUILD.server ? new URL(BUILD.server) : null;
const SERVER_PATH = /^(?:(?:api|signin|instructor)(?:\/|$)|health$)/;

/** Whether `url` is one of the course server's own paths (never the cache's). */
function serverPath(url) {
  if (!SERVER || url.origin !== SERVER.origin || !url.pathname.startsWith(SERVER.pathname)) return false;
  return SERVER_PATH.test(url.pathname.slice(SERVER.pathname.length));
}

async function sha256(buffer) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A copy of `response` with the isolation headers (and `extra`) added. */
function withHeaders(response, extra = {}, body = response.body) {
  if (response.type === "opaque" || response.status === 0) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries({ ...BUILD.headers, ...extra })) headers.set(name, value);
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/** Fetch one file of the build and check it is this build's; null when the host serves another. */
async function fetchChecked(path, revision) {
  const url = new URL(path, SCOPE);
  // First let the HTTP cache revalidate (a 304 is cheap); if what comes back is not this
  // build's file (a stale cache, a host halfway through a deploy), go past the cache once.
  for (const mode of ["no-cache", "reload"]) {
    const response = await fetch(url, { cache: mode });
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
    const body = await response.arrayBuffer();
    if ((await sha256(body)).startsWith(revision)) {
      return withHeaders(response, { "X-Course-Revision": revision }, body);
    }
  }
  return null;
}

/** A file this build already holds in another version's cache, unchanged. */
async function reuse(path, revision) {
  const url = new URL(path, SCOPE).href;
  for (const name of await caches.keys()) {
    if (name === CACHE || !name.startsWith("course-")) continue;
    const old = await (await caches.open(name)).match(url);
    if (old?.headers.get("X-Course-Revision") === revision) return old;
  }
  return null;
}

/** Whether a file is kept ahead for a learner reading `langs`: every shared file (Pyodide, the
 *  wheels, the styles) and the pages of those languages; a page of another language once visited. */
const keptAhead = (ahead, langs) => ahead === true || langs.has(ahead);

/** The languages whose pages an earlier version of the course kept: an update keeps them too. */
async function languagesKept() {
  const langs = new Set();
  for (const name of await caches.keys()) {
    if (name === CACHE || !name.startsWith("course-")) continue;
    for (const request of await (await caches.open(name)).keys()) {
      const ahead = BUILD.files[sitePath(new URL(request.url))]?.[2];
      if (typeof ahead === "string") langs.add(ahead);
    }
  }
  return langs;
}

/** Put every file a learner reading `langs` keeps in this version's cache (what is there already is kept). */
async function cacheCourse(langs) {
  const cache = await caches.open(CACHE);
  const have = new Set((await cache.keys()).map((request) => request.url));
  const todo = Object.entries(BUILD.files).filter(
    ([path, [, , ahead]]) => keptAhead(ahead, langs) && !have.has(new URL(path, SCOPE).href),
  );
  const worker = async () => {
    for (let entry = todo.pop(); entry; entry = todo.pop()) {
      const [path, [revision]] = entry;
      const response = (await reuse(path, revision)) ?? (await fetchChecked(path, revision));
      if (!response) throw new Error(`${path} on the server is not the file of this build`);
      await cache.put(new URL(path, SCOPE).href, response);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
}

/** {cached, total, bytes}: how many of the files kept ahead for `langs` this version's cache holds. */
async function cacheState(langs) {
  const cache = await caches.open(CACHE);
  const have = new Set((await cache.keys()).map((request) => request.url));
  const ahead = Object.entries(BUILD.files).filter(([, [, , first]]) => keptAhead(first, langs));
  let cached = 0;
  let bytes = 0;
  for (const [path, [, size]] of ahead) {
    if (have.has(new URL(path, SCOPE).href)) {
      cached += 1;
      bytes += size;
    }
  }
  return { version: BUILD.version, cached, total: ahead.length, bytes };
}

self.addEventListener("install", (event) => {
  // An update fills its cache before it may take over (so offline keeps working across it);
  // the very first install takes over at once (the page then asks for the cache).
  event.waitUntil(self.registration.active ? languagesKept().then(cacheCourse) : self.skipWaiting());
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("course-") && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("message", (event) => {
  const reply = (message) => event.source?.postMessage({ ...message, type: "course-cache" });
  // The page's language ("en" when an older page does not say).
  const langs = new Set([typeof event.data?.lang === "string" ? event.data.lang : "en"]);
  if (event.data?.type === "cache-course") {
    event.waitUntil(
      cacheCourse(langs)
        .then(() => cacheState(langs))
        .then(reply)
        .catch(async (err) => reply({ ...(await cacheState(langs)), error: String(err?.message ?? err) })),
    );
  } else if (event.data?.type === "cache-state") {
    event.waitUntil(cacheState(langs).then(reply));
  } else if (event.data?.type === "skip-waiting") {
    self.skipWaiting();
  }
});

async function respond(request, path) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(new URL(path, SCOPE).href);
  // Kept with the headers already added: handed over as it is, so the browser can reuse
  // its compiled code for the file (Pyodide's WebAssembly and JavaScript) on every visit.
  if (cached) return cached;
  let response;
  try {
    response = await fetch(request);
  } catch (err) {
    if (request.mode !== "navigate") throw err;
    return offlinePage(path);
  }
  // A file of this build fetched before the cache was filled: keep it if it is this build's.
  const entry = BUILD.files[path];
  if (entry && response.ok && !response.redirected) {
    const body = await response.clone().arrayBuffer();
    if ((await sha256(body)).startsWith(entry[0])) {
      await cache.put(
        new URL(path, SCOPE).href,
        withHeaders(response, { "X-Course-Revision": entry[0] }, body),
      );
    }
  }
  return withHeaders(response);
}

const escapeHTML = (text) =>
  text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

/** The page a learner gets offline for a page this browser does not keep (a notebook's page
 *  not opened online yet): small and styled on its own (no file of the site is needed), in
 *  the page's language, with links to what is kept: the lesson itself, the course map and the
 *  home page, in that language. */
function offlinePage(path) {
  const first = path.split("/")[0];
  const lang = first in BUILD.offlinePage && path.includes("/") ? first : "en";
  const prefix = lang === "en" ? "" : `${lang}/`;
  const words = BUILD.offlinePage[lang];
  const say = (key, values = {}) =>
    escapeHTML(words[key]).replace(/\{\{(\w+)\}\}/g, (_, name) => values[name] ?? "");
  const link = (to, text) => `<a href="${escapeHTML(new URL(prefix + to, SCOPE).href)}">${text}</a>`;
  const notebook = /^notebooks\/(day\d\d_[a-z0-9_]+)\/$/.exec(path.slice(prefix.length));
  const links = [
    notebook && `<li>${say("lessonItem", { lesson: link(`lessons/${notebook[1]}/`, say("lesson")) })}</li>`,
    `<li>${link("map/", say("map"))}</li>`,
    `<li>${link("", say("home"))}</li>`,
  ].filter(Boolean);
  const html = `<!doctype html>
<html lang="${lang}"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark"><title>${say("title")}</title>
<style>
body { font: 1rem/1.5 system-ui, sans-serif; max-width: 36rem; margin: 3rem auto; padding: 0 1rem;
  color: #1f2328; background: #fff; }
h1 { font-size: 1.4rem; } a { color: #3949ab; } li { margin: 0.3rem 0; }
@media (prefers-color-scheme: dark) { body { color: #e3e3e8; background: #1e2129; } a { color: #9fa8da; } }
</style>
<main class="course-offline-page" data-offline-page>
<h1>${say("heading")}</h1>
<p>${say(notebook ? "notebook" : "page")}</p>
<ul>${links.join("")}</ul>
</main></html>`;
  return new Response(html, {
    status: 503,
    headers: { "Content-Type": "text/html; charset=utf-8", ...BUILD.headers },
  });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (serverPath(url)) return; // the network's alone, as if there were no worker
  const path = sitePath(url);
  if (path === null) return;
  event.respondWith(respond(request, path));
});
