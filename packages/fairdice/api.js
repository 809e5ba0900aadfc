// The fairdice package's functions, bound to an instantiated WebAssembly module:
// each maps its arguments onto a use case's request document and returns the
// report document `fairdice … --json` prints, or throws a FairdiceError carrying
// the use-case layer's error document.

/** A use case refused a request: its error document, with the command line's rendering. */
export class FairdiceError extends Error {
  constructor(error) {
    super(error.message);
    this.name = "FairdiceError";
    /** The stable code: `parse`, `invalid_input`, `too_big`, `bad_request`, … */
    this.kind = error.kind;
    /** `invalid`, `too_large`, `cancelled` or `internal`. */
    this.category = error.category;
    /** The message as the command line prints it (a caret under the part at fault). */
    this.rendered = error.rendered;
    /** A request that answers instead and finishes (a Monte Carlo estimate), if any. */
    this.suggestion = error.suggestion ?? null;
    /** The whole error document. */
    this.error = error;
  }
}

const U64_MAX = (1n << 64n) - 1n;

/** A seed as the request takes it: a number, a bigint or a decimal string. */
function seedOf(seed) {
  if (seed === undefined || seed === null) return seed;
  const value = typeof seed === "bigint" ? seed : BigInt(String(seed));
  if (value < 0n || value > U64_MAX) throw new RangeError(`a seed is a whole number from 0 to 2^64−1, not ${seed}`);
  return value;
}

/** A request document as JSON, bigints written as exact integers. */
export function requestJson(request) {
  const marker = "\u0000u64:";
  const text = JSON.stringify(request, (_, v) => (typeof v === "bigint" ? marker + v.toString() : v));
  return text.replace(/"\\u0000u64:(\d+)"/g, "$1");
}

/** A fresh seed for a roll asked for without one (the report says which). */
function freshSeed() {
  const words = new Uint32Array(2);
  globalThis.crypto.getRandomValues(words);
  return (BigInt(words[0]) << 32n) | BigInt(words[1]);
}

/**
 * A randomizer source: a spec, a machine document (an object with `layers`),
 * `{ spec }` or `{ session }` (a saved session's JSON).
 */
function sourceOf(source) {
  if (typeof source === "string") return { spec: source };
  if (source && Array.isArray(source.layers)) return { spec: JSON.stringify(source) };
  if (source && typeof source.session === "object") return { session: JSON.stringify(source.session) };
  return source;
}

/** Options with their seed (if any) made exact. */
function withSeed(options = {}) {
  const copy = { ...options };
  if ("seed" in copy) copy.seed = seedOf(copy.seed);
  return copy;
}

/** The most outcomes one `take` draws. */
const MAX_TAKE = 1 << 24;

/** The FairdiceError a thrown error document (JSON text) of the module stands for. */
function thrown(error) {
  if (typeof error !== "string") return error;
  try {
    return new FairdiceError(JSON.parse(error).error);
  } catch {
    return new Error(error);
  }
}

/**
 * A randomizer kept inside the WebAssembly module, for a game loop: `next()`
 * draws one outcome without any JSON. Its draws are those of `fairdice sample
 * SPEC --seed S`, and `save()` writes the session text `fairdice sample --save`
 * writes, which `randomizer({ session })` continues. `free()` releases its
 * memory at once; an unreachable randomizer is released by the garbage
 * collector too.
 */
export class Randomizer {
  #inner;
  #values;
  #labels;

  constructor(inner, seed) {
    this.#inner = inner;
    this.#values = Array.from(inner.values());
    this.#labels = inner.labelled() ? inner.labels() : null;
    /** The generator's seed (a bigint); null when a saved session was continued. */
    this.seed = seed;
  }

