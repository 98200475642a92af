// The course in three languages (mkdocs-static-i18n, mkdocs.yml): English at the site's root,
// Russian under ru/, Estonian under et/, every page in each. Two things follow here:
// - a learner's work is kept under the page's name without its language ("lessons/day04_x"),
//   so a cell's edit, an answer or a done mark is the same in every language;
// - the header's language switch names the page shown. Material's instant navigation swaps the
//   page but not the header, whose links were made for the first page loaded; they are set
//   again on every page, and a switch of language loads the page afresh (its search index, its
//   theme's words and its Python messages are another language's).

export const LANGUAGES = ["en", "ru", "et"];
const DEFAULT = "en";

/** The page's path inside the site without its language: "ru/lessons/day04_x/" -> "lessons/day04_x/". */
export function withoutLanguage(path) {
  const [first, ...rest] = path.split("/");
  return first !== DEFAULT && LANGUAGES.includes(first) ? rest.join("/") : path;
}

/** The language of the page at `path` (inside the site): its first folder's, English at the root. */
export function languageOf(path) {
  const first = path.split("/")[0];
  return LANGUAGES.includes(first) ? first : DEFAULT;
}

/** The address of the page at `path` (without its language) in `lang`. */
export function pageIn(lang, path, siteRoot) {
  return new URL((lang === DEFAULT ? "" : `${lang}/`) + path, siteRoot).href;
}

/** The language of the page shown. */
export function pageLanguage(siteRoot) {
  return languageOf(sitePath(siteRoot));
}

function sitePath(siteRoot) {
  let path = decodeURIComponent(location.pathname);
  if (path.startsWith(siteRoot.pathname)) path = path.slice(siteRoot.pathname.length);
  return path;
}

/** Point the header's language links at this page in each language, keeping the reader's place. */
export function mountLanguageSwitch(siteRoot) {
  const path = withoutLanguage(sitePath(siteRoot));
  for (const link of document.querySelectorAll(".md-select__link[hreflang]")) {
    const lang = link.getAttribute("hreflang");
    if (LANGUAGES.includes(lang)) link.href = pageIn(lang, path, siteRoot) + location.hash;
  }
}

// Before Material's instant navigation sees the click (it listens further up): a new language
// is a whole new page load.
document.addEventListener(
  "click",
  (event) => {
    const link = event.target instanceof Element && event.target.closest(".md-select__link[hreflang]");
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    event.stopPropagation();
    location.assign(link.href);
  },
  true,
);
