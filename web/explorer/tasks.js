// Guided tasks beside the page's graph explorer: `<div data-task="ID" data-state="open">`
// holds a task's text (written in the page); this module adds its controls (a Load button,
// answer boxes and Check where the task asks for a prediction) and a status line
// (role=status), and marks the task data-state="done" once its condition holds in what
// the explorer shows. The explorer is read through Explorer.onChange and driven through
// Explorer.load; every number judged is the engine's, as the graph shows it.

import { readNumber } from "../questions.js";
import { isTaskDone, markTaskDone, taskKey } from "../storage.js";
import presets from "../../explorer/presets.json";
import { el, reducedMotion } from "./dom.js";
import { num } from "./format.js";
import { t } from "../i18n.js";

/** Equal to within a millionth of the larger of 1 and |want|: 0.3 passes for 0.1 + 0.2. */
export function close(x, want) {
  return Math.abs(x - want) <= 1e-6 * Math.max(1, Math.abs(want));
}

const grad = (state, label) => state.nodes.find((n) => n.label === label)?.grad;
const value = (state, label) => state.nodes.find((n) => n.label === label)?.value;
const showNames = (values) =>
  Object.entries(values)
    .map(([k, v]) => `${k} = ${num(v)}`)
    .join(", ");
const listed = (items) =>
  items.length < 2
    ? items.join("")
    : t("tasks.listAnd", { items: items.slice(0, -1).join(", "), last: items.at(-1) });
/** A variable's name as typed (`a`, ` w1 `), or null if it is not one. */
export function readName(text) {
  const name = text.trim();
  return /^[A-Za-z]\d*$/.test(name) ? name : null;
}

// -- the four tasks -----------------------------------------------------------------------
// Each: `expression` as the explorer writes it (spacing removed), `load` (what its Load
// button builds), `answers` (the boxes the learner types into: a number, or with
// kind "name" a variable's name), `now(state)` (a line that
// follows the explorer), `check(state, answers, tries)` (on Check) and/or
// `watch(state, task)` (after every change): each returns {done, message} or null.

const predict = {
  expression: "(a+b)*c",
  load: { text: "(a + b) * c", values: { a: 2, b: -3, c: 10 } },
  answers: [
    { name: "a", label: "∂out/∂a" },
    { name: "b", label: "∂out/∂b" },
    { name: "c", label: "∂out/∂c" },
  ],
  now(state) {
    if (state?.expression !== this.expression) return t("tasks.predict.loadFirst");
    return t("tasks.now", { what: showNames(state.values) });
  },
  check(state, numbers, tries) {
    if (state?.expression !== this.expression) {
      return { message: t("tasks.predict.notShowing") };
    }
    const off = this.answers.filter((a, i) => !close(numbers[i], grad(state, a.name)));
    if (off.length === 0) {
      const got = this.answers.map((a) => `${a.label} = ${num(grad(state, a.name))}`);
      return {
        done: true,
        message: t("tasks.predict.done", { got: got.join(", ") }),
      };
    }
    const which = listed(off.map((a) => a.label));
    return { message: t("tasks.predict.off", { count: off.length, which, hint: predictHint(off, tries) }) };
  },
};

/**
 * A hint about the gradients the learner got wrong, and only those: ∂out/∂a and ∂out/∂b
 * go through the sum s = a + b (the chain rule); ∂out/∂c does not (c is a factor of out).
 * The second try's hint says more than the first's; neither gives the number.
 */
export function predictHint(off, tries) {
  if (tries > 2) return t("tasks.predict.stillStuck");
  const k = tries - 1;
  const chained = off.map((a) => a.name).filter((name) => name !== "c");
  const hints = [];
  if (chained.length) {
    const both = chained.length === 2;
    const x = chained[0];
    hints.push(
      t(
        [
          both ? "tasks.predict.chainBoth1" : "tasks.predict.chain1",
          both ? "tasks.predict.chainBoth2" : "tasks.predict.chain2",
        ][k],
        { x },
      ),
    );
  }
  if (off.some((a) => a.name === "c")) {
    hints.push(t(["tasks.predict.factor1", "tasks.predict.factor2"][k]));
  }
  return hints.join(" ");
}

