// The Dice page: expressions (one or several to compare), the measure to chart,
// and Monte Carlo settings when in use; the distribution as the charts crate draws
// it, mean and spread, and every outcome's numbers. Inputs live in the URL:
// `dice.html?expr=4d6kh3&expr=3d6&mode=at_least[&runs=N&seed=S][&dialect=roll20]`.

import { code, el, prose } from "../dom.js";
import { figure, prettyJson } from "../figure.js";
import { fixed, percent, shortCount } from "../format.js";
import { FORMS } from "../notation.js";
import { examplesSection, startPage, stoppedNode } from "../page.js";
import { problemNode } from "../problem.js";
import { InputError, param, requestJson, u64, whole } from "../request.js";
import { dataTable } from "../table.js";

/** Expressions compared at once. */
const MAX_EXPRESSIONS = 6;
const MEASURES = ["probability", "at_least", "at_most"];
const WORDS = { probability: "probability", at_least: "at least", at_most: "at most" };
const EXAMPLES = [
  ["ability score", ["4d6kh3"]],
  ["to hit", ["d20+5 >= 15"]],
  ["advantage vs. plain d20", ["2d20kh1", "d20"]],
  ["success pool", ["10d10cs>=8"]],
  ["exploding", ["d6!"]],
  ["Yahtzee full house", ["[h = 5d6] sets(h, 2) == 2 and largest_set(h) == 3"]],
  ["lands in a 7-card hand of 60 with 24 lands", ["count(deal(deck{1:24, 0:36}, 7), 1)"]],
  ["largest set of one rank, 5 cards vs. 5d13", ["largest_set(deal(deck{1..13:4}, 5))", "largest_set(5d13)"]],
  ["longest suit and longest run of one poker hand", ["[(rank, suit) = deal(deck{(1..13, 1..4)}, 5)] (largest_set(suit), longest_straight(rank))"]],
  ["a function: critical hits in two d20 attacks", ["[crit(x) = x == 20 ? 2 : x >= 15] crit(d20) + crit(d20)"]],
  ["hits and ones of the same 12d6 (Shadowrun)", ["[p = 12d6] (count(p, 5, 6), count(p, 1))"]],
  [
    "Powered by the Apocalypse moves, +1 vs. +2",
    ["2d6+1 as {..6: miss, 7..9: weak hit, 10..: strong hit}", "2d6+2 as {..6: miss, 7..9: weak hit, 10..: strong hit}"],
  ],
];

const form = document.getElementById("dice-form");
const boxes = document.getElementById("expressions");
const monteCarlo = document.getElementById("monte-carlo");

function fromParams(params) {
  const expressions = params.getAll("expr").map((e) => e.trim()).filter((e) => e !== "");
  if (expressions.length > MAX_EXPRESSIONS) {
    throw new InputError(`at most ${MAX_EXPRESSIONS} expressions can be compared at once, not ${expressions.length}`);
  }
  const mode = param(params, "mode") ?? "probability";
  if (!MEASURES.includes(mode)) {
    throw new InputError(`unknown measure \`${mode}\`; expected probability, at_least or at_most`);
  }
  const runs = param(params, "runs");
  const seed = param(params, "seed");
  return {
    expressions,
    mode,
    // Checked by the engine, which names the dialects it reads.
    dialect: param(params, "dialect") ?? "fairdice",
    runs: runs === undefined ? null : whole(runs, "runs"),
    seed: seed === undefined ? 1n : u64(seed, "seed"),
  };
}

function toParams(state) {
  const params = new URLSearchParams();
  for (const e of state.expressions) params.append("expr", e);
  if (state.mode !== "probability") params.set("mode", state.mode);
  if (state.dialect !== "fairdice") params.set("dialect", state.dialect);
  if (state.runs !== null) {
    params.set("runs", String(state.runs));
    params.set("seed", String(state.seed));
  }
  return params;
}

/** The label of the `i`-th expression box. */
function labelOf(i, value) {
  return i === 0 ? "Expression" : value === "" ? "Compare with (optional)" : "Compare with";
}

