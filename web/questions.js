// Checks for understanding: `<form class="course-question" data-question="<id>">` written
// by the `question` fence (hooks/question_fence.py). Check marks the answer right or wrong
// at once (data-state), shows the explanation, and keeps the answer like exercise progress,
// so the page and the course map show it on the next visit. A wrong answer can be changed
// and checked again; the answer and its explanation can be opened at any time after a try.

import { loadAnswer, questionKey, saveAnswer } from "./storage.js";
import { t } from "./i18n.js";

/** A number as a learner may type it: -2, −2, 0.75, 0,75, 1e-3, 3/4, 5,163 (thousands);
 *  null otherwise. The same rule as read_number in questions.py. */
export function readNumber(text) {
  let t = text.trim().replaceAll("\u2212", "-").replaceAll(" ", "").replaceAll("\u202f", "");
  if (/^[+-]?[1-9]\d{0,2}(,\d{3})+$/.test(t)) t = t.replaceAll(",", "");
  else if (/^[+-]?\d+,\d+$/.test(t)) t = t.replace(",", ".");
  const plain = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
  const parts = t.split("/");
  if (parts.length > 2 || !parts.every((p) => plain.test(p))) return null;
  const value = parts.length === 2 ? Number(parts[0]) / Number(parts[1]) : Number(parts[0]);
  return Number.isFinite(value) ? value : null;
}

function close(x, blank) {
  const want = Number(blank.dataset.value);
  const tolerance = Number(blank.dataset.tolerance);
  return Math.abs(x - want) <= tolerance + 1e-12 * Math.max(1, Math.abs(want));
}

class Question {
  constructor(form, page) {
    this.form = form;
    this.key = questionKey(page, form.dataset.question);
    this.inputs = [...form.querySelectorAll(".course-question__blank input")];
    this.radios = [...form.querySelectorAll('input[type="radio"]')];
    this.feedback = form.querySelector(".course-question__feedback");
    this.explain = form.querySelector(".course-question__explain");
    this.explain.hidden = true; // shown after a first try (without JavaScript it stays open to all)
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.check();
    });
    this.restore();
  }

  /** What the learner gave, as saved: the typed texts, or the chosen option's index. */
  given() {
    if (this.inputs.length) return this.inputs.map((input) => input.value);
    const chosen = this.radios.find((r) => r.checked);
    return chosen ? [chosen.value] : [];
  }

  restore() {
    const saved = loadAnswer(this.key);
    if (!saved) return;
    if (this.inputs.length) this.inputs.forEach((input, i) => (input.value = saved.answer[i] ?? ""));
    else for (const r of this.radios) r.checked = r.value === saved.answer[0];
    // Judged again: a lesson may have corrected its answer since.
    const verdict = this.judge();
    if (!verdict.state) return;
    if (verdict.state !== saved.state) saveAnswer(this.key, verdict.state, saved.answer);
    this.show(verdict.state, verdict.message);
  }

  /** {state, message} for what is in the form now, or null (and a hint) when it is not an answer. */
  judge() {
    if (this.inputs.length) {
      const numbers = this.inputs.map((input) => readNumber(input.value));
      const bad = numbers.findIndex((x) => x === null);
      this.inputs.forEach((input, i) => input.setAttribute("aria-invalid", String(numbers[i] === null)));
      if (bad >= 0) {
        return { invalid: this.inputs[bad], message: t("question.typeNumber") };
      }
      const right = numbers.map((x, i) => close(x, this.inputs[i]));
      this.inputs.forEach((input, i) => input.classList.toggle("course-question--off", !right[i]));
      const count = right.filter(Boolean).length;
      if (count === right.length) return { state: "right", message: t("question.right") };
      if (right.length === 1) return { state: "wrong", message: t("question.notYet") };
      return { state: "wrong", message: t("question.notYetSome", { count, total: right.length }) };
    }
    const chosen = this.radios.find((r) => r.checked);
    if (!chosen) return { invalid: this.radios[0], message: t("question.chooseFirst") };
    if (chosen.hasAttribute("data-right")) return { state: "right", message: t("question.right") };
    return { state: "wrong", message: t("question.notThisOne") };
  }

  check() {
    const verdict = this.judge();
    if (verdict.invalid) {
      this.feedback.textContent = verdict.message;
      verdict.invalid.focus();
      return;
    }
    saveAnswer(this.key, verdict.state, this.given());
    this.show(verdict.state, verdict.message);
    if (verdict.state === "right") this.explain.open = true;
  }

  show(state, message) {
    this.form.dataset.state = state;
    this.feedback.textContent = message;
    this.explain.hidden = false;
  }
}

/** Mount every question under `root`; `page` keys the saved answers (as for cells). */
export function mountQuestions(root, { page }) {
  return [...root.querySelectorAll("form[data-question]")].map((form) => new Question(form, page));
}
