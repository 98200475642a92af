// What the runtime says to a learner, in the page's language: one message file per language
// (web/locales/en.json, ru.json, et.json; every key in each, tests/i18n/test_runtime_messages.py),
// read through i18next. Keys name what a text is ("run.button", "status.stopped"); counts agree
// in number through i18next's plural suffixes (_one/_other; Russian _one/_few/_many/_other),
// chosen by the browser's Intl.PluralRules for the page's language. English is the fallback.
// The page's language is set once (setLanguage, from main.js): a switch of language loads the
// page afresh (language.js).

import i18next from "i18next";
import en from "./locales/en.json" with { type: "json" };
import ru from "./locales/ru.json" with { type: "json" };
import et from "./locales/et.json" with { type: "json" };

const LANGUAGES = ["en", "ru", "et"]; // language.js's
const i18n = i18next.createInstance();
let started = false;

function start(lang) {
  started = true;
  i18n.init({
    lng: LANGUAGES.includes(lang) ? lang : "en",
    fallbackLng: "en",
    supportedLngs: LANGUAGES,
    resources: { en: { translation: en }, ru: { translation: ru }, et: { translation: et } },
    initAsync: false, // the resources are here: t() works as soon as init returns
    interpolation: { escapeValue: false }, // every text goes in as text (textContent), never HTML
    returnNull: false,
  });
}

/** Speak `lang`, the language of the page shown (language.js's pageLanguage). */
export function setLanguage(lang) {
  if (!started) start(lang);
}

/** The page's language ("en", "ru", "et"). */
export function language() {
  if (!started) start(globalThis.document?.documentElement?.lang ?? "en");
  return i18n.language;
}

/** The message `key` in the page's language, `values` put in its {{placeholders}};
 *  `values.count` picks the plural form.
 *  @param {string} key @param {Record<string, unknown>} [values] @returns {string} */
export function t(key, values = {}) {
  if (!started) start(globalThis.document?.documentElement?.lang ?? "en");
  return String(i18n.t(key, /** @type {any} */ (values)));
}

/** A message Python named ({key, values}: an error of engine.mine or explorer that carries its
 *  page message) in the page's language, or null when it names none. A value that is itself
 *  {key, values} is a message of its own, said first.
 *  @param {{key?: unknown, values?: unknown} | null | undefined} message @returns {string | null} */
export function say(message) {
  if (!message || typeof message.key !== "string" || !message.key) return null;
  /** @type {Record<string, unknown>} */
  const values = {};
  for (const [name, value] of Object.entries(message.values ?? {})) {
    values[name] = value && typeof value === "object" && "key" in value ? say(value) : value;
  }
  return t(message.key, values);
}

const NODE = /\uE000(\w+)\uE001/;

/** The message `key` as a list of text and nodes: a value that is a DOM node (a link, a
 *  button, a <code>) stands in the text where its placeholder is. For Node.append(...). */
export function tParts(key, values = {}) {
  /** @type {Record<string, unknown>} */
  const texts = {};
  /** @type {Record<string, Node>} */
  const nodes = {};
  for (const [name, value] of Object.entries(values)) {
    if (typeof Node !== "undefined" && value instanceof Node) {
      nodes[name] = value;
      texts[name] = `\uE000${name}\uE001`;
    } else texts[name] = value;
  }
  const parts = t(key, texts).split(NODE);
  // split with a group: odd places are the names of nodes
  return parts.map((part, i) => (i % 2 ? nodes[part] : part)).filter((part) => part !== "");
}
