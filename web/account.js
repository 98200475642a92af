// The account line at the top of every page of a site built for a course server:
// "Signed in as NAME · Sign out", or "Sign in to submit" (a link to the server's sign-in
// page), or a quiet note that the server is unreachable (the course keeps working offline).

import { currentSession, onSession, signInURL, signOut } from "./server.js";
import { onForeignWork, onServerMerge, takeOverBrowser } from "./sync.js";

let unsubscribe = null;
let unsubscribeMerge = null;
let unsubscribeForeign = null;

function render(line, session) {
  line.dataset.account = session.state;
  line.replaceChildren();
  if (session.state === "loading") {
    line.textContent = "Course server: checking whether you are signed in…";
  } else if (session.state === "signed-in") {
    const name = document.createElement("strong");
    name.textContent = session.user?.name || session.user?.login || "you";
    const out = document.createElement("button");
    out.type = "button";
    out.className = "course-account__signout";
    out.dataset.action = "sign-out";
    out.textContent = "Sign out";
    out.addEventListener("click", async () => {
      out.disabled = true;
      const reply = await signOut();
      if (!reply.ok && currentSession().state === "signed-in") {
        out.disabled = false;
        line.append(` ${reply.error}`);
      }
    });
    line.append("Signed in as ", name, " · ", out);
  } else if (session.state === "signed-out") {
    const link = document.createElement("a");
    link.href = signInURL();
    link.dataset.action = "sign-in";
    link.textContent = "Sign in to submit";
    line.append(link, " your exercises and keep your work on the course server.");
  } else {
    line.textContent = "Course server unreachable: your work is kept in this browser.";
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
  takeOver.textContent = "Remove it from this browser and load my work";
  takeOver.addEventListener("click", () => takeOverBrowser());
  foreign.append(
    " This browser holds work saved under another account; it is not sent to yours, and yours is not loaded. ",
    takeOver,
  );
  unsubscribe = onSession((session) => {
    render(line, session);
    line.append(merged, foreign);
  });
  unsubscribeForeign = onForeignWork((is) => {
    foreign.hidden = !is;
  });
  unsubscribeMerge = onServerMerge((keys) => {
    merged.textContent = ` Brought ${keys.length} ${keys.length === 1 ? "item" : "items"} of your work from the course server.`;
  });
}
