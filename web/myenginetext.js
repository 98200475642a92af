// What the "My engine" switch writes from engine.mine's answers, in the page's language: the
// line under the switch (which parts of the engine are the learner's, which the course
// engine's) and the note of a long cell on the learner's engine.
//
// engine.mine's install reports each part as a row that says what it means as data: its name's
// message, its day, whether it is the learner's, why a file that is there is not used (a message
// and its values), what the course lends it (messages). engine/mine.py's parts_line writes the
// same rows in English for a notebook or the terminal: on an English page the two lines are the
// same.

import { language, say, t } from "./i18n.js";

const BETWEEN = " · ";
// The parts a learner builds one small operation at a time (engine.mine's names): slower still
// than the course's fused ones.
const FINE_GRAINED = new Set([
  "softmax and cross-entropy",
  "attention",
  "multi-head attention",
  "RMSNorm",
  "GPT",
]);

/** "a and b", "a and b and c" in the page's words (a Russian or Estonian list: "a, b и c"). */
function list(items) {
  const [first, ...rest] = items;
  if (rest.length === 0) return first ?? "";
  if (rest.length === 1) return t("myEngine.parts.pair", { first, second: rest[0] });
  return t("myEngine.parts.more", { first, rest: list(rest) });
}

/** One part's text: "Value: yours (day 8)", "MLP: course engine — pass day 11 to use yours". */
function partText(row) {
  const part = say(row.name) ?? String(row.part);
  const day = row.day;
  if (row.yours) {
    const lent = (row.lent ?? []).map((item) => say(item)).filter((text) => text !== null);
    return lent.length
      ? t("myEngine.parts.yoursLent", { part, day, lent: list(lent) })
      : t("myEngine.parts.yours", { part, day });
  }
  const reason = say(row.reason);
  return reason === null
    ? t("myEngine.parts.course", { part, day })
    : t("myEngine.parts.courseBecause", { part, day, reason });
}

/** engine.mine's report rows as one line in the page's language.
 *  @param {Array<Record<string, any>> | null | undefined} rows @returns {string} */
export function partsLine(rows) {
  return (rows ?? []).map(partText).join(BETWEEN);
}

/** The note of a long cell on the learner's engine, `ratio` times as slow as the course's
 *  (speed_ratio's: measured on a small MLP), for the report's `rows`.
 *  @param {number} ratio @param {Array<Record<string, any>> | null | undefined} rows */
export function speedNote(ratio, rows) {
  const times = Math.round(ratio * 10) / 10;
  const built = (rows ?? []).some((row) => row.yours && FINE_GRAINED.has(row.part));
  const key = times >= 1.2 ? "myEngine.slower" : "myEngine.asSlow";
  // 2.5 on an English page, 2,5 on a Russian or Estonian one.
  const number = new Intl.NumberFormat(language(), { useGrouping: false }).format(times);
  return t(built ? `${key}Built` : key, { times: number });
}
