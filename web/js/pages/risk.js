// The Risk page: armies, rule, die and dice caps; P(attacker wins) as a decimal
// and exactly (a long fraction folded), the armies each side has left, expected
// losses, the one-roll tables, the heat map of P(attacker wins) over starting
// armies, and on request a seeded Monte Carlo beside the exact answer. Inputs
// live in the URL: `risk.html?attacker=10&defender=10&rule=simple&faces=6&
// attacker_dice=3&defender_dice=2&grid=20[&runs=N&seed=S&float=1]` (`simulate=N`,
// the name links used before, is read as `runs`).

import { el } from "../dom.js";
import { figure, prettyJson } from "../figure.js";
import { fixed, percent } from "../format.js";
import { fractionNode } from "../fraction.js";
import { examplesSection, onlyResult, startPage } from "../page.js";
import { problemNode } from "../problem.js";
import { InputError, flag, param, requestJson, u64, whole } from "../request.js";
import { dataTable } from "../table.js";

/** The heat map covers 1..=grid armies a side: 20 as `fairdice risk --plot` draws it. */
const DEFAULT_GRID = 20;
/** Rows and columns a heat map can show legibly. */
const MAX_GRID = 60;
/** Survivor rows less likely than this are summarized, as on the command line. */
const SHOWN_PROBABILITY = 1e-4;
const EXAMPLES = [
  ["the classic: three dice against two, fought to the end", 3, 2, "simple", 6],
  ["ten against ten", 10, 10, "simple", 6],
  ["the board game's rule: five armies on the territory, one must stay", 5, 5, "official", 6],
  ["the famous 100-against-100 simulation, which rolled five-sided dice", 100, 100, "simple", 5],
  ["1000 against 1000, solved in floating point", 1000, 1000, "simple", 6],
];

const form = document.getElementById("risk-form");

function fromParams(params) {
  const number = (key, fallback) => {
    const value = param(params, key);
    return value === undefined ? fallback : whole(value, key);
  };
  const rule = param(params, "rule") ?? "simple";
  if (!["simple", "official"].includes(rule)) throw new InputError(`unknown rule \`${rule}\`; expected simple or official`);
  const grid = number("grid", DEFAULT_GRID);
  if (grid < 1 || grid > MAX_GRID) {
    throw new InputError(`the heat map covers 1 to ${grid} armies a side: the page draws 1 to ${MAX_GRID} at most`);
  }
  const seed = param(params, "seed");
  return {
    attacker: number("attacker", null),
    defender: number("defender", null),
    rule,
    faces: number("faces", 6),
    attacker_dice: number("attacker_dice", 3),
    defender_dice: number("defender_dice", 2),
    grid,
    runs: number("runs", number("simulate", null)),
    seed: seed === undefined ? 1n : u64(seed, "seed"),
    float: flag(params, "float"),
  };
}

function toParams(state) {
  const params = new URLSearchParams();
  if (state.attacker !== null) params.set("attacker", state.attacker);
  if (state.defender !== null) params.set("defender", state.defender);
  for (const key of ["rule", "faces", "attacker_dice", "defender_dice", "grid"]) params.set(key, state[key]);
  if (state.runs !== null) {
    params.set("runs", state.runs);
    params.set("seed", String(state.seed));
  }
  if (state.float) params.set("float", "1");
  return params;
}

function fill(state) {
  for (const key of ["attacker", "defender", "faces", "attacker_dice", "defender_dice", "grid", "runs"]) {
    form.querySelector(`#${key}`).value = state[key] ?? "";
  }
  form.querySelector("#seed").value = String(state.seed);
  form.querySelector(`#rule-${state.rule}`).checked = true;
  form.querySelector("#float").checked = state.float;
}

function jobs(state, width) {
  // Armies left out are left out of the request, which then says what is missing.
  const request = {
    ...(state.attacker === null ? {} : { attacker: state.attacker }),
    ...(state.defender === null ? {} : { defender: state.defender }),
    rule: state.rule,
    faces: state.faces,
    attacker_dice: state.attacker_dice,
    defender_dice: state.defender_dice,
    per_roll: true,
    table: state.grid,
    float: state.float,
    runs: state.runs,
    seed: state.seed,
  };
  return [{ useCase: "risk", requests: [requestJson(request)], view: { width } }];
}

function examples() {
  return examplesSection(
    EXAMPLES.map(([what, attacker, defender, rule, faces]) => ({
      params: new URLSearchParams({ attacker, defender, rule, faces, attacker_dice: 3, defender_dice: 2 }),
      label: `${attacker} v ${defender}, ${rule} rule, d${faces}`,
      what,
    })),
  );
}

