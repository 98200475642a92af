// Submit beside an exercise's Check, on a site built for a course server: the editor's text
// goes to POST api/submissions, and the block lists the learner's submissions of that
// exercise below it, newest first, each with its state, its score once graded, a late mark
// and the grader's feedback. Submissions still queued or grading are asked after every 1.5 s
// until none is left (and never after the page is left). A live region says what changed.
// The server's text is only ever set as text, never as HTML.

import { button } from "./button.js";
import { api, knownSession, onSession, signInURL } from "./server.js";
import { language, t, tParts } from "./i18n.js";

const POLL_MS = 1500;
const PENDING = new Set(["queued", "grading"]);

function element(tag, className, text) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

function feedbackText(feedback) {
  if (feedback === null || feedback === undefined) return "";
  return typeof feedback === "string" ? feedback : JSON.stringify(feedback, null, 2);
}

/** "Queued", "Grading…", "Score 3/5", "Not graded: …" */
export function describeState(s) {
  if (s.state === "queued") return t("submit.queued");
  if (s.state === "grading") return t("submit.grading");
  if (s.state === "graded") return t("submit.score", { score: s.score ?? 0, max: s.max_score ?? 0 });
  const why = feedbackText(s.feedback).split("\n")[0].trim();
  return t("submit.notGraded", { why: why || t("submit.graderFailed") });
}

const LATE = { accept: "submit.lateAccept", refuse: "submit.lateRefuse" };

/** "Due 1 Dec 2026, 23:59: late work is graded and marked late" */
export function describeDeadline(d) {
  const late =
    d.late_policy === "penalty"
      ? t("submit.latePenalty", { percent: d.penalty_percent })
      : t(LATE[d.late_policy] ?? LATE.accept);
  const passed = Date.parse(d.due_at) < Date.now();
  return t(passed ? "submit.duePassed" : "submit.due", { when: when(d.due_at), late });
}

function when(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? String(iso ?? "")
    : date.toLocaleString(language() === "en" ? undefined : language(), {
        dateStyle: "medium",
        timeStyle: "short",
      });
}

export class Submissions {
  /** `getCode()`: the editor's current text; `keep()`: save it in this browser now. */
  constructor(file, { getCode, keep }) {
    this.file = file;
    this.getCode = getCode;
    this.keep = keep;
    this.items = new Map(); // id -> S
    this.button = button("submit", t("submit.button"), t("submit.title"));

    this.el = element("section", "course-submissions");
    this.el.setAttribute("aria-label", t("submit.label", { file }));
    this.message = element("p", "course-submissions__message");
    this.message.setAttribute("role", "status");
    this.message.dataset.submitMessage = "";
    this.message.hidden = true;
    this.list = element("ol", "course-submissions__list");
    this.list.setAttribute("aria-label", t("submit.listLabel", { file }));
    this.live = element("div", "course-visually-hidden");
    this.live.setAttribute("aria-live", "polite");
    this.live.dataset.submitLive = "";
    this.deadline = element("p", "course-submissions__deadline");
    this.deadline.dataset.deadline = "";
    this.deadline.hidden = true;
    this.el.append(this.deadline, this.message, this.list, this.live);

    this.button.addEventListener("click", () => this.submit());
    let mounted = false;
    this.unsubscribe = onSession((session, before) => {
      if (mounted && !this.el.isConnected) return this.dispose(); // the page was left
      mounted = true;
      if (session.state === "signed-in" && before.state !== "signed-in") this.load();
      if (session.state === "signed-out") this.clearList();
    });
    this.leave = () => this.stopPolling();
    this.back = () => this.poll();
    globalThis.addEventListener("pagehide", this.leave);
    globalThis.addEventListener("pageshow", this.back);
  }

  say(text, { link = false, kind = "info" } = {}) {
    this.message.hidden = false;
    this.message.dataset.kind = kind;
    this.message.replaceChildren(text);
    if (link) {
      const a = element("a", "", t("submit.signIn"));
      a.href = signInURL();
      a.dataset.action = "sign-in";
      this.message.append(" ", ...tParts("submit.signInToSubmit", { link: a }));
    }
  }

