// The static Randomizers page in a real browser: a spec analyzed as `fairdice
// analyze --json` does it (the article's numbers, the curves, droughts), a seeded
// sample equal to `fairdice sample`, the fair roller's check value, Monte Carlo
// with standard errors, a slow analysis cancelled, and hostile specs refused.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { cli, cliJson, differences, downloadedJson, launch, screenshot, settled, submit, typeInto } from "./support.mjs";

/** Analyses agree with the command line's to 1e-9, relatively (see `differences`). */
const ANALYSIS = { relative: 1e-9 };

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function fillSpec(page, spec, samples) {
  await typeInto(page, "#spec", spec);
  await typeInto(page, "#samples", String(samples));
}

test("the article's deck: the analysis of `fairdice analyze --json`, curves and droughts", async () => {
  const page = await browser.page("randomizers.html");
  assert.ok(await page.isVisible("text=deck(values=6, copies=1, refill_below=6)"));
  const spec = "deck(values=6, copies=1, refill_below=6)";
  await fillSpec(page, spec, 25);
  await submit(page, "#analyze-button");
  await page.waitForSelector("#droughts");
  assert.deepEqual(differences(await downloadedJson(page), cliJson("analyze", spec, "--samples", "25"), ANALYSIS), []);
  assert.equal(await page.getAttribute("#summary .method", "data-method"), "exact");
  assert.match(await page.textContent("#summary .method"), /exact sweep/);
  assert.equal(await page.textContent("#summary .outcome-variance"), "0.5089");
  assert.equal(await page.textContent("#summary .mean-entropy"), "0.9020");
  const document = cliJson("analyze", spec, "--samples", "25");
  assert.equal(await page.textContent("#summary .base-deviation"), document.base_deviation.toFixed(4));
  assert.equal(await page.locator("#droughts tbody tr").count(), 1);
  assert.match(await page.textContent("#droughts tbody tr"), /^each/);
  const curves = page.locator('#chart svg g[aria-label="deck(values=6, copies=1, refill_below=6, refill=top-up)"] path');
  assert.equal(await curves.count(), 2);
  const box = await page.locator("#chart svg").first().boundingBox();
  assert.ok(box.width > 300 && box.height > 300, `chart is ${box.width}×${box.height}`);
  const url = new URL(page.url());
  assert.equal(url.searchParams.get("spec"), spec);
  assert.equal(url.searchParams.get("samples"), "25");
  assert.deepEqual(page.errors, []);
  await screenshot(page, "randomizers", 1900);
  await page.close();
});

test("dynamic dice at 0.355, then Monte Carlo with standard errors", async () => {
  const page = await browser.page("randomizers.html");
  const spec = "dynamic(values=6, decrease=0.355)";
  await fillSpec(page, spec, 25);
  await submit(page, "#analyze-button");
  assert.equal(await page.textContent("#summary .outcome-variance"), "0.4590");
  await page.selectOption("#method", "monte_carlo");
  await typeInto(page, "#runs", "20000");
  await typeInto(page, "#seed", "5");
  await submit(page, "#analyze-button");
  assert.equal(await page.getAttribute("#summary .method", "data-method"), "monte_carlo");
  assert.match(await page.textContent("#summary .method"), /20000 runs, seed 5/);
  const printed = cliJson("analyze", spec, "--samples", "25", "--runs", "20000", "--seed", "5");
  assert.deepEqual(differences(await downloadedJson(page), printed, ANALYSIS), []);
  const [value, error] = (await page.textContent("#summary .outcome-variance")).split("±").map(Number);
  assert.ok(error > 0 && Math.abs(value - 0.459) < 5 * error, `${value} ± ${error}`);
  await page.close();
});

