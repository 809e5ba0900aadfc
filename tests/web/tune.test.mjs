// The static Tuner page in a real browser: the article's search as `fairdice tune
// --json` gives it, the winners' curves, an uncertain match length changing the
// verdict, and bad match lengths and grids refused while the next search runs.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { cancelAfter, cliJson, differences, downloadedJson, launch, screenshot, settled, submit, typeInto } from "./support.mjs";

/** Searches agree with the command line's to 1e-9, relatively (see `differences`). */
const SEARCH = { relative: 1e-9 };

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function row(page, system) {
  const cells = await page.$$eval(`#tune-results tr[data-system="${system}"] > *`, (cs) => cs.map((c) => c.textContent));
  const [name, params, entropy, variance, deviation, qualified, method] = cells;
  return { name, params, entropy, variance, deviation, qualified, method };
}

test("the article's table: deck (1, 6) → 0.5089, dynamic 0.355 → 0.4590, as `fairdice tune --json`", async () => {
  const page = await browser.page("tune.html");
  await typeInto(page, "#values", "6");
  await typeInto(page, "#samples", "25");
  await typeInto(page, "#min-entropy", "0.9");
  assert.ok(await page.isChecked("#system-deck"));
  assert.ok(await page.isChecked("#system-dynamic"));
  await submit(page);
  assert.deepEqual(differences(await downloadedJson(page), cliJson("tune", "--values", "6", "--samples", "25", "--min-entropy", "0.9"), SEARCH), []);
  assert.deepEqual(await row(page, "deck"), {
    name: "deck",
    params: "copies=1, refill_below=6",
    entropy: "0.9020",
    variance: "0.5089",
    deviation: "0.1466",
    qualified: "87/100",
    method: "exact",
  });
  assert.equal((await row(page, "dynamic")).params, "decrease=0.355");
  assert.match(await page.textContent("#fairest"), /Fairest: dynamic \(decrease=0\.355\), outcome variance 0\.46 — plain dice: 3\.47/);
  const legends = await page.$$eval('#chart svg g[aria-label="legend"] text', (ts) => ts.map((t) => t.textContent));
  assert.deepEqual(legends, [
    "deck (copies=1, refill_below=6)",
    "dynamic (decrease=0.355)",
    "deck (copies=1, refill_below=6)",
    "dynamic (decrease=0.355)",
  ]);
  assert.deepEqual(page.errors, []);
  await screenshot(page, "tune", 1900);
  await page.close();
});