const deadRelu = {
  expression: "relu(a*b)",
  load: { text: "relu(a * b)", values: { a: 2, b: 3 }, scroll: true },
  now(state) {
    if (state?.expression !== this.expression) return t("tasks.relu.loadFirst");
    return t("tasks.relu.now", { what: showNames(state.values), product: num(value(state, "a*b")) });
  },
  watch(state) {
    if (state?.expression !== this.expression || !state.gradsShown) return null;
    const product = value(state, "a*b");
    const upstream = state.nodes.filter((n) => n !== state.output);
    const grads = upstream.map((n) => `${n.label}.grad = ${num(n.grad)}`).join(", ");
    if (product <= 0 && upstream.every((n) => n.grad === 0)) {
      const key = product === 0 ? "tasks.relu.doneZero" : "tasks.relu.doneNegative";
      return { done: true, message: t(key, { product: num(product), grads }) };
    }
    return { message: t("tasks.relu.alive", { product: num(product), grads }) };
  },
};

const twoPaths = {
  expression: "a*a",
  load: { text: "a * a", values: { a: 3 }, scroll: true },
  answers: [{ name: "a", label: "a.grad" }],
  now(state) {
    if (state?.expression !== this.expression) return t("tasks.paths.loadFirst");
    return t("tasks.now", { what: `a = ${num(state.values.a)}` });
  },
  check(state, numbers, tries) {
    if (state?.expression !== this.expression) {
      return { message: t("tasks.paths.notShowing") };
    }
    if (!close(numbers[0], grad(state, "a"))) {
      const hints = ["tasks.paths.notYet1", "tasks.paths.notYet2"];
      return { message: t(hints[Math.min(tries, hints.length) - 1]) };
    }
    return this.confirm(state, numbers[0]);
  },
  /** A right prediction is done once the backward pass shows it. */
  confirm(state, predicted) {
    if (!state.gradsShown) {
      return {
        predicted,
        message: t("tasks.paths.holds", { show: t("tasks.showBackward") }),
      };
    }
    const a = state.values.a;
    return {
      done: true,
      message: t("tasks.paths.done", { grad: num(grad(state, "a")), a: num(a) }),
    };
  },
  watch(state, task) {
    if (task.predicted === null || state?.expression !== this.expression) return null;
    if (!close(task.predicted, grad(state, "a"))) {
      return { predicted: null, message: t("tasks.paths.again", { a: num(state.values.a) }) };
    }
    return state.gradsShown ? this.confirm(state, task.predicted) : null;
  },
};

// The examples menu's expressions, spelt as the explorer spells them: given, not found.
const EXAMPLES = new Set(presets.map((text) => text.replace(/\s+/g, "")));

const downhill = {
  answers: [
    {
      name: "variable",
      get label() {
        return t("tasks.downhill.answer");
      },
      kind: "name",
    },
  ],
  now(state) {
    if (!state) return t("tasks.downhill.build");
    return t(state.gradsShown ? "tasks.downhill.nowShown" : "tasks.now", { what: state.expression });
  },
  // On Check, not on every change: the examples and the other tasks' graphs have negative
  // grads at their start values, and finding one on purpose is the task.
  check(state, [name]) {
    if (!state) return { message: t("tasks.downhill.buildFirst") };
    if (EXAMPLES.has(state.expression)) {
      return {
        message: t("tasks.downhill.example", { expression: state.expression }),
      };
    }
    if (!state.gradsShown) return { message: t("tasks.downhill.show", { show: t("tasks.showBackward") }) };
    const vars = state.nodes
      .filter((n) => n.kind === "variable")
      .sort((m, n) => m.label.localeCompare(n.label));
    if (vars.length === 0) {
      return { message: t("tasks.downhill.noVariable", { expression: state.expression }) };
    }
    if (!vars.some((n) => n.grad < 0)) {
      return {
        message: t("tasks.downhill.noneNegative", {
          expression: state.expression,
          grads: vars.map((n) => `${n.label}.grad = ${num(n.grad)}`).join(", "),
        }),
      };
    }
    const v = vars.find((n) => n.label === name);
    if (!v) {
      return {
        message: t("tasks.downhill.notVariable", {
          name,
          expression: state.expression,
          list: listed(vars.map((n) => n.label)),
        }),
      };
    }
    if (!(v.grad < 0)) {
      return {
        message: t("tasks.downhill.wrong", { label: v.label, grad: num(v.grad) }),
      };
    }
    const out = state.output;
    const size = Math.abs(v.grad);
    const times = close(size, 1)
      ? t("tasks.downhill.asMuch")
      : t("tasks.downhill.timesAsMuch", { times: num(size) });
    const h = 0.01;
    return {
      done: true,
      message: t("tasks.downhill.done", {
        expression: state.expression,
        label: v.label,
        grad: num(v.grad),
        times,
        from: num(v.value),
        to: num(v.value + h),
        out: num(out.value),
        outTo: num(out.value + v.grad * h),
      }),
    };
  },
};

