// The static Contest page in a real browser: two pools and the rules typed in,
// the measures of Isaksen et al. (2016) and Risk's one roll as `fairdice contest
// --json` gives them, the net score chart, keyboard choice of the tie rule, and
// hostile pools refused with the command line's message.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { barTips, cancelAfter, cliJson, cliRendering, downloadedCsv, downloadedJson, launch, screenshot, settled, submit, typeInto } from "./support.mjs";

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Types both pools, picks the rules and compares. */
async function contest(page, a, b, pairing, ties) {
  await typeInto(page, "#pool-a", a);
  await typeInto(page, "#pool-b", b);
  // (A radio button recomputes at once; the submit below shows the final answer.)
  await page.check(`#pairing-${pairing}`);
  await page.check(`#ties-${ties}`);
  await submit(page);
}

test("5d6 against 4d6+1d8, A wins ties: Isaksen's 7.1 row, equal to `fairdice contest --json`", async () => {
  const page = await browser.page("contest.html");
  await contest(page, "5d6", "4d6+1d8", "sorted", "a-wins");
  const printed = cliJson("contest", "5d6", "4d6+1d8", "--ties", "a-wins");
  assert.deepEqual(await downloadedJson(page), printed);
  // Isaksen et al. table 7.1: win bias 24.36, tie % 0.00, closeness 0.294.
  assert.equal(await page.textContent("#win-bias"), "24.36");
  assert.equal(await page.textContent("#tie-percent"), "0.00");
  assert.equal(await page.textContent("#closeness"), "0.294");
  assert.equal(await page.textContent("#p-a-wins"), printed.p_a_wins_exact);
  assert.match(await page.textContent(".setup"), /5 dice against 5 dice, 5 pairs per roll/);
  const tips = await barTips(page);
  assert.equal(tips.length, 6);
  assert.ok(tips.every((t) => t.startsWith("5d6 vs 4d6+1d8, ")));
  const scores = await page.$$eval("#net tbody th", (ths) => ths.map((th) => th.textContent));
  assert.deepEqual(scores, ["-5", "-3", "-1", "+1", "+3", "+5"]);
  const csv = await downloadedCsv(page, "net");
  assert.deepEqual(csv.slice(1).map((r) => r[1]), printed.net.map((n) => n.count));
  const url = new URL(page.url());
  assert.deepEqual(Object.fromEntries(url.searchParams), { a: "5d6", b: "4d6+1d8", pairing: "sorted", ties: "a-wins" });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("Risk's one roll as a contest, the tie rule chosen by keyboard", async () => {
  const page = await browser.page("contest.html?a=3d6&b=2d6");
  await settled(page);
  await page.evaluate(() => (window.stillHere = true));
  await page.focus("#ties-stand");
  // stand → a-wins → b-wins, each recomputed in place.
  await page.keyboard.press("ArrowDown");
  await page.waitForURL(/ties=a-wins/);
  await settled(page);
  await page.keyboard.press("ArrowDown");
  await page.waitForURL(/ties=b-wins/);
  await settled(page);
  assert.equal(await page.evaluate(() => window.stillHere), true, "the page was not reloaded");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "ties-b-wins");
  assert.equal(await page.textContent("#p-a-wins"), "1445/3888"); // 2890/7776
  assert.equal(await page.textContent("#p-tie"), "2611/7776");
  assert.equal(await page.textContent("#p-b-wins"), "2275/7776");
  assert.match(await page.textContent("#total"), /exact: 7776 equally likely rolls/);
  assert.deepEqual(await downloadedJson(page), cliJson("contest", "3d6", "2d6", "--ties", "b-wins"));
  await screenshot(page, "contest", 1700);
  await page.close();
});

test("hostile pools are refused with the command line's message; the estimate offered finishes", async () => {
  const page = await browser.page("contest.html");
  await contest(page, "5d6", "4d6kh3", "sorted", "stand");
  const rendered = await page.textContent('.problem[data-kind="not_a_pool"] pre');
  assert.equal(rendered, cliRendering("contest", "5d6", "4d6kh3"));
  assert.equal(await page.inputValue("#pool-b"), "4d6kh3");

  await contest(page, "60d6+60d8", "60d6+60d8", "sorted", "stand");
  assert.match(await page.textContent('.problem[data-kind="too_big"]'), /too large to compute exactly/);
  const offer = page.locator(".offer-button");
  const label = await offer.textContent();
  const runs = /Estimate with ([\d,]+) rolls/.exec(label)[1].replaceAll(",", "");
  await offer.click();
  await settled(page);
  assert.equal(new URL(page.url()).searchParams.get("runs"), runs);
  assert.match(await page.textContent("#method"), /Monte Carlo estimate from [\d,]+ seeded rolls \(seed 1\)/);
  assert.match(await page.textContent("#win-bias"), /^-?\d+\.\d\d ± \d+\.\d\d$/);
  assert.deepEqual(await downloadedJson(page), cliJson("contest", "60d6+60d8", "60d6+60d8", "--runs", runs));

  // Back to exact computing: a contest of seconds (0.84 s natively, about three times
  // that in WebAssembly) is cancelled at once.
  await page.click("#exact-instead");
  await settled(page);
  await typeInto(page, "#pool-a", "30d6+30d8");
  await typeInto(page, "#pool-b", "30d6+30d8");
  await cancelAfter(page);

  assert.equal(new URL(page.url()).searchParams.get("runs"), null);
  await contest(page, "3d6", "3d6", "sorted", "stand");
  assert.equal(await page.locator(".problem").count(), 0);
  // Isaksen et al. table 3.1: 3d6, tie % 13.91, closeness 0.504.
  assert.equal(await page.textContent("#tie-percent"), "13.91");
  assert.equal(await page.textContent("#closeness"), "0.504");
  assert.deepEqual(page.errors, []);
  await page.close();
});
