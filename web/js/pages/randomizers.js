// The Randomizers page: a spec and the match length T; the method, mean entropy,
// outcome variance, repeat rate and droughts; the per-step curves as the charts
// crate draws them; a seeded sample and the next-sample distribution after a
// history. Inputs live in the URL: `randomizers.html?spec=tgm2&samples=25
// [&method=auto|exact|monte_carlo&runs=N&seed=S&droughts=off&sample=1&history=…]`.

import { button, code, download, el, prose } from "../dom.js";
import { FAMILIES } from "../families.js";
import { figure, prettyJson } from "../figure.js";
import { fixed, withError } from "../format.js";
import { examplesSection, startPage, stoppedNode } from "../page.js";
import { problemNode } from "../problem.js";
import { methodParam, param, requestJson, u64, whole } from "../request.js";
import { dataTable } from "../table.js";

/** Samples in a match when none are given (the article's). */
const DEFAULT_SAMPLES = 25;
/** Monte Carlo runs when the method asks for Monte Carlo without a number (the command line's). */
const DEFAULT_RUNS = 100_000;
const EXAMPLES = [
  ["deck(values=6, copies=1, refill_below=6)", "the article's fairest deck for 25 samples"],
  ["dynamic(values=6, decrease=0.355)", "the article's dynamic dice"],
  ["fair(base=2d6, tightness=1)", "the fair die roller over 2d6"],
  ["prd(p=0.25)", "Warcraft III's pseudo-random distribution"],
  ["tgm2", "Tetris: The Grand Master 2's randomizer"],
  ["tgm3", "Tetris: The Grand Master 3's 35-piece bag"],
  ["dice(values=6)", "plain dice, the baseline"],
];

/**
 * A game's own systems as machine documents (docs/machines/), each with the goal
 * its players ask about: `[document, label, what, goal parameters]`.
 */
const MACHINES = [
  ["{\"name\":\"limited banner\",\"about\":\"0.6% a pull; from the 74th pull since the last 5-star the chance rises 6 points a pull, certain at the 90th. A 5-star is the featured one with chance 1/2; after one that is not, the next 5-star is.\",\"outcomes\":[\"3-star\",\"featured\",\"standard\"],\"layers\":[{\"name\":\"pity\",\"counter\":90,\"draw\":{\"5-star\":\"min(1, 0.6% + 6% * max(0, n - 72))\",\"3-star\":\"rest\"},\"next\":{\"5-star\":0,\"3-star\":\"n + 1\"}},{\"name\":\"fifty-fifty\",\"refines\":\"5-star\",\"states\":{\"even\":{\"draw\":{\"featured\":\"1/2\",\"standard\":\"1/2\"},\"next\":{\"standard\":\"guaranteed\"}},\"guaranteed\":{\"draw\":{\"featured\":1},\"next\":{\"featured\":\"even\"}}}}]}", "limited banner", "soft pity and a 50/50: pulls until the featured 5-star, the chance within 90", { until: "featured", budget: "90" }],
  ["{\"name\":\"streak-breaking shot\",\"about\":\"A 50% shot gains 10 points after each miss (at most 100%) and returns to 50% after a hit.\",\"outcomes\":[\"miss\",\"hit\"],\"layers\":[{\"name\":\"misses\",\"counter\":6,\"draw\":{\"hit\":\"min(1, 50% + 10% * n)\",\"miss\":\"rest\"},\"next\":{\"hit\":0,\"miss\":\"min(5, n + 1)\"}}]}", "streak-breaking shot", "a 50% shot 10 points surer after each miss: hits in 10 shots", { until: "hit", budget: "10" }],
  ["{\"name\":\"loot with a protected drop\",\"about\":\"A chest gives the epic sword 2% of the time, a rare shield 18%, gold otherwise; the 25th chest without the sword gives it for certain.\",\"outcomes\":[\"gold\",\"shield\",\"sword\"],\"layers\":[{\"name\":\"since sword\",\"counter\":25,\"draw\":{\"sword\":\"n == 24 ? 1 : 2%\",\"shield\":\"n == 24 ? 0 : 18%\",\"gold\":\"rest\"},\"next\":{\"sword\":0,\"shield\":\"n + 1\",\"gold\":\"n + 1\"}}]}", "loot with a protected drop", "a 2% sword, certain at the 25th chest: chests until two swords", { until: "sword", times: "2" }],
];

