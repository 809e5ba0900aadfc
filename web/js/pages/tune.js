// The Tuner page: outcomes, the match length (fixed, a range or weights), the
// entropy threshold and the systems to search; each system's fairest parameters
// in a table, and the winners' curves as `fairdice tune --plot` draws them.
// Inputs live in the URL: `tune.html?values=6&samples=25&min_entropy=0.9&
// systems=deck&systems=dynamic[&base=2d6&fairness=…&game=EXAMPLE&grid=…&method=…&runs=N&seed=S]`
// (`game` names one of the example games the Seats page offers).

import { code, el } from "../dom.js";
import { FAMILIES } from "../families.js";
import { figure, prettyJson } from "../figure.js";
import { fixed, withError } from "../format.js";
import { EXAMPLE_GAMES, gameName } from "../games.js";
import { examplesSection, onlyResult, startPage } from "../page.js";
import { problemNode } from "../problem.js";
import { InputError, methodParam, param, requestJson, u64, whole } from "../request.js";
import { dataTable } from "../table.js";

/** Systems searched when none are chosen (the article's). */
const DEFAULT_SYSTEMS = ["deck", "dynamic"];
/** Monte Carlo runs per candidate when the method asks for Monte Carlo without a number (the command line's). */
const FALLBACK_RUNS = 20_000;
/** The measures a search can minimise; `auto` leaves the choice to the use-case layer (outcome variance for values, base deviation for a base). */
const MEASURES = ["auto", "outcome_variance", "base_deviation", "seat_spread"];
const EXAMPLES = [
  ["values=6&samples=25&min_entropy=0.9", "the article: 6 outcomes, 25 samples, entropy ≥ 0.9"],
  ["values=4&samples=30&min_entropy=0.9", "4 outcomes, 30 samples: the deck wins"],
  ["values=4&samples=20..40&min_entropy=0.9", "4 outcomes, a match of 20 to 40 samples: dynamic dice win"],
  ["values=6&samples=20%3A1%2C30%3A2%2C40%3A1&min_entropy=0.9", "weighted match lengths 20:1, 30:2, 40:1"],
  ["base=2d6&samples=20&min_entropy=0.9&systems=fair&systems=dynamic", "the sums of 2d6: fair die roller against dynamic dice"],
  ["grid=%7B%22name%22%3A%22aim+assist%22%2C%22about%22%3A%22A+50%25+shot+that+gains+%60boost%60+after+each+miss+%28at+most+95%25%29+and+returns+to+50%25+after+a+hit.%22%2C%22outcomes%22%3A%5B%22miss%22%2C%22hit%22%5D%2C%22parameters%22%3A%7B%22boost%22%3A%7B%22value%22%3A%2210%25%22%2C%22tune%22%3A%220%25..45%25+step+2.5%25%22%2C%22about%22%3A%22the+chance+a+miss+adds+to+the+next+shot%22%7D%7D%2C%22layers%22%3A%5B%7B%22name%22%3A%22misses%22%2C%22counter%22%3A6%2C%22draw%22%3A%7B%22hit%22%3A%22min%2895%25%2C+50%25+%2B+boost+%2A+n%29%22%2C%22miss%22%3A%22rest%22%7D%2C%22next%22%3A%7B%22hit%22%3A0%2C%22miss%22%3A%22min%285%2C+n+%2B+1%29%22%7D%7D%5D%7D&samples=20&min_entropy=0.9", "a machine's parameter: how much a miss may raise the next shot (aim assist, docs/machines/aim-assist.json)"],
  [
    "base=2d6&samples=30&min_entropy=0.9&game=sevens-1v1&systems=dice&systems=dynamic&grid=fair%28tightness%3D0..3+step+0.25%2C+seats%3D2%29",
    "1v1, who rolls the 7s: a fair roller per player against dynamic dice",
  ],
];

const form = document.getElementById("tune-form");

/**
 * A box for every system the tuner can search, from the engine's registry
 * (web/js/families.js): its name, and what it is with the parameters it tunes.
 */
