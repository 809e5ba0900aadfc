// The static Dice page in a real browser: type, compute in the worker, read the
// numbers the command line prints, see the chart, compare, switch the measure by
// keyboard without a reload, reopen a shared link, cancel a slow computation, and
// survive hostile input.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { barTips, cliJson, cliRendering, downloadedCsv, downloadedJson, launch, screenshot, settled, SITE_URL, submit, typeInto } from "./support.mjs";

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test("4d6kh3: the numbers of `fairdice dist --json`, a chart and the table", async () => {
  const page = await browser.page("dice.html");
  await typeInto(page, "#expr-1", "4d6kh3");
  await submit(page);

  const printed = cliJson("dist", "4d6kh3");
  const summary = await page.textContent("#summary");
  assert.ok(summary.includes(printed.mean.toFixed(4)), summary);
  assert.ok(summary.includes(printed.mean_exact), summary);
  assert.match(summary, /exact: 1296 equally likely rolls/);
  // The page's JSON is the command line's document, number for number.
  assert.deepEqual(await downloadedJson(page, "JSON for 4d6kh3"), printed);
  // A chart with one bar per outcome, drawn by the charts crate.
  const tips = await barTips(page);
  assert.equal(tips.length, 16);
  assert.ok(tips.includes("4d6kh3, 12: 12.886%"), tips.join("\n"));
  const box = await page.locator("#chart svg").boundingBox();
  assert.ok(box.width > 300 && box.height > 150, `chart is ${box.width}×${box.height}`);
  // The table's counts are the command line's, and its CSV has them too.
  const counts = await page.$$eval("#distribution tbody tr td:nth-child(2)", (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(counts, printed.outcomes.map((o) => o.count));
  const row18 = await page.locator("#distribution tbody tr").last().innerText();
  assert.match(row18, /18\s+21\s+1\.620%\s+100\.000%\s+1\.620%/);
  const csv = await downloadedCsv(page, "distribution");
  assert.deepEqual(csv[0], ["outcome", "count", "probability", "at most", "at least"]);
  assert.deepEqual(csv.slice(1).map((r) => r[1]), printed.outcomes.map((o) => o.count));
  assert.equal(new URL(page.url()).searchParams.get("expr"), "4d6kh3");
  // The chart downloads as the SVG the charts crate drew, and as a PNG of it.
  const [svg] = await Promise.all([page.waitForEvent("download"), page.click('figcaption button:text-is("SVG")')]);
  const drawn = readFileSync(await svg.path(), "utf8");
  assert.ok(drawn.startsWith("<svg") && drawn.includes("<title>4d6kh3, 12: 12.886%</title>"), drawn.slice(0, 200));
  const [png] = await Promise.all([page.waitForEvent("download"), page.click('figcaption button:text-is("PNG")')]);
  const bytes = readFileSync(await png.path());
  assert.deepEqual([...bytes.subarray(1, 4)].map((b) => String.fromCharCode(b)).join(""), "PNG");
  assert.ok(bytes.length > 5000, `a PNG of ${bytes.length} bytes`);
  assert.deepEqual(page.errors, []);
  await screenshot(page, "dice");
  await page.close();
});

test("a deal of cards: the command line's numbers, counted as deals; the example link opens it", async () => {
  const expression = "count(deal(deck{1:24, 0:36}, 7), 1)";
  const page = await browser.page("dice.html");
  await page.waitForSelector(".examples");
  await page.click(`.examples a:has-text("${expression}")`);
  await page.waitForSelector("#summary");
  const printed = cliJson("dist", expression);
  const summary = await page.textContent("#summary");
  assert.ok(summary.includes(printed.mean_exact), summary);
  assert.match(summary, /exact: 386206920 equally likely deals/);
  assert.deepEqual(await downloadedJson(page, `JSON for ${expression}`), printed);
  assert.equal(new URL(page.url()).searchParams.get("expr"), expression);
  assert.deepEqual(page.errors, []);
});

test("cards of a rank and a suit: the example's suits and runs of one hand equal the command line's", async () => {
  const expression = "[(rank, suit) = deal(deck{(1..13, 1..4)}, 5)] (largest_set(suit), longest_straight(rank))";
  const page = await browser.page("dice.html");
  await page.waitForSelector(".examples");
  await page.click(`.examples a:has-text("(largest_set(suit), longest_straight(rank))")`);
  await page.waitForSelector("#summary");
  const printed = cliJson("dist", expression);
  assert.equal(printed.total, "2598960");
  assert.deepEqual(await downloadedJson(page, `JSON for ${expression}`), printed);
  const rows = await page.$$eval("#distribution tbody tr > :first-child", (cells) => cells.map((c) => c.textContent));
  assert.deepEqual(rows, printed.outcomes.map((o) => `(${o.outcome.join(", ")})`));
  assert.equal(new URL(page.url()).searchParams.get("expr"), expression);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("labels name the rows and the bars; a tuple is a grid with each value summed up alone", async () => {
  const move = "2d6+1 as {..6: miss, 7..9: weak hit, 10..: strong hit}";
  let page = await browser.page(`dice.html?expr=${encodeURIComponent(move)}`);
  await settled(page);
  const labels = await page.$$eval("#distribution tbody tr > :first-child", (cells) => cells.map((c) => c.textContent));
  assert.deepEqual(labels, ["miss", "weak hit", "strong hit"]);
  assert.ok((await page.innerHTML("#chart")).includes(">weak hit</text>"));
  assert.deepEqual(await downloadedJson(page, `JSON for ${move}`), cliJson("dist", move));
  assert.deepEqual(page.errors, []);
  await page.close();

  const tuple = "[p = 8d6] (count(p, 5, 6), count(p, 1))";
  page = await browser.page(`dice.html?expr=${encodeURIComponent(tuple)}`);
  await settled(page);
  const printed = cliJson("dist", tuple);
  const rows = await page.$$eval("#distribution tbody tr > :first-child", (cells) => cells.map((c) => c.textContent));
  assert.deepEqual(rows, printed.outcomes.map((o) => `(${o.outcome.join(", ")})`));
  const summary = await page.textContent("#summary");
  assert.ok(summary.includes("count(p, 1)") && summary.includes(printed.values[1].mean_exact), summary);
  assert.ok((await page.innerHTML("#chart")).includes("P(pair)"));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("a string another tool reads otherwise gets the command line's note, with their spelling", async () => {
  let page = await browser.page(`dice.html?expr=${encodeURIComponent("2d6>=8")}`);
  await settled(page);
  const [note] = cliJson("dist", "2d6>=8").other_readings.map((r) => r.note);
  assert.equal((await page.textContent("#other-readings")).trim(), note);
  assert.match(note, /write `2d6cs>=8`/);
  await page.close();
  page = await browser.page(`dice.html?expr=${encodeURIComponent("2d6 >= 8")}`);
  await settled(page);
  assert.equal(await page.$("#other-readings"), null);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("the dialect selector reads a string as that tool does, stays in the URL and matches the command line", async () => {
  const page = await browser.page(`dice.html?expr=${encodeURIComponent("3d6>3")}`);
  await settled(page);
  await page.selectOption("#dialect", "roll20");
  await submit(page);
  assert.match(page.url(), /dialect=roll20/);
  const printed = cliJson("dist", "3d6>3", "--dialect", "roll20");
  assert.equal(printed.expression, "3d6cs>=3");
  assert.equal((await page.textContent("#other-readings")).trim(), printed.dialect.note);
  assert.deepEqual(await downloadedJson(page, "JSON for 3d6cs>=3"), printed);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("exact counts past 24 digits are abbreviated on the page and whole in the CSV", async () => {
  const page = await browser.page("dice.html?expr=100d6");
  await settled(page);
  const printed = cliJson("dist", "100d6");
  assert.equal(await page.textContent("#summary td.computed"), "exact: 6.533e77 equally likely rolls");
  const csv = await downloadedCsv(page, "distribution");
  assert.deepEqual(csv.slice(1).map((r) => r[1]), printed.outcomes.map((o) => o.count));
  await page.close();
});

test("two expressions on one chart; the measure switches by keyboard without a reload", async () => {
  const page = await browser.page("dice.html");
  await typeInto(page, "#expr-1", "4d6kh3");
  await typeInto(page, "#expr-2", "3d6");
  await submit(page);
  const legend = await page.$$eval('#chart svg g[aria-label="legend"] text', (ts) => ts.map((t) => t.textContent));
  assert.deepEqual(legend, ["4d6kh3", "3d6"]);
  assert.ok((await barTips(page)).includes("3d6, 10: 12.500%"));
  const headers = await page.$$eval("#distribution thead th", (ths) => ths.map((t) => t.textContent));
  assert.deepEqual(headers, ["outcome", "4d6kh3", "3d6"]);

  // Arrow keys move between the radio buttons: the chart changes, the page stays.
  await page.evaluate(() => (window.stillHere = true));
  await page.focus("#mode-probability");
  await page.keyboard.press("ArrowRight");
  await page.waitForURL(/mode=at_least/);
  await settled(page);
  assert.ok(await page.isChecked("#mode-at_least"));
  assert.equal(await page.evaluate(() => window.stillHere), true, "the page was not reloaded");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "mode-at_least");
  assert.ok((await barTips(page)).includes("4d6kh3, 12: 61.651%"));
  assert.match(await page.textContent("#distribution caption"), /At least/);

  // The link alone brings back the same result, chart and all.
  const url = page.url();
  const chart = await page.innerHTML("#chart svg");
  const shared = await browser.page();
  await shared.goto(url);
  await settled(shared);
  assert.equal(await shared.innerHTML("#chart svg"), chart);
  assert.equal(await shared.textContent("#summary"), await page.textContent("#summary"));
  assert.ok(await shared.isChecked("#mode-at_least"));
  assert.equal(await shared.inputValue("#expr-2"), "3d6");
  // Back goes to the probabilities.
  await page.goBack();
  await settled(page);
  assert.ok(await page.isChecked("#mode-probability"));
  assert.ok((await barTips(page)).includes("4d6kh3, 12: 12.886%"));
  await screenshot(page, "dice-compare");
  await page.close();
  await shared.close();
});

test("a slow computation shows its progress and is cancelled at once; the next one runs", async () => {
  const page = await browser.page("dice.html");
  // Several seconds of exact work within the default budget (about 6 s natively):
  // the face 1 weighs twice, so the sum takes the general recurrence, not the fast
  // one for equal weights.
  await typeInto(page, "#expr-1", "18d{1,1..2200}");
  await page.click('form.query button[type="submit"]');
  await page.waitForSelector("#busy:not([hidden])");
  await page.waitForTimeout(700);
  assert.match(await page.textContent("#busy"), /Computing… \d+\.\d s/);
  const started = Date.now();
  await page.click("#cancel");
  await page.waitForSelector('.problem[data-kind="cancelled"]');
  assert.ok(Date.now() - started < 2000, "cancelled within two seconds");
  assert.ok(await page.isHidden("#busy"));

  await typeInto(page, "#expr-1", "2d6");
  await submit(page);
  assert.match(await page.textContent("#summary"), /7\.0000/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("hostile input is refused with the command line's message; the next request works", async () => {
  const page = await browser.page("dice.html");

  // Too large: refused with its estimate, and the offered Monte Carlo finishes.
  await typeInto(page, "#expr-1", "1000000d1000000");
  await submit(page);
  const refused = await page.textContent('.problem[data-kind="too_big"] pre');
  assert.match(refused, /too large to compute exactly: it would take about 3\.1e29 steps/);
  await page.click("text=Estimate with 20 rolls");
  await settled(page);
  assert.equal(new URL(page.url()).searchParams.get("runs"), "20");
  assert.equal(await page.locator(".problem").count(), 0);
  assert.match(await page.textContent("#summary td.computed"), /Monte Carlo: 20 rolls, seed 1/);
  assert.deepEqual(await downloadedJson(page, "JSON for 1000000d1000000"), cliJson("dist", "1000000d1000000", "--runs", "20"));
  await screenshot(page, "dice-estimate", 900);

  // A parse error: the command line's caret rendering.
  await page.goto(`${SITE_URL}/dice.html`);
  await typeInto(page, "#expr-1", "4d6kh3y");
  await submit(page);
  const rendered = await page.textContent('.problem[data-kind="parse"] pre');
  assert.equal(rendered, cliRendering("dist", "4d6kh3y"));
  await screenshot(page, "dice-error", 760);

  // Markup is text, never HTML; nesting past the limit is refused where it opens.
  await typeInto(page, "#expr-1", '<img src=x onerror="window.pwned=1">');
  await submit(page);
  assert.equal(await page.locator("#results img").count(), 0);
  assert.match(await page.textContent(".problem pre"), /<img src=x/);
  await typeInto(page, "#expr-1", `${"(".repeat(100)}1${")".repeat(100)}`);
  await submit(page);
  assert.equal(await page.textContent('.problem[data-kind="parse"] pre'), cliRendering("dist", `${"(".repeat(100)}1${")".repeat(100)}`));
  assert.match(await page.textContent('.problem[data-kind="parse"] pre'), /nest more than 64 levels deep/);
  await page.goto(`${SITE_URL}/dice.html?expr=d6&mode=sideways`);
  assert.match(await page.textContent('.problem[data-kind="bad_request"]'), /unknown measure `sideways`/);

  await page.goto(`${SITE_URL}/dice.html`);
  await typeInto(page, "#expr-1", "3d6");
  await submit(page);
  assert.equal(await page.locator(".problem").count(), 0);
  assert.match(await page.textContent("#summary"), /10\.5000/);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("a crash of the worker is reported, and a fresh worker answers the next request", { skip: process.env.FAIRDICE_ON_SERVER && "no worker: the server computes" }, async () => {
  const page = await browser.page();
  // The worker as served, made to trap on one expression as a panic would.
  await page.route("**/js/worker.js", async (route) => {
    const response = await route.fetch();
    const source = (await response.text()).replace(
      "const answer = compute(",
      'if (requests.some((r) => r.includes("crash-me"))) throw new WebAssembly.RuntimeError("unreachable");\n    const answer = compute(',
    );
    await route.fulfill({ response, body: source });
  });
  await page.goto(`${SITE_URL}/dice.html?expr=crash-me`);
  await settled(page);
  const problem = await page.textContent('.problem[data-kind="internal"]');
  assert.match(problem, /fairdice failed while computing this: RuntimeError: unreachable \(no panic: WebAssembly stops like this when its memory runs out\)/);
  assert.match(problem, /restarted its worker/);
  await typeInto(page, "#expr-1", "4d6kh3");
  await submit(page);
  assert.match(await page.textContent("#summary"), /15869\/1296/);
  await page.close();
});