export const TASKS = { predict, "dead-relu": deadRelu, "two-paths": twoPaths, downhill };

// -- the controls -----------------------------------------------------------------------

let mounted = 0;

class Task {
  constructor(root, spec, explorer, key) {
    this.root = root;
    this.spec = spec;
    this.explorer = explorer;
    this.key = key;
    this.state = null;
    this.tries = 0;
    this.predicted = null; // a right prediction waiting for the backward pass (two paths)
    this.done = isTaskDone(key);
    this.uid = ++mounted;
    this.build();
    this.setState(this.done ? "done" : "open");
    if (this.done) this.say(t("tasks.doneEarlier"), true);
    explorer.onChange((state) => this.changed(state));
  }

  build() {
    const id = `course-task${this.uid}`;
    this.now = el("p", { class: "course-task__now", text: this.spec.now(null) });
    this.inputs = (this.spec.answers ?? []).map((a, i) =>
      el("input", {
        type: "text",
        inputmode: a.kind === "name" ? "text" : "decimal",
        id: `${id}-${i}`,
        autocomplete: "off",
        spellcheck: "false",
        "data-answer": a.name,
      }),
    );
    const boxes = this.inputs.map((input, i) =>
      el(
        "label",
        { class: "course-task__answer", for: input.id },
        el("span", { text: this.spec.answers[i].label }),
        input,
      ),
    );
    const actions = el("div", { class: "course-task__actions" });
    if (this.spec.load) {
      const load = el("button", {
        type: "button",
        class: "md-button",
        "data-task-action": "load",
        text: t("tasks.load", { expression: this.spec.load.text }),
      });
      load.addEventListener("click", () => this.load());
      actions.append(load);
    }
    if (this.spec.check) {
      actions.append(
        el("button", {
          type: "submit",
          class: "md-button",
          "data-task-action": "check",
          text: t("tasks.check"),
        }),
      );
    }
    this.feedback = el("p", { class: "course-task__feedback", role: "status" });
    const form = el("form", { class: "course-task__form" }, this.now);
    if (boxes.length) form.append(el("div", { class: "course-task__answers" }, ...boxes));
    form.append(actions, this.feedback);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.check();
    });
    this.root.append(form);
  }

  setState(state) {
    this.root.dataset.state = state;
  }

  say(message, done = false) {
    this.feedback.dataset.done = String(done);
    if (this.feedback.textContent !== message) this.feedback.textContent = message;
  }

  load() {
    const { text, values, scroll } = this.spec.load;
    this.explorer.load(text, values);
    if (scroll) {
      const smooth = !reducedMotion();
      this.explorer.root.scrollIntoView({ block: "start", behavior: smooth ? "smooth" : "auto" });
    }
  }

  check() {
    const kinds = (this.spec.answers ?? []).map((a) => a.kind ?? "number");
    const numbers = this.inputs.map((input, i) => (kinds[i] === "name" ? readName : readNumber)(input.value));
    this.inputs.forEach((input, i) => input.setAttribute("aria-invalid", String(numbers[i] === null)));
    const bad = numbers.findIndex((x) => x === null);
    if (bad >= 0) {
      this.say(t(kinds[bad] === "name" ? "tasks.typeName" : "question.typeNumber"));
      this.inputs[bad].focus();
      return;
    }
    if (this.state?.expression === this.spec.expression) this.tries += 1;
    this.apply(this.spec.check(this.state, numbers, Math.max(this.tries, 1)));
  }

  changed(state) {
    this.state = state;
    this.now.textContent = this.spec.now(state);
    if (!this.done && this.spec.watch) this.apply(this.spec.watch(state, this));
  }

  apply(verdict) {
    if (!verdict) return;
    if ("predicted" in verdict) this.predicted = verdict.predicted;
    if (verdict.done && !this.done) {
      this.done = true;
      markTaskDone(this.key);
      this.setState("done");
    }
    this.say(verdict.message, Boolean(verdict.done));
  }
}

/** Give every [data-task] under `root` its controls, reading and driving `explorer`. */
export function mountTasks(root, explorer, { page = "index" } = {}) {
  const found = [...root.querySelectorAll("[data-task]:not([data-task-mounted])")];
  if (!explorer) return [];
  for (const node of found) {
    if (!(node.dataset.task in TASKS)) console.warn(`no guided task is called ${node.dataset.task}`);
  }
  return found
    .filter((node) => node.dataset.task in TASKS)
    .map((node) => {
      node.setAttribute("data-task-mounted", "");
      return new Task(node, TASKS[node.dataset.task], explorer, taskKey(page, node.dataset.task));
    });
}
