// Accessibility of every page, done once for all pages rather than page by page:
// - an input whose label is math gets a name a screen reader can say ("∂L/∂a"): KaTeX's
//   MathML is skipped by the name computation of browsers and axe alike;
// - anything that scrolls sideways (a wide formula, a table or a code block on a phone)
//   takes keyboard focus and says what it is, so arrow keys can scroll it; it stops doing
//   so when the window grows wide enough to show it whole;
// - Material's search dialog gets a name.

import { t } from "./i18n.js";

const SUBSCRIPT = {
  0: "₀",
  1: "₁",
  2: "₂",
  3: "₃",
  4: "₄",
  5: "₅",
  6: "₆",
  7: "₇",
  8: "₈",
  9: "₉",
  "+": "₊",
  "-": "₋",
  i: "ᵢ",
  j: "ⱼ",
  t: "ₜ",
};
const SUPERSCRIPT = {
  0: "⁰",
  1: "¹",
  2: "²",
  3: "³",
  4: "⁴",
  5: "⁵",
  6: "⁶",
  7: "⁷",
  8: "⁸",
  9: "⁹",
  "+": "⁺",
  "-": "⁻",
  "−": "⁻",
  n: "ⁿ",
  T: "ᵀ",
  "⊤": "ᵀ",
};

function script(text, table, mark) {
  const chars = [...text];
  return chars.every((c) => c in table) ? chars.map((c) => table[c]).join("") : `${mark}(${text})`;
}

/** MathML as one would type it: ∂L/∂w₁, x², (a)/(b). */
function mathText(node) {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  if (node.nodeType !== Node.ELEMENT_NODE || node.localName === "annotation") return "";
  const parts = [...node.childNodes].map(mathText);
  switch (node.localName) {
    case "msub":
      return parts[0] + script(parts[1], SUBSCRIPT, "_");
    case "msup":
      return parts[0] + script(parts[1], SUPERSCRIPT, "^");
    case "msubsup":
      return parts[0] + script(parts[1], SUBSCRIPT, "_") + script(parts[2], SUPERSCRIPT, "^");
    case "mfrac":
      return `(${parts[0]})/(${parts[1]})`;
    case "msqrt":
      return `√(${parts.join("")})`;
    default:
      return parts.join("");
  }
}

/** A label's text with its math written out; null when it has no typeset math. */
function plainLabel(label) {
  if (!label.querySelector(".katex")) return null;
  const copy = label.cloneNode(true);
  for (const katex of copy.querySelectorAll(".katex")) {
    const math = katex.querySelector("math");
    katex.replaceWith(math ? mathText(math) : "");
  }
  for (const control of copy.querySelectorAll("input, select, textarea")) control.remove();
  return copy.textContent.replace(/\s+/g, " ").trim() || null;
}

/** Every input whose label holds math is named by the label's words and math as text. */
export function nameMathLabels(root) {
  for (const label of root.querySelectorAll("label")) {
    const control = label.control;
    if (!control || control.hasAttribute("aria-label") || control.hasAttribute("aria-labelledby")) continue;
    const text = plainLabel(label);
    if (text) control.setAttribute("aria-label", text);
  }
}

// What scrolls sideways on a narrow screen, and what it is called while it does (its name:
// the message "access.scrolls.<kind>").
const SCROLLERS = [
  ["div.arithmatex, .katex-display", "Formula"],
  [".md-typeset__scrollwrap", "Table"],
  ["pre, pre > code", "Code"], // Material's code scrolls in its <code>, a notebook's in its <pre>
  [".jupyter-wrapper .jp-OutputArea-output", "Output"],
];
let resizes = null;
let watched = [];

function scrolls(el) {
  const style = getComputedStyle(el);
  const sideways = /auto|scroll/.test(style.overflowX) && el.scrollWidth > el.clientWidth + 1;
  const down = /auto|scroll/.test(style.overflowY) && el.scrollHeight > el.clientHeight + 1;
  return sideways || down;
}

/** While `el` scrolls, keys reach it (tabindex 0) and it is a region named for what it holds. */
function updateScroller(el) {
  const ours = el.dataset.courseScroll !== undefined;
  if (!ours && el.hasAttribute("tabindex")) return; // focusable already (Material's code blocks)
  if (scrolls(el)) {
    if (ours) return;
    el.dataset.courseScroll = "";
    el.tabIndex = 0;
    if (!el.hasAttribute("role")) {
      el.setAttribute("role", "region");
      el.dataset.courseScrollRole = "";
    }
    if (!el.hasAttribute("aria-label")) {
      const { courseScrollKind: kind, courseScrollIndex: n } = el.dataset;
      el.setAttribute("aria-label", t(`access.scrolls.${kind}`, { n })); // a name of its own
      el.dataset.courseScrollLabel = "";
    }
  } else if (ours) {
    el.removeAttribute("tabindex");
    if (el.dataset.courseScrollRole !== undefined) el.removeAttribute("role");
    if (el.dataset.courseScrollLabel !== undefined) el.removeAttribute("aria-label");
    for (const key of ["courseScroll", "courseScrollRole", "courseScrollLabel"]) delete el.dataset[key];
  }
}

/** Watch the page's scrollable blocks: their size changes with the window's. */
export function watchScrollers(root) {
  resizes?.disconnect(); // the page left (instant navigation)
  watched = [];
  resizes = new ResizeObserver((entries) => {
    for (const entry of entries) updateScroller(entry.target);
  });
  for (const [selector, kind] of SCROLLERS) {
    let n = 0;
    for (const el of root.querySelectorAll(selector)) {
      if (el.dataset.courseScrollKind) continue; // a formula matched twice: its outer block
      el.dataset.courseScrollKind = kind;
      el.dataset.courseScrollIndex = String(++n);
      resizes.observe(el);
      watched.push(el);
    }
  }
}

/** Material's search is a dialog: give it a name (once; the header outlives the page). */
function nameSearch() {
  const search = document.querySelector(".md-search[role=dialog]");
  if (search && !search.hasAttribute("aria-label")) search.setAttribute("aria-label", t("access.search"));
}

// A block's box keeps its size when its content grows (the math fonts arriving): look again.
const recheck = () => watched.forEach(updateScroller);
document.fonts?.ready.then(recheck);
window.addEventListener("load", recheck);

export function mountAccess(root) {
  nameSearch();
  nameMathLabels(root);
  watchScrollers(root);
}