test("weighted outcomes are fairest by their deviation from the base unless outcome variance is chosen", async () => {
  const page = await browser.page("tune.html");
  await typeInto(page, "#base", "2d4");
  await typeInto(page, "#samples", "12");
  await page.uncheck("#system-deck");
  await page.check("#system-fair");
  await submit(page);
  const args = ["--base", "2d4", "--samples", "12", "--systems", "dynamic,fair"];
  assert.deepEqual(differences(await downloadedJson(page), cliJson("tune", ...args), SEARCH), []);
  assert.match(await page.textContent("#tune-results caption"), /fairest by base deviation/);
  assert.deepEqual(await row(page, "fair"), {
    name: "fair",
    params: "tightness=1.05",
    entropy: "0.9011",
    variance: "1.1677",
    deviation: "0.4605",
    qualified: "22/101",
    method: "exact",
  });
  assert.match(await page.textContent("#fairest"), /Fairest: fair \(tightness=1\.05\), base deviation 0\.46 — plain dice: 1\.00/);
  // The same search by the article's measure: dynamic dice even the counts out.
  await page.selectOption("#fairness", "outcome_variance");
  await submit(page);
  assert.match(page.url(), /fairness=outcome_variance/);
  assert.deepEqual(differences(await downloadedJson(page), cliJson("tune", ...args, "--fairness", "outcome_variance"), SEARCH), []);
  assert.match(await page.textContent("#fairest"), /Fairest: dynamic \(decrease=0\.325\), outcome variance 0\.58 — plain dice: 2\.02/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("between the players of an example game: the fairest split, as `fairdice tune --game --json`", async () => {
  const page = await browser.page("tune.html");
  await typeInto(page, "#base", "2d6");
  await typeInto(page, "#samples", "20");
  await page.uncheck("#system-deck");
  await page.uncheck("#system-dynamic");
  await page.check("#system-dice");
  await typeInto(page, "#grid", "fair(tightness=0..2 step 0.5, seats=2)");
  await page.selectOption("#game", "sevens-1v1");
  await submit(page);
  assert.match(page.url(), /game=sevens-1v1/);
  const cli = cliJson(
    "tune", "--base", "2d6", "--samples", "20", "--systems", "dice",
    "--grid", "fair(tightness=0..2 step 0.5, seats=2)", "--game", new URL("../../docs/games/sevens-1v1.json", import.meta.url).pathname,
  );
  assert.equal(cli.fairness, "seat_spread");
  assert.deepEqual(differences(await downloadedJson(page), cli, SEARCH), []);
  assert.match(await page.textContent("#tune-results caption"), /fairest by seat spread/);
  assert.equal(await page.textContent('#tune-results tr[data-system="fair"] .params'), "tightness=1, seats=2");
  assert.match(await page.textContent("#fairest"), /Fairest: fair \(tightness=1, seats=2\), seat spread 0\.83 — plain dice: 1\.28/);
  // A game name a link cannot have is refused, naming the examples.
  await page.goto(page.url().replace("game=sevens-1v1", "game=chess"));
  await settled(page);
  assert.match(await page.textContent(".problem"), /no example game `chess`.*sevens-1v1/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("an uncertain match length: 4 outcomes over 20..40 samples", async () => {
  const page = await browser.page("tune.html");
  await typeInto(page, "#values", "4");
  await typeInto(page, "#samples", "30");
  await submit(page);
  assert.equal((await row(page, "deck")).params, "copies=8, refill_below=1");
  assert.match(await page.textContent("#fairest"), /Fairest: deck/);
  await typeInto(page, "#samples", "20..40");
  // Seconds of work: the busy state names the stage and shows how far it is.
  await page.click('form.query button[type="submit"]');
  await page.waitForFunction(() => document.querySelector("#busy progress:not([hidden])")?.value > 0);
  assert.match(await page.textContent("#busy"), /Computing \((screening candidates|refining contenders|confirming winners)\)… \d+\.\d s/);
  assert.ok(Number(await page.getAttribute("#busy progress", "max")) > 0);
  await settled(page);
  assert.match(await page.textContent("#tune-results caption"), /20\.\.40 samples \(expected/);
  assert.match(await page.textContent("#fairest"), /Fairest: dynamic/);
  assert.deepEqual(differences(await downloadedJson(page), cliJson("tune", "--values", "4", "--samples", "20..40"), SEARCH), []);
  await page.close();
});

test("a bad match length and an unknown grid are refused; the next search runs", async () => {
  const page = await browser.page("tune.html");
  await typeInto(page, "#values", "6");
  await typeInto(page, "#samples", "20..x");
  await submit(page);
  assert.match(await page.textContent(".problem"), /20\.\.x/);
  await typeInto(page, "#samples", "25");
  await typeInto(page, "#grid", "dynamo(decrease=0.3)");
  await submit(page);
  assert.match(await page.textContent(".problem"), /dynamo/);
  // A search of seconds (10 outcomes, matches of 300 samples: 1.8 s of CPU
  // natively) is cancelled at once.
  await typeInto(page, "#grid", "");
  await typeInto(page, "#values", "10");
  await typeInto(page, "#samples", "300");
  await cancelAfter(page);
  await typeInto(page, "#values", "6");
  await typeInto(page, "#samples", "25");

  await typeInto(page, "#grid", "dynamic(decrease=0.30..0.40 step 0.005)");
  await submit(page);
  assert.equal(await page.locator(".problem").count(), 0);
  assert.equal((await row(page, "dynamic")).params, "decrease=0.35");
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("a machine's parameter from the examples: aim assist's boost as `fairdice tune --grid @FILE --json` finds it", async () => {
  const page = await browser.page("tune.html");
  await page.click("text=how much a miss may raise the next shot");
  await page.waitForSelector("#fairest");
  await settled(page);
  const aim = new URL("../../docs/machines/aim-assist.json", import.meta.url).pathname;
  assert.deepEqual(differences(await downloadedJson(page), cliJson("tune", "--grid", `@${aim}`, "--samples", "20", "--min-entropy", "0.9"), SEARCH), []);
  const best = await row(page, "aim assist");
  assert.equal(best.params, "boost=0.2");
  assert.equal(best.qualified, "9/19");
  assert.match(await page.textContent("#tune-results caption"), /^outcomes of aim assist, 20 samples/);
  assert.match(await page.textContent("#fairest"), /Fairest: aim assist \(boost=0\.2\), base deviation 0\.56 — as written: 0\.68/);
  assert.deepEqual(page.errors, []);
  await page.close();
});