  async submit() {
    this.keep(); // whatever happens next, the code stays in this browser
    const code = this.getCode();
    this.button.disabled = true;
    try {
      const session = await knownSession();
      if (session.state === "unreachable") {
        this.say(t("submit.unreachable"), { kind: "error" });
        return;
      }
      if (session.state !== "signed-in") {
        this.say(t("submit.notSignedIn"), { link: true, kind: "error" });
        return;
      }
      this.say(t("submit.sending"));
      const reply = await api("POST", "api/submissions", { exercise: this.file, code });
      if (reply.ok && reply.data?.submission) {
        this.say(t("submit.submitted"));
        this.show(reply.data.submission);
        this.poll();
      } else if (reply.status === 401) {
        this.say(t("submit.sessionEnded"), { link: true, kind: "error" });
      } else {
        this.say(t("submit.notSubmitted", { error: reply.error }), { kind: "error" });
      }
    } finally {
      this.button.disabled = false;
    }
  }

  /** The learner's submissions of this exercise, and its deadline, from the server. */
  async load() {
    this.loadDeadline();
    const reply = await api("GET", `api/submissions?exercise=${encodeURIComponent(this.file)}`);
    if (!reply.ok || !Array.isArray(reply.data?.submissions)) return;
    for (const s of [...reply.data.submissions].reverse()) this.show(s, { quiet: true });
    this.poll();
  }

  async loadDeadline() {
    const reply = await api("GET", "api/deadlines");
    const due = reply.ok ? reply.data?.deadlines?.find((d) => d.exercise === this.file) : null;
    this.deadline.hidden = !due;
    if (due) this.deadline.textContent = describeDeadline(due);
  }

  clearList() {
    this.deadline.hidden = true;
    this.items.clear();
    this.list.replaceChildren();
    this.stopPolling();
  }

  /** Add or update one submission's item; the newest (largest created_at, then id) first. */
  show(s, { quiet = false } = {}) {
    const id = String(s.id);
    const before = this.items.get(id);
    this.items.set(id, s);
    let li = this.list.querySelector(`li[data-submission="${CSS.escape(id)}"]`);
    if (!li) {
      li = element("li", "course-submission");
      li.dataset.submission = id;
      this.list.prepend(li);
      this.order();
    }
    this.fill(li, s);
    if (!quiet && before?.state !== s.state) {
      this.live.textContent = t("submit.live", { file: this.file, state: describeState(s) });
    }
  }

  order() {
    const rank = (li) => {
      const s = this.items.get(li.dataset.submission);
      return [Date.parse(s?.created_at) || 0, Number(s?.id) || 0];
    };
    const lis = [...this.list.children].sort((a, b) => {
      const [ta, ia] = rank(a);
      const [tb, ib] = rank(b);
      return tb - ta || ib - ia;
    });
    this.list.append(...lis);
  }

  fill(li, s) {
    li.dataset.state = s.state;
    if (s.state === "graded") {
      li.dataset.score = String(s.score ?? 0);
      li.dataset.maxScore = String(s.max_score ?? 0);
    } else {
      delete li.dataset.score;
      delete li.dataset.maxScore;
    }
    const time = element("time", "course-submission__time", when(s.created_at));
    time.dateTime = String(s.created_at ?? "");
    const state = element("span", "course-submission__state", describeState(s));
    const parts = [time, " · ", state];
    if (s.late) parts.push(" ", element("span", "course-submission__late", t("submit.late")));
    const feedback = feedbackText(s.feedback);
    if (feedback && (s.state === "graded" || s.state === "error")) {
      const details = element("details", "course-submission__feedback");
      const report = element("pre", "", feedback);
      // The grader spoke the language of the page it was submitted from: say which to a reader.
      if (typeof s.language === "string" && /^[a-z]{2}$/.test(s.language)) report.lang = s.language;
      details.append(element("summary", "", t("submit.feedback")), report);
      parts.push(details);
    }
    const open = li.querySelector("details")?.open;
    li.replaceChildren(...parts);
    if (open) li.querySelector("details")?.setAttribute("open", "");
  }

  pending() {
    return [...this.items.values()].filter((s) => PENDING.has(s.state));
  }

  poll() {
    if (this.stopped || this.timer || !this.pending().length) return;
    this.timer = setTimeout(() => this.tick(), POLL_MS);
  }

  async tick() {
    this.timer = null;
    if (!this.el.isConnected) return this.dispose(); // the page was left (instant navigation)
    for (const s of this.pending()) {
      const reply = await api("GET", `api/submissions/${encodeURIComponent(s.id)}`);
      if (reply.ok && reply.data?.submission) this.show(reply.data.submission);
    }
    if (this.el.isConnected && !this.stopped) this.poll();
  }

  stopPolling() {
    clearTimeout(this.timer);
    this.timer = null;
  }

  dispose() {
    this.stopped = true;
    this.stopPolling();
    this.unsubscribe?.();
    globalThis.removeEventListener("pagehide", this.leave);
    globalThis.removeEventListener("pageshow", this.back);
  }
}
