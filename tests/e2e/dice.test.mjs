// The Dice page in a real browser: type, submit, read the numbers, see the chart,
// compare, switch to "at least", and reload the shared URL.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { BASE_URL, launch, screenshot, submit, typeInto } from "./support.mjs";

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** The text of the bar tooltip for `outcome` of `expression` in the page's chart. */
async function barTip(page, expression, outcome) {
  const titles = await page.$$eval("#chart svg rect > title", (ts) => ts.map((t) => t.textContent));
  return titles.find((t) => t.startsWith(`${expression}, ${outcome}: `));
}

test("4d6kh3: mean, total, chart and table", async () => {
  const page = await browser.context.newPage();
  await page.goto(`${BASE_URL}/dice`);
  await typeInto(page, "#expr-1", "4d6kh3");
  await submit(page);

  const summary = await page.textContent("#summary");
  assert.match(summary, /12\.2446/);
  assert.match(summary, /15869\/1296/);
  assert.match(summary, /1296 equally likely rolls/);
  // A rendered chart with one bar per outcome, 3 to 18.
  const bars = await page.$$eval("#chart svg rect > title", (ts) => ts.length);
  assert.equal(bars, 16);
  const box = await page.locator("#chart svg").boundingBox();
  assert.ok(box.width > 300 && box.height > 150, `chart is ${box.width}×${box.height}`);
  assert.equal(await barTip(page, "4d6kh3", 12), "4d6kh3, 12: 12.886%");
  // The table: 16 rows, numbers as the command line prints them.
  assert.equal(await page.locator("#distribution tbody tr").count(), 16);
  const row18 = await page.locator("#distribution tbody tr").last().innerText();
  assert.match(row18, /18\s+21\s+1\.620%\s+100\.000%\s+1\.620%/);
  await screenshot(page, "dice");
  await page.close();
});

test("two expressions share one chart", async () => {
  const page = await browser.context.newPage();
  await page.goto(`${BASE_URL}/dice`);
  await typeInto(page, "#expr-1", "4d6kh3");
  await typeInto(page, "#expr-2", "3d6");
  await submit(page);

  const legend = await page.$$eval('#chart svg g[aria-label="legend"] text', (ts) =>
    ts.map((t) => t.textContent),
  );
  assert.deepEqual(legend, ["4d6kh3", "3d6"]);
  assert.equal(await barTip(page, "3d6", 10), "3d6, 10: 12.500%");
  assert.equal(await barTip(page, "4d6kh3", 10), "4d6kh3, 10: 9.414%");
  const headers = await page.$$eval("#distribution thead th", (ths) => ths.map((t) => t.textContent));
  assert.deepEqual(headers, ["outcome", "4d6kh3", "3d6"]);
  assert.match(await page.textContent("#summary"), /10\.5000/);
  await screenshot(page, "dice-compare");
  await page.close();
});

test("the at-least toggle changes the values, and the URL holds every input", async () => {
  const page = await browser.context.newPage();
  await page.goto(`${BASE_URL}/dice?expr=4d6kh3&expr=3d6`);
  assert.equal(await barTip(page, "4d6kh3", 12), "4d6kh3, 12: 12.886%");

  // Choosing "at least" resubmits by itself.
  await Promise.all([page.waitForURL(/mode=at_least/), page.check("#mode-at_least")]);
  assert.equal(await barTip(page, "4d6kh3", 12), "4d6kh3, 12: 61.651%");
  assert.equal(await barTip(page, "3d6", 18), "3d6, 18: 0.463%");
  assert.match(await page.textContent("#distribution caption"), /At least/);
  const url = new URL(page.url());
  assert.deepEqual(url.searchParams.getAll("expr"), ["4d6kh3", "3d6"]);
  assert.equal(url.searchParams.get("mode"), "at_least");

  // The link alone brings back the same result.
  const chart = await page.innerHTML("#chart svg");
  const summary = await page.textContent("#summary");
  const shared = await browser.context.newPage();
  await shared.goto(url.toString());
  assert.equal(await shared.innerHTML("#chart svg"), chart);
  assert.equal(await shared.textContent("#summary"), summary);
  assert.ok(await shared.isChecked("#mode-at_least"));
  assert.equal(await shared.inputValue("#expr-2"), "3d6");
  await page.close();
  await shared.close();
});
