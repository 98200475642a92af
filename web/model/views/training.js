// The training view: the snapshots a training cell sends (engine.snapshot), its loss curve, three
// sampled names and one head's attention. Test hooks: [data-role=training-status],
// [data-role=samples]; the explorer's data-training-step.

import { el } from "../../explorer/dom.js";
import { Heatmap, TextAlternative, lossCurve, numberTable } from "../charts.js";
import { fmt } from "../math.js";

export class TrainingView {
  /** `x` is the model explorer (model-explorer.js) the view belongs to. */
  constructor(x) {
    this.x = x;
    this.node = this.build();
  }

  build() {
    const { node, body } = this.x.section(
      "training",
      "Training, live",
      "While a training cell of day 26 or day 30 runs in this tab, it sends a snapshot " +
        "every few steps: the training loss so far (one name per step, so it is noisy), three " +
        "names sampled from the model as it is at that step, and one head's attention " +
        "weights for a fixed name. On the cell's own page, each snapshot also redraws the other " +
        "views with the model as it is at that step. When training ends, or you press the " +
        "cell's Stop button, the weights trained so far stay in this tab's Python, and the other " +
        "views use them. " +
        "If Stop has to restart Python, your model is gone and the checkpoint is used again.",
      this.x.has("backward") && !this.x.forwardViews()
        ? "Predict first: the samples at step 25 and at step 50, which look more like names?"
        : "The loss falls fastest in the first steps: what do the samples look like then, and " +
            "what do they look like once the curve flattens?",
    );
    this.trainLine = el("p", { class: "gm-train-line", "data-role": "training-status" });
    this.trainLine.textContent =
      "No training snapshot has reached this view yet: run the training cell of day 26 or " +
      "day 30, and this view follows it. If you trained a model earlier in this tab, the " +
      "other views already use it (the line under the prefix says which model).";
    this.curveBox = el("div", { class: "gm-curve-box" });
    this.samples = el("ul", { class: "gm-samples", "data-role": "samples" });
    this.trainMap = new Heatmap({
      label: "Attention of one head during training",
      describe: (r, c, v) =>
        `query ${this.trainSymbols?.[r] ?? r} (position ${r}) looks at ${this.trainSymbols?.[c] ?? c} (position ${c}): ${fmt(v)}`,
    });
    this.trainHeading = el("h4", { text: "Attention of one head" });
    this.trainTables = new TextAlternative();
    this.trainMap.element.hidden = true;
    body.append(
      this.trainLine,
      el(
        "div",
        { class: "gm-pair" },
        el("div", {}, el("h4", { text: "Loss" }), this.curveBox, el("h4", { text: "Samples" }), this.samples),
        el("div", {}, this.trainHeading, this.trainMap.element),
      ),
      this.trainTables.element,
    );
    return node;
  }

  draw(data) {
    const losses = data.losses ?? [];
    const steps = data.steps ?? data.step;
    // Each point is the mean loss of a run of steps; loss_steps says the step each run ends at.
    const points = losses.map((l, i) => [data.loss_steps?.[i] ?? i + 1, l]);
    const last = points.length ? points[points.length - 1][1] : null;
    this.x.root.dataset.trainingStep = String(data.step);
    const loss = last === null ? "" : `, training loss ${fmt(last)} (one name per step, so noisy)`;
    this.trainLine.textContent = `Step ${data.step} of ${steps}${loss}.`;
    this.curveBox.replaceChildren(
      lossCurve(points, {
        steps,
        label: `Loss against step, ${points.length} points up to step ${data.step}`,
      }),
    );
    this.samples.replaceChildren(...(data.samples ?? []).map((s) => el("li", { text: s || "(empty name)" })));
    const att = data.attention;
    if (att?.weights?.length) {
      const letters = (att.tokens ?? [".", ...att.name.split("")]).slice(0, att.weights.length);
      this.trainSymbols = letters;
      this.trainHeading.textContent = `Head ${att.head}'s attention for "${att.name}"`;
      this.trainMap.element.hidden = false;
      this.trainMap.update(att.weights, {
        rowLabels: letters.map((s, i) => `${i} ${s}`),
        colLabels: letters,
        top: 1,
      });
    }
    this.trainTables.set(() => [
      numberTable(
        "Loss at each step shown",
        points.map(([s]) => String(s)),
        ["loss"],
        points.map(([, l]) => [l]),
        "step",
      ),
      ...(att?.weights?.length
        ? [
            numberTable(
              `Head ${att.head}'s attention for "${att.name}"`,
              this.trainSymbols,
              this.trainSymbols,
              att.weights,
              "query \\ key",
            ),
          ]
        : []),
    ]);
  }
}
