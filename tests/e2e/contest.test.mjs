// The Contest page in a real browser: type two pools, choose the rules, submit,
// read the measures of Isaksen et al. (2016) and Risk's one roll, see the chart,
// and compare the API with the command line.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { BASE_URL, FAIRDICE_BIN, launch, screenshot, submit, typeInto } from "./support.mjs";

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Fills in the contest form and submits it. */
async function contest(page, a, b, pairing, ties) {
  await typeInto(page, "#pool-a", a);
  await typeInto(page, "#pool-b", b);
  // Choosing a rule resubmits the form at once (app.js); the pools go with it.
  for (const id of [`#pairing-${pairing}`, `#ties-${ties}`]) {
    if (!(await page.isChecked(id))) {
      await Promise.all([page.waitForNavigation({ waitUntil: "load" }), page.check(id)]);
    }
  }
  await submit(page, "#contest-form");
}

test("5d6 against 4d6+1d8, sorted, A wins ties: Isaksen's 7.1 row, chart and table", async () => {
  const page = await browser.context.newPage();
  await page.goto(`${BASE_URL}/contest`);
  // Isaksen et al. table 7.1: "4d6/1d8", win bias 24.36, tie % 0.00, closeness 0.294.
  await contest(page, "5d6", "4d6+1d8", "sorted", "a-wins");

  assert.equal(await page.textContent("#win-bias"), "24.36");
  assert.equal(await page.textContent("#tie-percent"), "0.00");
  assert.equal(await page.textContent("#closeness"), "0.294");
  assert.match(await page.textContent(".setup"), /5 dice against 5 dice, 5 pairs per roll/);
  // The odds add up: P(tie) is exactly 0 when A wins ties.
  assert.equal(await page.textContent("#p-tie"), "0");
  // A rendered chart: no pair ties, so the net score of 5 pairs is odd, −5 to +5.
  const bars = await page.$$eval("#chart svg rect > title", (ts) => ts.map((t) => t.textContent));
  assert.equal(bars.length, 6);
  assert.ok(bars.every((t) => t.startsWith("5d6 vs 4d6+1d8, ")));
  const box = await page.locator("#chart svg").boundingBox();
  assert.ok(box.width > 300 && box.height > 150, `chart is ${box.width}×${box.height}`);
  const scores = await page.$$eval("#net tbody th", (ths) => ths.map((th) => th.textContent));
  assert.deepEqual(scores, ["-5", "-3", "-1", "+1", "+3", "+5"]);

  const url = new URL(page.url());
  assert.equal(url.pathname, "/contest");
  assert.equal(url.searchParams.get("a"), "5d6");
  assert.equal(url.searchParams.get("b"), "4d6+1d8");
  assert.equal(url.searchParams.get("ties"), "a-wins");
  await page.close();
});

test("Risk's one roll as a contest: 2890, 2611 and 2275 of 7776", async () => {
  const page = await browser.context.newPage();
  await page.goto(`${BASE_URL}/contest`);
  await contest(page, "3d6", "2d6", "sorted", "b-wins");

  assert.equal(await page.textContent("#p-a-wins"), "1445/3888"); // 2890/7776
  assert.equal(await page.textContent("#p-tie"), "2611/7776");
  assert.equal(await page.textContent("#p-b-wins"), "2275/7776");
  const rows = await page.$$eval("#net tbody tr", (trs) => trs.map((tr) => tr.innerText));
  assert.equal(rows.length, 3);
  assert.match(rows[0], /^-2\s+2275\s+29\.257%/);
  assert.match(rows[2], /\+2\s+2890\s+37\.166%/);
  assert.match(await page.textContent("#total"), /exact: 7776 equally likely rolls/);
  await screenshot(page, "contest", 1640);
  await page.close();
});

test("/api/contest equals `fairdice contest --json`", async () => {
  const query = new URLSearchParams({ a: "5d6", b: "3d6+1d8+1d10", pairing: "unsorted", ties: "a-wins" });
  const response = await fetch(`${BASE_URL}/api/contest?${query}`);
  assert.equal(response.status, 200);
  const served = await response.text();
  const printed = execFileSync(
    FAIRDICE_BIN,
    ["contest", "5d6", "3d6+1d8+1d10", "--pairing", "unsorted", "--ties", "a-wins", "--json"],
    { encoding: "utf8" },
  );
  assert.equal(served, printed);
  // Isaksen et al. table 7.2: "3d6/1d8/1d10", win bias 2.97.
  assert.equal(JSON.parse(served).win_bias.toFixed(2), "2.97");
});

test("a malformed pool and a huge contest show errors; the next request succeeds", async () => {
  const page = await browser.context.newPage();
  await page.goto(`${BASE_URL}/contest`);

  await contest(page, "5d6", "4d6kh3", "sorted", "stand");
  const rendered = await page.textContent('.problem[data-kind="not_a_pool"] pre');
  const cli = (() => {
    try {
      execFileSync(FAIRDICE_BIN, ["contest", "5d6", "4d6kh3"], { encoding: "utf8", stdio: "pipe" });
    } catch (failure) {
      return failure.stderr;
    }
  })();
  assert.equal(`error: ${rendered}\n`, cli);
  assert.match(rendered, /^in pool B:\n4d6kh3\n {3}\^\^\^ keeping, dropping or counting dice/);
  assert.equal(await page.inputValue("#pool-b"), "4d6kh3");

  await contest(page, "30d6+30d8", "30d6+30d8", "sorted", "stand");
  const tooBig = await page.textContent('.problem[data-kind="too_big"]');
  assert.match(tooBig, /too large to compute exactly: it would take about [0-9.e]+ steps/);
  // The page offers a Monte Carlo estimate instead (as many rolls as stay quick);
  // following it gives numbers with their standard errors, and the URL keeps the
  // runs and the seed.
  await Promise.all([page.waitForURL(/runs=50000/), page.click("text=Estimate with 50,000 rolls")]);
  assert.match(await page.textContent("#method"), /Monte Carlo estimate from 50,000 seeded rolls \(seed 1\)/);
  assert.match(await page.textContent("#win-bias"), /^-?0\.\d\d ± 0\.\d\d$/);
  assert.equal(await page.locator("#chart svg").count(), 1);
  assert.equal(new URL(page.url()).searchParams.get("seed"), "1");

  await contest(page, "3d6", "3d6", "sorted", "stand");
  assert.equal(await page.locator(".problem").count(), 0);
  // Isaksen et al. table 3.1: 3d6, tie % 13.91, closeness 0.504.
  assert.equal(await page.textContent("#tie-percent"), "13.91");
  assert.equal(await page.textContent("#closeness"), "0.504");
  await page.close();
});