/** One box per expression, one empty box to add a comparison, never fewer than two. */
function fill(state) {
  const wanted = Math.min(Math.max(state.expressions.length + 1, 2), MAX_EXPRESSIONS);
  const values = [...state.expressions];
  while (values.length < wanted) values.push("");
  const inputs = boxes.querySelectorAll("input");
  if (inputs.length === values.length) {
    // The same boxes: keep them (and the focus of the one typed in).
    inputs.forEach((input, i) => {
      input.value = values[i];
      input.labels[0].textContent = labelOf(i, values[i]);
    });
  } else boxes.replaceChildren(
    ...values.map((value, i) => {
      const id = `expr-${i + 1}`;
      return el(
        "div",
        { class: "field" },
        el("label", { htmlFor: id }, labelOf(i, value)),
        el("input", {
          id,
          name: "expr",
          type: "text",
          value,
          placeholder: i === 0 ? "e.g. 4d6kh3" : "e.g. 3d6",
          autocomplete: "off",
          spellcheck: false,
          attrs: { autocapitalize: "off", maxlength: 10000 },
        }),
      );
    }),
  );
  form.querySelector(`#mode-${state.mode}`).checked = true;
  form.querySelector("#dialect").value = state.dialect;
  monteCarlo.hidden = state.runs === null;
  form.querySelector("#runs").value = state.runs ?? "";
  form.querySelector("#seed").value = state.runs === null ? "" : String(state.seed);
  form.querySelector("#runs").disabled = state.runs === null;
  form.querySelector("#seed").disabled = state.runs === null;
}

function jobs(state, width) {
  const dialect = state.dialect === "fairdice" ? {} : { dialect: state.dialect };
  const requests = state.expressions.map((expression) =>
    requestJson(
      state.runs === null ? { expression, ...dialect } : { expression, ...dialect, runs: state.runs, seed: state.seed },
    ),
  );
  return [{ useCase: "dist", requests, view: { measures: MEASURES, width } }];
}

function examples() {
  return examplesSection(
    EXAMPLES.map(([what, expressions]) => ({
      params: new URLSearchParams(expressions.map((e) => ["expr", e])),
      label: code(expressions.join(" vs ")),
      what,
    })),
  );
}

function render(state, outcomes, results, { go }) {
  const outcome = outcomes[0];
  if (!outcome) return;
  if (outcome.stopped) {
    results.append(stoppedNode(outcome.stopped));
    return;
  }
  const answer = outcome.answer;
  if (answer.error) {
    results.append(problemNode(answer.error, "Could not compute this"));
    return;
  }
  const computed = [];
  answer.results.forEach((result, i) => {
    const expression = state.expressions[i];
    if (result.report) {
      computed.push(result);
      return;
    }
    // The estimate offered for a request too large: the use case's suggestion,
    // sized to finish in seconds.
    const offer = (suggestion) =>
      state.runs === null && suggestion.use_case === "dist"
        ? () => go({ ...state, runs: suggestion.request.runs, seed: BigInt(suggestion.request.seed ?? 1) })
        : null;
    results.append(problemNode(result.error, ["Could not compute ", code(expression)], { offer }));
  });
  if (computed.length === 0) return;
  const reports = computed.map((r) => r.report);
  const chart = answer.charts.find((c) => c.name === state.mode);
  results.append(
    figure({
      id: "chart",
      chart,
      file: "fairdice",
      documents: reports.map((r) => ({
        label: `JSON for ${r.expression}`,
        name: "fairdice-dist.json",
        json: prettyJson(r),
      })),
    }),
  );
  // How the chosen dialect read each expression, and where another dice tool
  // reads it otherwise: one line each.
  const readings = reports.flatMap((r) => (r.dialect ? [r.dialect] : []).concat(r.other_readings ?? []));
  if (readings.length > 0) {
    results.append(el("div", { id: "other-readings", class: "other-readings" }, ...readings.map((r) => el("p", {}, r.note))));
  }
  results.append(summary(computed, state));
  results.append(computed.length === 1 ? single(computed[0], state.mode) : comparison(computed, state.mode));
}

/** "exact", or how far an explosion was followed when it was cut. */
function exactly(report) {
  return report.explode_depth === undefined
    ? "exact"
    : `exact up to ${report.explode_depth} extra rolls per exploding die`;
}

/** What an exact report's equally likely cases are: rolls, deals, or both. */
function cases(report) {
  return { deals: "deals", rolls_and_deals: "rolls and deals" }[report.counted] ?? "rolls";
}

/** One row per expression: mean, spread, range, median, and how it was computed. */
function summary(computed, state) {
  const rows = computed.map(({ report: r }) => {
    const computed =
      r.method === "exact"
        ? {
            text: `${exactly(r)}: ${shortCount(r.total)} equally likely ${cases(r)}`,
            csv: `${exactly(r)}: ${r.total} equally likely ${cases(r)}`,
            class: "computed",
          }
        : {
            text: `Monte Carlo: ${r.runs} rolls, seed ${state.seed}; mean ± ${fixed(1.96 * r.mean_standard_error, 4)} (95%)`,
            class: "computed",
          };
    // A tuple: a row for each of its values alone.
    if (r.values) {
      return r.values.map((v) => [
        { node: code(v.expression), csv: v.expression },
        { text: fixed(v.mean, 4), class: "mean" },
        { text: v.mean_exact ?? "(estimated)", class: "exact" },
        fixed(v.sd, 4),
        String(v.min),
        "",
        String(v.max),
        computed,
      ]);
    }
    return [
      [
        { node: code(r.expression), csv: r.expression },
        { text: fixed(r.mean, 4), class: "mean" },
        { text: r.mean_exact ?? "(estimated)", class: "exact" },
        fixed(r.sd, 4),
        String(r.min),
        String(r.median),
        String(r.max),
        computed,
      ],
    ];
  }).flat();
  return dataTable({
    id: "summary",
    caption: "Summary",
    columns: ["expression", "mean", "exact mean", "sd", "min", "median", "max"]
      .map((name) => ({ name }))
      .concat([{ name: "computed", class: "computed" }]),
    rows,
    csv: "fairdice-summary.csv",
  });
}

