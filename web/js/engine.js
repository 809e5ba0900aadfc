// The page's side of the worker: compiles the WebAssembly module once, runs jobs
// in a Web Worker one at a time, reports their progress, cancels by terminating
// the worker (a fresh one starts at once from the compiled module), and restarts
// after a worker that crashed.

const WASM_URL = new URL("../wasm/fairdice_wasm_bg.wasm", import.meta.url);
const WORKER_URL = new URL("./worker.js", import.meta.url);

/** Why a job has no answer: cancelled, or the worker crashed (with its message). */
export class Stopped extends Error {
  constructor(reason, message) {
    super(message ?? reason);
    this.reason = reason;
  }
}

/** The compiled module, fetched and compiled once per page. */
async function compileModule() {
  const response = await fetch(WASM_URL);
  if (!response.ok) throw new Error(`could not load ${WASM_URL}: HTTP ${response.status}`);
  // Streaming compilation needs the application/wasm type, which not every static
  // host sends; compiling the bytes works everywhere.
  if (WebAssembly.compileStreaming && response.headers.get("content-type")?.startsWith("application/wasm")) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

export class Engine {
  constructor() {
    this.module = compileModule();
    this.worker = null;
    this.job = null;
    this.nextId = 1;
    this.start();
  }

  /** Starts a fresh worker with the compiled module. */
  start() {
    const worker = new Worker(WORKER_URL, { type: "module" });
    this.worker = worker;
    this.ready = new Promise((resolve, reject) => {
      worker.onmessage = ({ data }) => {
        if (data.type === "ready") resolve();
        else if (data.type === "failed") reject(new Error(data.message));
        else this.receive(data);
      };
      worker.onerror = (event) => {
        event.preventDefault?.();
        reject(new Error(event.message || "the worker could not start"));
        this.crashed(event.message || "the worker stopped");
      };
    });
    this.module.then(
      (module) => worker.postMessage({ type: "init", module }),
      () => {},
    );
    this.ready.catch(() => {});
  }

  /** Messages of the running job. */
  receive(data) {
    const job = this.job;
    if (!job || data.id !== job.id) return;
    if (data.type === "progress") job.onProgress?.(data.event);
    else if (data.type === "done") {
      this.job = null;
      try {
        job.resolve(JSON.parse(data.answer));
      } catch (error) {
        job.reject(new Stopped("crashed", `the answer was not JSON: ${error}`));
      }
    } else if (data.type === "crashed") this.crashed(data.message);
  }

  /** The worker died mid-job: report it and start over with a fresh one. */
  crashed(message) {
    const job = this.job;
    this.job = null;
    this.worker?.terminate();
    this.start();
    job?.reject(new Stopped("crashed", message));
  }

  /**
   * Runs `requests` (request objects, or JSON text for exact 64-bit numbers) of
   * `useCase` with the charts `view` asks for; resolves to `{results, charts}`
   * (or `{error}` for a bad view), rejects with `Stopped`.
   */
  async compute(useCase, requests, view, onProgress) {
    if (this.job) this.cancel();
    await this.module;
    await this.ready;
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.job = { id, resolve, reject, onProgress };
      this.worker.postMessage({
        type: "compute",
        id,
        useCase,
        requests: requests.map((r) => (typeof r === "string" ? r : JSON.stringify(r))),
        view: JSON.stringify(view ?? {}),
      });
    });
  }

  /** Whether a job runs. */
  get busy() {
    return this.job !== null;
  }

  /** Stops the running job at once: terminates its worker and starts a fresh one. */
  cancel() {
    const job = this.job;
    this.job = null;
    this.worker?.terminate();
    this.start();
    job?.reject(new Stopped("cancelled", "cancelled"));
  }
}