const form = document.getElementById("randomizer-form");

function fromParams(params) {
  const method = methodParam(params);
  const samples = param(params, "samples");
  const runs = param(params, "runs");
  const seed = param(params, "seed");
  const history = params.has("history")
    ? (params.get("history") ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s !== "")
    : null;
  // The form sends `droughts=off` always and `droughts=on` when ticked; a link
  // has `droughts=off` or nothing.
  const droughts = params.getAll("droughts");
  return {
    spec: param(params, "spec") ?? "",
    samples: samples === undefined ? DEFAULT_SAMPLES : whole(samples, "samples"),
    method,
    runs: runs === undefined ? null : whole(runs, "runs"),
    seed: seed === undefined ? 1n : u64(seed, "seed"),
    droughts: droughts.includes("on") || !droughts.includes("off"),
    sample: ["1", "on", "true", "yes"].includes(param(params, "sample") ?? ""),
    history: history && history.length > 0 ? history : null,
    until: (param(params, "until") ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== ""),
    times: param(params, "times") === undefined ? 1 : whole(param(params, "times"), "times"),
    every: ["1", "on", "true", "yes"].includes(param(params, "every") ?? ""),
    budget: param(params, "budget") === undefined ? null : whole(param(params, "budget"), "budget"),
    log: param(params, "log") ?? "",
  };
}

function toParams(state, sample = state.sample) {
  const params = new URLSearchParams({ spec: state.spec, samples: state.samples });
  if (state.method !== "auto") params.set("method", state.method);
  if (state.runs !== null) params.set("runs", state.runs);
  if (state.seed !== 1n || sample || state.runs !== null || state.method === "monte_carlo") params.set("seed", String(state.seed));
  if (!state.droughts) params.set("droughts", "off");
  if (sample) params.set("sample", "1");
  if (state.history) params.set("history", state.history.join(","));
  if (state.until.length > 0) params.set("until", state.until.join(","));
  if (state.times !== 1) params.set("times", state.times);
  if (state.every) params.set("every", "1");
  if (state.budget !== null) params.set("budget", state.budget);
  if (state.log !== "") params.set("log", state.log);
  return params;
}

/** Whether the page asks a goal: outcomes to wait for, or every outcome. */
function asksGoal(state) {
  return state.until.length > 0 || state.every;
}

/** What headings call a randomizer: a machine by its name, a spec as written. */
function specTitle(spec) {
  if (!spec.trimStart().startsWith("{")) return spec;
  try {
    return JSON.parse(spec).name ?? "a machine";
  } catch {
    return "a machine";
  }
}

function fill(state) {
  form.querySelector("#spec").value = state.spec;
  form.querySelector("#samples").value = state.samples;
  form.querySelector("#method").value = state.method;
  form.querySelector("#runs").value = state.runs ?? "";
  form.querySelector("#seed").value = String(state.seed);
  form.querySelector("#history").value = state.history?.join(",") ?? "";
  form.querySelector("#with-droughts").checked = state.droughts;
  form.querySelector("#until").value = state.until.join(",");
  form.querySelector("#times").value = state.times === 1 ? "" : state.times;
  form.querySelector("#every").checked = state.every;
  form.querySelector("#budget").value = state.budget ?? "";
  form.querySelector("#log").value = state.log;
}

/**
 * The sample, the next-sample distribution, the analysis's summary and curves,
 * then its droughts (the costliest part of an exact analysis, a use case of their
 * own so the curves show while they are computed).
 */
function jobs(state, width) {
  const source = { spec: state.spec };
  const list = [];
  if (state.sample) {
    list.push({ kind: "sample", useCase: "sample", requests: [requestJson({ source, samples: state.samples, seed: state.seed })] });
  }
  if (state.history) {
    list.push({ kind: "next", useCase: "next", requests: [requestJson({ source, history: state.history })] });
  }
  if (asksGoal(state)) {
    const goal = { source, until: state.until, times: state.times, every: state.every, history: state.history ?? [] };
    if (state.budget !== null) goal.budget = state.budget;
    list.push({ kind: "goal", useCase: "goal", requests: [requestJson(goal)] });
  }
  if (state.log !== "") {
    list.push({ kind: "audit", useCase: "audit", requests: [requestJson({ spec: state.spec, log: state.log, seed: state.seed })] });
  }
  const analysis = { spec: state.spec, samples: state.samples, seed: state.seed, droughts: false };
  if (state.method === "exact") analysis.exact = true;
  if (state.runs !== null || state.method === "monte_carlo") analysis.runs = state.runs ?? DEFAULT_RUNS;
  list.push({ kind: "analyze", useCase: "analyze", requests: [requestJson(analysis)], view: { width } });
  if (state.droughts) {
    list.push({ kind: "droughts", useCase: "droughts", requests: [requestJson({ ...analysis, droughts: true })] });
  }
  return list;
}

