// The fairdice package as applications use it: bundled by Vite from its packed
// tarball (the WebAssembly module emitted as an asset) and run in Chromium, and
// its TypeScript declarations checked by tsc against an example of every call.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cliJson, launch } from "./support.mjs";

const PACKAGE = process.env.FAIRDICE_PACKAGE;
const here = fileURLToPath(new URL(".", import.meta.url));

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Serves `folder` with a plain static file server; resolves to its address and a stop function. */
function serve(folder) {
  const server = spawn("python3", ["-u", "-m", "http.server", "--bind", "127.0.0.1", "--directory", folder, "0"]);
  return new Promise((resolve, reject) => {
    server.stdout.on("data", (chunk) => {
      const port = /port (\d+)/.exec(String(chunk))?.[1];
      if (port) resolve({ url: `http://127.0.0.1:${port}`, stop: () => server.kill() });
    });
    server.on("error", reject);
  });
}

test("a Vite bundle of `import { load } from \"fairdice\"` computes in the browser", async () => {
  const project = mkdtempSync(join(tmpdir(), "fairdice-vite-"));
  cpSync(join(here, "bundle"), project, { recursive: true });
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "bundled", private: true, type: "module" }));
  const tarball = execFileSync("npm", ["pack", PACKAGE, "--pack-destination", project, "--silent"], { encoding: "utf8" }).trim();
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", join(project, tarball)], { cwd: project });
  execFileSync(process.execPath, [join(here, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"], { cwd: project });
  const assets = readdirSync(join(project, "dist/assets"));
  assert.ok(assets.some((name) => name.endsWith(".wasm")), `the module is emitted as an asset: ${assets}`);

  const { url, stop } = await serve(join(project, "dist"));
  try {
    const page = await browser.page();
    await page.goto(`${url}/index.html`);
    await page.waitForFunction(() => document.getElementById("roll").textContent !== "…");
    assert.equal(await page.textContent("#mean"), "15869/1296");
    const rolled = cliJson("roll", "4d6kh3", "--seed", "7");
    assert.equal(await page.textContent("#roll"), String(rolled.rolls[0].value));
    assert.deepEqual(page.errors, []);
    await page.close();
  } finally {
    stop();
  }
});

test("the TypeScript declarations accept every documented call and reject wrong ones", () => {
  execFileSync(process.execPath, [join(here, "node_modules/typescript/bin/tsc"), "-p", join(here, "types")], { encoding: "utf8" });
});
