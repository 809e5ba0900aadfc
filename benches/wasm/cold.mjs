// Times one use-case request in the WebAssembly build, in a fresh Node process:
// the module is instantiated first (not timed), then the first `run` call is
// timed — the work `fairdice_api::run_json` does natively (benches/bin/use_case.rs)
// — then the same call again for `--settle` seconds (default 0.5), untimed, so that
// V8 has optimized the hot functions (it compiles them first with its baseline
// compiler and re-compiles them with TurboFan only after they have run enough),
// then N more calls, whose median is the warm time.
//
// With `--warm-up EXPR` (repeatable), one `dist` request of each EXPR runs before the
// clock starts, as the web app's worker runs them when it starts: V8 compiles a
// WebAssembly function when it is first called, and the warm-up compiles the
// parser, the evaluators and the report writer that everyday requests use.
//
// usage: node cold.mjs WASM_DIR USE_CASE REQUEST_JSON [--repeat N] [--settle S] [--warm-up EXPR]…
// prints: first=… first_cpu=… warm=… bytes=… total=… sum=… sumsq=…
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [dir, useCase, request, ...flags] = process.argv.slice(2);
const option = (name) => (flags.includes(name) ? flags[flags.indexOf(name) + 1] : undefined);
const repeat = Number(option("--repeat") ?? 20);
const settle = Number(option("--settle") ?? 0.5);
const wasm = await import(pathToFileURL(join(dir, "fairdice_wasm.js")));
wasm.initSync({ module: readFileSync(join(dir, "fairdice_wasm_bg.wasm")) });
const warmUps = flags.flatMap((flag, i) => (flag === "--warm-up" ? [flags[i + 1]] : []));
for (const expression of warmUps) wasm.run("dist", JSON.stringify({ expression }));

const cpu = process.cpuUsage();
const start = process.hrtime.bigint();
const document = wasm.run(useCase, request);
const first = Number(process.hrtime.bigint() - start) / 1e9;
const used = process.cpuUsage(cpu);
const firstCpu = (used.user + used.system) / 1e6;

const settled = process.hrtime.bigint() + BigInt(Math.round(settle * 1e9));
while (process.hrtime.bigint() < settled) wasm.run(useCase, request);
const times = [];
for (let i = 0; i < repeat; i++) {
  const t = process.hrtime.bigint();
  wasm.run(useCase, request);
  times.push(Number(process.hrtime.bigint() - t) / 1e9);
}
times.sort((a, b) => a - b);
const warm = times[Math.floor(times.length / 2)] ?? NaN;

const report = JSON.parse(document);
if (report.error) {
  console.error(`cold.mjs: ${report.error.message}`);
  process.exit(1);
}
let fingerprint = "";
if (report.outcomes) {
  let [total, sum, sumsq] = [0n, 0n, 0n];
  for (const { outcome, count } of report.outcomes) {
    const c = BigInt(count);
    const o = BigInt(outcome);
    total += c;
    sum += o * c;
    sumsq += o * o * c;
  }
  fingerprint = `total=${total} sum=${sum} sumsq=${sumsq}`;
}
console.log(`first=${first} first_cpu=${firstCpu} warm=${warm} bytes=${document.length} ${fingerprint}`);
