// The Randomizers page in a real browser: type a spec, analyze it, read the
// article's numbers, see the curves, draw a seeded sample that matches the command
// line, read the fair roller's check value, and survive hostile input.
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

/** Clicks `button` (a selector) and waits for the page it submits to. */
async function clickAndWait(page, button) {
  await Promise.all([page.waitForNavigation({ waitUntil: "load" }), page.click(button)]);
}

/** Fills the form's spec and samples boxes. */
async function fillSpec(page, spec, samples) {
  await typeInto(page, "#spec", spec);
  await typeInto(page, "#samples", String(samples));
}

/** What the `fairdice` command prints for `args`. */
function cli(...args) {
  return execFileSync(FAIRDICE_BIN, args, { encoding: "utf8" });
}

test("the article's deck: method, mean entropy, outcome variance, curves", async () => {
  const page = await browser.context.newPage();
  await page.goto(`${BASE_URL}/randomizers`);
  // The empty page offers examples.
  assert.ok(await page.isVisible("text=deck(values=6, copies=1, refill_below=6)"));
  await fillSpec(page, "deck(values=6, copies=1, refill_below=6)", 25);
  await clickAndWait(page, "#analyze-button");

  assert.equal(await page.getAttribute("#summary .method", "data-method"), "exact");
  assert.match(await page.textContent("#summary .method"), /exact sweep/);
  assert.equal(await page.textContent("#summary .outcome-variance"), "0.5089");
  assert.equal(await page.textContent("#summary .mean-entropy"), "0.9020");
  // Droughts: every outcome alike, so one row.
  assert.equal(await page.locator("#droughts tbody tr").count(), 1);
  assert.match(await page.textContent("#droughts tbody tr"), /^each/);
  // Two stacked line charts, each with the randomizer's curve.
  const legends = await page.$$eval('#chart svg g[aria-label="legend"] text', (ts) =>
    ts.map((t) => t.textContent),
  );
  // (Long legend entries are cut with an ellipsis; the group keeps the name.)
  assert.equal(legends.length, 2);
  for (const entry of legends) assert.ok(entry.startsWith("deck(values=6, copies=1"), entry);
  const curves = await page.locator(
    '#chart svg g[aria-label="deck(values=6, copies=1, refill_below=6, refill=top-up)"] path',
  );
  assert.equal(await curves.count(), 2);
  const box = await page.locator("#chart svg").first().boundingBox();
  assert.ok(box.width > 300 && box.height > 300, `chart is ${box.width}×${box.height}`);
  const url = new URL(page.url());
  assert.equal(url.searchParams.get("spec"), "deck(values=6, copies=1, refill_below=6)");
  assert.equal(url.searchParams.get("samples"), "25");
  await screenshot(page, "randomizers", 1900);
  await page.close();
});

test("dynamic dice at 0.355 and Monte Carlo with standard errors", async () => {
  const page = await browser.context.newPage();
  await page.goto(`${BASE_URL}/randomizers`);
  await fillSpec(page, "dynamic(values=6, decrease=0.355)", 25);
  await clickAndWait(page, "#analyze-button");
  assert.equal(await page.textContent("#summary .outcome-variance"), "0.4590");

  await page.selectOption("#method", "monte_carlo");
  await typeInto(page, "#runs", "20000");
  await typeInto(page, "#seed", "5");
  await clickAndWait(page, "#analyze-button");
  assert.equal(await page.getAttribute("#summary .method", "data-method"), "monte_carlo");
  assert.match(await page.textContent("#summary .method"), /20000 runs, seed 5/);
  const [value, error] = (await page.textContent("#summary .outcome-variance"))
    .split("±")
    .map(Number);
  assert.ok(error > 0 && Math.abs(value - 0.459) < 5 * error, `${value} ± ${error}`);
  await page.close();
});

