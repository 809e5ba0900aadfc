// The Web Worker every computation runs in, so the page never freezes: it
// instantiates the fairdice WebAssembly module (compiled once by the page and
// handed over), runs one job at a time, forwards progress, and reports a trap
// (a panic of fairdice, memory exhausted) with its message instead of dying
// silently. The page terminates this worker to cancel, and starts a fresh one.

import init, { compute, panic_message, run } from "../wasm/fairdice_wasm.js";

/**
 * A request run once when the worker starts: V8 compiles a WebAssembly function
 * when it is first called, and this compiles what every request uses (the
 * parser, the pool evaluator, big counts, the report) before the first real one
 * (benches/wasm/README.md: 100d10kh10's first call 29 ms without it, 3 ms with).
 */
export const WARM_UP = "20d6kh3+30d8";

let ready = null;

self.onmessage = async ({ data }) => {
  if (data.type === "init") {
    ready = init({ module_or_path: data.module }).then(
      () => {
        run("dist", JSON.stringify({ expression: WARM_UP }));
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
