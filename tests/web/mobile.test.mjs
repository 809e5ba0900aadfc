// Every page on a 375 px wide phone and at two other widths: no sideways
// scrolling, charts drawn at the screen's width with every outcome on screen,
// the numbers a result table exists for on screen without scrolling it sideways,
// inputs of a row aligned however their labels wrap, long errors wrapped inside
// their box; screenshots of each page at 375 px.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { launch, screenshot, settled } from "./support.mjs";

const PHONE = { width: 375, height: 812 };
const PAGES = [
  ["dice", "dice.html?expr=4d6kh3&expr=3d6&expr=100d6&mode=at_least"],
  ["contest", "contest.html?a=5d6&b=3d6%2B1d8%2B1d10&pairing=unsorted&ties=a-wins"],
  ["risk", "risk.html?attacker=10&defender=10&rule=official&runs=20000&seed=7"],
  ["randomizers", "randomizers.html?spec=deck(values%3D6%2C+copies%3D1%2C+refill_below%3D6)&samples=25&sample=1&history=1,2"],
  ["seats", "seats.html?example=catan-beginner&spec=dice(base%3D2d6)&samples=20&droughts=off"],
  ["tune", "tune.html?values=6&samples=20..40&min_entropy=0.9"],
];

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Sideways overflow of the page, and of each chart and error box. */
async function layout(page) {
  return page.evaluate(() => ({
    pageWidth: document.documentElement.scrollWidth,
    viewport: document.documentElement.clientWidth,
    charts: [...document.querySelectorAll("figure.chart > svg")].map((svg) => {
      const box = svg.getBoundingClientRect();
      return { left: box.left, right: box.right, drawn: Number(svg.getAttribute("width")), shown: box.width };
    }),
    errors: [...document.querySelectorAll(".problem pre")].map((pre) => pre.scrollWidth - pre.clientWidth),
  }));
}

/** Fields laid out side by side whose inputs are not on one line. */
async function misaligned(page) {
  return page.evaluate(() => {
    const rows = new Map();
    for (const field of document.querySelectorAll("form.query .field")) {
      const input = field.querySelector("input, select");
      if (!input || field.offsetParent === null) continue;
      const top = Math.round(field.getBoundingClientRect().top);
      rows.set(top, [...(rows.get(top) ?? []), Math.round(input.getBoundingClientRect().top)]);
    }
    return [...rows.values()].filter((tops) => Math.max(...tops) - Math.min(...tops) > 2);
  });
}

for (const [name, path] of PAGES) {
  test(`${name} on a 375 px phone: nothing hidden sideways, charts at the screen's width`, async () => {
    const page = await browser.page(path, PHONE);
    await settled(page);
    assert.equal(await page.locator(".problem").count(), 0, await page.textContent("#results"));
    const seen = await layout(page);
    assert.ok(seen.pageWidth <= seen.viewport, `the page is ${seen.pageWidth} px wide`);
    assert.ok(seen.charts.length > 0, "a chart is drawn");
    for (const chart of seen.charts) {
      assert.ok(chart.left >= 0 && chart.right <= PHONE.width, `a chart spans ${chart.left}..${chart.right}`);
      // Drawn for this width, not a wide chart shrunk: its labels keep their size.
      assert.ok(chart.shown / chart.drawn > 0.9, `a chart drawn ${chart.drawn} px wide is shown ${chart.shown} px wide`);
    }
    assert.deepEqual(await misaligned(page), []);
    const ids = await page.$$eval("[id]", (nodes) => nodes.map((n) => n.id));
    assert.deepEqual(ids.filter((id, i) => ids.indexOf(id) !== i), [], "ids are unique");
    assert.deepEqual(page.errors, []);
    await screenshot(page, `${name}-375`, 2400);
    await page.close();
  });
}

/**
 * The key numbers of the wide result tables, by page: each cell matched must be
 * shown whole on a phone's screen, the table not scrolled sideways.
 */
const KEY_CELLS = [
  [
    "tune",
    PAGES.find(([name]) => name === "tune")[1],
    ["#tune-results .params", "#tune-results .mean-entropy", "#tune-results .outcome-variance", "#tune-results .base-deviation"],
  ],
  [
    "tune between players",
    "tune.html?base=2d6&samples=20&systems=dice&grid=fair(tightness%3D0..2+step+0.5%2C+seats%3D2)&game=sevens-1v1",
    ["#tune-results .params", "#tune-results .mean-entropy", "#tune-results .base-deviation", "#tune-results .seat-spread"],
  ],
  [
    "risk",
    PAGES.find(([name]) => name === "risk")[1],
    ["#p-attacker", "#survivors tbody td:nth-child(2)", "#survivors tbody td:nth-child(3)", "#per-roll tbody td:nth-child(7)"],
  ],
  [
    "randomizers",
    PAGES.find(([name]) => name === "randomizers")[1],
    [
      "#summary .mean-entropy",
      "#summary .outcome-variance",
      "#summary .base-deviation",
      "#summary .repeat-rate",
      "#droughts tbody td",
      "#next tbody td:nth-child(2)",
    ],
  ],
  [
    "randomizers by Monte Carlo",
    "randomizers.html?spec=dynamic(values%3D6%2C+decrease%3D0.355)&samples=25&method=monte_carlo&runs=2000&seed=5",
    ["#summary .method", "#summary .mean-entropy", "#summary .outcome-variance", "#summary .base-deviation", "#summary .repeat-rate"],
  ],
];