test("the sample button draws what `fairdice sample` draws with the same seed", async () => {
  const page = await browser.context.newPage();
  await page.goto(`${BASE_URL}/randomizers`);
  const spec = "deck(values=6, copies=1, refill_below=1)";
  await fillSpec(page, spec, 12);
  await typeInto(page, "#seed", "7");
  await clickAndWait(page, "#sample-button");

  const url = new URL(page.url());
  assert.equal(url.searchParams.get("sample"), "1");
  assert.equal(url.searchParams.get("seed"), "7");
  const drawn = await page.$$eval("#sample ol.sequence li", (lis) => lis.map((l) => l.textContent));
  const printed = cli("sample", spec, "--count", "12", "--seed", "7").trim().split(" ");
  assert.deepEqual(drawn, printed);
  assert.deepEqual(drawn, ["1", "6", "3", "2", "4", "5", "6", "4", "3", "5", "2", "1"]);

  // The same link shows the same sequence; Tetris pieces show by name.
  const again = await browser.context.newPage();
  await again.goto(url.toString());
  assert.deepEqual(
    await again.$$eval("#sample ol.sequence li", (lis) => lis.map((l) => l.textContent)),
    drawn,
  );
  await again.goto(`${BASE_URL}/randomizers?spec=tgm2&samples=10&seed=1&sample=1`);
  const pieces = await again.$$eval("#sample ol.sequence li", (lis) => lis.map((l) => l.textContent));
  assert.deepEqual(pieces, cli("sample", "tgm2", "--count", "10", "--seed", "1").trim().split(" "));
  await page.close();
  await again.close();
});

test("the fair die roller's check value after the history 2, 4, 7, 7", async () => {
  const page = await browser.context.newPage();
  await page.goto(`${BASE_URL}/randomizers`);
  await fillSpec(page, "fair(base=2d6, tightness=1)", 10);
  await typeInto(page, "#history", "2,4,7,7");
  await clickAndWait(page, "#analyze-button");
  const row = async (outcome) =>
    (await page.locator("#next tbody tr").nth(outcome - 2).innerText()).split(/\s+/);
  assert.deepEqual((await row(7)).slice(0, 2), ["7", "0.059646"]); // P(7) = 0.05965
  assert.equal(Number((await row(7))[1]).toFixed(5), "0.05965");
  assert.equal(Number((await row(2))[1]).toFixed(5), "0.01353");
  assert.equal(Number((await row(6))[1]).toFixed(5), "0.18408");
  assert.equal((await row(8))[1], (await row(6))[1]);
  await page.close();
});

test("the JSON API serves exactly what the command line prints", async () => {
  const cases = [
    ["/api/analyze?spec=tgm2&samples=12", ["analyze", "tgm2", "--samples", "12", "--json"]],
    [
      "/api/analyze?spec=prd(p%3D0.25)&samples=10&runs=3000&seed=4",
      ["analyze", "prd(p=0.25)", "--samples", "10", "--runs", "3000", "--seed", "4", "--json"],
    ],
    [
      "/api/sample?spec=tgm2&count=10&seed=1",
      ["sample", "tgm2", "--count", "10", "--seed", "1", "--json"],
    ],
    [
      "/api/next?spec=fair(base%3D2d6%2C%20tightness%3D1)&history=2,4,7,7",
      ["next", "fair(base=2d6, tightness=1)", "--history", "2,4,7,7", "--json"],
    ],
  ];
  for (const [path, args] of cases) {
    const response = await fetch(`${BASE_URL}${path}`);
    assert.equal(response.status, 200, path);
    assert.equal(await response.text(), cli(...args), path);
  }
});

test("a bad spec and a too-slow request show errors; the next request succeeds", async () => {
  const page = await browser.context.newPage();
  await page.goto(`${BASE_URL}/randomizers`);
  await fillSpec(page, "dek(values=6)", 25);
  await clickAndWait(page, "#analyze-button");
  const message = await page.textContent('.problem[data-kind="invalid_input"] pre');
  assert.match(message, /unknown randomizer `dek`; accepted: .*deck\(values=N/);
  await screenshot(page, "randomizers-error", 760);

  // A thousand samples of slowly converging dynamic dice: past the exact budget;
  // its Monte Carlo summary or its droughts run past the server's time limit.
  await fillSpec(page, "dynamic(values=6, decrease=0.9)", 1000);
  await clickAndWait(page, "#analyze-button");
  assert.match(
    await page.textContent('.problem[data-kind="timed_out"]'),
    /stopped after the time limit of 3 s.*(Try fewer samples|leave droughts out)/s,
  );

  // Over a size limit: refused before any work.
  await page.goto(`${BASE_URL}/randomizers?spec=tgm2&samples=100000`);
  assert.match(await page.textContent(".problem"), /samples must be between 1 and 1000/);

  await page.goto(`${BASE_URL}/randomizers`);
  await fillSpec(page, "prd(p=0.25)", 20);
  await clickAndWait(page, "#analyze-button");
  assert.equal(await page.locator(".problem").count(), 0);
  assert.match(await page.textContent("#summary .method"), /exact sweep/);
  await page.close();
});
