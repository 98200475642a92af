// A CodeMirror 6 editor for a cell or an exercise. Its colours are Material's own
// code colours (CSS variables), so it follows the light/dark palette switch with
// no script. Tab is left unbound so keyboard users can Tab out of the editor;
// indentation is Enter's auto-indent and Mod-[ / Mod-]. The editor grows with its text
// and wraps long lines: no scroll area inside the page, and nothing cut off on the right.

import { minimalSetup } from "codemirror";
import { python } from "@codemirror/lang-python";
import { EditorView, keymap, lineNumbers, highlightActiveLine } from "@codemirror/view";
import { EditorState } from "@codemirror/state";
import { isolateHistory } from "@codemirror/commands";
import { HighlightStyle, syntaxHighlighting, bracketMatching, indentOnInput } from "@codemirror/language";
import { tags as t } from "@lezer/highlight";

const v = (name) => `var(--md-code-hl-${name}-color)`;

const materialHighlight = HighlightStyle.define([
  {
    tag: [t.keyword, t.controlKeyword, t.definitionKeyword, t.moduleKeyword, t.operatorKeyword],
    color: v("keyword"),
  },
  { tag: [t.string, t.special(t.string)], color: v("string") },
  { tag: [t.number, t.bool, t.null], color: v("number") },
  { tag: [t.comment, t.lineComment], color: v("comment"), fontStyle: "italic" },
  { tag: [t.function(t.variableName), t.function(t.propertyName)], color: v("function") },
  { tag: [t.definition(t.variableName), t.className], color: v("name") },
  { tag: [t.operator, t.arithmeticOperator, t.compareOperator], color: v("operator") },
  { tag: [t.punctuation, t.paren, t.bracket, t.brace], color: v("punctuation") },
  { tag: [t.self, t.standard(t.variableName)], color: v("constant") },
]);

const materialTheme = EditorView.theme({
  "&": {
    color: "var(--md-code-fg-color)",
    backgroundColor: "var(--md-code-bg-color)",
    fontSize: "0.85em",
  },
  ".cm-content": {
    fontFamily: "var(--md-code-font-family, monospace)",
    caretColor: "var(--md-code-fg-color)",
  },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--md-code-fg-color)" },
  ".cm-gutters": {
    backgroundColor: "var(--md-code-bg-color)",
    color: "var(--course-muted)", // web/course.css: 4.5:1 in both palettes
    border: "none",
    // The line numbers take the text's height and never give the editor theirs: until an
    // editor is first in view its line heights are estimates (CodeMirror measures only what
    // is in view), and numbers sized from them would make it taller until then, and shrink
    // it as it comes into view, moving its Run button from under the pointer.
    minHeight: "0 !important",
    height: "auto",
    alignSelf: "stretch",
    overflow: "hidden",
  },
  ".cm-gutter": { height: "0", minHeight: "0 !important", overflow: "visible !important" },
  ".cm-activeLine, .cm-activeLineGutter": { backgroundColor: "var(--md-code-hl-color--light, transparent)" },
  "&.cm-focused": { outline: "2px solid var(--md-accent-fg-color)" },
  "&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection": {
    backgroundColor: "var(--md-code-hl-color)",
  },
});

/**
 * Make an editor inside `parent`.
 * onRun: called on Shift+Enter (and Mod+Enter); onChange(text) after each edit;
 * cursorLine: the line (from 1) where the cursor starts;
 * extensions: more CodeMirror extensions (an exercise's page wording).
 */
export function createEditor({ parent, doc, label, onRun, onChange, cursorLine = 1, extensions = [] }) {
  const runKeys = keymap.of([
    { key: "Shift-Enter", run: () => (onRun(), true) },
    { key: "Mod-Enter", run: () => (onRun(), true) },
  ]);
  const line = Math.min(Math.max(1, cursorLine), doc.split("\n").length);
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      // Where a learner who Tabs into the editor starts typing (an exercise: the line to write).
      selection: { anchor: lineStart(doc, line) },
      extensions: [
        runKeys,
        minimalSetup,
        lineNumbers(),
        highlightActiveLine(),
        bracketMatching(),
        indentOnInput(),
        python(),
        syntaxHighlighting(materialHighlight),
        materialTheme,
        EditorView.lineWrapping,
        EditorState.tabSize.of(4),
        EditorView.contentAttributes.of({ "aria-label": label, "aria-multiline": "true" }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChange?.(update.state.doc.toString());
        }),
        ...extensions,
      ],
    }),
  });
  // Tests and tools read the whole text from here (the DOM holds only visible lines).
  view.dom.courseEditor = view;
  return view;
}

function lineStart(doc, line) {
  let at = 0;
  for (let i = 1; i < line; i++) at = doc.indexOf("\n", at) + 1;
  return at;
}

/** Replace the whole text as one step of its own in the editor's history: Undo (Ctrl+Z)
 *  takes back exactly this replacement (a Reset), not the typing just before it too. */
export function setText(view, text) {
  view.dispatch({
    changes: { from: 0, to: view.state.doc.length, insert: text },
    annotations: isolateHistory.of("full"),
  });
}

export function getText(view) {
  return view.state.doc.toString();
}
