// The training view: the snapshots a training cell sends (engine.snapshot), its loss curve, three
// sampled names and one head's attention. Test hooks: [data-role=training-status],
// [data-role=samples]; the explorer's data-training-step.

import { el } from "../../explorer/dom.js";
import { Heatmap, TextAlternative, lossCurve, numberTable } from "../charts.js";
import { fmt } from "../math.js";
import { t } from "../../i18n.js";

export class TrainingView {
  /** `x` is the model explorer (model-explorer.js) the view belongs to. */
  constructor(x) {
    this.x = x;
    this.node = this.build();
  }

  build() {
    const { node, body } = this.x.section(
      "training",
      t("training.title"),
      t("training.what"),
      t(this.x.has("backward") && !this.x.forwardViews() ? "training.questionBackward" : "training.question"),
    );
    this.trainLine = el("p", { class: "gm-train-line", "data-role": "training-status" });
    this.trainLine.textContent = t("training.none");
    this.curveBox = el("div", { class: "gm-curve-box" });
    this.samples = el("ul", { class: "gm-samples", "data-role": "samples" });
    this.trainMap = new Heatmap({
      label: t("training.mapLabel"),
      describe: (r, c, v) =>
        t("training.cell", {
          query: this.trainSymbols?.[r] ?? r,
          r,
          key: this.trainSymbols?.[c] ?? c,
          c,
          value: fmt(v),
        }),
    });
    this.trainHeading = el("h4", { text: t("training.oneHead") });
    this.trainTables = new TextAlternative();
    this.trainMap.element.hidden = true;
    body.append(
      this.trainLine,
      el(
        "div",
        { class: "gm-pair" },
        el(
          "div",
          {},
          el("h4", { text: t("training.loss") }),
          this.curveBox,
          el("h4", { text: t("training.samples") }),
          this.samples,
        ),
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
    this.trainLine.textContent =
      last === null
        ? t("training.step", { step: data.step, steps })
        : t("training.stepLoss", { step: data.step, steps, loss: fmt(last) });
    this.curveBox.replaceChildren(
      lossCurve(points, {
        steps,
        label: t("training.curve", { count: points.length, step: data.step }),
      }),
    );
    this.samples.replaceChildren(
      ...(data.samples ?? []).map((s) => el("li", { text: s || t("training.emptyName") })),
    );
    const att = data.attention;
    if (att?.weights?.length) {
      const letters = (att.tokens ?? [".", ...att.name.split("")]).slice(0, att.weights.length);
      this.trainSymbols = letters;
      this.trainHeading.textContent = t("training.headFor", { head: att.head, name: att.name });
      this.trainMap.element.hidden = false;
      this.trainMap.update(att.weights, {
        rowLabels: letters.map((s, i) => `${i} ${s}`),
        colLabels: letters,
        top: 1,
      });
    }
    this.trainTables.set(() => [
      numberTable(
        t("training.lossTable"),
        points.map(([s]) => String(s)),
        [t("training.lossColumn")],
        points.map(([, l]) => [l]),
        t("training.stepColumn"),
      ),
      ...(att?.weights?.length
        ? [
            numberTable(
              t("training.headFor", { head: att.head, name: att.name }),
              this.trainSymbols,
              this.trainSymbols,
              att.weights,
              t("attention.corner"),
            ),
          ]
        : []),
    ]);
  }
}
