// Runs the dice benchmark cases (benches/cases/dice.tsv) in three engines, process
// for process and interleaved: the native build (benches/bin/use_case.rs), the
// WebAssembly build in Node (cold.mjs) and icepool (benches/peers/icepool_dice.py);
// checks that they computed the same distributions, and prints a Markdown table
// of the medians with the issue's goals: wasm within 3× native, and at least 10×
// faster than icepool.
//
// The WebAssembly build is timed twice: the first call in a fresh module (V8
// compiles each function when it is first called, inside the clock), and the
// first call after the warm-up request the web app's worker makes when it starts
// (web/js/worker.js, WARM_UP).
//
// usage: node compare.mjs --native BIN --wasm DIR --python PYTHON [--runs N] [--case NAME]…
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const native = option("--native");
const wasmDir = option("--wasm");
const python = option("--python");
const runs = Number(option("--runs", "7"));
const warmUp = JSON.parse(/export const WARM_UP = (\[[^\]]*\]);/.exec(readFileSync(`${root}/web/js/worker.js`, "utf8"))[1]);
const only = args.flatMap((a, i) => (a === "--case" ? [args[i + 1]] : []));

const cases = readFileSync(`${root}/benches/cases/dice.tsv`, "utf8")
  .split("\n")
  .filter((line) => line && !line.startsWith("#") && !line.startsWith("case\t"))
  .map((line) => line.split("\t"))
  .map(([name, fairdice, , icepool]) => ({ name, fairdice, icepool }))
  .filter((c) => only.length === 0 || only.includes(c.name));

const fields = (line) => Object.fromEntries(line.trim().split(/\s+/).map((kv) => kv.split("=")));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (s) => (s >= 0.1 ? `${(s * 1000).toFixed(0)} ms` : s >= 0.001 ? `${(s * 1000).toFixed(2)} ms` : `${(s * 1e6).toFixed(0)} µs`);
const ratio = (x) => (x >= 10 ? x.toFixed(0) : x.toFixed(2));

const rows = [];
let mismatch = false;
for (const c of cases) {
  const request = JSON.stringify({ expression: c.fairdice });
  const seen = { native: [], wasm: [], warmedUp: [], icepool: [] };
  const wasm = (...more) =>
    fields(execFileSync(process.execPath, [`${root}/benches/wasm/cold.mjs`, wasmDir, "dist", request, ...more], { encoding: "utf8" }));
  for (let i = 0; i < runs; i++) {
    seen.native.push(fields(execFileSync(native, ["dist", request], { encoding: "utf8" })));
    seen.wasm.push(wasm());
    seen.warmedUp.push(wasm(...warmUp.flatMap((expression) => ["--warm-up", expression])));
    seen.icepool.push(fields(execFileSync(python, [`${root}/benches/peers/icepool_dice.py`, c.icepool], { encoding: "utf8" })));
  }
  const print = (f) => `${f.total} ${f.sum} ${f.sumsq}`;
  const prints = new Set([...seen.native, ...seen.wasm, ...seen.warmedUp, ...seen.icepool].map(print));
  if (prints.size !== 1) {
    mismatch = true;
    console.error(`${c.name}: the engines computed different distributions: ${[...prints].join(" | ")}`);
  }
  const row = {
    name: c.name,
    nativeFirst: median(seen.native.map((f) => Number(f.first))),
    wasmFirst: median(seen.wasm.map((f) => Number(f.first))),
    warmedFirst: median(seen.warmedUp.map((f) => Number(f.first))),
    nativeWarm: median(seen.native.map((f) => Number(f.warm))),
    wasmWarm: median([...seen.wasm, ...seen.warmedUp].map((f) => Number(f.warm))),
    icepool: median(seen.icepool.map((f) => Number(f.seconds))),
    icepoolCpu: median(seen.icepool.map((f) => Number(f.cpu))),
    nativeFirstCpu: median(seen.native.map((f) => Number(f.first_cpu))),
    wasmFirstCpu: median(seen.wasm.map((f) => Number(f.first_cpu))),
  };
  rows.push(row);
  console.error(`${c.name}: done`);
}

console.log(`runs per engine and case: ${runs} fresh processes, interleaved; medians of wall-clock times\n`);
console.log("Computing speed: the median of 20 calls in the same process, after the first call and 0.5 s more of the same call (untimed).\n");
console.log("| case | native | wasm | wasm / native |");
console.log("|---|---:|---:|---:|");
for (const r of rows) console.log(`| ${r.name} | ${ms(r.nativeWarm)} | ${ms(r.wasmWarm)} | ${ratio(r.wasmWarm / r.nativeWarm)} |`);
console.log(`\nFirst call in a fresh process (icepool caches what it computed, so only its first call counts); wasm after warm-up: after the worker's ${warmUp.map((e) => `\`${e}\``).join(", ")}.\n`);
console.log("| case | native | wasm | wasm after warm-up | icepool | icepool / wasm | icepool / wasm after warm-up | icepool / wasm computing |");
console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
for (const r of rows) {
  console.log(
    `| ${r.name} | ${ms(r.nativeFirst)} | ${ms(r.wasmFirst)} | ${ms(r.warmedFirst)} | ${ms(r.icepool)} | ${ratio(r.icepool / r.wasmFirst)} | ${ratio(r.icepool / r.warmedFirst)} | ${ratio(r.icepool / r.wasmWarm)} |`,
  );
}
console.log("\nCPU time of the first call (the wasm process's includes V8's compiler threads):\n");
console.log("| case | native | wasm | icepool |");
console.log("|---|---:|---:|---:|");
for (const r of rows) console.log(`| ${r.name} | ${ms(r.nativeFirstCpu)} | ${ms(r.wasmFirstCpu)} | ${ms(r.icepoolCpu)} |`);

const count = (test) => `${rows.filter(test).length}/${rows.length}`;
console.log(`\ngoal wasm within 3× native: ${count((r) => r.wasmWarm / r.nativeWarm <= 3)} cases computing, ${count((r) => r.wasmFirst / r.nativeFirst <= 3)} first calls`);
console.log(
  `goal wasm at least 10× faster than icepool: ${count((r) => r.icepool / r.wasmWarm >= 10)} cases computing, ${count((r) => r.icepool / r.warmedFirst >= 10)} first calls after warm-up, ${count((r) => r.icepool / r.wasmFirst >= 10)} first calls in a fresh module`,
);
process.exit(mismatch ? 1 : 0);