document.getElementById("systems").append(
  ...FAMILIES.filter((f) => f.tunable).map((f) =>
    el(
      "label",
      { title: `${f.summary.replaceAll("`", "")}${f.tuned.length ? `; tunes ${f.tuned.join(", ")}` : ""}` },
      el("input", { type: "checkbox", name: "systems", id: `system-${f.name}`, value: f.name }),
      ` ${f.name}`,
    ),
  ),
);
const gameSelect = form.querySelector("#game");
for (const [name, text] of EXAMPLE_GAMES) gameSelect.append(el("option", { value: name }, gameName(text) ?? name));

function fromParams(params) {
  const method = methodParam(params);
  const fairness = param(params, "fairness") ?? "auto";
  if (!MEASURES.includes(fairness)) throw new InputError(`fairness must be outcome_variance, base_deviation or seat_spread, not \`${fairness}\``);
  const game = param(params, "game") ?? null;
  if (game !== null && !EXAMPLE_GAMES.has(game)) {
    throw new InputError(`there is no example game \`${game}\`; the examples are ${[...EXAMPLE_GAMES.keys()].join(", ")}`);
  }
  const values = param(params, "values");
  const minEntropy = param(params, "min_entropy") ?? "0.9";
  const threshold = Number(minEntropy);
  if (!/^\s*[0-9.eE+-]+\s*$/.test(minEntropy) || !Number.isFinite(threshold)) {
    throw new InputError(`min_entropy must be a number in [0, 1] (a fraction of a fair die's entropy), not \`${minEntropy}\``);
  }
  const runs = param(params, "runs");
  const seed = param(params, "seed");
  const list = (key) =>
    params
      .getAll(key)
      .flatMap((v) => (key === "systems" ? v.split(",") : [v]))
      .map((v) => v.trim())
      .filter((v) => v !== "");
  return {
    values: values === undefined ? null : whole(values, "values"),
    base: param(params, "base") ?? null,
    samples: param(params, "samples") ?? "25",
    minEntropy: threshold,
    fairness,
    game,
    systems: list("systems").map((s) => s.toLowerCase()),
    grids: list("grid"),
    method,
    runs: runs === undefined ? null : whole(runs, "runs"),
    seed: seed === undefined ? 1n : u64(seed, "seed"),
  };
}

/** The systems searched: those chosen, or the article's two when nothing is. */
function systems(state) {
  return state.systems.length === 0 && state.grids.length === 0 ? DEFAULT_SYSTEMS : state.systems;
}

function toParams(state) {
  const params = new URLSearchParams();
  if (state.values !== null) params.set("values", state.values);
  if (state.base !== null) params.set("base", state.base);
  params.set("samples", state.samples);
  params.set("min_entropy", String(state.minEntropy));
  if (state.fairness !== "auto") params.set("fairness", state.fairness);
  if (state.game !== null) params.set("game", state.game);
  for (const s of systems(state)) params.append("systems", s);
  for (const g of state.grids) params.append("grid", g);
  if (state.method !== "auto") params.set("method", state.method);
  if (state.runs !== null) params.set("runs", state.runs);
  if (state.seed !== 1n) params.set("seed", String(state.seed));
  return params;
}

function fill(state) {
  form.querySelector("#values").value = state.values ?? "";
  form.querySelector("#base").value = state.base ?? "";
  form.querySelector("#samples").value = state.samples;
  form.querySelector("#min-entropy").value = String(state.minEntropy);
  form.querySelector("#fairness").value = state.fairness;
  gameSelect.value = state.game ?? "";
  const chosen = systems(state);
  for (const box of form.querySelectorAll('input[name="systems"]')) box.checked = chosen.includes(box.value);
  form.querySelector("#grid").value = state.grids.join(" ");
  form.querySelector("#method").value = state.method;
  form.querySelector("#runs").value = state.runs ?? "";
  form.querySelector("#seed").value = String(state.seed);
}

function jobs(state, width) {
  const request = {
    values: state.values,
    base: state.base,
    samples: state.samples,
    min_entropy: state.minEntropy,
    fairness: state.fairness === "auto" ? null : state.fairness,
    game: state.game === null ? null : JSON.parse(EXAMPLE_GAMES.get(state.game)),
    systems: systems(state),
    grids: state.grids,
    seed: state.seed,
  };
  if (state.method === "exact") request.exact = true;
  if (state.runs !== null || state.method === "monte_carlo") request.runs = state.runs ?? FALLBACK_RUNS;
  return [{ useCase: "tune", requests: [requestJson(request)], view: { width } }];
}

function examples() {
  return examplesSection(EXAMPLES.map(([query, what]) => ({ params: query, label: what })));
}

/** `exact` or `Monte Carlo (N runs)`, short, for a table cell. */
function methodCell(system) {
  if (system.method === "exact") return "exact";
  if (system.method === "monte_carlo") return `Monte Carlo (${system.runs} runs)`;
  return "-";
}

/** A measure's field name as words: `base deviation`. */
const measure = (field) => field.replaceAll("_", " ");

/** Parameters as `copies=1, refill_below=6`, or `(none)`. */
function paramsText(params) {
  const entries = Object.entries(params ?? {});
  return entries.length === 0 ? "(none)" : entries.map(([k, v]) => `${k}=${v}`).join(", ");
}

function render(state, outcomes, results) {
  const only = onlyResult(outcomes, results);
  if (!only) return;
  const { result, charts } = only;
  if (result.error) return results.append(problemNode(result.error, "Could not search"));
  const report = result.report;
  const fixedLength = typeof report.samples === "number";
  const samples = fixedLength ? `${report.samples} samples` : `${report.samples.distribution} samples (expected over the match lengths)`;
  const what = report.values !== undefined ? `${report.values} outcomes` : `outcomes of ${report.machine ?? report.base}`;
  const longest = fixedLength ? report.samples : Math.max(...report.samples.lengths.map((l) => l.samples));
  const seats = report.game !== undefined;
  results.append(
    dataTable({
      id: "tune-results",
      caption: `${what}, ${samples}, mean entropy ≥ ${report.min_entropy}, fairest by ${measure(report.fairness)}`,
      columns: [
        { name: "system" },
        { name: "best parameters", class: "params" },
        { name: "mean entropy" },
        { name: "outcome variance" },
        { name: "base deviation" },
        ...(seats ? [{ name: "seat spread" }] : []),
        { name: "qualified" },
        { name: "method", class: "computed" },
      ],
      rows: report.systems.map((s) => ({
        className: report.fairest === s.system ? "fairest" : undefined,
        dataset: { system: s.system },
        cells: [
          s.system,
          { text: s.params ? paramsText(s.params) : "none qualifies", class: "params", csv: s.spec ?? "" },
          { text: withError(s.mean_entropy, s.mean_entropy_error), class: "mean-entropy", csv: s.mean_entropy ?? "" },
          { text: withError(s.outcome_variance, s.outcome_variance_error), class: "outcome-variance", csv: s.outcome_variance ?? "" },
          { text: withError(s.base_deviation, s.base_deviation_error), class: "base-deviation", csv: s.base_deviation ?? "" },
          ...(seats ? [{ text: withError(s.seat_spread, s.seat_spread_error), class: "seat-spread", csv: s.seat_spread ?? "" }] : []),
          `${s.qualified}/${s.candidates_tried}`,
          { text: methodCell(s), class: "computed" },
        ],
      })),
      csv: "fairdice-tune.csv",
      cards: true,
    }),
  );
  const uncertain = report.systems.filter((s) => !s.certain).map((s) => s.system);
  if (uncertain.length > 0) {
    results.append(
      el(
        "p",
        { id: "uncertain", class: "verdict" },
        `Not certain: ${uncertain.join(", ")} — candidates estimated within four standard errors of the winner are left; a larger step budget refines them further.`,
      ),
    );
  }
  const best = report.systems.find((s) => s.system === report.fairest);
  results.append(
    best
      ? el(
          "p",
          { id: "fairest", class: "verdict" },
          "Fairest: ",
          el("strong", {}, best.system),
          ` (${paramsText(best.params)}), ${measure(report.fairness)} ${fixed(best[report.fairness], 2)} — ${report.baseline}: ${fixed(report[`plain_dice_${report.fairness}`], 2)}${plainError(report)}. Spec: `,
          code(best.spec ?? ""),
          " · ",
          el("a", { href: `randomizers.html?${new URLSearchParams({ spec: best.spec ?? "", samples: longest })}` }, "analyze it"),
        )
      : el("p", { id: "fairest", class: "verdict" }, `No candidate keeps a mean entropy of ${report.min_entropy}; lower the threshold.`),
  );
  const chart = charts.find((c) => c.name === "curves");
  if (chart) {
    results.append(
      figure({
        id: "chart",
        chart,
        file: "fairdice-tune",
        documents: [{ label: "JSON", name: "fairdice-tune.json", json: prettyJson(report) }],
      }),
    );
  }
}

startPage({ form, fromParams, toParams, fill, isEmpty: (s) => s.values === null && s.base === null && s.grids.length === 0, jobs, render, examples });

/** Plain dice's standard error after its figure, when it was estimated (a seat search's game too large to sweep). */
function plainError(report) {
  const error = report[`plain_dice_${report.fairness}_error`];
  return error == null ? "" : ` ± ${fixed(error, 2)}`;
}
