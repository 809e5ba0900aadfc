// The Contest page: two pools, the pairing and the tie rule; who wins how often
// (exact fractions and decimals), win bias, tie % and closeness, the net score as
// a chart and a table. Inputs live in the URL:
// `contest.html?a=3d6&b=3d6&pairing=sorted&ties=stand[&runs=N&seed=S]`.

import { code, el } from "../dom.js";
import { figure, prettyJson } from "../figure.js";
import { fixed, percent, shortCount, thousands } from "../format.js";
import { fractionNode } from "../fraction.js";
import { examplesSection, onlyResult, startPage } from "../page.js";
import { problemNode } from "../problem.js";
import { InputError, param, requestJson, u64, whole } from "../request.js";
import { dataTable } from "../table.js";

const PAIRINGS = ["sorted", "unsorted"];
const TIES = { stand: "ties stand", "a-wins": "A wins ties", "b-wins": "B wins ties", reroll: "tied dice rerolled" };
const EXAMPLES = [
  ["Risk's one roll: three dice attack two, the defender wins ties", "3d6", "2d6", "sorted", "b-wins"],
  ["Isaksen et al. 3.1: equal pools, highest meets highest", "5d6", "5d6", "sorted", "stand"],
  ["Isaksen 5.1: A wins ties", "5d6", "5d6", "sorted", "a-wins"],
  ["Isaksen 6: fewer dice for the side that wins ties", "4d6", "5d6", "sorted", "a-wins"],
  ["Isaksen 7.2: mixed dice, paired as written", "5d6", "3d6+1d8+1d10", "unsorted", "a-wins"],
  ["Isaksen 8.1: tied dice rerolled", "2d6", "2d6", "sorted", "reroll"],
];

const form = document.getElementById("contest-form");
const monteCarlo = document.getElementById("monte-carlo");

function fromParams(params) {
  const pairing = param(params, "pairing") ?? "sorted";
  if (!PAIRINGS.includes(pairing)) throw new InputError(`unknown pairing \`${pairing}\`; expected sorted or unsorted`);
  const ties = param(params, "ties") ?? "stand";
  if (!(ties in TIES)) throw new InputError(`unknown tie rule \`${ties}\`; expected stand, a-wins, b-wins or reroll`);
  const runs = param(params, "runs");
  const seed = param(params, "seed");
  return {
    a: param(params, "a") ?? "",
    b: param(params, "b") ?? "",
    pairing,
    ties,
    runs: runs === undefined ? null : whole(runs, "runs"),
    seed: seed === undefined ? 1n : u64(seed, "seed"),
  };
}

function toParams(state) {
  const params = new URLSearchParams({ a: state.a, b: state.b, pairing: state.pairing, ties: state.ties });
  if (state.runs !== null) {
    params.set("runs", String(state.runs));
    params.set("seed", String(state.seed));
  }
  return params;
}

function fill(state) {
  form.querySelector("#pool-a").value = state.a;
  form.querySelector("#pool-b").value = state.b;
  form.querySelector(`#pairing-${state.pairing}`).checked = true;
  form.querySelector(`#ties-${state.ties}`).checked = true;
  monteCarlo.hidden = state.runs === null;
  for (const id of ["#runs", "#seed"]) form.querySelector(id).disabled = state.runs === null;
  form.querySelector("#runs").value = state.runs ?? "";
  form.querySelector("#seed").value = state.runs === null ? "" : String(state.seed);
}

function jobs(state, width) {
  const request = { a: state.a, b: state.b, pairing: state.pairing, ties: state.ties };
  if (state.runs !== null) Object.assign(request, { runs: state.runs, seed: state.seed });
  return [{ useCase: "contest", requests: [requestJson(request)], view: { width } }];
}

function examples() {
  return examplesSection(
    EXAMPLES.map(([what, a, b, pairing, ties]) => ({
      params: new URLSearchParams({ a, b, pairing, ties }),
      label: [code(a), " vs ", code(b), `, ${pairing}, ${TIES[ties]}`],
      what,
    })),
  );
}

