// Numbers as the command line and the native web app print them: percentages with
// their digits, counts abbreviated past 24 digits, thousands separators.

/** A probability as a percentage: `12.886%`, `0.07716%`, `1.234e-5%`, `0%`. */
export function percent(p) {
  const pct = p * 100;
  if (p === 0) return "0%";
  if (pct >= 1) return `${pct.toFixed(3)}%`;
  if (pct >= 1e-4) return `${pct.toFixed(3 - Math.floor(Math.log10(pct)))}%`;
  return `${exponential(pct, 3)}%`;
}

/** `x` in Rust's `{:.Ne}` form: `1.234e-5` (no `+`, no padding). */
export function exponential(x, digits) {
  const [mantissa, exponent] = x.toExponential(digits).split("e");
  return `${mantissa}e${Number(exponent)}`;
}

/** `x` with `digits` decimals. */
export function fixed(x, digits) {
  return Number.isFinite(x) ? x.toFixed(digits) : String(x);
}

/** A decimal count (a string of digits), or past `maxDigits` digits `1.234e56`. */
export function shortCount(digits, maxDigits = 24) {
  const text = String(digits);
  if (text.length <= Math.max(maxDigits, 4)) return text;
  return `${text[0]}.${text.slice(1, 4)}e${text.length - 1}`;
}

/** `1000000` as `1,000,000` (a number, a bigint or a string of digits). */
export function thousands(n) {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** `1 die`, `5 dice`. */
export function count(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

/** Seconds since `start` (a performance.now() reading), as `2.4 s`. */
export function seconds(start) {
  return `${((performance.now() - start) / 1000).toFixed(1)} s`;
}

/** `0.5089`, `0.5089 ± 0.0012` for an estimate, `-` for no value. */
export function withError(value, error) {
  if (value === null || value === undefined) return "-";
  return error === undefined || error === null ? fixed(value, 4) : `${fixed(value, 4)} ± ${fixed(error, 4)}`;
}