test("the sample button draws what `fairdice sample` draws; the fair roller's check value", async () => {
  const page = await browser.page("randomizers.html");
  const spec = "deck(values=6, copies=1, refill_below=1)";
  await fillSpec(page, spec, 12);
  await typeInto(page, "#seed", "7");
  await submit(page, "#sample-button");
  const url = new URL(page.url());
  assert.equal(url.searchParams.get("sample"), "1");
  assert.equal(url.searchParams.get("seed"), "7");
  const drawn = await page.$$eval("#sample ol.sequence li", (lis) => lis.map((l) => l.textContent));
  assert.deepEqual(drawn, cli("sample", spec, "--samples", "12", "--seed", "7").trim().split(" "));
  assert.deepEqual(drawn, ["1", "6", "3", "2", "4", "5", "6", "4", "3", "5", "2", "1"]);
  // The command the page quotes draws the same sequence, with today's flags.
  const quoted = await page.textContent("#sample p.hint code");
  const words = quoted.match(/^fairdice sample '([^']+)' (.*)$/);
  assert.ok(words, quoted);
  assert.deepEqual(cli("sample", words[1], ...words[2].split(" ")).trim().split(" "), drawn);
  const [saved] = await Promise.all([page.waitForEvent("download"), page.click('#sample button:text-is("JSON")')]);
  assert.deepEqual(JSON.parse(readFileSync(await saved.path(), "utf8")), cliJson("sample", spec, "--samples", "12", "--seed", "7"));
  await page.goto(`${url.origin}${url.pathname}?spec=tgm2&samples=10&seed=1&sample=1`);
  await settled(page);
  const pieces = await page.$$eval("#sample ol.sequence li", (lis) => lis.map((l) => l.textContent));
  assert.deepEqual(pieces, cli("sample", "tgm2", "--samples", "10", "--seed", "1").trim().split(" "));

  await page.goto(`${url.origin}${url.pathname}`);
  await fillSpec(page, "fair(base=2d6, tightness=1)", 10);
  await typeInto(page, "#history", "2,4,7,7");
  // (Its exact droughts take about a minute natively: not here.)
  await page.uncheck("#with-droughts");
  await submit(page, "#analyze-button");
  const printed = cliJson("next", "fair(base=2d6, tightness=1)", "--history", "2,4,7,7");
  const rows = await page.$$eval("#next tbody tr", (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  assert.deepEqual(rows.map((r) => r[1]), printed.outcomes.map((o) => o.probability.toFixed(6)));
  assert.equal(rows[5][1], "0.059646"); // P(7) = 0.05965
  assert.equal(new URL(page.url()).searchParams.get("droughts"), "off");
  assert.deepEqual(differences(await downloadedJson(page), cliJson("analyze", "fair(base=2d6, tightness=1)", "--samples", "10", "--no-droughts"), ANALYSIS), []);
  await page.close();
});

test("a slow analysis is cancelled; hostile specs are refused; the next analysis runs", async () => {
  const page = await browser.page("randomizers.html");
  await fillSpec(page, "dek(values=6)", 25);
  await submit(page, "#analyze-button");
  assert.equal(await page.locator(".problem").count(), 1, "one spec error, shown once");
  assert.match(await page.textContent(".problem pre"), /unknown randomizer `dek`; accepted: .*deck\(values=N/);
  await screenshot(page, "randomizers-error", 760);

  // The fair roller's droughts over 2d6 and 8 samples: seconds of work (the exact
  // sweep, then a Monte Carlo when its last step passes the budget). The curves
  // come first; cancelling the droughts keeps them.
  await fillSpec(page, "fair(base=2d6, tightness=1)", 8);
  await page.click("#analyze-button");
  await page.waitForSelector("#droughts-pending");
  assert.equal(await page.textContent("#summary .outcome-variance"), "0.5557");
  assert.ok(await page.isVisible("#busy"));
  await page.click("#cancel");
  await page.waitForSelector('#droughts-problem[data-kind="cancelled"]');
  assert.match(await page.textContent("#droughts-problem"), /Cancelled while computing them\. The summary and curves above are complete/);
  assert.equal(await page.locator("#chart > svg").count(), 1);
  assert.ok(await page.isHidden("#busy"));

  // Exact only, past the budget: refused, with a Monte Carlo estimate that finishes.
  await fillSpec(page, "dynamic(values=6, decrease=0.9)", 1000);
  await page.selectOption("#method", "exact");
  await submit(page, "#analyze-button");
  assert.match(await page.textContent('.problem[data-kind="too_big"] pre'), /the exact sweep would take about \d\.\de9 steps/);
  await page.click("text=Estimate with 20,000 runs");
  await settled(page);
  assert.equal(new URL(page.url()).searchParams.get("runs"), "20000");
  assert.equal(await page.getAttribute("#summary .method", "data-method"), "monte_carlo");
  assert.equal(await page.locator("table#droughts").count(), 1);
  await page.selectOption("#method", "auto");
  await typeInto(page, "#runs", "");

  // A base too large to evaluate, and more outcomes than a randomizer takes.
  await fillSpec(page, "dice(base=1000000d1000000)", 10);
  await submit(page, "#analyze-button");
  assert.match(await page.textContent(".problem pre"), /base=1000000d1000000: too large to compute exactly/);
  await fillSpec(page, "fair(values=1000000000, tightness=1)", 10);
  await submit(page, "#analyze-button");
  assert.match(await page.textContent(".problem pre"), /1000000000 outcomes is more than the 1048576 a randomizer accepts/);

  await fillSpec(page, "prd(p=0.25)", 20);
  await submit(page, "#analyze-button");
  assert.equal(await page.locator(".problem").count(), 0);
  assert.match(await page.textContent("#summary .method"), /exact sweep/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("a machine from the examples: the banner's goal as `fairdice goal --json` gives it, and a pasted streak shot", async () => {
  const page = await browser.page("randomizers.html");
  await page.click("text=limited banner");
  await page.waitForSelector("#goal-summary");
  await settled(page);
  const banner = new URL("../../docs/machines/banner.json", import.meta.url).pathname;
  const expected = cliJson("goal", `@${banner}`, "--until", "featured", "--budget", "90");
  const [download] = await Promise.all([page.waitForEvent("download"), page.click('#goal button:has-text("JSON")')]);
  const shown = JSON.parse(readFileSync(await download.path(), "utf8"));
  assert.deepEqual(differences(shown, expected, ANALYSIS), []);
  const summary = await page.textContent("#goal-summary");
  assert.match(summary, /limited banner: attempts until featured/);
  assert.match(summary, /93\.4460/);
  assert.match(summary, /within 90 attempts59\.3938%/);
  // The chance within each number of attempts, drawn: one rising line.
  assert.match(await page.textContent("#goal-chart svg"), /Attempts until featured/);
  assert.ok((await page.locator("#goal-chart svg path").count()) >= 1);
  assert.match(await page.textContent("#summary caption"), /^limited banner over 25 samples/);
  const url = new URL(page.url());
  assert.equal(url.searchParams.get("until"), "featured");
  assert.equal(url.searchParams.get("budget"), "90");
  await screenshot(page, "randomizers-goal", 1600);

  // A machine pasted into the field, with a goal typed in.
  const shot = '{"layers": [{"name": "misses", "counter": 6, "draw": {"hit": "min(1, 50% + 10% * n)", "miss": "rest"}, "next": {"hit": 0, "miss": "min(5, n + 1)"}}]}';
  await typeInto(page, "#spec", shot);
  await typeInto(page, "#samples", "20");
  await typeInto(page, "#until", "hit");
  await typeInto(page, "#budget", "10");
  await submit(page, "#analyze-button");
  await page.waitForSelector("#goal-summary");
  await settled(page);
  assert.match(await page.textContent("#goal-summary"), /expected hit within them5\.5641/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("a recorded log audited as `fairdice audit --json` audits it: a Catan game dealt from a deck", async () => {
  const page = await browser.page("randomizers.html");
  const path = new URL("../../docs/logs/catan.txt", import.meta.url).pathname;
  await fillSpec(page, "dice(base=2d6)", 10);
  await page.fill("#log", readFileSync(path, "utf8"));
  await submit(page, "#analyze-button");
  await page.waitForSelector("#audit-candidates");
  await settled(page);
  const [download] = await Promise.all([page.waitForEvent("download"), page.click('#audit button:has-text("JSON")')]);
  const shown = JSON.parse(readFileSync(await download.path(), "utf8"));
  assert.deepEqual(differences(shown, cliJson("audit", path, "--randomizer", "dice(base=2d6)"), ANALYSIS), []);
  assert.match(await page.textContent("#audit-likelihood"), /-163\.4143/);
  assert.match(await page.textContent("#audit-candidates tbody tr"), /^deck\(base=2d6, copies=1/);
  assert.ok(new URL(page.url()).searchParams.get("log").startsWith("# Sums rolled"));
  await screenshot(page, "randomizers-audit", 1500);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("PRD analyzed: the attempts until a success, as `fairdice prd` tabulates them", async () => {
  const page = await browser.page("randomizers.html");
  await fillSpec(page, "prd(p=0.25)", 20);
  await submit(page, "#analyze-button");
  await page.waitForSelector("#attempts");
  const table = cliJson("prd", "0.25");
  assert.match(await page.textContent("#attempts summary"), /^Attempts until success \(from the start\): 4\.0000 on average, never more than 12$/);
  const rows = page.locator("#attempts-table tbody tr");
  assert.equal(await rows.count(), table.attempts.length);
  for (const [i, attempt] of table.attempts.entries()) {
    const cells = await rows.nth(i).locator("td, th").allTextContents();
    assert.equal(cells[0], String(attempt.attempt));
    assert.equal(Number(cells[1]).toFixed(6), attempt.probability.toFixed(6));
    assert.equal(Number(cells[3]).toFixed(6), attempt.cumulative.toFixed(6));
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});