  #live() {
    if (this.#inner === null) {
      throw new FairdiceError({ kind: "bad_request", category: "invalid", message: "this randomizer was freed", rendered: "this randomizer was freed" });
    }
    return this.#inner;
  }

  /** The next outcome: its value, or its name for a family that names its outcomes (Tetris pieces). */
  next() {
    const i = this.#live().next_index();
    return this.#labels === null ? this.#values[i] : this.#labels[i];
  }

  /** The next outcome as `{ value, label }` (a value's label is its digits). */
  nextOutcome() {
    return this.#outcome(this.#live().next_index());
  }

  /** The next `n` outcomes, as `next()` gives them. */
  take(n) {
    if (!Number.isInteger(n) || n < 0 || n > MAX_TAKE) throw new RangeError(`take(n) draws 0 to ${MAX_TAKE} outcomes, not ${n}`);
    const shown = this.#labels ?? this.#values;
    return Array.from(this.#live().take_indices(n), (i) => shown[i]);
  }

  /** The session as text, to continue later with `randomizer({ session })` or `fairdice sample --load`. */
  save() {
    return this.#live().save();
  }

  /** The randomizer's spec, in its canonical form. */
  get spec() {
    return this.#live().spec();
  }

  /** How many outcomes this session has drawn, saves included. */
  get draws() {
    return this.#live().draws();
  }

  /** Every outcome it can give, as `{ value, label }`. */
  get outcomes() {
    return this.#values.map((_, i) => this.#outcome(i));
  }

  /** The chance of each outcome next: the `fairdice next --json` document. */
  nextDistribution() {
    return JSON.parse(this.#live().next_distribution());
  }

  /** Releases the randomizer's memory now; it cannot be used after. */
  free() {
    this.#inner?.free();
    this.#inner = null;
  }

  #outcome(i) {
    const value = this.#values[i];
    return { value, label: this.#labels === null ? String(value) : this.#labels[i] };
  }
}

/** The functions of the package over `wasm`, the module's exports. */
export function bind(wasm) {
  const runJson = (useCase, json) => wasm.run(useCase, json);
  const run = (useCase, request) => {
    const document = JSON.parse(runJson(useCase, typeof request === "string" ? request : requestJson(request)));
    if (document && typeof document.error === "object" && Object.keys(document).length === 1) {
      throw new FairdiceError(document.error);
    }
    return document;
  };
  const compute = (useCase, requests, view = {}) =>
    JSON.parse(
      wasm.compute(
        useCase,
        requests.map((r) => (typeof r === "string" ? r : requestJson(r))),
        JSON.stringify(view),
        undefined,
      ),
    );
  return {
    run,
    runJson,
    compute,
    charts(useCase, request, view = {}) {
      const answer = compute(useCase, [request], view);
      if (answer.error) throw new FairdiceError(answer.error);
      const [result] = answer.results;
      if (result.error) throw new FairdiceError(result.error);
      return { report: result.report, charts: answer.charts };
    },
    randomizer(source, options = {}) {
      const opened = sourceOf(source);
      const seed = "session" in opened ? null : seedOf(options.seed ?? freshSeed());
      try {
        return new Randomizer(wasm.Randomizer.open(JSON.stringify(opened), seed ?? 0n), seed);
      } catch (error) {
        throw thrown(error);
      }
    },
    useCases: () => JSON.parse(wasm.use_cases()),
    version: () => wasm.version(),
    dist: (expression, options) => run("dist", { expression, ...withSeed(options) }),
    roll: (expression, options = {}) =>
      run("roll", { expression, ...withSeed(options), seed: seedOf(options.seed ?? freshSeed()) }),
    contest: (a, b, options) => run("contest", { a, b, ...withSeed(options) }),
    risk: (attacker, defender, options) => run("risk", { attacker, defender, ...withSeed(options) }),
    sample: (source, options) => run("sample", { source: sourceOf(source), ...withSeed(options) }),
    next: (source, history = []) =>
      run("next", { source: sourceOf(source), history: (typeof history === "string" ? history.split(",") : history).map((h) => String(h).trim()) }),
    state: (session) => run("state", { session: typeof session === "string" ? session : JSON.stringify(session) }),
    prd: (p, options) => run("prd", { p, ...options }),
    audit: (log, spec, options = {}) =>
      run("audit", {
        spec: sourceOf(spec).spec,
        log: typeof log === "string" ? log : log.map((e) => (typeof e === "number" ? e : String(e))),
        candidates: (options.candidates ?? []).map((c) => sourceOf(c).spec),
        simulations: options.runs ?? 2000,
        seed: seedOf(options.seed ?? 1),
      }),
    goal: (source, until = [], options = {}) =>
      run("goal", {
        source: sourceOf(source),
        until: (typeof until === "string" ? until.split(",") : until).map((u) => String(u).trim()),
        ...withSeed(options),
        history: (typeof options.history === "string" ? options.history.split(",") : options.history ?? []).map(String),
      }),
    analyze: (spec, samples, options) => run("analyze", { spec, samples, ...withSeed(options) }),
    tune: (options) => run("tune", withSeed(options)),
    seats: (game, spec, samples, options) =>
      run("seats", { game: typeof game === "string" ? JSON.parse(game) : game, spec, samples, ...withSeed(options) }),
  };
}
