// The Web Worker every computation runs in, so the page never freezes: it
// instantiates the fairdice WebAssembly module (compiled once by the page and
// handed over), runs one job at a time, forwards progress, and reports a trap
// (a panic of fairdice, memory exhausted) with its message instead of dying
// silently. The page terminates this worker to cancel, and starts a fresh one.

import init, { compute, panic_message, run } from "../wasm/fairdice_wasm.js";

/**
 * Requests run once when the worker starts: V8 compiles a WebAssembly function
 * when it is first called, and these compile what everyday requests use before
 * the first real one: the parser and the report, sums and keep-highest counted
 * in machine words, and a large pool counted in big integers (benches/wasm/
 * README.md measures the first call with and without them).
 */
export const WARM_UP = ["2d8+1", "5d10kh2", "20d6kh3+30d8"];

let ready = null;

self.onmessage = async ({ data }) => {
  if (data.type === "init") {
    ready = init({ module_or_path: data.module }).then(
      () => {
        for (const expression of WARM_UP) run("dist", JSON.stringify({ expression }));
        self.postMessage({ type: "ready" });
      },
      (error) => self.postMessage({ type: "failed", message: String(error) }),
    );
    return;
  }
  if (data.type !== "compute") return;
  await ready;
  const { id, useCase, requests, view } = data;
  const progress = (event) => self.postMessage({ type: "progress", id, event: JSON.parse(event) });
  try {
    const answer = compute(useCase, requests, view, progress);
    self.postMessage({ type: "done", id, answer });
  } catch (error) {
    let message = null;
    try {
      message = panic_message() ?? null;
    } catch {
      // The instance is past reading: the trap's own message has to do.
    }
    // A trap without a panic message is the allocator giving up: WebAssembly
    // stops that way when the module's memory cannot grow any further.
    const why = message ?? `${error} (no panic: WebAssembly stops like this when its memory runs out)`;
    self.postMessage({ type: "crashed", id, message: why });
  }
};
