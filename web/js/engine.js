// Where a page's jobs run, one at a time. In the browser: the WebAssembly module
// compiled once and run in a Web Worker, with progress; a cancel terminates the
// worker (a fresh one starts at once from the compiled module), and a worker that
// crashed is replaced. Where the site has no module (`fairdice serve` built
// without one), on the server that served the page: the same answer from
// `POST /api/page/NAME`, and a cancel aborts the request, which stops its
// computation there.

const WASM_URL = new URL("../wasm/fairdice_wasm_bg.wasm", import.meta.url);
const WORKER_URL = new URL("./worker.js", import.meta.url);
const PAGE_URL = new URL("../api/page/", import.meta.url);

/**
 * Why a job has no answer: `cancelled`, `crashed` (the worker, or no answer from
 * the server, with its message), `server` (the server stopped it: `error` is
 * its error document) or `unavailable` (neither a module nor a server here).
 */
export class Stopped extends Error {
  constructor(reason, message, error = null) {
    super(message ?? reason);
    this.reason = reason;
    this.error = error;
  }
}

/** The compiled module, fetched and compiled once per page; null when the site has none. */
async function compileModule(response) {
  if (response.status === 404) return null;
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
    this.worker = null;
    this.job = null;
    this.nextId = 1;
    const served = fetch(WASM_URL);
    this.module = served.then(compileModule);
    /** Whether jobs run on the server: true when the site serves no module. */
    this.onServer = served.then((response) => response.status === 404, () => false);
    // The worker starts while the module compiles; not at all without a module.
    served.then((response) => response.status !== 404 && this.start(), () => this.start());
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
    const module = await this.module;
    if (module === null) return this.computeOnServer(useCase, requests, view);
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

  /** `compute` on the server that served the page (no progress is reported). */
  async computeOnServer(useCase, requests, view) {
    const abort = new AbortController();
    const job = { id: this.nextId++, abort };
    this.job = job;
    const texts = requests.map((r) => (typeof r === "string" ? r : JSON.stringify(r)));
    try {
      const response = await fetch(new URL(encodeURIComponent(useCase), PAGE_URL), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: `{"requests":[${texts.join(",")}],"view":${JSON.stringify(view ?? {})}}`,
        signal: abort.signal,
      });
      const text = await response.text();
      if (response.ok) return JSON.parse(text);
      // The server stopped the page as a whole: its time limit, its memory, busy.
      let error = null;
      try {
        error = JSON.parse(text).error ?? null;
      } catch {
        // Not a fairdice server: a static host without the module.
      }
      if (error) throw new Stopped("server", error.message, error);
      throw new Stopped(
        "unavailable",
        `This copy of the site has no WebAssembly module (wasm/) and no fairdice server behind it (${PAGE_URL.pathname} answered HTTP ${response.status}). Publish the folder scripts/build-site.sh writes, or run fairdice serve.`,
      );
    } catch (error) {
      if (abort.signal.aborted) throw new Stopped("cancelled", "cancelled");
      if (error instanceof Stopped) throw error;
      throw new Stopped("crashed", `the server did not answer: ${error?.message ?? error}`);
    } finally {
      if (this.job === job) this.job = null;
    }
  }

  /** Whether a job runs. */
  get busy() {
    return this.job !== null;
  }

  /** Stops the running job at once: terminates its worker and starts a fresh one. */
  cancel() {
    const job = this.job;
    this.job = null;
    if (job?.abort) {
      job.abort.abort();
      return;
    }
    this.worker?.terminate();
    this.start();
    job?.reject(new Stopped("cancelled", "cancelled"));
  }
}
