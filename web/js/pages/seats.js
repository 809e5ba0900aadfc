// The Seats page: a game (an example from docs/games, or a game file pasted or
// edited in the text box), a randomizer spec and the match length T; each
// player's fair share, total, 5%..95% range and longest drought, the spread and
// the starved chances (and the same over each player's own turns), the chart of
// each player's total over the match, and the `fairdice seats --json` document.
// Inputs live in the URL: `seats.html?example=catan-beginner&spec=dice(base%3D2d6)
// &samples=30[&game=…&method=auto|exact|monte_carlo&runs=N&seed=S&droughts=off]`
// (`game` carries an edited game file's text instead of `example`).

import { code, el } from "../dom.js";
import { figure, prettyJson } from "../figure.js";
import { fixed, thousands, withError } from "../format.js";
import { EXAMPLE_GAMES, gameName } from "../games.js";
import { examplesSection, onlyResult, startPage } from "../page.js";
import { problemNode } from "../problem.js";
import { InputError, methodParam, param, requestJson, u64, whole } from "../request.js";
import { dataTable } from "../table.js";

/** Rolls in a match when none are given (docs/seats.md's Catan example). */
const DEFAULT_SAMPLES = 30;
/** The randomizer when none is given. */
const DEFAULT_SPEC = "dice(base=2d6)";
/** Monte Carlo runs when the method asks for Monte Carlo without a number (the command line's). */
const DEFAULT_RUNS = 100_000;
/** The longest game file taken (the command line's limit on a game file). */
const MAX_GAME_BYTES = 1 << 20;

const EXAMPLES = EXAMPLE_GAMES;
const form = document.getElementById("seats-form");
const exampleSelect = form.querySelector("#example");
const gameText = form.querySelector("#game");

for (const [name, text] of EXAMPLES) {
  exampleSelect.append(el("option", { value: name }, gameName(text) ?? name));
}
exampleSelect.append(el("option", { value: "" }, "my own (below)"));
// Picking an example puts its file in the text box; editing the file makes it "my own".
exampleSelect.addEventListener("change", () => {
  if (EXAMPLES.has(exampleSelect.value)) gameText.value = EXAMPLES.get(exampleSelect.value);
});
gameText.addEventListener("input", () => {
  if (EXAMPLES.get(exampleSelect.value) !== gameText.value) exampleSelect.value = "";
});


/** Line and column (from 1) of character `index` of `text`. */
function lineAndColumn(text, index) {
  const before = text.slice(0, index).split("\n");
  return { line: before.length, column: before.at(-1).length + 1 };
}

/**
 * The game file parsed, or an InputError saying where it stops being JSON: the
 * line, a caret under the place, and what the browser's parser expected.
 */
function parseGame(text) {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = String(error.message);
    const at = /position (\d+)/.exec(message);
    const index = at ? Number(at[1]) : text.length;
    const { line, column } = lineAndColumn(text, index);
    const shown = text.split("\n")[line - 1] ?? "";
    const what = message.replace(/ in JSON at position \d+.*$/, "").replace(/^JSON\.parse: /, "");
    throw new InputError(`the game file is not JSON: line ${line}, column ${column}: ${what}\n${shown}\n${" ".repeat(column - 1)}^`);
  }
}

function fromParams(params) {
  const method = methodParam(params);
  const samples = param(params, "samples");
  const runs = param(params, "runs");
  const seed = param(params, "seed");
  let example = param(params, "example") ?? null;
  if (example !== null && !EXAMPLES.has(example)) {
    throw new InputError(`there is no example game \`${example}\`; the examples are ${[...EXAMPLES.keys()].join(", ")}`);
  }
  let game = params.get("game") ?? "";
  if (game.trim() === "" || game === EXAMPLES.get(example)) game = example === null ? "" : EXAMPLES.get(example);
  else example = null;
  if (new TextEncoder().encode(game).length > MAX_GAME_BYTES) {
    throw new InputError(`a game file is at most ${thousands(MAX_GAME_BYTES)} bytes`);
  }
  const droughts = params.getAll("droughts");
  return {
    example,
    game,
    parsed: game.trim() === "" ? null : parseGame(game),
    spec: param(params, "spec") ?? DEFAULT_SPEC,
    samples: samples === undefined ? DEFAULT_SAMPLES : whole(samples, "samples"),
    method,
    runs: runs === undefined ? null : whole(runs, "runs"),
    seed: seed === undefined ? 1n : u64(seed, "seed"),
    droughts: droughts.includes("on") || !droughts.includes("off"),
  };
}

function toParams(state) {
  const params = new URLSearchParams();
  if (state.example !== null) params.set("example", state.example);
  else params.set("game", state.game);
  params.set("spec", state.spec);
  params.set("samples", state.samples);
  if (state.method !== "auto") params.set("method", state.method);
  if (state.runs !== null) params.set("runs", state.runs);
  if (state.seed !== 1n || state.runs !== null || state.method === "monte_carlo") params.set("seed", String(state.seed));
  if (!state.droughts) params.set("droughts", "off");
  return params;
}

function fill(state) {
  exampleSelect.value = state.example ?? "";
  gameText.value = state.game;
  form.querySelector("#spec").value = state.spec;
  form.querySelector("#samples").value = state.samples;
  form.querySelector("#method").value = state.method;
  form.querySelector("#runs").value = state.runs ?? "";
  form.querySelector("#seed").value = String(state.seed);
  form.querySelector("#with-droughts").checked = state.droughts;
}

