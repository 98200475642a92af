// The course map's "Export my work" and "Import my work" (the work itself is transfer.js's):
// two buttons, a file picker behind the second, a preview of what an import would change
// with Import and Cancel, a status line that says what happened, and an alert for a file
// that cannot be imported.

import { button } from "./button.js";
import { markProgress } from "./progress.js";
import {
  applyImport,
  checkFileSize,
  countItems,
  describeCounts,
  describeEngineChanges,
  describeItem,
  exportWork,
  fileName,
  planImport,
  readWorkFile,
} from "./transfer.js";
import { language, t } from "./i18n.js";

const LISTED = 12; // replaced items named in the preview; more are counted

function element(tag, className, text) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

function download(name, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

/** A list item "2 would replace …" with the items named below it. */
function itemList(text, keys) {
  const li = element("li", "", text);
  const names = element("ul");
  for (const key of keys.slice(0, LISTED)) names.append(element("li", "", describeItem(key)));
  if (keys.length > LISTED)
    names.append(element("li", "", t("transfer.andMore", { count: keys.length - LISTED })));
  li.append(names);
  return li;
}

function exportedOn(work) {
  const when = new Date(work.exported);
  const lang = language() === "en" ? undefined : language(); // English: the browser's own way
  const date = Number.isNaN(when.getTime()) ? "" : when.toLocaleDateString(lang, { dateStyle: "medium" });
  const version = work.siteVersion;
  if (date && version) return t("transfer.exportedOnVersion", { date, version });
  if (date) return t("transfer.exportedOn", { date });
  if (version) return t("transfer.exportedVersion", { version });
  return "";
}

class Transfer {
  constructor(box) {
    this.box = box;
    this.version = box.dataset.courseVersion ?? "";
    box.replaceChildren();
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", t("transfer.label"));

    const intro = element("p", "course-transfer__intro", t("transfer.intro"));
    this.exportButton = button("export", t("transfer.export"), t("transfer.exportTitle"));
    this.importButton = button("import", t("transfer.import"), t("transfer.importTitle"));
    // The real picker, opened by the labelled button (a file input cannot be styled as one).
    this.picker = document.createElement("input");
    this.picker.type = "file";
    this.picker.accept = ".json,application/json";
    this.picker.hidden = true;
    this.picker.setAttribute("aria-label", t("transfer.picker"));
    const actions = element("div", "course-transfer__actions");
    actions.append(this.exportButton, this.importButton, this.picker);

    this.status = element("p", "course-transfer__status");
    this.status.setAttribute("role", "status");
    this.alert = element("p", "course-transfer__error");
    this.alert.setAttribute("role", "alert");
    this.preview = element("div", "course-transfer__preview");
    this.preview.hidden = true;
    box.append(intro, actions, this.status, this.alert, this.preview);

    this.exportButton.addEventListener("click", () => this.export());
    this.importButton.addEventListener("click", () => this.picker.click());
    this.picker.addEventListener("change", () => {
      const file = this.picker.files?.[0];
      this.picker.value = ""; // the same file may be chosen again
      if (file) this.read(file);
    });
  }

  say(text) {
    this.alert.textContent = "";
    this.status.textContent = text;
  }

  fail(text) {
    this.status.textContent = "";
    this.alert.textContent = text;
  }

  export() {
    this.closePreview();
    const now = new Date();
    const file = exportWork({ siteVersion: this.version, now });
    if (Object.keys(file.items).length === 0) {
      this.say(t("transfer.nothingSaved"));
      return;
    }
    const name = fileName(now);
    download(name, JSON.stringify(file, null, 1));
    this.say(t("transfer.exported", { name, counts: describeCounts(countItems(file.items)) }));
  }

  /** Read and check the whole file before anything is shown or written. */
  async read(file) {
    this.closePreview();
    this.say("");
    const tooLarge = checkFileSize(file.size);
    if (tooLarge) return this.fail(tooLarge);
    let text;
    try {
      text = await file.text();
    } catch {
      return this.fail(t("transfer.error.unreadable"));
    }
    const { work, error } = readWorkFile(text);
    if (error) return this.fail(error);
    const plan = planImport(work);
    const total = Object.keys(work.items).length;
    if (total === 0) return this.say(t("transfer.noWork", { name: file.name }));
    if (plan.same.length === total) {
      return this.say(t("transfer.allHere", { name: file.name, count: total }));
    }
    this.showPreview(file.name, work, plan);
  }

  showPreview(name, work, plan) {
    const title = element("p", "course-transfer__title");
    title.id = "course-transfer-title";
    title.tabIndex = -1;
    title.append(element("strong", "", t("transfer.title", { name })), exportedOn(work));

    const summary = element("ul", "course-transfer__summary");
    summary.append(element("li", "", t("transfer.toAdd", { count: plan.add.length })));
    const engine = describeEngineChanges(plan);
    if (engine) summary.append(element("li", "course-transfer__engine", engine));
    if (plan.replace.length) {
      summary.append(itemList(t("transfer.replaces", { count: plan.replace.length }), plan.replace));
    }
    const keepNewer = document.createElement("input");
    keepNewer.type = "checkbox";
    if (plan.newerHere.length) {
      const li = itemList(t("transfer.newerHere", { count: plan.newerHere.length }), plan.newerHere);
      const label = element("label", "course-transfer__choice");
      label.append(keepNewer, ` ${t("transfer.replaceToo")}`);
      li.append(label);
      summary.append(li);
    }
    summary.append(element("li", "", t("transfer.same", { count: plan.same.length })));
    const rule = element("p", "course-transfer__rule", t("transfer.rule"));

    const confirm = button("import-confirm", t("transfer.confirm"), t("transfer.confirmTitle"));
    const cancel = button("import-cancel", t("transfer.cancel"), t("transfer.cancelTitle"));
    const actions = element("div", "course-transfer__actions");
    actions.append(confirm, cancel);
    const writes = () =>
      plan.add.length + plan.replace.length + (keepNewer.checked ? plan.newerHere.length : 0);
    const update = () => (confirm.disabled = writes() === 0);
    keepNewer.addEventListener("change", update);
    update();
    confirm.addEventListener("click", () => this.import(name, plan, { keepNewer: !keepNewer.checked }));
    cancel.addEventListener("click", () => this.cancel());

    this.preview.replaceChildren(title, summary, rule, actions);
    this.preview.setAttribute("role", "group");
    this.preview.setAttribute("aria-labelledby", title.id);
    // Escape is Cancel; every other key (Tab among them) goes on as usual.
    this.preview.onkeydown = (event) => {
      if (event.key === "Escape") this.cancel();
    };
    this.preview.hidden = false;
    title.focus();
  }

  closePreview() {
    this.preview.hidden = true;
    this.preview.replaceChildren();
  }

  cancel() {
    this.closePreview();
    this.say(t("transfer.cancelled"));
    this.importButton.focus();
  }

  import(name, plan, options) {
    const result = applyImport(plan, options);
    this.closePreview();
    this.importButton.focus();
    if (result.error) return this.fail(result.error);
    markProgress();
    const replaced = result.written - plan.add.length;
    const kept = options.keepNewer ? plan.newerHere.length : 0;
    const counts = { name, count: result.written, added: plan.add.length, replaced, kept };
    this.say(t(kept ? "transfer.importedKept" : "transfer.imported", counts));
  }
}

/** On the course map (its `.course-transfer` block, hooks/course_map.py): the two buttons. */
export function mountTransfer(root) {
  const box = root.querySelector(".course-transfer");
  return box ? new Transfer(box) : null;
}