function examples() {
  return examplesSection([
    ...EXAMPLES.map(([spec, what]) => ({ params: new URLSearchParams({ spec, samples: 25 }), label: code(spec), what })),
    ...MACHINES.map(([spec, label, what, goal]) => ({ params: new URLSearchParams({ spec, samples: 25, ...goal }), label, what })),
  ]);
}

function render(state, outcomes, results, { go }) {
  const list = jobs(state, 0);
  const shown = new Set();
  const done = Object.fromEntries(list.map((job, i) => [job.kind, outcomes[i]]));
  const resultOf = (outcome) => (outcome?.answer?.error ? outcome.answer : outcome?.answer?.results[0]);
  const offer = (suggestion) =>
    suggestion.use_case === "analyze"
      ? () => go({ ...state, method: "auto", runs: suggestion.request.runs, seed: BigInt(suggestion.request.seed ?? 1) })
      : null;
  // One spec error would repeat for each job: show each once.
  const problem = (error, heading = ["Could not compute ", code(state.spec)]) => {
    if (shown.has(error.rendered)) return null;
    shown.add(error.rendered);
    return problemNode(error, heading, { offer, unit: "runs" });
  };
  for (const kind of ["sample", "next", "goal", "audit", "analyze"]) {
    const outcome = done[kind];
    if (!outcome) continue;
    if (outcome.stopped) {
      results.append(stoppedNode(outcome.stopped));
      return;
    }
    const result = resultOf(outcome);
    if (result.error) {
      results.append(problem(result.error) ?? "");
      continue;
    }
    if (kind === "sample") results.append(sampleBlock(state, result.report));
    else if (kind === "next") results.append(nextBlock(result.report));
    else if (kind === "goal") results.append(goalBlock(result.report, outcome.answer.charts));
    else if (kind === "audit") results.append(auditBlock(result.report));
    else analysisBlocks(result.report, outcome.answer.charts, resultOf(done.droughts), done.droughts, state, results);
  }
}

/** The seeded sequence, with the command that draws the same one. */
function sampleBlock(state, report, go) {
  const shown = report.labels ?? report.samples.map(String);
  const next = (state.seed + 1n) % (1n << 64n);
  return el(
    "section",
    { id: "sample", class: "panel", attrs: { "aria-label": "Sample" } },
    el("h2", {}, `A seeded sample of ${shown.length}`),
    el("ol", { class: "sequence" }, shown.map((s) => el("li", {}, s))),
    el(
      "p",
      { class: "hint" },
      "The same as ",
      code(`fairdice sample '${report.spec}' --samples ${shown.length} --seed ${state.seed}`),
      " · ",
      el("a", { href: `?${toParams({ ...state, seed: next }, true)}` }, `Draw another (seed ${next})`),
      " · ",
      button("JSON", () => download("fairdice-sample.json", prettyJson(report), "application/json"), { class: "link" }),
    ),
  );
}

/** The next-sample distribution after the history, as a table with bars. */
function nextBlock(report) {
  const peak = Math.max(1e-300, ...report.outcomes.map((o) => o.probability));
  const history = report.history.length === 0 ? "no history" : report.history.join(", ");
  return dataTable({
    id: "next",
    caption: `Next-sample distribution after ${history}`,
    columns: [{ name: "outcome" }, { name: "probability" }, { name: "relative to the likeliest" }],
    rows: report.outcomes.map((o) => [
      o.label ?? String(o.outcome),
      { text: fixed(o.probability, 6), csv: o.probability },
      {
        node: el("meter", { min: 0, max: 1, value: o.probability / peak }, `${fixed((100 * o.probability) / peak, 1)}%`),
        csv: o.probability / peak,
      },
    ]),
    csvHeader: ["outcome", "probability", "relative to the likeliest"],
    csv: "fairdice-next.csv",
  });
}

