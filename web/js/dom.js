// Building the page with DOM APIs only: elements from createElement, text through
// text nodes and textContent, so nothing a user typed is ever parsed as HTML.

/**
 * An element: `el("td", { class: "mean", title: "…" }, "12.2446")`. Props: `class`,
 * `dataset` (an object), `on` (event name → handler), `attrs` (set as attributes),
 * and any other key set as a property (`id`, `type`, `value`, `checked`, …).
 * Children: strings (as text), nodes, arrays of them; null and false are skipped.
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null) continue;
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "on") for (const [name, handler] of Object.entries(value)) node.addEventListener(name, handler);
    else if (key === "attrs") for (const [name, v] of Object.entries(value)) node.setAttribute(name, String(v));
    else node[key] = value;
  }
  append(node, children);
  return node;
}

/** Appends children (strings as text nodes, nested arrays flattened). */
export function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Removes every child of `node`. */
export function clear(node) {
  node.replaceChildren();
  return node;
}

/** `<code>text</code>`. */
export function code(text) {
  return el("code", {}, text);
}

/** Text with the notation between backticks shown as code (the engine's help texts write it so). */
export function prose(text) {
  return text.split("`").map((part, i) => (i % 2 ? code(part) : part));
}

/**
 * An SVG document written by the charts crate (which escapes every text it
 * draws), parsed as XML — never as HTML — and adopted into this page.
 */
export function svgNode(text) {
  const parsed = new DOMParser().parseFromString(text, "image/svg+xml");
  const root = parsed.documentElement;
  if (root.localName !== "svg" || parsed.getElementsByTagName("parsererror").length > 0) {
    throw new Error("the chart is not an SVG document");
  }
  return document.importNode(root, true);
}

/** Offers `content` as a download named `name`. */
export function download(name, content, type) {
  const blob = content instanceof Blob ? content : new Blob([content], { type });
  const url = URL.createObjectURL(blob);
  const link = el("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A button that does `action` (never submits a form). */
export function button(text, action, props = {}) {
  return el("button", { type: "button", ...props, on: { click: action } }, text);
}
