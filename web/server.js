// The course server (server/README.md), when the site was built for one: SUBMIT_URL puts its
// address in every page as <meta name="course-server">. Unset, serverURL() is null and nothing
// here ever asks anything of a server.
//
// This module holds the learner's session as the server last told it (GET api/session): who
// is signed in, and the CSRF token every POST and PUT carries as X-CSRF-Token. A server that
// does not answer is "unreachable": the page says so quietly and everything else keeps working.

import { language, t } from "./i18n.js";

/** The server's address (with its trailing slash) as a URL, or null for a static site. */
export function serverURL() {
  const content = document.querySelector('meta[name="course-server"]')?.getAttribute("content");
  if (!content) return null;
  try {
    return new URL(content, location.href);
  } catch {
    return null;
  }
}

/** `<server>/signin/`: where the learner signs in or joins a class. */
/** The server's sign-in page, in this page's language (?lang=), which comes back to this page
 *  after signing in. */
export function signInURL() {
  const url = new URL("signin/", serverURL());
  url.searchParams.set("next", location.href);
  url.searchParams.set("lang", language());
  return url.href;
}

/** {state: "loading" | "signed-in" | "signed-out" | "unreachable", user, csrf} */
let session = { state: "loading", user: null, csrf: null };
let loading = null;
const listeners = new Set();

export function currentSession() {
  return session;
}

function setSession(next) {
  const before = session;
  session = next;
  for (const listener of listeners) listener(session, before);
}

/** Call `listener(session, before)` now and on every change; returns an unsubscribe. */
export function onSession(listener) {
  listeners.add(listener);
  listener(session, { state: "loading", user: null, csrf: null });
  return () => listeners.delete(listener);
}

/** Ask the server who is signed in (once at a time); resolves to the session. */
export function loadSession() {
  if (!serverURL()) return Promise.resolve(session);
  loading ??= (async () => {
    const reply = await api("GET", "api/session", undefined, { retryCsrf: false });
    if (reply.ok && reply.data && "csrf" in reply.data) {
      const user = reply.data.user ?? null;
      setSession({ state: user ? "signed-in" : "signed-out", user, csrf: reply.data.csrf ?? null });
    } else {
      setSession({ state: "unreachable", user: null, csrf: session.csrf });
    }
    loading = null;
    return session;
  })();
  return loading;
}

/** The session, loaded first if it is not known yet. */
export async function knownSession() {
  return session.state === "loading" ? loadSession() : session;
}

/** The server answered 401: the session ended (signed out elsewhere, expired). */
export function sessionEnded() {
  if (session.state === "signed-in") setSession({ ...session, state: "signed-out", user: null });
}

export async function signOut() {
  const reply = await api("POST", "api/signout", {});
  await loadSession();
  return reply;
}

/** One request to the server: {ok, status, data, error}. Never throws; status 0 when the
 *  server could not be reached. A POST or PUT refused for its CSRF token is sent once more
 *  with a fresh token (the session may have changed since the page loaded). `keepalive`: a
 *  request that may outlive the page (sent as it is left). */
export async function api(method, path, body, { keepalive = false, retryCsrf = true } = {}) {
  const base = serverURL();
  if (!base) return { ok: false, status: 0, data: null, error: t("server.none") };
  // The server's refusals come back in this page's language (it negotiates as its pages do).
  const headers = { Accept: "application/json", "Accept-Language": language() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET" && session.csrf) headers["X-CSRF-Token"] = session.csrf;
  let response;
  try {
    response = await fetch(new URL(path, base), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "include",
      cache: "no-store",
      keepalive,
    });
  } catch {
    return { ok: false, status: 0, data: null, error: t("server.unreachable") };
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    // not JSON (a proxy's error page): the status says enough
  }
  const error = typeof data?.error === "string" ? data.error : null;
  if (
    retryCsrf &&
    method !== "GET" &&
    response.status === 403 &&
    // Which refusal it is, whatever its language (an older server: its English text).
    (data?.reason === "csrf" || /csrf|security token/i.test(error ?? "")) &&
    !keepalive
  ) {
    const sender = session.user?.id ?? null;
    await loadSession();
    // Someone else signed in since (another tab of a shared computer): what this request
    // carries (work, a submission) is the first learner's, never sent again as the other's.
    if (sender === null || session.user?.id === sender) {
      return api(method, path, body, { retryCsrf: false });
    }
  }
  if (response.status === 401) sessionEnded();
  return {
    ok: response.ok,
    status: response.status,
    data,
    error: response.ok ? null : (error ?? describeStatus(response.status)),
  };
}

function describeStatus(status) {
  if (status === 401) return t("server.notSignedIn");
  if (status === 413) return t("server.tooLarge");
  if (status === 429) return t("server.tooMany");
  if (status >= 500) return t("server.failed", { status });
  return t("server.refused", { status });
}

// Back to a tab whose server was unreachable or that was signed out (maybe signed in since,
// in another tab): ask again.
globalThis.document?.addEventListener("visibilitychange", () => {
  if (document.visibilityState !== "visible" || !serverURL()) return;
  if (session.state === "unreachable" || session.state === "signed-out") loadSession();
});
