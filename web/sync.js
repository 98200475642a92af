// The learner's work follows them through the course server (GET/PUT api/progress): once
// signed in, the server's copy is merged into this browser exactly as "Import my work" merges
// a file (transfer.js: readWorkFile, planImport, applyImport keeping what is newer here), then
// this browser's whole work goes back up. A PUT another browser beat (409) is merged and sent
// again, a few times at most. Later saves are sent a few seconds after the last one, and once
// more as the page is left. Nothing here removes an item of this browser's work, except
// when the learner asks to take over a browser that holds another account's work.
//
// A shared computer: the browser remembers which account its work was synced with. When
// another account signs in there, nothing is merged or sent either way (the first learner's
// work must not land in the second's account, nor the reverse) until the new learner
// chooses to clear this browser's work and load their own (`takeOverBrowser`).

import { api, currentSession, onSession, serverURL } from "./server.js";
import { clearWork, onWorkChanged, setWorkOwner, workOwner } from "./storage.js";
import { applyImport, exportWork, planImport, readWorkFile } from "./transfer.js";

const PUSH_DELAY_MS = 5000;
const MAX_TRIES = 4;
const MY_ENGINE_SETTING = "setting/my-engine"; // storage.js's key, under the work prefix
const KEEPALIVE_LIMIT = 60_000; // bytes: a browser sends at most 64 KiB with keepalive

let revision = null; // the server's revision this browser's work was last merged with
let synced = false; // merged with the server at least once in this tab
let dirty = false; // saved here since the last push
let timer = null;
let running = null;
let applying = false;
let started = false;
let foreign = false; // this browser's work belongs to another account of the server
const mergeListeners = new Set();
const foreignListeners = new Set();

function account(user) {
  return `${serverURL()}#${user.id}`;
}

/** Call `listener(true|false)` when this browser's work is found to be another account's,
 *  and again when that ends. */
export function onForeignWork(listener) {
  foreignListeners.add(listener);
  listener(foreign);
  return () => foreignListeners.delete(listener);
}

function setForeign(value) {
  foreign = value;
  for (const listener of foreignListeners) listener(value);
}

/** The signed-in learner takes over this browser: the other account's work is removed from
 *  it (that account keeps its copy on the server), then the learner's own is loaded. */
export function takeOverBrowser() {
  const session = currentSession();
  if (session.state !== "signed-in") return Promise.resolve(false);
  clearWork();
  setWorkOwner(account(session.user));
  setForeign(false);
  revision = null;
  synced = false;
  return sync();
}

/** Call `listener(keys)` after work from the server was written here (keys after the prefix). */
export function onServerMerge(listener) {
  mergeListeners.add(listener);
  return () => mergeListeners.delete(listener);
}

/** Merge the server's `work` (an exported work object, or null) into this browser; false when
 *  this page cannot read it (a newer course's, an item it does not know) or this browser's
 *  storage refused it: then nothing may be sent over it either, or the server would lose what
 *  is only there. */
function merge(work) {
  if (!work) return true;
  const read = readWorkFile(JSON.stringify(work));
  if (read.error) return false;
  const plan = planImport(read.work);
  // The server never turns My engine on here: the code it would run in this tab (passed files
  // kept on the server) runs only once the learner turns the switch on in this browser.
  plan.add = plan.add.filter((key) => key !== MY_ENGINE_SETTING);
  const keys = [...plan.add, ...plan.replace];
  if (!keys.length) return true;
  applying = true;
  try {
    if (applyImport(plan, { keepNewer: true }).error) return false; // storage refused: as above
  } finally {
    applying = false;
  }
  for (const listener of mergeListeners) listener(keys);
  return true;
}

/** Fetch, merge, push; on a 409, merge what the other browser wrote and push again. */
async function syncNow() {
  let reply = await api("GET", "api/progress");
  if (!reply.ok) return false;
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    if (!merge(reply.data?.work ?? null)) {
      dirty = true; // kept here; sent once this page can read the server's work (a reload)
      return false;
    }
    revision = reply.data?.revision ?? 0;
    dirty = false;
    const put = await api("PUT", "api/progress", { revision, work: exportWork() });
    if (put.ok) {
      revision = put.data?.revision ?? revision + 1;
      synced = true;
      return true;
    }
    if (put.status !== 409) {
      dirty = true;
      return false;
    }
    // Another browser wrote first: its answer carries {revision, work}; else ask again.
    reply = put.data && "revision" in put.data ? put : await api("GET", "api/progress");
    if (!reply.ok && reply.status !== 409) break;
  }
  dirty = true;
  return false;
}

/** Run one sync at a time; a sync asked for while one runs follows it. */
export function sync() {
  if (foreign || currentSession().state !== "signed-in") return Promise.resolve(false);
  clearTimeout(timer);
  timer = null;
  const next = (running ?? Promise.resolve()).then(syncNow).catch(() => false);
  running = next.finally(() => {
    if (running === next) running = null;
  });
  return next;
}

function scheduled() {
  if (applying || foreign || currentSession().state !== "signed-in") return;
  dirty = true;
  clearTimeout(timer);
  timer = setTimeout(sync, PUSH_DELAY_MS);
}

/** The page is being left: send unsent work with keepalive, if it is small enough. */
function pushOnLeave() {
  if (!dirty || !synced || foreign || currentSession().state !== "signed-in") return;
  const body = { revision, work: exportWork() };
  if (JSON.stringify(body).length > KEEPALIVE_LIMIT) return; // sent on the next visit
  clearTimeout(timer);
  timer = null;
  dirty = false;
  api("PUT", "api/progress", body, { keepalive: true });
}

/** Start following the session: sync on sign-in (and on load when signed in), then push saves. */
export function startSync() {
  if (started) return;
  started = true;
  onSession((session, before) => {
    const user = session.user?.id ?? null;
    if (session.state === "signed-in" && (before.state !== "signed-in" || before.user?.id !== user)) {
      revision = null;
      synced = false;
      const owner = workOwner();
      if (owner && owner !== account(session.user)) return setForeign(true);
      setForeign(false);
      setWorkOwner(account(session.user)); // work made here signed out joins this account
      sync();
    }
    if (session.state !== "signed-in") {
      clearTimeout(timer);
      timer = null;
      if (foreign) setForeign(false);
    }
  });
  onWorkChanged(scheduled);
  globalThis.addEventListener?.("pagehide", pushOnLeave);
}