function render(state, outcomes, results) {
  const only = onlyResult(outcomes, results);
  if (!only) return;
  const { result, charts } = only;
  if (result.error) return results.append(problemNode(result.error, "Could not fight this battle"));
  const { report } = result;
  const p = report.p_attacker_wins;
  results.append(el("p", { class: "setup" }, report.setup));
  const exact = report.p_attacker_wins_exact
    ? ["exactly ", fractionNode(report.p_attacker_wins_exact, "p-attacker-exact")]
    : [report.float_reason];
  const metric = (name, id, value, ...rest) => el("div", {}, el("dt", {}, name), el("dd", { id }, value), rest);
  const lost = report.expected_losses;
  results.append(
    el(
      "dl",
      { id: "odds", class: "metrics" },
      metric("P(attacker wins)", "p-attacker", fixed(p, 6), el("dd", { class: "formula" }, exact)),
      metric("P(defender holds)", "p-defender", fixed(1 - p, 6)),
      metric("expected losses", "losses", `attacker ${fixed(lost.attacker, 3)}, defender ${fixed(lost.defender, 3)}`),
      metric(
        "armies left on average",
        "left",
        `attacker ${fixed(report.attacker_survivors_if_win, 3)} when it wins, defender ${fixed(report.defender_survivors_if_win, 3)} when it holds`,
      ),
    ),
  );
  const sim = report.simulation;
  if (sim) {
    const [low, high] = sim.interval95;
    const verdict = low <= p && p <= high ? "contains" : "misses";
    results.append(
      el(
        "p",
        { id: "simulation", class: "setup" },
        `Monte Carlo: ${sim.runs} battles (seed ${state.seed}), the attacker won ${sim.attacker_wins} = `,
        el("strong", {}, fixed(sim.p_attacker_wins, 6)),
        `; the 95% interval ${fixed(low, 6)} to ${fixed(high, 6)} ${verdict} the computed ${fixed(p, 6)}.`,
      ),
    );
  }
  const json = [{ label: "JSON", name: "fairdice-risk.json", json: prettyJson(report) }];
  const chart = (name) => charts.find((c) => c.name === name);
  results.append(figure({ id: "survivors-chart", chart: chart("survivors"), file: "fairdice-risk", documents: json }));
  if (chart("heat_map")) {
    results.append(
      figure({
        id: "heat-map",
        chart: chart("heat_map"),
        file: "fairdice-risk-grid",
        caption: [`P(attacker wins) for every start from 1 to ${report.table.length} armies a side, under these rules.`],
      }),
    );
  }
  results.append(survivorsTable(report));
  if (report.per_roll) results.append(perRollTable(report));
}

/** The armies each side ends with, side by side; rows below 0.01% summarized. */
function survivorsTable(report) {
  const rows = new Map();
  for (const s of report.attacker_survivors) rows.set(s.armies, [s.probability, rows.get(s.armies)?.[1]]);
  for (const s of report.defender_survivors) rows.set(s.armies, [rows.get(s.armies)?.[0], s.probability]);
  const shown = (p) => p !== undefined && p >= SHOWN_PROBABILITY;
  const sorted = [...rows.entries()].sort((x, y) => x[0] - y[0]);
  const visible = sorted.filter(([, [a, d]]) => shown(a) || shown(d));
  const cell = (p) => ({ text: p === undefined ? "" : percent(p), csv: p ?? "" });
  const table = dataTable({
    id: "survivors",
    caption: "Armies left when the battle ends",
    columns: [{ name: "armies" }, { name: "attacker wins with" }, { name: "defender holds with" }],
    rows: visible.map(([armies, [a, d]]) => [String(armies), cell(a), cell(d)]),
    csvRows: sorted.map(([armies, [a, d]]) => [armies, a ?? "", d ?? ""]),
    csv: "fairdice-risk-survivors.csv",
  });
  const hidden = sorted.length - visible.length;
  return hidden > 0
    ? el("div", {}, table, el("p", { class: "hint" }, `${hidden} more endings are below 0.01%; the CSV and the JSON list them all.`))
    : table;
}

/** Every one-roll table up to the dice caps, as `fairdice risk --per-roll` prints. */
function perRollTable(report) {
  const rows = report.per_roll.flatMap((roll) =>
    roll.outcomes.map((o) => [
      { text: String(roll.attacker_dice), header: false },
      String(roll.defender_dice),
      String(o.attacker_loses),
      String(o.defender_loses),
      o.count,
      roll.total,
      { text: percent(o.probability), csv: o.probability },
    ]),
  );
  return dataTable({
    id: "per-roll",
    caption: `One roll, d${report.faces}: both sides sorted, compared in pairs, ties to the defender`,
    columns: ["attacker dice", "defender dice", "attacker loses", "defender loses", "count", "of", "probability"].map((name) => ({ name })),
    rows,
    csv: "fairdice-risk-per-roll.csv",
    cards: true,
  });
}

startPage({ form, fromParams, toParams, fill, isEmpty: (s) => s.attacker === null && s.defender === null, jobs, render, examples });
