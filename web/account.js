// The account line at the top of every page of a site built for a course server:
// "Signed in as NAME · Sign out", or "Sign in to submit" (a link to the server's sign-in
// page), or a quiet note that the server is unreachable (the course keeps working offline).

import { currentSession, onSession, signInURL, signOut } from "./server.js";
import { onForeignWork, onServerMerge, takeOverBrowser } from "./sync.js";
import { t, tParts } from "./i18n.js";

let unsubscribe = null;
let unsubscribeMerge = null;
let unsubscribeForeign = null;

function render(line, session) {
  line.dataset.account = session.state;
  line.replaceChildren();
  if (session.state === "loading") {
    line.textContent = t("account.checking");
  } else if (session.state === "signed-in") {
    const name = document.createElement("strong");
    name.textContent = session.user?.name || session.user?.login || t("account.you");
    const out = document.createElement("button");
    out.type = "button";
    out.className = "course-account__signout";
    out.dataset.action = "sign-out";
    out.textContent = t("account.signOut");
    out.addEventListener("click", async () => {
      out.disabled = true;
      const reply = await signOut();
      if (!reply.ok && currentSession().state === "signed-in") {
        out.disabled = false;
        line.append(` ${reply.error}`);
      }
    });
    line.append(...tParts("account.signedIn", { name, out }));
  } else if (session.state === "signed-out") {
    const link = document.createElement("a");
    link.href = signInURL();
    link.dataset.action = "sign-in";
    link.textContent = t("account.signIn");
    line.append(...tParts("account.signInTo", { link }));
  } else {
    line.textContent = t("account.unreachable");
  }
}

/** Put the account line at the top of the page's article (every page, instant navigation too). */
export function mountAccount(root) {
  unsubscribe?.();
  unsubscribeMerge?.();
  unsubscribeForeign?.();
  const line = document.createElement("p");
  line.className = "course-account";
  root.prepend(line);
  const merged = document.createElement("span");
  merged.className = "course-account__merged";
  merged.setAttribute("role", "status");
  // Another account's work is in this browser: say so, and let this learner take it over.
  const foreign = document.createElement("span");
  foreign.className = "course-account__foreign";
  foreign.dataset.foreignWork = "";
  foreign.hidden = true;
  const takeOver = document.createElement("button");
  takeOver.type = "button";
  takeOver.dataset.action = "take-over";
  takeOver.textContent = t("account.takeOver");
  takeOver.addEventListener("click", () => takeOverBrowser());
  foreign.append(" ", ...tParts("account.foreign", { takeOver }));
  unsubscribe = onSession((session) => {
    render(line, session);
    line.append(merged, foreign);
  });
  unsubscribeForeign = onForeignWork((is) => {
    foreign.hidden = !is;
  });
  unsubscribeMerge = onServerMerge((keys) => {
    merged.textContent = ` ${t("account.merged", { count: keys.length })}`;
  });
}