/** A chance as a percentage. */
function percent(p) {
  return `${fixed(100 * p, 4)}%`;
}

/**
 * The goal: its mean, percentiles and the chance within the budget, then the
 * chance within each number of attempts with a bar (`fairdice goal`'s table).
 */
function goalBlock(report, charts = []) {
  const where = report.start.length > 0 && report.history.length > 0 ? ` (after ${report.history.length} outcomes: ${report.start.join(", ")})` : "";
  const method =
    report.method.method === "exact"
      ? `exact over ${report.method.states} states`
      : `Monte Carlo: ${report.method.runs} runs, seed ${report.method.seed}`;
  const rows = [
    ["mean attempts", report.mean === null ? `none: met with chance ${percent(report.ever)} only` : report.mean_error ? withError(report.mean, report.mean_error) : fixed(report.mean, 4)],
    ["standard deviation", report.sd === null ? "–" : fixed(report.sd, 4)],
    ["certain by", report.certain_by === null ? "–" : `attempt ${report.certain_by}`],
    ...report.percentiles.map((p) => [`${+(100 * p.chance).toFixed(4)}% by`, p.attempts === null ? "never" : `attempt ${p.attempts}`]),
  ];
  if (report.budget) {
    rows.push([`within ${report.budget.attempts} attempts`, percent(report.budget.chance)]);
    if (report.budget.expected_hits !== undefined) rows.push([`expected ${report.until.join(" or ")} within them`, fixed(report.budget.expected_hits, 4)]);
  }
  const chart = charts.find((c) => c.name === "attempts");
  const section = el("section", { id: "goal", class: "panel", attrs: { "aria-label": "Goal" } });
  section.append(
    dataTable({
      id: "goal-summary",
      caption: `${specTitle(report.spec)}: attempts until ${report.goal}${where}; ${method}`,
      columns: [{ name: "measure" }, { name: "value" }],
      rows: rows.map(([measure, value]) => [{ text: measure, header: true }, value]),
      csv: "fairdice-goal-summary.csv",
    }),
    chart ? figure({ id: "goal-chart", chart, file: "fairdice-goal" }) : "",
    el(
      "details",
      { class: "help" },
      el("summary", {}, `The chance within each number of attempts (${report.attempts.length}${report.truncated ? "+" : ""})`),
      dataTable({
        id: "goal-attempts",
        columns: [{ name: "attempt" }, { name: "P(at this attempt)" }, { name: "P(within)" }, { name: "" }],
        rows: report.attempts.map((a) => [
          String(a.attempt),
          { text: fixed(a.chance, 6), csv: a.chance },
          { text: fixed(a.cumulative, 6), csv: a.cumulative },
          { node: el("meter", { min: 0, max: 1, value: a.cumulative }, percent(a.cumulative)), csv: a.cumulative },
        ]),
        csvHeader: ["attempt", "chance", "cumulative", "cumulative"],
        csv: "fairdice-goal.csv",
      }),
    ),
    el(
      "p",
      { class: "hint" },
      "The same as ",
      code(`fairdice goal … --until ${report.until.join(",")}${report.goal.includes("×") ? ` --times ${report.goal.split(" ×")[0]}` : ""}${report.budget ? ` --budget ${report.budget.attempts}` : ""}`),
      " · ",
      button("JSON", () => download("fairdice-goal.json", prettyJson(report), "application/json"), { class: "link" }),
    ),
  );
  return section;
}

/**
 * A randomizer of attempts (PRD, pity): the attempts until a success from the
 * start, attempt by attempt, as `fairdice prd` and `fairdice analyze` give them.
 */
function successBlock(attempts) {
  const bounds = [
    attempts.expected_attempts === null ? "" : `${fixed(attempts.expected_attempts, 4)} on average`,
    attempts.max_attempts === null ? "" : `never more than ${attempts.max_attempts}`,
  ].filter(Boolean);
  return el(
    "details",
    { class: "help", id: "attempts" },
    el("summary", {}, `Attempts until ${attempts.outcome} (from the start)${bounds.length ? `: ${bounds.join(", ")}` : ""}`),
    dataTable({
      id: "attempts-table",
      columns: [{ name: "attempt" }, { name: "P(success)" }, { name: "P(first success)" }, { name: "P(success by now)" }, { name: "" }],
      rows: attempts.attempts.map((a) => [
        String(a.attempt),
        { text: fixed(a.probability, 6), csv: a.probability },
        { text: fixed(a.first_success, 6), csv: a.first_success },
        { text: fixed(a.cumulative, 6), csv: a.cumulative },
        { node: el("meter", { min: 0, max: 1, value: a.cumulative }, percent(a.cumulative)), csv: a.cumulative },
      ]),
      csvHeader: ["attempt", "probability", "first_success", "cumulative", "cumulative"],
      csv: "fairdice-attempts.csv",
    }),
  );
}

