// An output area: streamed text (stdout and stderr apart), figures and errors,
// appended in the order they arrive.

import { t } from "./i18n.js";

export class Output {
  /** `el` becomes a labelled region that keys can reach: a long output scrolls inside it. */
  constructor(el, label) {
    this.el = el;
    el.setAttribute("aria-live", "polite");
    el.setAttribute("role", "region");
    el.setAttribute("aria-label", label);
    el.tabIndex = 0;
  }

  clear() {
    this.el.replaceChildren();
    this.el.hidden = true;
  }

  append(node) {
    this.el.hidden = false;
    this.el.append(node);
    return node;
  }

  /** Add streamed text; consecutive chunks of one stream share one block. */
  text(stream, text) {
    let block = this.el.lastElementChild;
    if (!block || block.dataset.stream !== stream) {
      block = document.createElement("pre");
      block.className = `course-output__${stream}`;
      block.dataset.stream = stream;
      this.append(block);
    }
    block.append(text);
  }

  /** A figure: SVG shown as an image, so nothing in it can run as script.
   *  A figure with a key replaces the one shown earlier with that key (a live curve). */
  figure(svg, key = null) {
    let img = key === null ? null : [...this.el.children].find((el) => el.dataset.figureKey === key);
    if (!img) {
      img = document.createElement("img");
      img.className = "course-output__figure";
      if (key !== null) img.dataset.figureKey = key;
      this.append(img);
    }
    const title = /<title>([^<]*)<\/title>/.exec(svg);
    img.alt = title ? decodeEntities(title[1]) : t("output.figure");
    const url = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
    img.addEventListener("load", () => URL.revokeObjectURL(url), { once: true });
    img.src = url;
  }

  error(text) {
    const pre = document.createElement("pre");
    pre.className = "course-output__error";
    pre.textContent = text;
    this.append(pre);
  }

  /** A line of the page's own: `content` is text, or a list of text and nodes (a link). */
  note(content, kind = "note") {
    const p = document.createElement("p");
    p.className = `course-output__${kind}`;
    p.append(...(Array.isArray(content) ? content : [content]));
    this.append(p);
    return p;
  }
}

function decodeEntities(text) {
  const el = document.createElement("textarea");
  el.innerHTML = text;
  return el.value;
}
