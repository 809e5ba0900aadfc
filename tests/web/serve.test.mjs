// The front page and the links the app has given: `/` and `/?expr=…` open the
// Dice page with the inputs; served by `fairdice serve` (FAIRDICE_SERVE set), the
// links of the old server-rendered pages (`/dice?expr=…`) open the same pages, and
// its API answers with the document the pages compute in the browser.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { cliJson, downloadedJson, launch, settled, SITE_URL } from "./support.mjs";

const SERVE = Boolean(process.env.FAIRDICE_SERVE);
const ON_SERVER = Boolean(process.env.FAIRDICE_ON_SERVER);
let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test("the front page is the Dice page, and keeps a link's inputs", async () => {
  const page = await browser.page("?expr=4d6kh3&expr=3d6");
  await page.waitForURL(/dice\.html\?expr=4d6kh3&expr=3d6$/);
  await settled(page);
  assert.match(await page.textContent("#summary"), /15869\/1296/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("old links of the server-rendered pages open the same pages", { skip: !SERVE }, async () => {
  const page = await browser.page("dice?expr=4d6kh3&mode=at_least");
  await settled(page);
  assert.ok(await page.isChecked("#mode-at_least"));
  assert.match(await page.textContent("#summary"), /15869\/1296/);
  const printed = cliJson("dist", "4d6kh3");
  assert.deepEqual(await downloadedJson(page, "JSON for 4d6kh3"), printed);
  // The server's API gives the same document the page computed.
  const served = await (await fetch(`${SITE_URL}/api/dist?expr=4d6kh3`)).json();
  assert.deepEqual(served, printed);
  for (const path of ["contest?a=3d6&b=2d6&ties=b-wins", "risk?attacker=3&defender=2", "tune?values=6&samples=25", "seats?example=sevens-1v1&spec=dice(base%3D2d6)&samples=20"]) {
    await page.goto(`${SITE_URL}/${path}`);
    await settled(page);
    assert.equal(await page.locator(".problem").count(), 0, path);
  }
  // The Seats page's document, as the server's API answers the same request.
  const game = JSON.parse(await (await fetch(`${SITE_URL}/games/sevens-1v1.json`)).text());
  const request = { game, spec: "dice(base=2d6)", samples: 20 };
  const posted = await (await fetch(`${SITE_URL}/api/seats`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(request) })).json();
  assert.deepEqual(posted, await downloadedJson(page));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("served with no WebAssembly module, the pages compute on the server and say so", { skip: !ON_SERVER }, async () => {
  const page = await browser.page("contest.html?a=3d6&b=2d6&ties=b-wins");
  await settled(page);
  assert.match(await page.textContent("footer.site"), /computed exactly by the fairdice server/);
  const shown = await downloadedJson(page);
  assert.deepEqual(shown, cliJson("contest", "3d6", "2d6", "--ties", "b-wins"));
  // The module is not there, and the page asked for it only once.
  assert.equal((await fetch(`${SITE_URL}/wasm/fairdice_wasm_bg.wasm`)).status, 404);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("a static copy published without the module says so, naming what to publish", { skip: SERVE }, async () => {
  const page = await browser.page();
  await page.route("**/wasm/fairdice_wasm_bg.wasm", (route) => route.fulfill({ status: 404, body: "not found" }));
  await page.goto(`${SITE_URL}/dice.html?expr=3d6`);
  await page.waitForFunction(() => document.documentElement.hasAttribute("data-ready"));
  await settled(page);
  const problem = await page.textContent(".problem");
  assert.match(problem, /no WebAssembly module \(wasm\/\) and no fairdice server behind it/);
  assert.doesNotMatch(problem, /restarted its worker/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