/**
 * The audit of the log: its log-likelihood, the three tests with their
 * p-values, and the candidates ranked by likelihood (`fairdice audit`).
 */
function auditBlock(report) {
  const likelihood =
    report.log_likelihood !== null
      ? `${fixed(report.log_likelihood, 4)} (${fixed(report.per_entry, 4)} an entry)`
      : `−∞: entry ${report.impossible?.entry} (${report.impossible?.outcome}) cannot come from it: ${report.impossible?.reason}`;
  return el(
    "section",
    { id: "audit", class: "panel", attrs: { "aria-label": "Audit" } },
    el("h2", {}, `The log: ${report.entries} entries against ${specTitle(report.spec)}`),
    el("p", { id: "audit-likelihood" }, "Log-likelihood (each entry given the ones before): ", el("strong", {}, likelihood)),
    dataTable({
      id: "audit-tests",
      caption: report.method,
      columns: [{ name: "test" }, { name: "what it measures" }, { name: "the log's value" }, { name: "p-value" }, { name: "method" }],
      rows: report.tests.map((t) => [{ text: t.test, header: true }, t.measures, fixed(t.statistic, 3), { text: fixed(t.p_value, 4), csv: t.p_value }, t.method]),
      csv: "fairdice-audit-tests.csv",
    }),
    dataTable({
      id: "audit-candidates",
      caption: "Candidates, likeliest first",
      columns: [{ name: "randomizer" }, { name: "log-likelihood" }, { name: "behind the likeliest" }],
      rows: report.candidates.map((c) => [
        { text: specTitle(c.spec), header: true },
        c.log_likelihood === null ? `−∞ (entry ${c.impossible_entry} impossible)` : { text: fixed(c.log_likelihood, 4), csv: c.log_likelihood },
        c.behind === null ? "–" : { text: fixed(c.behind, 4), csv: c.behind },
      ]),
      csv: "fairdice-audit-candidates.csv",
    }),
    el(
      "p",
      { class: "hint" },
      "A small p-value says the log strays too far from the randomizer, or keeps too close to its base (a deck dealt as if rolled). The same as ",
      code("fairdice audit LOG --randomizer …"),
      " · ",
      button("JSON", () => download("fairdice-audit.json", prettyJson(report), "application/json"), { class: "link" }),
    ),
  );
}

/** How the numbers were computed, in words. */
function methodWords(method) {
  return method.method === "exact"
    ? `exact sweep (at most ${method.peak_states} merged states per step)`
    : `Monte Carlo: ${method.runs} runs, seed ${method.seed} (± one standard error)`;
}


/**
 * The summary, the curves, the droughts (when asked for: computed after the
 * curves, so they may still be running, stopped or refused) and every step.
 */