/** The `seats` request: the use-case layer's own document, the game parsed from its file. */
function seatsRequest(state) {
  const request = { game: state.parsed, spec: state.spec, samples: state.samples, seed: state.seed, droughts: state.droughts };
  if (state.method === "exact") request.exact = true;
  if (state.runs !== null || state.method === "monte_carlo") request.runs = state.runs ?? DEFAULT_RUNS;
  return requestJson(request);
}

function jobs(state, width) {
  return [{ useCase: "seats", requests: [seatsRequest(state)], view: { width } }];
}

function examples() {
  const specs = [DEFAULT_SPEC, "fair(base=2d6, tightness=1)"];
  return examplesSection(
    [...EXAMPLES].flatMap(([name, text]) =>
      specs.map((spec) => ({
        params: new URLSearchParams({ example: name, spec, samples: DEFAULT_SAMPLES }),
        label: gameName(text) ?? name,
        what: ["under ", code(spec)],
      })),
    ),
  );
}

/** How the numbers were computed, in words. */
function methodWords(report) {
  return report.method === "exact"
    ? `exact sweep (at most ${thousands(report.peak_states)} (state, totals) pairs per step)`
    : `Monte Carlo: ${thousands(report.runs)} runs, seed ${report.seed} (± one standard error)`;
}

/** The smallest total k with P(total ≤ k) ≥ q: the command line's 5%..95% range. */
function quantile(totals, q) {
  let sum = 0;
  for (const [k, p] of totals.entries()) {
    sum += p;
    if (sum >= q - 1e-12) return k;
  }
  return Math.max(0, totals.length - 1);
}

/** `1.234` or `1.234 ± 0.005`, as the command line writes a figure. */
function figureText(figure, digits) {
  if (!figure) return "-";
  return figure.error === undefined || figure.error === null
    ? fixed(figure.value, digits)
    : `${fixed(figure.value, digits)} ± ${fixed(figure.error, digits)}`;
}

/** A figure in a narrow column: the value, and its standard error on a line of its own. */
function figureNode(figure, digits) {
  if (!figure || figure.error === undefined || figure.error === null) return figureText(figure, digits);
  return [fixed(figure.value, digits), el("span", { class: "error" }, `± ${fixed(figure.error, digits)}`)];
}

/** One scope's players, then its spread and starved chances. */
function scopeBlocks(figures, report, id) {
  const heading = figures.scope === "own_turns" ? "Over each player's own turns" : `Over all ${report.samples} rolls`;
  const players = dataTable({
    id,
    caption: heading,
    columns: ["player", "fair share", "total", "5%..95%", "longest drought"].map((name) => ({ name })),
    rows: figures.players.map((p) => [
      { text: p.player, header: true },
      { text: fixed(p.fair_share, 3), class: "fair-share", csv: p.fair_share },
      { node: figureNode(p.expected_total, 3), class: "total", csv: p.expected_total.value },
      `${quantile(p.totals, 0.05)}..${quantile(p.totals, 0.95)}`,
      { node: figureNode(p.longest_drought, 2), class: "drought", csv: p.longest_drought?.value ?? "" },
    ]),
    csv: `fairdice-seats-${figures.scope}.csv`,
  });
  const across = dataTable({
    id: `${id}-across`,
    caption: "Across players",
    columns: [{ name: "measure" }, { name: "value" }],
    rows: [
      [{ text: "spread (best total − worst total)", header: true }, { text: figureText(figures.spread, 3), class: "spread", csv: figures.spread.value }],
      ...figures.starved.map((s) => [
        { text: `P(someone gets at most ${fixed(s.share * 100, 0)}% of their fair share)`, header: true },
        { text: figureText(s.probability, 4), class: "starved", csv: s.probability.value },
      ]),
    ],
    csv: `fairdice-seats-${figures.scope}-across.csv`,
  });
  return [players, across];
}

function render(state, outcomes, results, { go }) {
  const only = onlyResult(outcomes, results);
  if (!only) return;
  const { result, charts } = only;
  if (result.error) {
    const offer = (suggestion) =>
      suggestion.use_case === "seats" ? () => go({ ...state, method: "auto", runs: suggestion.request.runs, seed: BigInt(suggestion.request.seed ?? 1) }) : null;
    results.append(problemNode(result.error, ["Could not measure the seats under ", code(state.spec)], { offer, unit: "runs" }));
    return;
  }
  const report = result.report;
  results.append(
    el(
      "section",
      { id: "summary", class: "panel", attrs: { "aria-label": "Summary" }, dataset: { method: report.method } },
      report.game.name ? el("h2", {}, report.game.name) : null,
      el("p", {}, code(report.spec), `, ${report.samples} rolls, ${report.game.players.length} players; `, el("span", { class: "method" }, methodWords(report))),
    ),
  );
  results.append(...scopeBlocks(report.all_rolls, report, "players"));
  results.append(
    figure({
      id: "chart",
      chart: charts.find((c) => c.name === "totals"),
      file: "fairdice-seats",
      caption: ["Each player's expected total after each roll, ± one standard deviation, with their fair share dashed."],
      documents: [{ label: "JSON", name: "fairdice-seats.json", json: prettyJson(report) }],
    }),
  );
  if (report.own_turns) results.append(...scopeBlocks(report.own_turns, report, "own-turns"));
  results.append(
    el(
      "p",
      { class: "hint" },
      "Fair share: what the randomizer's base promises the player. Total: the expected total, and the range holding 90% of matches. The same as ",
      code(`fairdice seats GAME.json --randomizer '${report.spec}' --samples ${report.samples}`),
      ".",
    ),
  );
}

startPage({ form, fromParams, toParams, fill, isEmpty: (s) => s.parsed === null, jobs, render, examples });
