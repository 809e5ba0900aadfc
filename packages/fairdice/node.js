// fairdice for Node (ESM): the WebAssembly module is read from this package and
// instantiated at import, so `await load()` resolves at once.

import { readFileSync } from "node:fs";
import * as wasm from "./wasm/fairdice_wasm.js";
import { bind } from "./api.js";

wasm.initSync({ module: readFileSync(new URL("./wasm/fairdice_wasm_bg.wasm", import.meta.url)) });
const fairdice = bind(wasm);

/** The fairdice functions (already instantiated in Node). */
export async function load() {
  return fairdice;
}

export { FairdiceError, Randomizer } from "./api.js";