function analysisBlocks(report, charts, droughts, droughtsOutcome, state, results) {
  const errors = report.errors ?? {};
  results.append(
    dataTable({
      id: "summary",
      caption: `${specTitle(report.spec)} over ${report.samples} samples`,
      columns: ["method", "mean entropy", "outcome variance", "base deviation", "repeat rate"].map((name) => ({ name })),
      rows: [
        [
          { text: methodWords(report), header: true, class: "method" },
          { text: withError(report.mean_entropy, errors.mean_entropy), class: "mean-entropy" },
          { text: withError(report.outcome_variance, errors.outcome_variance), class: "outcome-variance" },
          { text: withError(report.base_deviation, errors.base_deviation), class: "base-deviation" },
          { text: withError(report.repeat_rate, errors.repeat_rate), class: "repeat-rate" },
        ],
      ],
      csv: "fairdice-analysis-summary.csv",
      cards: true,
    }),
  );
  results.querySelector("#summary .method").dataset.method = report.method;
  results.append(
    el(
      "p",
      { class: "hint" },
      `Mean entropy: of the next-sample distribution before each sample, as a fraction of a fair die's (1 = unpredictable), averaged over the match. Outcome variance: of the outcome counts after sample ${report.samples} (0 = every outcome equally often). Base deviation: how far the outcome counts stray from the base's p·T (1 = as plain dice, 0 = exactly p·T). Repeat rate: samples equal to the one before.`,
    ),
  );
  if (report.attempts) results.append(successBlock(report.attempts));
  // The JSON is `fairdice analyze --json`'s document: with its droughts once they are in.
  const whole = droughts?.report ? { ...report, droughts: droughts.report } : report;
  results.append(
    figure({
      id: "chart",
      chart: charts.find((c) => c.name === "curves"),
      file: "fairdice-analysis",
      documents: [{ label: "JSON", name: "fairdice-analysis.json", json: prettyJson(whole) }],
    }),
  );
  if (state.droughts) {
    const skip = `?${toParams({ ...state, droughts: false })}`;
    if (droughts?.report) results.append(droughtsTable(droughts.report));
    else if (droughtsOutcome?.stopped || droughts?.error) {
      const stopped = droughtsOutcome?.stopped;
      const why = !stopped
        ? droughts.error.message
        : stopped.reason === "cancelled"
          ? "Cancelled while computing them."
          : stopped.reason === "server"
            ? `The server stopped computing them: ${stopped.message}`
            : `fairdice failed while computing them: ${stopped.message}.`;
      results.append(
        el(
          "div",
          { class: "problem", id: "droughts-problem", attrs: { role: "status" }, dataset: { kind: droughts?.error?.kind ?? "cancelled" } },
          el("h3", {}, "Droughts not computed"),
          el("p", {}, `${why} The summary and curves above are complete; `, el("a", { href: skip }, "leave droughts out"), ", or run ", code("fairdice analyze"), " on the command line."),
        ),
      );
    } else {
      results.append(el("p", { class: "hint", id: "droughts-pending" }, "Droughts: computing… (the costliest part of an exact analysis; Cancel keeps the curves)"));
    }
  }
  results.append(stepsTable(report));
}

/** Each outcome's expected longest gap and P(gap > k) at the gaps worth showing. */
function droughtsTable(droughts) {
  const gaps = droughts.shown_gaps;
  const same = droughts.outcomes.every(
    (o, i, all) => i === 0 || (o.longest_gap === all[0].longest_gap && JSON.stringify(o.gap_exceeds) === JSON.stringify(all[0].gap_exceeds)),
  );
  const rows = (same ? droughts.outcomes.slice(0, 1) : droughts.outcomes).map((o) => [
    same ? "each" : String(o.outcome),
    fixed(o.longest_gap, 3),
    ...gaps.map((k) => fixed(o.gap_exceeds[k] ?? 0, 4)),
  ]);
  return dataTable({
    id: "droughts",
    caption: `Droughts: the longest run of samples without an outcome (${methodWords(droughts)})`,
    columns: [{ name: "outcome" }, { name: "expected longest gap" }, ...gaps.map((k) => ({ name: `P(gap > ${k})` }))],
    rows,
    csvHeader: ["outcome", "expected longest gap", ...droughts.outcomes[0].gap_exceeds.map((_, k) => `P(gap > ${k})`)],
    csvRows: droughts.outcomes.map((o) => [o.outcome, o.longest_gap, ...o.gap_exceeds]),
    csv: "fairdice-droughts.csv",
    cards: true,
  });
}

/** Every step's expectations, folded. */
function stepsTable(report) {
  return el(
    "details",
    { class: "help steps" },
    el("summary", {}, "Every step"),
    dataTable({
      id: "steps",
      columns: ["step", "entropy", "outcome variance", "P(repeat)"].map((name) => ({ name })),
      rows: report.steps.map((s) => [
        String(s.step),
        { text: fixed(s.entropy, 4), csv: s.entropy },
        { text: fixed(s.outcome_variance, 4), csv: s.outcome_variance },
        { text: fixed(s.repeat, 4), csv: s.repeat },
      ]),
      csv: "fairdice-steps.csv",
    }),
  );
}

/** Every family's spec and what it is, from the engine's registry (web/js/families.js). */
document
  .getElementById("families")
  .append(...FAMILIES.map((f) => el("tr", {}, el("td", {}, code(f.usage)), el("td", {}, prose(f.summary)))));
startPage({ form, fromParams, toParams, fill, isEmpty: (s) => s.spec === "", jobs, render, examples });
