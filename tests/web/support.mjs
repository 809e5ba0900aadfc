// Shared set-up of the static web app's browser tests: where the static build is
// served (a plain static file server started by scripts/test-web.sh), headless
// Debian Chromium driven by playwright-core, the native `fairdice` command to
// compare with, and where screenshots go.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

/** The static build's address, e.g. `http://127.0.0.1:41234` (set by scripts/test-web.sh). */
export const SITE_URL = required("FAIRDICE_SITE_URL").replace(/\/$/, "");
/** The native `fairdice` binary, whose `--json` documents the pages must show. */
export const FAIRDICE_BIN = required("FAIRDICE_BIN");
/** Where page screenshots are saved. */
export const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? "../../docs/screenshots";
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";

function required(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests through scripts/test-web.sh`);
  return value;
}

/** What `fairdice ARGS…` prints. */
export function cli(...args) {
  return execFileSync(FAIRDICE_BIN, args, { encoding: "utf8", maxBuffer: 1 << 28 });
}

/** The document `fairdice ARGS… --json` prints, parsed. */
export function cliJson(...args) {
  return JSON.parse(cli(...args, "--json"));
}

/** What `fairdice ARGS…` writes to stderr when it fails. */
/**
 * The rendering of `fairdice ARGS`'s error as the use-case layer writes it: the
 * command line prints it after `error: `, its later lines indented by that
 * prefix's width so the caret stays under the fault, and its hints after it.
 */
export function cliRendering(...args) {
  const [first, ...rest] = cliError(...args).trimEnd().split("\n");
  const prefix = "error: ";
  assert.ok(first.startsWith(prefix), first);
  const lines = rest.filter((line) => !line.startsWith("hint: "));
  for (const line of lines) assert.ok(line.startsWith(" ".repeat(prefix.length)), line);
  return [first.slice(prefix.length), ...lines.map((line) => line.slice(prefix.length))].join("\n");
}

export function cliError(...args) {
  try {
    execFileSync(FAIRDICE_BIN, args, { encoding: "utf8", stdio: "pipe" });
  } catch (failure) {
    return failure.stderr;
  }
  throw new Error(`fairdice ${args.join(" ")} succeeded`);
}

/** Headless Chromium with a throwaway profile; `close()` removes it. */
export async function launch() {
  const profile = mkdtempSync(join(tmpdir(), "fairdice-web-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1200, height: 1000 },
    deviceScaleFactor: 1,
    acceptDownloads: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      "--disable-sync",
      "--disable-quic",
    ],
  });
  return {
    context,
    /** A new page that fails the test on a script error. */
    async page(path = "", viewport) {
      const page = await context.newPage();
      if (viewport) await page.setViewportSize(viewport);
      page.errors = [];
      page.on("pageerror", (error) => page.errors.push(error));
      if (path) {
        await page.goto(`${SITE_URL}/${path}`);
        // A page's module may still be loading its example files after the load
        // event: a form submitted before it answers would reload the page.
        await page.waitForFunction(() => !document.querySelector("form.query") || document.documentElement.hasAttribute("data-ready"));
      }
      return page;
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Waits until the page's computation is done (the busy state hidden, results drawn). */
export async function settled(page, timeout = 60_000) {
  await page.waitForFunction(
    () => {
      const results = document.getElementById("results");
      return results && !results.hasAttribute("aria-busy") && document.getElementById("busy")?.hidden !== false && results.childElementCount > 0;
    },
    null,
    { timeout },
  );
}

/**
 * Starts the form's computation, lets it run `ms`, presses Cancel, and checks
 * that the page says so at once and is idle again.
 */
export async function cancelAfter(page, ms = 600, button = 'button[type="submit"]') {
  await page.click(`form.query ${button}`);
  await page.waitForSelector("#busy:not([hidden])");
  await page.waitForTimeout(ms);
  if (await page.isHidden("#busy")) throw new Error("the computation finished before it could be cancelled");
  const started = Date.now();
  await page.click("#cancel");
  await page.waitForSelector('.problem[data-kind="cancelled"]', { timeout: 2000 });
  if (Date.now() - started > 2000) throw new Error("the cancel took more than two seconds");
  if (!(await page.isHidden("#busy"))) throw new Error("the busy state stayed after the cancel");
}

/** Types `text` into `selector`, replacing what it held. */
export async function typeInto(page, selector, text) {
  await page.fill(selector, "");
  await page.type(selector, text);
}

/** Submits the form with `button` (the first submit button by default) and waits for the results. */
export async function submit(page, button = 'button[type="submit"]') {
  await page.click(`form.query ${button}`);
  await page.waitForTimeout(50);
  await settled(page);
}

/** The JSON a "JSON" download link of the page gives (`label`: its text). */
export async function downloadedJson(page, label = "JSON") {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click(`figcaption button:text-is("${label}")`)]);
  return JSON.parse(readFileSync(await download.path(), "utf8"));
}

/** The CSV a table's download gives, as rows of fields (no quoted commas in the tests' tables). */
export async function downloadedCsv(page, table) {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.click(`.result-table:has(#${table}) button.csv`),
  ]);
  return readFileSync(await download.path(), "utf8")
    .trim()
    .split(/\r\n/)
    .map((line) => line.split(","));
}

/** Saves a screenshot of the top `height` pixels of `page` as `<name>.png`. */
export async function screenshot(page, name, height = 1320) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const width = page.viewportSize()?.width ?? 1200;
  const full = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.screenshot({
    path: join(SCREENSHOT_DIR, `${name}.png`),
    fullPage: true,
    clip: { x: 0, y: 0, width, height: Math.min(height, full) },
  });
}

/** The tooltips of the chart's bars in `figure`. */
export async function barTips(page, figure = "#chart") {
  return page.$$eval(`${figure} svg rect > title`, (ts) => ts.map((t) => t.textContent));
}

/**
 * The places where two documents differ, `path: a ≠ b`. With `relative`, numbers
 * within that relative distance, or zeros of either sign, count as equal: the
 * analysis of a randomizer takes logarithms, which WebAssembly computes with Rust's
 * own libm and Linux with glibc's (they differ in the last bit now and then, and a
 * standard error computed from nearly equal sums magnifies that to about 1e-11),
 * and `f64::max(-0.0, 0.0)` is either zero (IEEE 754 leaves the sign open; x86 and
 * WebAssembly pick differently).
 */
export function differences(a, b, { relative = 0 } = {}, path = "") {
  if (typeof a === "number" && typeof b === "number") {
    if (Object.is(a, b)) return [];
    const close = relative > 0 && Math.abs(a - b) <= relative * Math.max(Math.abs(a), Math.abs(b));
    return close ? [] : [`${path}: ${a} ≠ ${b}`];
  }
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null) {
    return Object.is(a, b) ? [] : [`${path}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`];
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].flatMap((key) => differences(a[key], b[key], { relative }, `${path}.${key}`));
}
