// Reading a page's inputs from its URL, and writing request documents: whole
// numbers checked as the native app checks them, and 64-bit seeds kept exact (a
// JavaScript number holds integers only up to 2^53).

/** A problem with the page's own inputs (a URL parameter that is not a number). */
export class InputError extends Error {}

const U64_MAX = (1n << 64n) - 1n;

/** A whole number from 0 to 2^64 − 1, as a bigint. */
export function u64(value, what) {
  const text = String(value).trim();
  if (!/^\d+$/.test(text) || BigInt(text) > U64_MAX) {
    throw new InputError(`${what} must be a whole number from 0 to 2^64−1, not \`${text}\``);
  }
  return BigInt(text);
}

/** A whole number within JavaScript's exact integers (counts, armies, samples). */
export function whole(value, what) {
  const text = String(value).trim();
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new InputError(`${what} must be a whole number (0 or more), not \`${text}\``);
  }
  return Number(text);
}

/** The value of `key` in `params`, trimmed; `undefined` when absent or blank. */
export function param(params, key) {
  const value = params.get(key);
  if (value === null) return undefined;
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
}

/** A yes/no flag: `1`, `true`, `on`, `yes` or `0`, `false`, `off`, `no`. */
export function flag(params, key, fallback = false) {
  const value = param(params, key);
  if (value === undefined) return fallback;
  if (["1", "true", "on", "yes"].includes(value)) return true;
  if (["0", "false", "off", "no"].includes(value)) return false;
  throw new InputError(`${key} must be 1 or 0 (true or false), not \`${value}\``);
}

/** How an analysis is computed: `auto` (exact if it fits), `exact` or `monte_carlo`. */
export function methodParam(params) {
  const method = param(params, "method") ?? "auto";
  if (!["auto", "exact", "monte_carlo"].includes(method)) {
    throw new InputError(`method must be auto, exact or monte_carlo, not \`${method}\``);
  }
  return method;
}

/** A request document as JSON, bigints written as exact integers. */
export function requestJson(request) {
  const marker = "\u0000u64:";
  const text = JSON.stringify(request, (_, value) => (typeof value === "bigint" ? marker + value.toString() : value));
  return text.replace(/"\\u0000u64:(\d+)"/g, "$1");
}
