// The fairdice npm package in Node: installed from its packed tarball and imported
// by name, every function returns the document `fairdice … --json` prints for the
// same request — on the dice benchmark cases, rolls, randomizers, contests, Risk,
// analysis and tuning — and refusals carry the command line's message.
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { cli, cliJson, cliRendering, differences } from "./support.mjs";
import { FAMILIES } from "../../web/js/families.js";

const PACKAGE = process.env.FAIRDICE_PACKAGE;
/** The dice benchmark cases (benches/cases/dice.tsv). */
const BENCHMARK_CASES = ["3d6", "10d10", "100d6", "4d6kh3", "10d10kh3", "20d20kh5", "100d10kh10"];

let fairdice;
let FairdiceError;
let Randomizer;
before(async () => {
  ({ FairdiceError, Randomizer } = await import(pathToFileURL(join(PACKAGE, "node.js"))));
  fairdice = await (await import(pathToFileURL(join(PACKAGE, "node.js")))).load();
});

test("the packed package installs and imports by name in a Node project", () => {
  const project = mkdtempSync(join(tmpdir(), "fairdice-npm-"));
  const tarball = execFileSync("npm", ["pack", PACKAGE, "--pack-destination", project, "--silent"], { encoding: "utf8" }).trim();
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", join(project, tarball)], { cwd: project });
  writeFileSync(
    join(project, "odds.js"),
    'import { load } from "fairdice";\nconst fairdice = await load();\nprocess.stdout.write(JSON.stringify(fairdice.dist("4d6kh3")));\n',
  );
  const printed = JSON.parse(execFileSync("node", ["odds.js"], { cwd: project, encoding: "utf8" }));
  assert.deepEqual(printed, cliJson("dist", "4d6kh3"));
  assert.equal(printed.mean_exact, "15869/1296");
  // CommonJS code requires it, as the README says (Node 20.19 and later load an ES
  // module that way), on the Node the package declares.
  const [major, minor] = process.versions.node.split(".").map(Number);
  const declared = JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8")).engines.node;
  assert.ok(major >= Number(declared.match(/^>=(\d+)$/)[1]), `node ${process.versions.node} against ${declared}`);
  if (major > 20 || minor >= 19) {
    writeFileSync(join(project, "odds.cjs"), 'require("fairdice").load().then((f) => process.stdout.write(f.dist("3d6").mean_exact));\n');
    assert.equal(execFileSync("node", ["odds.cjs"], { cwd: project, encoding: "utf8" }), "21/2");
  }
  // The top-level README's example, as written, prints what its comment says.
  const readme = readFileSync(fileURLToPath(new URL("../../README.md", import.meta.url)), "utf8");
  const example = readme.match(/```js\n([\s\S]*?)```/)[1];
  writeFileSync(join(project, "readme.js"), example);
  const said = example.match(/console\.log\([^)]*\); \/\/ ([^:\s]+)/)[1];
  assert.equal(execFileSync("node", ["readme.js"], { cwd: project, encoding: "utf8" }).trim(), said);
  // The package README's game loop, as written, prints what its comment says.
  const loop = readFileSync(join(PACKAGE, "README.md"), "utf8").match(/## In a game loop[\s\S]*?```js\n([\s\S]*?)```/)[1];
  writeFileSync(join(project, "loop.js"), loop);
  const expected = loop.match(/console\.log\(.*\); +\/\/ (.*)/)[1];
  assert.equal(execFileSync("node", ["loop.js"], { cwd: project, encoding: "utf8" }).trim(), expected);
});

test("dist on every dice benchmark case equals `fairdice dist --json`", () => {
  for (const expression of BENCHMARK_CASES) {
    assert.deepEqual(fairdice.dist(expression), cliJson("dist", expression), expression);
  }
  // Estimates too: the same seed gives the same rolls.
  assert.deepEqual(fairdice.dist("1000d6", { runs: 5000, seed: 9 }), cliJson("dist", "1000d6", "--runs", "5000", "--seed", "9"));
});