/** The cells `selector` matches that are not shown whole on screen, or why none is. */
async function hiddenCells(page, selector) {
  return page.evaluate((selector) => {
    const cells = [...document.querySelectorAll(selector)];
    if (cells.length === 0) return [`no cell matches ${selector}`];
    const screen = document.documentElement.clientWidth;
    return cells.flatMap((cell) => {
      const box = cell.getBoundingClientRect();
      // The text itself, which may run past its cell.
      const range = document.createRange();
      range.selectNodeContents(cell);
      const text = range.getBoundingClientRect();
      // A scrolling box shows only its own width.
      const wrap = cell.closest(".table-wrap")?.getBoundingClientRect();
      const left = Math.max(0, wrap?.left ?? 0);
      const right = Math.min(screen, wrap?.right ?? screen);
      const empty = cell.textContent.trim() === "";
      const shown = cell.checkVisibility({ visibilityProperty: true }) && box.width > 0 && box.height > 0 && (empty || text.width > 0);
      const edges = empty ? [box] : [box, text];
      const inside = Math.min(...edges.map((b) => b.left)) >= left - 0.5 && Math.max(...edges.map((b) => b.right)) <= right + 0.5;
      if (shown && inside) return [];
      const span = (b) => `${Math.round(b.left)}..${Math.round(b.right)}`;
      return [`${selector} "${cell.textContent}" spans ${span(empty ? box : text)} of ${span({ left, right })}`];
    });
  }, selector);
}

for (const [name, path, selectors] of KEY_CELLS) {
  test(`${name} on a 375 px phone: the table's key numbers on screen, none scrolled out of sight`, async () => {
    const page = await browser.page(path, PHONE);
    await settled(page);
    assert.equal(await page.locator(".problem").count(), 0, await page.textContent("#results"));
    const seen = await layout(page);
    assert.ok(seen.pageWidth <= seen.viewport, `the page is ${seen.pageWidth} px wide`);
    const hidden = [];
    for (const selector of selectors) hidden.push(...(await hiddenCells(page, selector)));
    assert.deepEqual(hidden, []);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

test("a table shown as cards on a phone names each value by its column, and stays a table on a wide screen", async () => {
  const path = PAGES.find(([name]) => name === "tune")[1];
  for (const [width, cards] of [[375, true], [1200, false]]) {
    const page = await browser.page(path, { width, height: 900 });
    await settled(page);
    const seen = await page.evaluate(() => {
      const table = document.querySelector("#tune-results");
      const names = [...table.tHead.rows[0].cells].map((th) => th.textContent);
      return {
        display: getComputedStyle(table).display,
        header: table.tHead.getBoundingClientRect().height,
        labels: [...table.tBodies[0].rows].map((tr) => [...tr.cells].map((c, i) => c.dataset.label === names[i])),
        shown: getComputedStyle(table.querySelector("tbody td"), "::before").content,
      };
    });
    assert.ok(seen.labels.flat().every(Boolean), "every cell is labelled with its column's name");
    if (cards) {
      assert.equal(seen.display, "block");
      assert.ok(seen.header <= 1, "the header row is hidden");
      assert.equal(seen.shown, '"best parameters"');
    } else {
      assert.equal(seen.display, "table");
      assert.ok(seen.header > 10, "the header row is shown");
      assert.equal(seen.shown, "none");
    }
    await page.close();
  }
});

test("every outcome keeps its place on a phone's chart", async () => {
  const page = await browser.page("dice.html?expr=100d6", PHONE);
  await settled(page);
  // 100d6 has 501 outcomes, 100 to 600: narrower than a pixel each on a phone, so
  // each pixel column shows its likeliest; the axis spans them all.
  const labels = await page.$$eval('#chart svg g[aria-label="outcome axis"] text', (ts) => ts.map((t) => Number(t.textContent)));
  assert.ok(labels[0] <= 150 && labels.at(-1) >= 550, `the axis is labelled ${labels}`);
  const path = await page.$eval("#chart svg path", (p) => { const b = p.getBBox(); return { x: b.x, width: b.width }; });
  const plot = await page.$eval("#chart svg", (svg) => svg.viewBox.baseVal.width);
  assert.ok(path.x + path.width <= plot && path.width > plot * 0.6, `the bars span ${path.x}..${path.x + path.width} of ${plot}`);
  const few = await browser.page("dice.html?expr=3d6&expr=4d6kh3", PHONE);
  await settled(few);
  assert.equal(await few.$$eval("#chart svg rect > title", (ts) => ts.length), 32);
  await page.close();
  await few.close();
});

test("form rows stay aligned when labels wrap, at every width", async () => {
  for (const width of [375, 560, 760, 1200]) {
    for (const [, path] of PAGES) {
      const page = await browser.page(path.split("?")[0], { width, height: 900 });
      await page.waitForSelector("form.query");
      assert.deepEqual(await misaligned(page), [], `${path} at ${width} px`);
      await page.close();
    }
  }
});

test("a long error wraps inside its box on a phone", async () => {
  const page = await browser.page("dice.html?expr=1000000d1000000kh500000", PHONE);
  await settled(page);
  const seen = await layout(page);
  assert.equal(seen.errors.length, 1);
  assert.ok(seen.errors[0] <= 0, `the error overflows its box by ${seen.errors[0]} px`);
  assert.ok(seen.pageWidth <= seen.viewport, `the page is ${seen.pageWidth} px wide`);
  await screenshot(page, "dice-error-375", 1200);
  await page.close();
});
