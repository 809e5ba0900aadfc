// Result tables: the first rows on the page, every row in a CSV download.

import { button, download, el } from "./dom.js";

/** The rows a page shows of one table; the CSV has them all. */
export const MAX_TABLE_ROWS = 1000;

/**
 * A cell: a string, or `{ text, title, class, header }` (`header`: a row header).
 * A CSV value: the cell's `csv` if given, else its text.
 */
function cellNode(cell, index) {
  const spec = typeof cell === "object" && cell !== null && !(cell instanceof Node) ? cell : { text: cell };
  const header = spec.header ?? index === 0;
  const content = spec.node ?? spec.text ?? "";
  return el(header ? "th" : "td", { class: spec.class, title: spec.title, attrs: header ? { scope: "row" } : undefined }, content);
}

function csvValue(cell) {
  if (typeof cell === "object" && cell !== null && !(cell instanceof Node)) return String(cell.csv ?? cell.text ?? "");
  return String(cell ?? "");
}

/** One CSV field, quoted when it must be (RFC 4180). */
export function csvField(value) {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** CSV text of a header and rows of plain values. */
export function csvText(header, rows) {
  return [header, ...rows].map((row) => row.map(csvField).join(",")).join("\r\n") + "\r\n";
}

/**
 * A table in its scrolling wrapper, with a note when rows are cut and a CSV
 * download of every row.
 *
 * `columns`: `[{ name, class }]`; `rows`: arrays of cells; `csv`: the file name;
 * `csvRows`: the CSV's rows when they differ from the cells' values (e.g. exact
 * counts shown abbreviated), with `csvHeader`.
 */
export function dataTable({ id, caption, columns, rows, csv, csvHeader, csvRows, className = "numbers" }) {
  const shown = rows.slice(0, MAX_TABLE_ROWS);
  const table = el(
    "table",
    { id, class: className },
    caption ? el("caption", {}, caption) : null,
    el("thead", {}, el("tr", {}, columns.map((c) => el("th", { class: c.class, attrs: { scope: "col" } }, c.name)))),
    el("tbody", {}, shown.map(rowNode)),
  );
  const header = csvHeader ?? columns.map((c) => c.name);
  const values = csvRows ?? rows.map((row) => (row.cells ?? row).map(csvValue));
  const note =
    rows.length > shown.length
      ? el("p", { class: "hint" }, `Showing the first ${shown.length} of ${rows.length} rows; the CSV has them all.`)
      : null;
  const save = button("Download CSV", () => download(csv, csvText(header, values), "text/csv"), {
    class: "csv secondary small",
    title: `Every row of this table as ${csv}`,
  });
  return el("div", { class: "result-table" }, el("div", { class: "table-wrap" }, table), el("div", { class: "table-tools" }, note, save));
}

/** A row: cells, or `{ cells, className, dataset }`. */
function rowNode(row) {
  const cells = row.cells ?? row;
  return el("tr", { class: row.className, dataset: row.dataset }, cells.map(cellNode));
}
