// A use case's error document on the page: the message with the command line's
// caret rendering, its hint, and — for a request too large — the estimate it
// suggests, as a button that runs it.

import { button, el } from "./dom.js";
import { thousands } from "./format.js";

/**
 * The alert for `error` (the use-case layer's error document) under `heading`
 * (text or nodes). `offer(suggestion)` returns the action of the suggested
 * request's button, or null when this page does not offer it; `unit` names what
 * its `runs` count (`rolls`, `runs`).
 */
export function problemNode(error, heading, { hint, offer, unit = "rolls" } = {}) {
  const advice = hint ?? error.hint;
  const action = error.suggestion && offer ? offer(error.suggestion) : null;
  const runs = error.suggestion?.request?.runs;
  return el(
    "div",
    { class: "problem", attrs: { role: "alert" }, dataset: { kind: error.kind ?? "internal" } },
    el("h3", {}, heading),
    el("pre", { class: "rendered" }, error.rendered ?? error.message ?? String(error)),
    advice ? el("p", { class: "hint" }, advice) : null,
    action
      ? el(
          "p",
          { class: "offer" },
          button(runs ? `Estimate with ${thousands(runs)} ${unit}` : "Run the suggested estimate", action, {
            class: "offer-button",
            title: error.suggestion.command,
          }),
          " ",
          el("span", { class: "muted" }, "the same as ", el("code", {}, error.suggestion.command)),
        )
      : null,
  );
}

/** A problem of the page itself (its inputs, a cancelled or crashed worker). */
export function pageProblem(kind, message, heading = "Could not compute this", hint = null) {
  return problemNode({ kind, message, rendered: message, hint }, heading);
}
