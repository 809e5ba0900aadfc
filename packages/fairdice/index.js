// fairdice for browsers and bundlers: `await load()` fetches and instantiates the
// WebAssembly module once (bundlers such as Vite and webpack 5 emit it as an
// asset from the `new URL(…, import.meta.url)` below); `load(url)` takes it from
// elsewhere, e.g. where a Foundry module serves it.

import init, * as wasm from "./wasm/fairdice_wasm.js";
import { bind } from "./api.js";

let loaded = null;

/** The fairdice functions, once the module is instantiated. */
export function load(module) {
  loaded ??= init({ module_or_path: module ?? new URL("./wasm/fairdice_wasm_bg.wasm", import.meta.url) }).then(() => bind(wasm));
  return loaded;
}

export { FairdiceError, Randomizer } from "./api.js";