test("roll shows every die as `fairdice roll --json` does", () => {
  const rolled = fairdice.roll("4d6kh3+d8!", { times: 5, seed: 42 });
  assert.deepEqual(rolled, cliJson("roll", "4d6kh3+d8!", "--times", "5", "--seed", "42"));
  assert.equal(rolled.rolls[0].terms[0].dice.length, 4);
  // Without a seed one is picked, and the report names it.
  assert.equal(typeof fairdice.roll("d20").seed, "number");
});

test("decks and deals: dist and roll equal the command line's, every card shown", () => {
  for (const expression of [
    "count(deal(deck{1..13:4}, 5), 1) >= 1",
    "[a, b = deal(deck{1:13, 0:39}, 5, 5)] count(a, 1) > count(b, 1)",
    "largest_set(deal(deck{1..13:4}, 13))",
  ]) {
    const report = fairdice.dist(expression);
    assert.deepEqual(report, cliJson("dist", expression), expression);
    assert.equal(report.counted, "deals", expression);
  }
  const expression = "[a, b = deal(deck{1..13:4}, 5, 5)] largest_set(a) - largest_set(b)";
  const rolled = fairdice.roll(expression, { times: 3, seed: 7 });
  assert.deepEqual(rolled, cliJson("roll", expression, "--times", "3", "--seed", "7"));
  const hands = rolled.rolls[0].terms.filter((term) => term.kind === "hand");
  assert.deepEqual(hands.map((hand) => hand.dice.length), [5, 5]);
});

test("randomizers: seeded samples, saved sessions continued, next and PRD as the command line", () => {
  assert.deepEqual(fairdice.sample("tgm2", { samples: 25, seed: 1 }), cliJson("sample", "tgm2", "--samples", "25", "--seed", "1"));
  assert.deepEqual(fairdice.sample("tgm3", { samples: 25, seed: 1 }), cliJson("sample", "tgm3", "--samples", "25", "--seed", "1"));
  const spec = "deck(values=6, copies=2, refill_below=3)";
  assert.deepEqual(fairdice.sample(spec, { samples: 12, seed: 7 }), cliJson("sample", spec, "--samples", "12", "--seed", "7"));
  // A 64-bit seed past 2^53 stays exact.
  const big = "18446744073709551615";
  assert.deepEqual(fairdice.sample("tgm2", { samples: 5, seed: big }).labels, cliJson("sample", "tgm2", "--samples", "5", "--seed", big).labels);

  // Save after 5 draws, continue for 7: the same 12 draws as one sample of 12.
  const first = fairdice.sample(spec, { samples: 5, seed: 7, save: true });
  const rest = fairdice.sample({ session: first.session }, { samples: 7 });
  assert.deepEqual([...first.samples, ...rest.samples], fairdice.sample(spec, { samples: 12, seed: 7 }).samples);
  const saved = join(mkdtempSync(join(tmpdir(), "fairdice-session-")), "game.json");
  writeFileSync(saved, first.session);
  assert.deepEqual(fairdice.state(first.session), cliJson("state", "show", saved));
  assert.deepEqual(fairdice.sample({ session: readFileSync(saved, "utf8") }, { samples: 7 }).samples, cliJson("sample", "--resume", saved, "--samples", "7").samples);

  const fair = "fair(base=2d6, tightness=1)";
  const next = fairdice.next(fair, ["2", "4", "7", "7"]);
  assert.deepEqual(next, cliJson("next", fair, "--history", "2,4,7,7"));
  assert.equal(next.outcomes.find((o) => o.outcome === 7).probability.toFixed(5), "0.05965");
  assert.deepEqual(fairdice.prd(0.25), cliJson("prd", "0.25"));
});

