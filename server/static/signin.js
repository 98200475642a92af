// The sign-in pages' forms, sent to the course server's JSON API.
//
// Each form says where it goes (data-api). Before sending, the script asks
// GET /api/session for the CSRF token and sends it in X-CSRF-Token; the server's
// {"error"} text is shown in the form's aria-live message. After signing in the page
// goes to ?next= when that is a path on this site, else to the course's home.
//
// The page speaks the learner's language: the script's own words are the page's (data-*
// attributes of <body>, from the course's catalog), and every request asks the server to
// answer in the page's language (<html lang>, sent as Accept-Language).

"use strict";

const said = document.body.dataset;
const LANGUAGE = { "Accept-Language": document.documentElement.lang || "en" };

// Where to go after signing in: ?next= when it is on this site or on the course's own
// site (COURSE_URL, when another host serves the course), else the course's home. Never
// another origin ("//host", "/\\host", or anything the URL parser resolves elsewhere); the
// answer is absolute, so that a path like "/.//host" stays where it was meant to.
function nextPath(search) {
  const home = document.body.dataset.courseHome || "/";
  const allowed = [window.location.origin, document.body.dataset.courseOrigin].filter(Boolean);
  const wanted = new URLSearchParams(search).get("next");
  if (!wanted || /[\\\u0000-\u001f\u007f]/.test(wanted)) return home;
  const relative = wanted[0] === "/" && wanted[1] !== "/";
  if (!relative && !/^https?:\/\//i.test(wanted)) return home;
  try {
    const url = new URL(wanted, window.location.origin);
    return allowed.includes(url.origin) ? url.href : home;
  } catch {
    return home;
  }
}

async function csrfToken() {
  const response = await fetch("/api/session", {
    credentials: "same-origin",
    cache: "no-store",
    headers: LANGUAGE,
  });
  if (!response.ok) throw new Error(await errorText(response));
  return (await response.json()).csrf;
}

async function errorText(response) {
  try {
    const body = await response.json();
    if (body && typeof body.error === "string" && body.error) return body.error;
  } catch {
    // not JSON: a proxy's page, say
  }
  return said.serverStatus.replace("{status}", String(response.status));
}

function fields(form) {
  const data = {};
  for (const input of form.querySelectorAll("input[name]")) {
    // An optional field left empty is not sent (the link page's password).
    if (input.value !== "" || input.required) data[input.name] = input.value;
  }
  return data;
}

async function send(form) {
  const message = form.querySelector(".message");
  const buttons = form.querySelectorAll("button");
  message.classList.remove("error");
  message.textContent = "…";
  buttons.forEach((b) => (b.disabled = true));
  try {
    const response = await fetch(form.dataset.api, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        ...LANGUAGE,
        "Content-Type": "application/json",
        "X-CSRF-Token": await csrfToken(),
      },
      body: JSON.stringify(fields(form)),
    });
    if (!response.ok) throw new Error(await errorText(response));
    message.textContent = form.dataset.then === "reload" ? said.signedOut : said.signedIn;
    if (form.dataset.then === "reload") window.location.reload();
    else window.location.assign(nextPath(window.location.search));
  } catch (error) {
    message.classList.add("error");
    message.textContent = error instanceof TypeError ? said.networkError : error.message;
    buttons.forEach((b) => (b.disabled = false));
  }
}

for (const form of document.querySelectorAll("form[data-api]")) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    send(form);
  });
}
