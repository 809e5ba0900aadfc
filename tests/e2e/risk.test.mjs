// The Risk page in a real browser: type armies, choose the rule, submit, read the
// exact odds as the command line prints them, the one-roll table, the survivors
// chart and the heat map; a battle over the limits is refused, and the next one
// is served.
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

/** Fills in the armies (and the rule) and submits the form. */
async function fight(page, attacker, defender, rule = "simple") {
  await typeInto(page, "#attacker", String(attacker));
  await typeInto(page, "#defender", String(defender));
  if (!(await page.isChecked(`#rule-${rule}`))) {
    // Choosing a rule resubmits the form at once (app.js).
    await Promise.all([page.waitForNavigation({ waitUntil: "load" }), page.check(`#rule-${rule}`)]);
  }
  await submit(page, "#risk-form");
}

test("5 against 5, official rule: the exact odds as `fairdice risk` prints them", async () => {
  const page = await browser.context.newPage();
  await page.goto(`${BASE_URL}/risk`);
  await fight(page, 5, 5, "official");

  const printed = execFileSync(FAIRDICE_BIN, ["risk", "5", "5", "--rule", "official"], {
    encoding: "utf8",
  });
  const [, decimal, fraction] = printed.match(/P\(attacker wins\) = ([0-9.]+) = ([0-9]+\/[0-9]+) exactly/);
  assert.equal(await page.textContent("#p-attacker"), decimal);
  assert.equal(await page.textContent("#p-attacker-exact"), fraction);
  assert.equal(fraction, "1311121206180325/3656158440062976");
  assert.match(printed, new RegExp(`Expected losses: ${await page.textContent("#losses")}`));

  // The one-roll table: 3 dice against 2, out of 7776.
  const three = await page.$$eval("#per-roll tbody tr", (trs) =>
    trs.map((tr) => tr.innerText.split(/\s+/)).filter((cells) => cells[0] === "3" && cells[1] === "2"),
  );
  assert.deepEqual(
    three.map((cells) => [cells[4], cells[5]]),
    [
      ["2890", "7776"],
      ["2611", "7776"],
      ["2275", "7776"],
    ],
  );

  // Both charts rendered: the survivors' bars and a 20 × 20 heat map.
  const bars = await page.$$eval("#survivors-chart svg rect > title", (ts) => ts.map((t) => t.textContent));
  assert.ok(bars.includes("attacker wins with, 4: 12.377%"), bars.join("\n"));
  const cells = await page.locator('#heat-map svg g[aria-label="cells"] rect').count();
  assert.equal(cells, 400);
  const box = await page.locator("#heat-map svg").boundingBox();
  assert.ok(box.width > 300 && box.height > 150, `heat map is ${box.width}×${box.height}`);
  await screenshot(page, "risk", 2000);
  await page.close();
});

test("a long exact fraction is folded, and opens whole", async () => {
  const page = await browser.context.newPage();
  await page.goto(`${BASE_URL}/risk?attacker=100&defender=100`);
  assert.equal(await page.textContent("#p-attacker"), "0.824363");
  assert.equal(await page.isVisible("#p-attacker-exact"), false);
  await page.click("details.fraction summary");
  assert.equal(await page.isVisible("#p-attacker-exact"), true);
  const fraction = await page.textContent("#p-attacker-exact");
  const json = JSON.parse(
    execFileSync(FAIRDICE_BIN, ["risk", "100", "100", "--json"], { encoding: "utf8" }),
  );
  assert.equal(fraction, json.p_attacker_wins_exact);
  assert.equal(fraction.length, 879);
  await page.close();
});

test("a Monte Carlo simulation beside the exact odds, as `fairdice risk --simulate --seed`", async () => {
  const page = await browser.context.newPage();
  await page.goto(`${BASE_URL}/risk`);
  await typeInto(page, "#simulate", "20000");
  await typeInto(page, "#seed", "7");
  await fight(page, 10, 10);

  const url = new URL(page.url());
  assert.equal(url.searchParams.get("simulate"), "20000");
  assert.equal(url.searchParams.get("seed"), "7");
  const printed = JSON.parse(
    execFileSync(FAIRDICE_BIN, ["risk", "10", "10", "--simulate", "20000", "--seed", "7", "--json"], {
      encoding: "utf8",
    }),
  );
  const sentence = await page.textContent("#simulation");
  assert.ok(sentence.includes(`the attacker won ${printed.simulation.attacker_wins} = `), sentence);
  assert.ok(sentence.includes(printed.simulation.p_attacker_wins.toFixed(6)), sentence);
  await page.close();
});

test("/api/risk equals `fairdice risk --per-roll --json`", async () => {
  const response = await fetch(`${BASE_URL}/api/risk?attacker=3&defender=2&per_roll=1`);
  assert.equal(response.status, 200);
  const served = await response.text();
  const printed = execFileSync(FAIRDICE_BIN, ["risk", "3", "2", "--per-roll", "--json"], {
    encoding: "utf8",
  });
  assert.equal(served, printed);
});

test("a battle over the limits is refused; the next one is served", async () => {
  const page = await browser.context.newPage();
  await page.goto(`${BASE_URL}/risk`);
  await fight(page, 100000, 100000);
  const refused = await page.textContent('.problem[data-kind="refused"]');
  assert.match(refused, /a battle of 100000 against 100000 armies has 10000000000 states/);
  assert.equal(await page.inputValue("#attacker"), "100000");

  await fight(page, 3, 2);
  assert.equal(await page.locator(".problem").count(), 0);
  const printed = execFileSync(FAIRDICE_BIN, ["risk", "3", "2"], { encoding: "utf8" });
  const [, decimal] = printed.match(/P\(attacker wins\) = ([0-9.]+)/);
  assert.equal(await page.textContent("#p-attacker"), decimal);
  await page.close();
});
