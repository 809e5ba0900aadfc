// The static Risk page in a real browser: armies typed in, the exact odds, the
// one-roll table and the armies left as `fairdice risk --json` gives them, the
// survivors chart and the heat map, a Monte Carlo beside the exact answer, a long
// fraction folded, and a battle too large refused while the next one is fought.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { barTips, cancelAfter, cliJson, downloadedJson, launch, screenshot, settled, submit, typeInto } from "./support.mjs";

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function fight(page, attacker, defender, rule = "simple") {
  await typeInto(page, "#attacker", String(attacker));
  await typeInto(page, "#defender", String(defender));
  await page.check(`#rule-${rule}`);
  await submit(page);
}

test("5 against 5, official rule: the exact odds, tables and charts of `fairdice risk --json`", async () => {
  const page = await browser.page("risk.html");
  await fight(page, 5, 5, "official");
  const printed = cliJson("risk", "5", "5", "--rule", "official", "--per-roll", "--table", "20");
  assert.deepEqual(await downloadedJson(page), printed);
  assert.equal(await page.textContent("#p-attacker"), printed.p_attacker_wins.toFixed(6));
  assert.equal(await page.textContent("#p-attacker-exact"), "1311121206180325/3656158440062976");
  const three = await page.$$eval("#per-roll tbody tr", (trs) =>
    trs.map((tr) => [...tr.children].map((c) => c.textContent)).filter((c) => c[0] === "3" && c[1] === "2"),
  );
  assert.deepEqual(three.map((c) => [c[4], c[5]]), [["2890", "7776"], ["2611", "7776"], ["2275", "7776"]]);
  assert.deepEqual(three.map((c) => c[6]), ["37.166%", "33.578%", "29.257%"]);
  assert.ok((await barTips(page, "#survivors-chart")).includes("attacker wins with, 4: 12.377%"));
  assert.equal(await page.locator('#heat-map svg g[aria-label="cells"] rect').count(), 400);
  const box = await page.locator("#heat-map svg").boundingBox();
  assert.ok(box.width > 300 && box.height > 150, `heat map is ${box.width}×${box.height}`);
  assert.deepEqual(page.errors, []);
  await screenshot(page, "risk", 2100);
  await page.close();
});

test("100 against 100: the 879-character fraction is folded, one click from whole", async () => {
  const page = await browser.page("risk.html?attacker=100&defender=100");
  await settled(page);
  assert.equal(await page.textContent("#p-attacker"), "0.824363");
  assert.equal(await page.isVisible("#p-attacker-exact"), false);
  await page.click("details.fraction summary");
  const fraction = await page.textContent("#p-attacker-exact");
  assert.equal(fraction, cliJson("risk", "100", "100").p_attacker_wins_exact);
  assert.equal(fraction.length, 879);
  await page.close();
});

test("a seeded Monte Carlo beside the exact odds, as `fairdice risk --runs --seed`; old links' `simulate` still read", async () => {
  const page = await browser.page("risk.html");
  await typeInto(page, "#runs", "20000");
  await typeInto(page, "#seed", "7");
  await fight(page, 10, 10);
  const url = new URL(page.url());
  assert.equal(url.searchParams.get("runs"), "20000");
  assert.equal(url.searchParams.get("seed"), "7");
  const printed = cliJson("risk", "10", "10", "--runs", "20000", "--seed", "7", "--per-roll", "--table", "20");
  assert.deepEqual(await downloadedJson(page), printed);
  const sentence = await page.textContent("#simulation");
  assert.ok(sentence.includes(`the attacker won ${printed.simulation.attacker_wins} = ${printed.simulation.p_attacker_wins.toFixed(6)}`), sentence);
  await page.goto(`${url.origin}${url.pathname}?attacker=10&defender=10&simulate=20000&seed=7`);
  await settled(page);
  assert.equal(await page.textContent("#simulation"), sentence);
  assert.equal(await page.inputValue("#runs"), "20000");
  await page.close();
});

test("1000 against 1000 in floating point, and a battle too large refused; the next is fought", async () => {
  const page = await browser.page("risk.html?attacker=1000&defender=1000");
  await settled(page);
  assert.equal(await page.textContent("#p-attacker"), cliJson("risk", "1000", "1000").p_attacker_wins.toFixed(6));
  assert.match(await page.textContent("#odds"), /solved in floating point: an exact answer needs more than 90000 states/);

  // 5000 against 5000 in floating point: seconds of work (2.6 s natively), cancelled at once.
  await typeInto(page, "#attacker", "5000");
  await typeInto(page, "#defender", "5000");
  await cancelAfter(page, 400);

  await fight(page, 100000, 100000);
  const refused = await page.textContent(".problem");
  assert.match(refused, /100000/);
  assert.equal(await page.inputValue("#attacker"), "100000");
  await page.goto(`${page.url().split("?")[0]}?attacker=x&defender=3`);
  assert.match(await page.textContent('.problem[data-kind="bad_request"]'), /attacker must be a whole number/);

  await fight(page, 3, 2);
  assert.equal(await page.locator(".problem").count(), 0);
  assert.equal(await page.textContent("#p-attacker"), cliJson("risk", "3", "2").p_attacker_wins.toFixed(6));
  assert.deepEqual(page.errors, []);
  await page.close();
});
