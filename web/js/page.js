// What every page shares: its inputs live in the URL (a link reproduces the
// result from any static host), a submit computes in the worker with a visible
// busy state, elapsed time, progress and a Cancel button, results render as jobs
// finish, and radio buttons recompute without reloading the page.

import { button, clear, el } from "./dom.js";
import { Engine, Stopped } from "./engine.js";
import { seconds } from "./format.js";
import { pageProblem, problemNode } from "./problem.js";
import { InputError } from "./request.js";

/** The width charts are drawn at: the room the results have, at most 760 px. */
export function chartWidth(results) {
  const room = results.clientWidth || document.documentElement.clientWidth;
  return Math.max(280, Math.min(760, Math.floor(room - 26)));
}

/**
 * Starts a page.
 *
 * `page`:
 * - `form`: the form; its field names are the URL's parameters;
 * - `fromParams(params)`: the page's state (throws `InputError`);
 * - `toParams(state)`: the URL parameters of a state;
 * - `fill(state)`: puts a state into the form;
 * - `isEmpty(state)`: nothing to compute (the page then shows `examples()`);
 * - `jobs(state, width)`: `[{ useCase, requests, view }]`, run in order;
 * - `render(state, outcomes, results, controls)`: draws the results so far
 *   (`outcomes[i]` is `{ answer }` or `{ stopped }` for `jobs[i]`, or missing);
 *   `controls.go(state)` navigates to another state (e.g. a suggested estimate);
 * - `examples()`: shown on the empty page.
 */
export function startPage(page) {
  const engine = new Engine();
  engine.onServer.then((onServer) => {
    const footer = document.querySelector("footer.site p");
    if (onServer && footer) footer.textContent = "fairdice · every number is computed exactly by the fairdice server this page came from.";
  });
  const results = document.getElementById("results");
  const busy = busyIndicator(() => engine.cancel());
  page.form.querySelector(".actions").append(busy.node);
  let current = 0;
  let cache = new Map();

  async function run(state) {
    const token = ++current;
    clear(results);
    if (page.isEmpty(state)) {
      results.append(page.examples());
      return;
    }
    const jobs = page.jobs(state, chartWidth(results));
    const outcomes = [];
    const fresh = new Map();
    const controls = { go };
    const draw = () => {
      if (token !== current) return;
      clear(results);
      page.render(state, outcomes, results, controls);
    };
    busy.start();
    results.setAttribute("aria-busy", "true");
    try {
      for (const [i, job] of jobs.entries()) {
        const key = JSON.stringify([job.useCase, job.requests, job.view]);
        try {
          const answer = cache.get(key) ?? (await engine.compute(job.useCase, job.requests, job.view, busy.progress));
          if (token !== current) return;
          fresh.set(key, answer);
          outcomes[i] = { answer };
        } catch (error) {
          if (token !== current) return;
          if (!(error instanceof Stopped)) throw error;
          outcomes[i] = { stopped: error };
          // After a cancel, the later jobs are not wanted either.
          if (error.reason === "cancelled") {
            draw();
            break;
          }
        }
        draw();
      }
    } catch (error) {
      if (token === current) results.append(pageProblem("internal", String(error?.message ?? error)));
    } finally {
      if (token === current) {
        busy.stop();
        results.removeAttribute("aria-busy");
        cache = fresh;
      }
    }
    if (token === current && outcomes.length === 0) draw();
  }

  function show(params) {
    let state;
    try {
      state = page.fromParams(params);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      current++;
      engine.busy && engine.cancel();
      clear(results).append(pageProblem("bad_request", error.message));
      return;
    }
    page.fill(state);
    run(state);
  }

  /** Navigates to `state`: its URL in the history, then its results. */
  function go(state) {
    const query = page.toParams(state).toString();
    const url = `${location.pathname}${query ? `?${query}` : ""}`;
    if (url !== `${location.pathname}${location.search}`) history.pushState(null, "", url);
    page.fill(state);
    run(state);
  }

  page.form.addEventListener("submit", (event) => {
    event.preventDefault();
    const params = new URLSearchParams();
    for (const [key, value] of new FormData(page.form, event.submitter)) {
      if (typeof value === "string" && value.trim() !== "") params.append(key, value);
    }
    try {
      go(page.fromParams(params));
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      current++;
      clear(results).append(pageProblem("bad_request", error.message));
    }
  });
  // A choice recomputes at once, and the page stays where it is: arrow keys move
  // between radio buttons without a reload or a lost focus.
  for (const radio of page.form.querySelectorAll('input[type="radio"]')) {
    radio.addEventListener("change", () => page.form.requestSubmit());
  }
  window.addEventListener("popstate", () => show(new URLSearchParams(location.search)));
  // The form answers from here on (a page whose module awaits its example files
  // starts later than the document's load): tests wait for this mark.
  document.documentElement.dataset.ready = "";
  show(new URLSearchParams(location.search));
  return { engine, go };
}

