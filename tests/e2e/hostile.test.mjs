// Hostile input: a huge expression and a malformed one get error messages on the
// page — the same text and caret as the command line — and the server keeps serving.
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

test("huge and malformed expressions show errors; the next request succeeds", async () => {
  const page = await browser.context.newPage();
  await page.goto(`${BASE_URL}/dice`);

  await typeInto(page, "#expr-1", "1000000d1000000");
  await submit(page);
  const tooBig = await page.textContent('.problem[data-kind="too_big"]');
  assert.match(tooBig, /too large/);
  // The offered estimate is sized to finish within the time limit: following it
  // shows an estimate, not another error.
  await Promise.all([page.waitForURL(/runs=20/), page.click("text=Estimate with 20 rolls")]);
  assert.equal(await page.locator(".problem").count(), 0);
  assert.match(await page.textContent("#results"), /Monte Carlo/);
  await page.goto(`${BASE_URL}/dice`);

  await typeInto(page, "#expr-1", "4d6kh3y");
  await submit(page);
  const rendered = await page.textContent('.problem[data-kind="parse"] pre');
  assert.equal(
    rendered,
    "4d6kh3y\n      ^ unexpected `y`; expected a modifier, an operator or end of input",
  );
  await screenshot(page, "dice-error", 760);

  await typeInto(page, "#expr-1", "3d6");
  await submit(page);
  assert.equal(await page.locator(".problem").count(), 0);
  assert.match(await page.textContent("#summary"), /10\.5000/);
  await page.close();
});

test("a computation stopped by the time limit does not block other requests", async () => {
  const slow = await browser.context.newPage();
  const quick = await browser.context.newPage();
  // Within the exact budget (2.0e9 steps) and the page's 100,000 rows, but
  // several seconds of work (about 6 s of CPU for the exact 45d2200, 96,757
  // outcomes): clearly longer than the 3 s time limit scripts/e2e.sh gives the
  // server.
  let slowFinished = false;
  const slowDone = slow
    .goto(`${BASE_URL}/dice?expr=45d2200`, { timeout: 30_000 })
    .then(() => (slowFinished = true));
  await new Promise((resolve) => setTimeout(resolve, 100));
  await quick.goto(`${BASE_URL}/dice?expr=2d6`);
  assert.match(await quick.textContent("#summary"), /7\.0000/);
  assert.equal(slowFinished, false, "the quick page was served while the slow one ran");
  await slowDone;
  assert.match(await slow.textContent(".problem"), /stopped after the time limit of 3 s/);
  await slow.close();
  await quick.close();
});
