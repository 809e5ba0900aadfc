// An exact fraction on the page: short ones in full, long ones (a battle's odds
// can run to thousands of digits) folded behind their length, one click from whole.

import { el } from "./dom.js";

/** Fractions longer than this are folded. */
export const MAX_FRACTION_CHARS = 60;

/** `text` (e.g. `1445/3888`) as a `<code>`, folded past `MAX_FRACTION_CHARS`. */
export function fractionNode(text, id) {
  const node = el("code", { class: "fraction", id }, text);
  if (text.length <= MAX_FRACTION_CHARS) return node;
  return el("details", { class: "fraction" }, el("summary", {}, `exact fraction of ${text.length} characters`), node);
}
