// How numbers and operations read on the explorer's cards, arrows and table.

import { t } from "../i18n.js";

/** A short, exact-looking number: 4 significant digits, no trailing zeros, a real minus. */
export function num(x) {
  if (x === null || x === undefined || Number.isNaN(x)) return "--";
  if (!Number.isFinite(x)) return x > 0 ? "∞" : "−∞";
  if (x === 0) return "0";
  const abs = Math.abs(x);
  let text;
  if (abs >= 1e5 || abs < 1e-3) text = x.toExponential(2).replace(/\.?0+e/, "e");
  else text = String(Number(x.toPrecision(4)));
  return text.replaceAll("-", "−");
}

const SUPERSCRIPT = {
  "-": "⁻",
  ".": "·",
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
};

/** 2 -> "²", -1 -> "⁻¹"; exponents like 0.5 read "^0.5". */
export function superscript(k) {
  const text = String(k);
  if (!/^-?\d+$/.test(text)) return `^${text}`;
  return [...text].map((ch) => SUPERSCRIPT[ch]).join("");
}

/** The symbol on a node's badge. */
export function opSymbol(node) {
  switch (node.op) {
    case "+":
      return "+";
    case "*":
      return "×";
    case "-":
      return "−";
    case "/":
      return "÷";
    case "neg":
      return "−x";
    case "**":
      return `x${superscript(node.exponent)}`;
    case "":
      return node.kind === "constant" ? "const" : "input";
    default:
      return node.op; // relu, exp, log, tanh
  }
}

/** A spoken name of an operation, for the table and screen readers. */
export function opName(node) {
  const names = {
    "+": "explorer.op.add",
    "*": "explorer.op.multiply",
    "-": "explorer.op.subtract",
    "/": "explorer.op.divide",
    neg: "explorer.op.negate",
    "**": "explorer.op.power",
    "": node.kind === "constant" ? "explorer.op.constant" : "explorer.op.variable",
  };
  return node.op in names ? t(names[node.op], { exponent: node.exponent }) : node.op;
}

/** The forward computation of a node from its inputs, e.g. "2 + −3 = −1". */
export function forwardFormula(node, inputs) {
  const v = inputs.map((n) => num(n.data));
  const out = num(node.data);
  const wrap = (s) => (s.startsWith("−") ? `(${s})` : s);
  switch (node.op) {
    case "+":
      return `${v[0]} + ${wrap(v[1])} = ${out}`;
    case "*":
      return `${v[0]} × ${wrap(v[1])} = ${out}`;
    case "-":
      return `${v[0]} − ${wrap(v[1])} = ${out}`;
    case "/":
      return `${v[0]} ÷ ${wrap(v[1])} = ${out}`;
    case "neg":
      return `−${wrap(v[0])} = ${out}`;
    case "**":
      return `${wrap(v[0])}${superscript(node.exponent)} = ${out}`;
    default:
      return `${node.op}(${v[0]}) = ${out}`;
  }
}

/** The chain rule on one arrow: incoming grad × local derivative = contribution. */
export function chainFormula(edge, targetGrad) {
  return `${num(targetGrad)} × ${num(edge.local_grad)} = ${num(edge.contribution)}`;
}
