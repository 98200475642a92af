// What a cell's output shows of a Python error: its traceback, or its type and message. An
// error that names its page message (engine.errors' `said`, cellrun.run's error.key and
// .values) ends, on a Russian or Estonian page, with that message in the page's language after
// Python's own type name ("TypeError: …"); on an English page it stays Python's text.

import { language, say } from "./i18n.js";

/** @param {import("./protocol.js").PythonError | null | undefined} error @returns {string} */
export function errorText(error) {
  const text = error?.traceback || `${error?.type}: ${error?.message}`;
  if (!error || language() === "en") return text;
  const said = say(error);
  // The traceback's last line is "<type>: <message>"; one that does not end so (a note added
  // after it), or a message the page does not have (said as its key), keeps Python's text.
  const end = text.endsWith("\n") ? text.length - 1 : text.length;
  if (said === null || said === error.key) return text;
  if (!text.slice(0, end).endsWith(`: ${error.message}`)) return text;
  return text.slice(0, end - error.message.length) + said + text.slice(end);
}
