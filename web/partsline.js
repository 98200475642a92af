// The line under the "My engine" switch: which parts of the engine are the learner's and which
// the course engine's, in the page's language. engine.mine's install reports each part as a row
// that says what it means as data: its name's message, its day, whether it is the learner's, why
// a file that is there is not used (a message and its values), what the course lends it
// (messages). engine/mine.py's parts_line writes the same rows in English for a notebook or the
// terminal: on an English page the two lines are the same.

import { say, t } from "./i18n.js";

const BETWEEN = " · ";

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
