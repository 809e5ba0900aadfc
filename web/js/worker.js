// The Web Worker every computation runs in, so the page never freezes: it
// instantiates the fairdice WebAssembly module (compiled once by the page and
// handed over), runs one job at a time, forwards progress, and reports a trap
// (a panic of fairdice, memory exhausted) with its message instead of dying
// silently. The page terminates this worker to cancel, and starts a fresh one.

import init, { compute, panic_message } from "../wasm/fairdice_wasm.js";

let ready = null;

self.onmessage = async ({ data }) => {
  if (data.type === "init") {
    ready = init({ module_or_path: data.module }).then(
      () => self.postMessage({ type: "ready" }),
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
    self.postMessage({ type: "crashed", id, message: message ?? String(error) });
  }
};