/** The busy state: what runs, for how long, its progress, and Cancel. */
function busyIndicator(cancel) {
  const text = el("span", { class: "busy-text" }, "Computing…");
  const bar = el("progress", { max: 1, value: 0, hidden: true });
  const node = el(
    "div",
    { id: "busy", class: "busy", hidden: true, attrs: { role: "status", "aria-live": "polite" } },
    el("span", { class: "spinner", attrs: { "aria-hidden": "true" } }),
    text,
    bar,
    button("Cancel", cancel, { id: "cancel", class: "secondary" }),
  );
  let started = 0;
  let stage = "";
  let timer = null;
  const tick = () => {
    text.textContent = `Computing${stage ? ` (${stage})` : ""}… ${seconds(started)}`;
  };
  return {
    node,
    start() {
      started = performance.now();
      stage = "";
      bar.hidden = true;
      node.hidden = false;
      tick();
      clearInterval(timer);
      timer = setInterval(tick, 100);
    },
    stop() {
      clearInterval(timer);
      node.hidden = true;
    },
    progress(event) {
      stage = event.stage;
      if (event.total > 0) {
        bar.hidden = false;
        bar.max = event.total;
        bar.value = Math.min(event.done, event.total);
      } else bar.hidden = true;
      tick();
    },
  };
}

/**
 * What the empty page offers: `[{ params, label, what }]`, each a link to the
 * result of `params` (URL parameters) labelled `label` (text or nodes), and
 * what it shows.
 */
export function examplesSection(items) {
  return el(
    "section",
    { class: "examples", attrs: { "aria-label": "Examples" } },
    el("h2", {}, "Try"),
    el(
      "ul",
      {},
      items.map(({ params, label, what }) => el("li", {}, el("a", { href: `?${params}` }, label), what ? [" ", el("span", { class: "muted" }, what)] : null)),
    ),
  );
}

/**
 * The result of a page's one request — `{ report }` or `{ error }` — and
 * the charts drawn with it; `null` while there is none, or when the job was
 * stopped (its notice is then shown in `results`).
 */
export function onlyResult(outcomes, results) {
  const outcome = outcomes[0];
  if (!outcome) return null;
  if (outcome.stopped) {
    results.append(stoppedNode(outcome.stopped));
    return null;
  }
  const answer = outcome.answer;
  return { result: answer.error ? answer : answer.results[0], charts: answer.charts ?? [] };
}

/** The outcome of a stopped job as a problem: cancelled, stopped by the server, or a crash of fairdice. */
export function stoppedNode(stopped) {
  if (stopped.reason === "cancelled") {
    return pageProblem("cancelled", "Cancelled: the computation was stopped. Change the inputs or run it again.", "Cancelled");
  }
  if (stopped.reason === "server" && stopped.error) return problemNode(stopped.error, "Stopped by the server");
  if (stopped.reason === "unavailable") return pageProblem("internal", stopped.message, "Nothing here can compute this");
  return pageProblem(
    "internal",
    `fairdice failed while computing this: ${stopped.message}`,
    "Could not compute this",
    "This is a fault of fairdice, not of your input; the page has restarted its worker and is ready for the next request.",
  );
}
