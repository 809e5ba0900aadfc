// The Tuner page in a real browser: the article's search (6 outcomes, 25 samples,
// mean entropy ≥ 0.9) gives its table and the winners' curves; an uncertain match
// length changes the verdict; the API prints what `fairdice tune --json` prints;
// a bad match length shows an error and the next search succeeds.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { BASE_URL, FAIRDICE_BIN, launch, screenshot, typeInto } from "./support.mjs";

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Submits the tuner form and waits for the result page. */
async function search(page) {
  await Promise.all([
    page.waitForNavigation({ waitUntil: "load" }),
    page.click('#tune-form button[type="submit"]'),
  ]);
}

/** The cells of the result row of `system`. */
async function row(page, system) {
  const cells = await page.$$eval(`#tune-results tr[data-system="${system}"] > *`, (cs) =>
    cs.map((c) => c.textContent),
  );
  const [name, params, entropy, variance, qualified, method] = cells;
  return { name, params, entropy, variance, qualified, method };
}

test("the article's table: deck (1, 6) → 0.5089, dynamic 0.355 → 0.4590", async () => {
  const page = await browser.context.newPage();
  await page.goto(`${BASE_URL}/tune`);
  await typeInto(page, "#values", "6");
  await typeInto(page, "#samples", "25");
  await typeInto(page, "#min-entropy", "0.9");
  assert.ok(await page.isChecked("#system-deck"));
  assert.ok(await page.isChecked("#system-dynamic"));
  await search(page);

  assert.deepEqual(await row(page, "deck"), {
    name: "deck",
    params: "copies=1, refill_below=6",
    entropy: "0.9020",
    variance: "0.5089",
    qualified: "87/100",
    method: "exact",
  });
  const dynamic = await row(page, "dynamic");
  assert.equal(dynamic.params, "decrease=0.355");
  assert.equal(dynamic.variance, "0.4590");
  assert.equal(dynamic.qualified, "65/100");
  assert.match(await page.textContent("#fairest"), /Fairest: dynamic \(decrease=0\.355\), outcome variance 0\.46 — plain dice: 3\.47/);

  // The winners' curves, as `fairdice tune --plot` draws them: two panels.
  const legends = await page.$$eval('#chart svg g[aria-label="legend"] text', (ts) =>
    ts.map((t) => t.textContent),
  );
  assert.deepEqual(legends, [
    "deck (copies=1, refill_below=6)",
    "dynamic (decrease=0.355)",
    "deck (copies=1, refill_below=6)",
    "dynamic (decrease=0.355)",
  ]);
  assert.equal(await page.locator('#chart svg g[aria-label="dynamic (decrease=0.355)"] path').count(), 2);
  const box = await page.locator("#chart svg").first().boundingBox();
  assert.ok(box.width > 300 && box.height > 300, `chart is ${box.width}×${box.height}`);
  await screenshot(page, "tune", 1900);
  await page.close();
});

test("an uncertain match length: 4 outcomes over 20..40 samples", async () => {
  const page = await browser.context.newPage();
  await page.goto(`${BASE_URL}/tune`);
  await typeInto(page, "#values", "4");
  await typeInto(page, "#samples", "30");
  await search(page);
  // Exactly 30 samples: the deck of 8 copies (32 cards) wins.
  assert.equal((await row(page, "deck")).params, "copies=8, refill_below=1");
  assert.equal((await row(page, "deck")).variance, "0.3629");
  assert.match(await page.textContent("#fairest"), /Fairest: deck/);

  await typeInto(page, "#samples", "20..40");
  await search(page);
  assert.match(await page.textContent("#tune-results caption"), /20\.\.40 samples \(expected/);
  assert.match(await page.textContent("#fairest"), /Fairest: dynamic/);
  assert.equal(new URL(page.url()).searchParams.get("samples"), "20..40");
  await page.close();
});

test("/api/tune equals `fairdice tune --json`", async () => {
  const cases = [
    [
      "/api/tune?values=6&samples=25&min_entropy=0.9",
      ["tune", "--values", "6", "--samples", "25", "--min-entropy", "0.9", "--json"],
    ],
    [
      "/api/tune?values=4&samples=20%3A1%2C30%3A2%2C40%3A1&systems=deck,dynamic,bag&all=1",
      ["tune", "--values", "4", "--samples", "20:1,30:2,40:1", "--systems", "deck,dynamic,bag", "--all", "--json"],
    ],
  ];
  for (const [path, args] of cases) {
    const response = await fetch(`${BASE_URL}${path}`);
    assert.equal(response.status, 200, path);
    const printed = execFileSync(FAIRDICE_BIN, args, { encoding: "utf8" });
    assert.equal(await response.text(), printed, path);
  }
});

test("a bad match length and an unknown grid show errors; the next search succeeds", async () => {
  const page = await browser.context.newPage();
  await page.goto(`${BASE_URL}/tune`);
  await typeInto(page, "#values", "6");
  await typeInto(page, "#samples", "20..x");
  await search(page);
  assert.match(await page.textContent('.problem[data-kind="invalid_input"]'), /samples 20\.\.x/);

  await typeInto(page, "#samples", "25");
  await typeInto(page, "#grid", "dynamo(decrease=0.3)");
  await search(page);
  assert.match(await page.textContent('.problem[data-kind="invalid_input"]'), /not a tunable system; accepted/);

  await typeInto(page, "#grid", "dynamic(decrease=0.30..0.40 step 0.005)");
  await search(page);
  assert.equal(await page.locator(".problem").count(), 0);
  // A finer grid finds a fairer dynamic dice than the article's 0.355.
  assert.equal((await row(page, "dynamic")).params, "decrease=0.35");
  await page.close();
});