test("a randomizer object draws what `fairdice sample` draws, for every family, and saves the session the command line saves", () => {
  const specs = [...FAMILIES.map((family) => family.example), "dice(base=2d6)", "deck(base=2d6, copies=1, refill_below=6, refill=reshuffle)"];
  const folder = mkdtempSync(join(tmpdir(), "fairdice-randomizer-"));
  for (const [i, spec] of specs.entries()) {
    const seed = 1000 + i;
    const expected = cliJson("sample", spec, "--samples", "60", "--seed", String(seed));
    const randomizer = fairdice.randomizer(spec, { seed });
    assert.ok(randomizer instanceof Randomizer);
    assert.equal(randomizer.spec, expected.spec, spec);
    assert.equal(randomizer.seed, BigInt(seed));
    // One at a time, then many at once: the command line's 60 draws.
    const drawn = [...Array.from({ length: 25 }, () => randomizer.next()), ...randomizer.take(15)];
    const shown = expected.labels ?? expected.samples;
    assert.deepEqual(drawn, shown.slice(0, 40), spec);
    // Saved after 40 draws: the command line's session text, continued by both.
    const file = join(folder, `game-${i}.json`);
    cli("sample", spec, "--samples", "40", "--seed", String(seed), "--save", file);
    assert.equal(randomizer.save(), readFileSync(file, "utf8").trimEnd(), spec);
    const resumed = fairdice.randomizer({ session: randomizer.save() });
    assert.equal(resumed.seed, null);
    assert.equal(resumed.draws, 40);
    const outcome = resumed.nextOutcome();
    assert.equal(outcome.value, expected.samples[40], spec);
    assert.equal(outcome.label, expected.labels?.[40] ?? String(expected.samples[40]), spec);
    assert.deepEqual(resumed.take(19), shown.slice(41), spec);
    assert.deepEqual(randomizer.take(20), shown.slice(40), spec);
    randomizer.free();
    resumed.free();
  }
});

test("a randomizer object: its outcomes, the next outcome's chances, and clear errors", () => {
  const bag = fairdice.randomizer("tgm2", { seed: 3 });
  assert.deepEqual(bag.outcomes.map((o) => o.label), cliJson("next", "tgm2").outcomes.map((o) => o.label));
  bag.take(4);
  // After four draws, the chances of the fifth are `fairdice next` after those four.
  const history = cliJson("sample", "tgm2", "--samples", "4", "--seed", "3").labels;
  assert.deepEqual(bag.nextDistribution().outcomes, cliJson("next", "tgm2", "--history", history.join(",")).outcomes);
  // A seed past 2^53 stays exact; none picks a fresh one.
  const big = "18446744073709551615";
  assert.deepEqual(fairdice.randomizer("dice(values=6)", { seed: big }).take(8), cliJson("sample", "dice(values=6)", "--samples", "8", "--seed", big).samples);
  assert.equal(typeof fairdice.randomizer("dice(values=6)").seed, "bigint");
  // Refusals: the command line's message, as a FairdiceError.
  assert.throws(() => fairdice.randomizer("deck(values=0)"), (e) => e instanceof FairdiceError && e.message === cliRendering("sample", "deck(values=0)").split("\n")[0]);
  assert.throws(() => fairdice.randomizer({ session: "{\"format\": \"other\"}" }), FairdiceError);
  assert.throws(() => bag.take(-1), RangeError);
  bag.free();
  assert.throws(() => bag.next(), (e) => e instanceof FairdiceError && /freed/.test(e.message));
  bag.free();
});

test("machines and goals: a banner's document gives the command line's goal, exact fractions included", () => {
  const path = fileURLToPath(new URL("../../docs/machines/banner.json", import.meta.url));
  const banner = JSON.parse(readFileSync(path, "utf8"));
  const goal = fairdice.goal(banner, ["featured"], { times: 2, budget: 180 });
  assert.deepEqual(goal, cliJson("goal", `@${path}`, "--until", "featured", "--times", "2", "--budget", "180"));
  assert.equal(goal.method.method, "exact");
  assert.match(goal.budget.chance_exact, /^\d+\/\d+$/);
  const after = fairdice.goal(readFileSync(path, "utf8"), "featured", { history: "3-star*73" });
  assert.deepEqual(after.start, ["pity: n = 73", 'fifty-fifty: state "even"']);
  assert.deepEqual(fairdice.sample(banner, { samples: 30, seed: 2 }), cliJson("sample", `@${path}`, "--samples", "30", "--seed", "2"));
  assert.throws(() => fairdice.goal({ layers: [{ name: "a", draw: { x: "1/2" } }] }, ["x"]), FairdiceError);
});

