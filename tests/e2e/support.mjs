// Shared set-up of the browser tests: where the server is, a headless Debian
// Chromium driven by playwright-core with a fresh profile and no network extras,
// and where screenshots go.
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

/** The running `fairdice serve`, e.g. `http://127.0.0.1:41234` (set by scripts/e2e.sh). */
export const BASE_URL = required("FAIRDICE_URL").replace(/\/$/, "");
/** The `fairdice` binary the server runs, to compare the API with the command line. */
export const FAIRDICE_BIN = required("FAIRDICE_BIN");
/** Where page screenshots are saved (docs/screenshots by default). */
export const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? "../../docs/screenshots";
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";

function required(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests through scripts/e2e.sh`);
  return value;
}

/** Launches headless Chromium with a throwaway profile; `close()` removes it. */
export async function launch() {
  const profile = mkdtempSync(join(tmpdir(), "fairdice-e2e-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1200, height: 1000 },
    deviceScaleFactor: 1,
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
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Saves a screenshot of `page` as `<name>.png` in the screenshot folder: the top
 * `height` pixels of the page (the form, the chart and the summary).
 */
export async function screenshot(page, name, height = 1320) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const width = page.viewportSize()?.width ?? 1200;
  await page.screenshot({
    path: join(SCREENSHOT_DIR, `${name}.png`),
    fullPage: true,
    clip: { x: 0, y: 0, width, height },
  });
}

/** Types `text` into the input `selector`, replacing what it held. */
export async function typeInto(page, selector, text) {
  await page.fill(selector, "");
  await page.type(selector, text);
}

/** Clicks the submit button of `form` (the Dice page's by default) and waits for the result page. */
export async function submit(page, form = "#dice-form") {
  await Promise.all([
    page.waitForNavigation({ waitUntil: "load" }),
    page.click(`${form} button[type="submit"]`),
  ]);
}