/** Every number of one distribution, the shown measure's column highlighted. */
function single(result, mode) {
  const report = result.report;
  const selected = (m) => (m === mode ? "selected" : undefined);
  const rows = result.report.outcomes;
  return dataTable({
    id: "distribution",
    caption: ["Distribution of ", code(report.expression)],
    columns: [
      { name: "outcome" },
      { name: "count" },
      { name: "probability", class: selected("probability") },
      { name: "at most", class: selected("at_most") },
      { name: "at least", class: selected("at_least") },
    ],
    rows: rows.map((row) => [
      shown(row),
      { text: shortCount(row.count), title: row.count, csv: row.count },
      { text: percent(row.probability), class: selected("probability"), csv: row.probability },
      { text: percent(row.at_most), class: selected("at_most"), csv: row.at_most },
      { text: percent(row.at_least), class: selected("at_least"), csv: row.at_least },
    ]),
    csv: "fairdice-distribution.csv",
  });
}

/** A row's outcome as shown: its label, a tuple `(3, 1)`, or its number. */
function shown(row) {
  if (row.label !== undefined) return row.label;
  return Array.isArray(row.outcome) ? `(${row.outcome.join(", ")})` : String(row.outcome);
}

/** The key of an outcome, a number or a tuple, in a Map. */
const keyOf = (outcome) => (Array.isArray(outcome) ? outcome.join(",") : outcome);

/** Outcomes in order: numbers ascending, tuples value by value. */
function compareOutcomes(a, b) {
  if (!Array.isArray(a)) return a - b;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** Outcome `x` as the reports show it (labels that differ joined). */
function shownIn(tables, x) {
  const labels = [...new Set(tables.map((t) => t.get(keyOf(x))).filter((r) => r !== undefined).map(shown))];
  return labels.length === 0 ? shown({ outcome: x }) : labels.join(" / ");
}

/** The shown measure for each expression, over the union of their outcomes. */
function comparison(computed, mode) {
  const reports = computed.map((r) => r.report);
  const tables = computed.map((r) => new Map(r.report.outcomes.map((row) => [keyOf(row.outcome), row])));
  const unique = new Map(reports.flatMap((r) => r.outcomes.map((row) => [keyOf(row.outcome), row.outcome])));
  const outcomes = [...unique.values()].sort(compareOutcomes);
  const value = (table, report, x) => {
    const row = table.get(keyOf(x));
    if (row) return mode === "probability" ? row.probability : row[mode];
    if (mode === "probability") return 0;
    // Outside its support a distribution's cumulative chances stay at 0 or 1.
    const below = x < report.min;
    return mode === "at_most" ? (below ? 0 : 1) : below ? 1 : 0;
  };
  const words = WORDS[mode];
  return dataTable({
    id: "distribution",
    caption: `${words[0].toUpperCase()}${words.slice(1)} by outcome`,
    columns: [{ name: "outcome" }, ...reports.map((r) => ({ name: r.expression }))],
    rows: outcomes.map((x) => [
      shownIn(tables, x),
      ...reports.map((r, i) => {
        const v = value(tables[i], r, x);
        return { text: percent(v), csv: v };
      }),
    ]),
    csv: "fairdice-comparison.csv",
  });
}

/**
 * The notation at a glance: the engine's list of forms (web/js/notation.js, generated
 * from it), each form's examples as code, notation in its meaning between backticks.
 */
function notationHelp() {
  const rows = FORMS.map(({ examples, meaning }) =>
    el("tr", {}, el("td", {}, examples.map((e, i) => [i ? " " : null, code(e)])), el("td", {}, prose(meaning))),
  );
  return el("table", { class: "notation" }, el("tbody", {}, rows));
}

document.getElementById("notation-help").append(notationHelp());
startPage({ form, fromParams, toParams, fill, isEmpty: (s) => s.expressions.length === 0, jobs, render, examples });

document.getElementById("exact-instead").addEventListener("click", () => {
  form.querySelector("#runs").value = "";
  form.querySelector("#seed").value = "";
  form.requestSubmit();
});
