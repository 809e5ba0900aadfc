// The fairdice package as applications use it: bundled by Vite from its packed
// tarball (the WebAssembly module emitted as an asset) and run in Chromium, and
// its TypeScript declarations checked by tsc against an example of every call and
// against real documents of every use case.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cli, cliJson, launch } from "./support.mjs";

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

/**
 * Real documents of every use case, as `fairdice … --json` prints them (the
 * package returns the same), each with the declared type of its report. Several
 * per use case where a document's shape varies: estimates, tuples, labels,
 * dialects, tables, droughts, attempts, a saved session.
 */
function documents() {
  const saved = join(mkdtempSync(join(tmpdir(), "fairdice-session-")), "game.json");
  cli("sample", "deck(values=6)", "--samples", "5", "--save", saved);
  return [
    ["DistributionReport", cliJson("dist", "4d6kh3")],
    ["DistributionReport", cliJson("dist", "4d6kh3", "--runs", "1000")],
    ["DistributionReport", cliJson("dist", "[p = 12d6] (count(p, 5, 6), count(p, 1))")],
    ["DistributionReport", cliJson("dist", "2d6+1 as {..6: miss, 7..9: weak hit, 10..: strong hit}")],
    ["DistributionReport", cliJson("dist", "4d6dl1", "--dialect", "roll20")],
    ["DistributionReport", cliJson("dist", "2d6>=8")],
    ["RollReport", cliJson("roll", "4d6kh3+2", "--times", "2", "--seed", "7")],
    ["ContestReport", cliJson("contest", "5d6", "4d6", "--ties", "reroll")],
    ["ContestReport", cliJson("contest", "5d6", "5d6", "--runs", "1000")],
    ["BattleReport", cliJson("risk", "5", "5", "--per-roll", "--table", "3", "--runs", "100")],
    ["BattleReport", cliJson("risk", "1000", "1000")],
    ["SampleReport", cliJson("sample", "tgm2", "--samples", "5")],
    ["NextReport", cliJson("next", "fair(base=2d6, tightness=1)", "--history", "2,4,7,7")],
    ["SampleReport", cliJson("sample", "--resume", saved, "--samples", "2")],
    ["StateReport", cliJson("state", saved)],
    ["PrdReport", cliJson("prd", "0.25", "--limit", "5")],
    ["GoalReport", cliJson("goal", "@../../docs/machines/banner.json", "--until", "featured", "--budget", "90")],
    ["AuditReport", cliJson("audit", "../../docs/logs/catan.txt", "--randomizer", "dice(base=2d6)")],
    ["AnalysisReport", cliJson("analyze", "deck(values=6)", "--samples", "12")],
    ["AnalysisReport", cliJson("analyze", "prd(p=0.25)", "--samples", "12", "--runs", "500")],
    ["NonNullable<AnalysisReport[\"droughts\"]>", JSON.parse(cli("analyze", "deck(values=4)", "--samples", "8", "--json")).droughts],
    ["TuneReport", cliJson("tune", "--values", "4", "--samples", "10", "--all")],
    ["SeatsReport", cliJson("seats", "../../docs/games/catan-beginner.json", "--randomizer", "dice(base=2d6)", "--samples", "10")],
  ];
}

test("the TypeScript report types accept real documents of every use case, and nothing undeclared", () => {
  const project = mkdtempSync(join(tmpdir(), "fairdice-types-"));
  const declarations = join(here, "../../packages/fairdice/index.js");
  const all = documents();
  const types = [...new Set(all.map(([type]) => type.replace(/^NonNullable<(\w+).*$/, "$1")))];
  const lines = [`import type { ${types.join(", ")} } from ${JSON.stringify(declarations)};`];
  // An object literal assigned to a type is checked for missing, mistyped and
  // undeclared fields alike.
  all.forEach(([type, document], i) => lines.push(`export const d${i}: ${type} = ${JSON.stringify(document, null, 1)};`));
  writeFileSync(join(project, "documents.ts"), lines.join("\n") + "\n");
  writeFileSync(
    join(project, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { target: "es2022", module: "esnext", moduleResolution: "bundler", strict: true, noEmit: true }, files: ["documents.ts"] }),
  );
  try {
    execFileSync(process.execPath, [join(here, "node_modules/typescript/bin/tsc"), "-p", project], { encoding: "utf8" });
  } catch (e) {
    assert.fail(`the declared types do not fit the documents:\n${e.stdout}`);
  }
});
