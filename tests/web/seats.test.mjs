// The static Seats page in a real browser: an example game measured as
// `fairdice seats --json` measures it (the table, the chart, the URL), a game
// edited in the text box estimated by Monte Carlo with standard errors, a long
// estimate cancelled, and hostile inputs (a game file that is not JSON, a game
// that does not fit the randomizer, a huge match) refused with a clear message
// before the next request runs.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cancelAfter, cliJson, differences, downloadedJson, launch, screenshot, settled, submit, typeInto } from "./support.mjs";

/** The repository's example games. */
const GAMES = new URL("../../docs/games/", import.meta.url);
/** Exact seat figures are sums of products, the same in WebAssembly; estimates too (whole-number tallies). */
const SEATS = { relative: 1e-12 };

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** `fairdice seats GAME --randomizer SPEC --samples T [ARGS…] --json`, the game given as text. */
function cliSeats(game, spec, samples, ...args) {
  const file = join(mkdtempSync(join(tmpdir(), "fairdice-seats-")), "game.json");
  writeFileSync(file, game);
  return cliJson("seats", file, "--randomizer", spec, "--samples", String(samples), ...args);
}

test("the Catan example: the numbers of `fairdice seats --json`, the table and the chart; the link reopens it", async () => {
  const page = await browser.page("seats.html");
  await page.waitForSelector(".examples");
  // Every example of docs/games is offered.
  const offered = await page.$$eval("#example option", (os) => os.map((o) => o.value).filter((v) => v !== ""));
  const files = readdirSync(GAMES).filter((f) => f.endsWith(".json")).map((f) => f.replace(/\.json$/, "")).sort();
  assert.deepEqual(offered, files);

  await page.selectOption("#example", "catan-beginner");
  assert.match(await page.inputValue("#game"), /"players": \["red", "blue", "white", "orange"\]/);
  await typeInto(page, "#spec", "dice(base=2d6)");
  await typeInto(page, "#samples", "20");
  await submit(page, "#seats-button");
  const game = await page.inputValue("#game");
  const printed = cliSeats(game, "dice(base=2d6)", 20);
  assert.deepEqual(differences(await downloadedJson(page), printed, SEATS), []);
  assert.equal(await page.getAttribute("#summary", "data-method"), "exact");
  assert.match(await page.textContent("#summary .method"), /exact sweep/);
  const rows = await page.$$eval("#players tbody tr", (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  assert.deepEqual(
    rows.map((r) => r.slice(0, 3)),
    printed.all_rolls.players.map((p) => [p.player, p.fair_share.toFixed(3), p.expected_total.value.toFixed(3)]),
  );
  assert.equal(await page.textContent("#players-across .spread"), printed.all_rolls.spread.value.toFixed(3));
  assert.equal(await page.locator("table#own-turns tbody tr").count(), 4);
  // The chart: a band, a dashed fair share and a line per player, a tooltip on every roll.
  for (const player of ["red", "blue", "white", "orange"]) {
    assert.equal(await page.locator(`#chart svg g[aria-label="${player}"] path`).count(), 3);
  }
  assert.equal(await page.locator("#chart svg circle > title").count(), 4 * 20);
  assert.match(await page.textContent("#chart svg desc"), /After the last roll: red expects/);
  const url = new URL(page.url());
  assert.equal(url.searchParams.get("example"), "catan-beginner");
  assert.equal(url.searchParams.get("game"), null);
  assert.deepEqual(page.errors, []);
  await screenshot(page, "seats", 2000);

  // The link reopens the same result.
  const again = await browser.page(`seats.html${url.search}`);
  await settled(again);
  assert.deepEqual(differences(await downloadedJson(again), printed, SEATS), []);
  assert.equal(await again.inputValue("#example"), "catan-beginner");
  await again.close();
  await page.close();
});

test("a game edited in the text box, estimated by Monte Carlo with standard errors", async () => {
  const page = await browser.page("seats.html");
  const game = '{"name": "<b>6 & 8</b>", "players": ["six", "eight"], "payoffs": {"6": [1, 0], "8": [0, 2]}}';
  await page.fill("#game", game);
  assert.equal(await page.inputValue("#example"), "", "an edited game is the player's own");
  await typeInto(page, "#spec", "fair(base=2d6, tightness=1)");
  await typeInto(page, "#samples", "25");
  await page.selectOption("#method", "monte_carlo");
  await typeInto(page, "#runs", "4000");
  await typeInto(page, "#seed", "3");
  await submit(page, "#seats-button");
  const printed = cliSeats(game, "fair(base=2d6, tightness=1)", 25, "--runs", "4000", "--seed", "3");
  assert.deepEqual(differences(await downloadedJson(page), printed, SEATS), []);
  assert.equal(await page.getAttribute("#summary", "data-method"), "monte_carlo");
  assert.match(await page.textContent("#summary .method"), /4,000 runs, seed 3/);
  // The name is text, never markup.
  assert.equal(await page.textContent("#summary h2"), "<b>6 & 8</b>");
  assert.equal(await page.locator("#summary b").count(), 0);
  const [value, error] = (await page.textContent("#players tbody tr:nth-child(2) .total")).split("±").map(Number);
  assert.ok(error > 0 && Math.abs(value - printed.all_rolls.players[1].expected_total.value) < 1e-3, `${value} ± ${error}`);
  const url = new URL(page.url());
  assert.equal(url.searchParams.get("game"), game);
  assert.equal(url.searchParams.get("runs"), "4000");
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("a long estimate is cancelled; hostile inputs are refused clearly; the next request runs", async () => {
  const page = await browser.page("seats.html?example=catan-beginner&spec=dice(base%3D2d6)&samples=30&runs=800000&droughts=off");
  await page.waitForSelector("#busy:not([hidden])");
  await page.click("#cancel");
  // Cancelling ends the worker at once; the bound only leaves room for a loaded
  // machine (a fresh-clone run once took over 2 s here).
  await page.waitForSelector('.problem[data-kind="cancelled"]', { timeout: 10000 });
  assert.ok(await page.isHidden("#busy"));
  await cancelAfter(page, 600, "#seats-button");

  // A game file that is not JSON: where, and what.
  await page.selectOption("#method", "auto");
  await typeInto(page, "#runs", "");
  await page.fill("#game", '{\n  "players": ["a", "b"],\n  "payoffs": {"7": [1, 0]\n}');
  await submit(page, "#seats-button");
  const notJson = await page.textContent(".problem pre");
  assert.match(notJson, /^the game file is not JSON: line 4, column \d+: /);
  assert.match(notJson, /\n\}\n \^$/);
  await screenshot(page, "seats-error", 1250);

  // JSON, but not a game of this randomizer; an unknown field.
  await page.fill("#game", '{"players": ["a", "b"], "payoffs": {"13": [1, 0]}}');
  await submit(page, "#seats-button");
  assert.match(await page.textContent(".problem pre"), /outcome 13 in the payoffs is not an outcome of dice\(base=2d6\); its outcomes are 2, 3, 4/);
  await page.fill("#game", '{"players": ["a", "b"], "payoffs": {"7": [1, 0]}, "colour": 1}');
  await submit(page, "#seats-button");
  assert.match(await page.textContent(".problem pre"), /unknown field `colour`/);

  // A huge match.
  await page.fill("#game", '{"players": ["a", "b"], "payoffs": {"7": [1, 0]}}');
  await typeInto(page, "#samples", "100000000");
  await submit(page, "#seats-button");
  assert.match(await page.textContent(".problem pre"), /samples must be in 1\.\.=100000, got 100000000/);

  await typeInto(page, "#samples", "50");
  await submit(page, "#seats-button");
  assert.equal(await page.locator(".problem").count(), 0);
  assert.equal(await page.getAttribute("#summary", "data-method"), "exact");
  assert.equal(await page.locator("#chart svg").count(), 1);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("an unknown example in a link is refused, naming the examples", async () => {
  const page = await browser.page("seats.html?example=chess&spec=dice(base%3D2d6)&samples=10");
  await page.waitForSelector(".problem");
  assert.match(await page.textContent(".problem pre"), /there is no example game `chess`; the examples are catan-beginner, sevens-1v1/);
  await page.close();
});

test("on a 375 px phone the players' tables fit, estimates and all", async () => {
  const path = "seats.html?example=catan-beginner&spec=deck(base%3D2d6%2C+copies%3D1%2C+refill_below%3D6%2C+refill%3Dreshuffle)&samples=30&runs=20000";
  const page = await browser.page(path, { width: 375, height: 812 });
  await settled(page);
  const overflow = await page.$$eval("table#players, table#own-turns", (tables) => tables.map((t) => t.parentElement.scrollWidth - t.parentElement.clientWidth));
  assert.deepEqual(overflow, [0, 0]);
  assert.match(await page.textContent("#players tbody tr:first-child .total"), /^\d+\.\d{3}± \d\.\d{3}$/);
  assert.deepEqual(page.errors, []);
  await screenshot(page, "seats-estimate-375", 2400);
  await page.close();
});
