// The exercise files are written for a checkout: their stubs say "Read
// docs/lessons/day04_manual_backward.md" and their docstrings "Check your work:
// python -m grader --exercise ...". In the page the learner has the lesson one link
// away and a Check button under the editor, so the page says that instead. The files
// stay as they are (the download and the command line need their wording); only what
// the page shows is rewritten: check messages here, the editor through decorations.
// What the page says is in the page's language (i18n.js): counts agree in number there.

import { Decoration, EditorView, MatchDecorator, ViewPlugin, WidgetType } from "@codemirror/view";
import { t, tParts } from "./i18n.js";

const LESSON_PATH = /Read docs\/lessons\/(day\d\d_[a-z0-9_]+)\.md\.?/g;

/** The id of an exercise block on its lesson's page (exercise "day04_x.py" -> "exercise-day04_x"). */
export function exerciseAnchor(file) {
  return `exercise-${file.replace(/\.py$/, "").replace(/[^A-Za-z0-9_-]/g, "-")}`;
}

/** The address of lesson `slug`'s exercise, from the site's root (works under any prefix). */
export function lessonExerciseURL(slug, siteRoot) {
  return new URL(`lessons/${slug}/#${exerciseAnchor(`${slug}.py`)}`, siteRoot).href;
}

function lessonLink(slug, siteRoot, text) {
  const a = document.createElement("a");
  a.href = lessonExerciseURL(slug, siteRoot);
  a.dataset.lessonLink = slug;
  a.textContent = text;
  return a;
}

/** A check's message as page nodes: "Read docs/lessons/X.md" becomes a link and a pointer to Check. */
export function rewriteMessage(text, siteRoot) {
  const nodes = [];
  let last = 0;
  for (const match of text.matchAll(LESSON_PATH)) {
    nodes.push(text.slice(last, match.index));
    nodes.push(
      ...tParts("wording.seeLesson", { link: lessonLink(match[1], siteRoot, t("wording.lessonSection")) }),
    );
    last = match.index + match[0].length;
  }
  nodes.push(text.slice(last));
  return nodes.filter((n) => n !== "");
}

class WordingWidget extends WidgetType {
  constructor(kind, arg, siteRoot) {
    super();
    this.kind = kind;
    this.arg = arg;
    this.siteRoot = siteRoot;
  }

  eq(other) {
    return other.kind === this.kind && other.arg === this.arg;
  }

  toDOM() {
    const span = document.createElement("span");
    span.className = "course-wording";
    if (this.kind === "check") {
      // The file's own words stay for the command line, where they belong.
      span.title = t("wording.checkTitle", { file: this.arg });
      span.textContent = t("wording.checkYourWork");
    } else {
      span.append(
        ...tParts("wording.lesson", {
          link: lessonLink(this.arg, this.siteRoot, t("wording.lessonSection")),
        }),
      );
    }
    return span;
  }

  ignoreEvent() {
    return true; // a click on the link is the browser's, not the editor's
  }
}

/** An editor extension that shows the file's command-line wording the page's way. */
export function pageWording(siteRoot) {
  const matcher = new MatchDecorator({
    regexp:
      /Check your work:[ \t]+python -m grader --exercise ([\w.-]+\.py)|Lesson: docs\/lessons\/(day\d\d_[a-z0-9_]+)\.md/g,
    decoration: (match) =>
      Decoration.replace({
        widget: match[1]
          ? new WordingWidget("check", match[1], siteRoot)
          : new WordingWidget("lesson", match[2], siteRoot),
      }),
  });
  const plugin = ViewPlugin.fromClass(
    class {
      constructor(view) {
        this.decorations = matcher.createDeco(view);
      }

      update(update) {
        this.decorations = matcher.updateDeco(update, this.decorations);
      }
    },
    {
      decorations: (v) => v.decorations,
      // The cursor steps over a rewritten line's wording as over one character.
      provide: (p) => EditorView.atomicRanges.of((view) => view.plugin(p)?.decorations ?? Decoration.none),
    },
  );
  return plugin;
}
