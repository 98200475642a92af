// The model explorer's words: which model is in use, plurals, and Python's messages as the
// page shows them (one line, never a traceback).

import { say, t } from "../i18n.js";

/** The words for the model in use, e.g. "your model, trained 120 steps in this tab". */
export function describeModel(model) {
  if (!model) return "";
  const steps = Number(model.steps).toLocaleString("en-US");
  if (model.source === "trained") return t("model.trained", { steps });
  if (model.loss === null || model.loss === undefined) return t("model.checkpoint", { steps });
  const loss = model.loss.toFixed(4);
  if (!model.held_out_names) return t("model.checkpointLoss", { steps, loss });
  return t("model.checkpointHeldOut", { steps, loss, names: model.held_out_names });
}

/** The message of an error from Python: in the page's language when it names its page message
 *  (explorer.model's RequestError), else the last line of its traceback (Pyodide's error
 *  message is the whole traceback, file paths and all), without the exception's type. */
export function messageOf(err) {
  const said = say(err);
  if (said) return said;
  const text = String(err?.message ?? err ?? "something went wrong");
  const lines = text.split("\n").filter((line) => line.trim());
  const last = lines.length ? lines[lines.length - 1] : text;
  return last.replace(/^[A-Za-z_.]*(Error|Exception): /, "");
}

/** Python's repr of a short text: 'abc' (or "it's" when it holds a '). */
function pyRepr(text) {
  return text.includes("'") && !text.includes('"') ? `"${text}"` : `'${text.replace(/'/g, "\\'")}'`;
}

/** @type {Record<string, string>} */
const NAMED = { " ": "space", "-": "hyphen", "'": "apostrophe", "\t": "tab" }; // model.symbol.*

/** A symbol for a message, as explorer.model names it: its repr, and what it is in words
 *  when that is unclear (a space, a hyphen, a letter with an accent). */
function named(ch) {
  let what = NAMED[ch];
  const parts = [...ch.normalize("NFD")];
  if (!what && parts.length > 1 && parts.slice(1).every((c) => /\p{M}/u.test(c))) what = "accent";
  if (!what) return pyRepr(ch);
  return t("model.error.namedSymbol", { symbol: pyRepr(ch), what: t(`model.symbol.${what}`) });
}

/** Why a model of the symbols `known` cannot read `text`, in explorer.model's words (its
 *  RequestError's page message), or null: the page says it at once, without asking Python
 *  (which may be busy training). */
export function unreadable(text, known) {
  const bad = [...text.trim().toLowerCase()].find((ch) => !known.includes(ch));
  if (bad === undefined) return null;
  const alphabet = known.join("") === "abcdefghijklmnopqrstuvwxyz";
  const allowed = alphabet
    ? t("model.error.lettersAZ")
    : t("model.error.symbols", { symbols: pyRepr(known.join("")) });
  return t("model.error.typeOnly", { allowed, symbol: named(bad) });
}