test("audit: a JavaScript dice bag's log, as `fairdice audit --json` audits it", () => {
  // Seed 003's kind of bag: each face once, drawn without replacement, refilled when empty.
  let state = 7;
  const random = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
  let bag = [];
  const roll = () => {
    if (bag.length === 0) bag = [1, 2, 3, 4, 5, 6];
    return bag.splice(Math.floor(random() * bag.length), 1)[0];
  };
  const rolls = Array.from({ length: 120 }, roll);
  const report = fairdice.audit(rolls, "dice(values=6)", { runs: 300 });
  const file = join(mkdtempSync(join(tmpdir(), "fairdice-log-")), "rolls.txt");
  writeFileSync(file, rolls.join("\n") + "\n");
  assert.deepEqual(report, cliJson("audit", file, "--randomizer", "dice(values=6)", "--runs", "300"));
  // No simulated dice log is as even as the bag's: two-sided, 2/301.
  assert.equal(report.tests.find((t) => t.test === "fit").p_value, 2 / 301);
  assert.match(report.candidates[0].spec, /^deck\(values=6, copies=1,/);
});

test("contests, Risk battles, analyses and searches equal the command line's documents", () => {
  assert.deepEqual(fairdice.contest("5d6", "4d6+1d8", { ties: "a-wins" }), cliJson("contest", "5d6", "4d6+1d8", "--ties", "a-wins"));
  assert.deepEqual(
    fairdice.contest("30d6", "30d6", { pairing: "unsorted", runs: 20000, seed: 3 }),
    cliJson("contest", "30d6", "30d6", "--pairing", "unsorted", "--runs", "20000", "--seed", "3"),
  );
  assert.deepEqual(
    fairdice.risk(10, 10, { rule: "official", per_roll: true, table: 8, runs: 5000, seed: 7 }),
    cliJson("risk", "10", "10", "--rule", "official", "--per-roll", "--table", "8", "--runs", "5000", "--seed", "7"),
  );
  assert.deepEqual(fairdice.risk(1000, 1000), cliJson("risk", "1000", "1000"));
  // Analyses and searches take logarithms: equal to 1e-9 (see `differences` in support.mjs).
  const close = { relative: 1e-9 };
  assert.deepEqual(differences(fairdice.tune({ values: 6, samples: "25" }), cliJson("tune", "--values", "6", "--samples", "25"), close), []);
  assert.deepEqual(
    differences(
      fairdice.tune({ values: 4, samples: "20:1,30:2,40:1", systems: ["deck", "dynamic", "bag"], all: true }),
      cliJson("tune", "--values", "4", "--samples", "20:1,30:2,40:1", "--systems", "deck,dynamic,bag", "--all"),
      close,
    ),
    [],
  );
  // A machine's parameter: the document as the grid, as `--grid @FILE` reads it.
  const aim = fileURLToPath(new URL("../../docs/machines/aim-assist.json", import.meta.url));
  assert.deepEqual(
    differences(fairdice.tune({ grids: [`${readFileSync(aim, "utf8")}(boost=0..40% step 10%)`], samples: "20" }), cliJson("tune", "--grid", `@${aim}(boost=0..40% step 10%)`, "--samples", "20"), close),
    [],
  );
  assert.deepEqual(differences(fairdice.analyze("tgm2", 12), cliJson("analyze", "tgm2", "--samples", "12"), close), []);
  assert.deepEqual(
    differences(fairdice.analyze("prd(p=0.25)", 10, { runs: 3000, seed: 4 }), cliJson("analyze", "prd(p=0.25)", "--samples", "10", "--runs", "3000", "--seed", "4"), close),
    [],
  );
  const deck = "deck(values=6, copies=1, refill_below=6)";
  assert.deepEqual(differences(fairdice.analyze(deck, 25), cliJson("analyze", deck, "--samples", "25"), close), []);
});

test("seats: a game's players measured as `fairdice seats --json` measures them", () => {
  const file = fileURLToPath(new URL("../../docs/games/catan-beginner.json", import.meta.url));
  const text = readFileSync(file, "utf8");
  assert.deepEqual(fairdice.seats(text, "dice(base=2d6)", 20), cliJson("seats", file, "--randomizer", "dice(base=2d6)", "--samples", "20"));
  const deck = "deck(base=2d6, copies=1, refill_below=6, refill=reshuffle)";
  assert.deepEqual(
    fairdice.seats(JSON.parse(text), deck, 30, { runs: 3000, seed: 5, shares: [0.5], droughts: false }),
    cliJson("seats", file, "--randomizer", deck, "--samples", "30", "--runs", "3000", "--seed", "5", "--shares", "0.5", "--no-droughts"),
  );
  assert.throws(
    () => fairdice.seats({ players: ["a"], payoffs: { 13: [1] } }, "dice(base=2d6)", 10),
    (error) => error instanceof FairdiceError && /outcome 13 in the payoffs is not an outcome/.test(error.message),
  );
});

test("nested and signed expressions: the same answer or the same refusal as the command line, at and past every limit", () => {
  // Every way the language nests, at depths around the parser's limit (64 levels),
  // and the deepest trees (unary minus, operator chains: 1,000 levels).
  const nestings = [
    (n) => `${"(".repeat(n)}d6${")".repeat(n)}+1`,
    (n) => `${"max(1,".repeat(n)}d6${")".repeat(n)}`,
    (n) => `${"d2==1?".repeat(n)}1${":2".repeat(n)}`,
    (n) => `${"[a=".repeat(n)}d4${"]a".repeat(n)}`,
    (n) => `${"{".repeat(n)}d6${"}".repeat(n)}`,
    (n) => `${"d(".repeat(n)}6${")".repeat(n)}`,
  ];
  const expressions = [
    ...nestings.flatMap((form) => [1, 8, 9, 12, 63, 64, 65, 200].map(form)),
    ...[30, 998, 999, 1000, 1001].flatMap((n) => [`${"-".repeat(n)}d6`, `${"d2+".repeat(n)}d2`]),
  ];
  let answered = 0;
  for (const expression of expressions) {
    let printed;
    try {
      printed = JSON.parse(cli("dist", "--json", "--", expression));
    } catch {
      assert.throws(
        () => fairdice.dist(expression),
        (error) => error instanceof FairdiceError && error.rendered === cliRendering("dist", "--", expression),
        expression,
      );
      continue;
    }
    assert.deepEqual(fairdice.dist(expression), printed, expression);
    answered += 1;
  }
  // Both sides of every limit were reached.
  assert.ok(answered > expressions.length / 2 && answered < expressions.length, `${answered} of ${expressions.length}`);
});

test("refusals throw the use-case layer's error document with the command line's rendering", () => {
  assert.throws(
    () => fairdice.dist("4d6kh3y"),
    (error) => error instanceof FairdiceError && error.kind === "parse" && error.rendered === cliRendering("dist", "4d6kh3y"),
  );
  try {
    fairdice.dist("1000000d1000000");
    assert.fail("refused");
  } catch (error) {
    assert.equal(error.kind, "too_big");
    assert.equal(error.suggestion.command, "fairdice dist 1000000d1000000 --runs 20");
    const estimate = fairdice.run("dist", error.suggestion.request);
    assert.equal(estimate.method, "monte_carlo");
    assert.equal(estimate.runs, 20);
  }
  assert.throws(() => fairdice.run("dice", {}), /unknown use case `dice`; accepted: dist/);
  assert.throws(() => fairdice.run("dist", { expr: "3d6" }), (e) => e.kind === "bad_request");
});

test("charts come with their report, drawn at the width asked for", () => {
  const { report, charts } = fairdice.charts("dist", { expression: "3d6" }, { measures: ["at_least", "probability"], width: 360 });
  assert.deepEqual(report, cliJson("dist", "3d6"));
  assert.deepEqual(charts.map((c) => c.name), ["at_least", "probability"]);
  assert.match(charts[0].svg, /^<svg [^>]*width="360"/);
  assert.ok(charts[1].svg.includes("<title>3d6, 10: 12.500%</title>"));
});