function render(state, outcomes, results, { go }) {
  const only = onlyResult(outcomes, results);
  if (!only) return;
  const { result, charts } = only;
  if (result.error) {
    const offer = (suggestion) =>
      state.runs === null && suggestion.use_case === "contest"
        ? () => go({ ...state, runs: suggestion.request.runs, seed: BigInt(suggestion.request.seed ?? 1) })
        : null;
    results.append(problemNode(result.error, "Could not compute this contest", { offer }));
    return;
  }
  const report = result.report;
  const dice = (n) => `${n} ${n === 1 ? "die" : "dice"}`;
  results.append(
    el(
      "p",
      { class: "setup" },
      code(report.a),
      " vs ",
      code(report.b),
      `: ${report.pairing} pairing, ${TIES[report.ties]}; ${dice(report.a_dice)} against ${dice(report.b_dice)}, ${report.pairs} ${report.pairs === 1 ? "pair" : "pairs"} per roll`,
    ),
  );
  const estimated = report.method === "monte_carlo";
  if (estimated) {
    results.append(
      el("p", { class: "estimate", id: "method" }, `Monte Carlo estimate from ${thousands(report.runs)} seeded rolls (seed ${state.seed}), not exact; ± is one standard error.`),
    );
  }
  const pm = (error, digits) => (estimated ? ` ± ${fixed(error, digits)}` : "");
  const closeness = report.closeness === null ? "infinite" : fixed(report.closeness, 3);
  const measure = (name, id, value, formula) =>
    el("div", {}, el("dt", {}, name), el("dd", { id }, value), el("dd", { class: "formula" }, formula));
  results.append(
    el(
      "dl",
      { id: "measures", class: "metrics" },
      measure("win bias", "win-bias", `${fixed(report.win_bias, 2)}${pm(report.win_bias_standard_error, 2)}`, "100·(P(A wins) − P(B wins)); 0 is fair"),
      measure("tie %", "tie-percent", `${fixed(report.tie_percent, 2)}${pm(report.tie_percent_standard_error, 2)}`, "100·P(net score = 0)"),
      measure("closeness", "closeness", `${closeness}${pm(report.closeness_standard_error, 4)}`, "1 / √E[net²]; higher is closer"),
    ),
  );
  const odds = [
    ["A wins", "p-a-wins", report.p_a_wins, report.p_a_wins_exact],
    ["tie", "p-tie", report.p_tie, report.p_tie_exact],
    ["B wins", "p-b-wins", report.p_b_wins, report.p_b_wins_exact],
  ];
  results.append(
    dataTable({
      id: "odds",
      caption: "Who wins",
      columns: [{ name: "outcome" }, { name: "probability" }, { name: estimated ? "± standard error" : "exact", class: "exact" }],
      rows: odds.map(([name, id, p, exact]) => [
        name,
        { text: percent(p), csv: p },
        estimated
          ? { text: percent(Math.sqrt((p * (1 - p)) / report.runs)), class: "exact", csv: Math.sqrt((p * (1 - p)) / report.runs) }
          : { node: fractionNode(exact === "0/1" ? "0" : exact, id), class: "exact", csv: exact },
      ]),
      csv: "fairdice-contest-odds.csv",
    }),
  );
  results.append(
    figure({
      id: "chart",
      chart: charts[0],
      file: "fairdice-contest",
      documents: [{ label: "JSON", name: "fairdice-contest.json", json: prettyJson(report) }],
    }),
  );
  results.append(
    dataTable({
      id: "net",
      caption: "Net score: pairs A wins minus pairs B wins",
      columns: [{ name: "net score" }, { name: "count" }, { name: "probability" }],
      rows: report.net.map((row) => [
        { text: row.score > 0 ? `+${row.score}` : String(row.score), csv: row.score },
        { text: shortCount(row.count), title: row.count, csv: row.count },
        { text: percent(row.probability), csv: row.probability },
      ]),
      csv: "fairdice-contest-net.csv",
    }),
  );
  const total = shortCount(report.total);
  results.append(
    el(
      "p",
      { class: "hint", id: "total" },
      estimated
        ? `estimated: counts out of ${thousands(report.runs)} seeded rolls`
        : report.ties === "reroll"
          ? `exact: counts out of ${total} (rerolled ties condition the rolls)`
          : `exact: ${total} equally likely rolls`,
    ),
  );
}

startPage({ form, fromParams, toParams, fill, isEmpty: (s) => s.a === "" && s.b === "", jobs, render, examples });

document.getElementById("exact-instead").addEventListener("click", () => {
  form.querySelector("#runs").value = "";
  form.querySelector("#seed").value = "";
  form.requestSubmit();
});
