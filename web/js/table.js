// Result tables: the first rows on the page, every row in a CSV download.

import { button, download, el } from "./dom.js";

/** The rows a page shows of one table; the CSV has them all. */
export const MAX_TABLE_ROWS = 1000;

/**
 * A cell: a string, or `{ text, title, class, header }` (`header`: a row header).
 * A CSV value: the cell's `csv` if given, else its text. `label`: its column's
 * name, as `data-label` (shown beside the value when the table is a stack of cards).
 */
function cellNode(cell, index, label, cards) {
  const spec = typeof cell === "object" && cell !== null && !(cell instanceof Node) ? cell : { text: cell };
  const header = spec.header ?? index === 0;
  const content = spec.node ?? spec.text ?? "";
  const attrs = { "data-label": label ?? "" };
  if (header) attrs.scope = "row";
  // A table laid out as blocks loses its table semantics in some browsers: roles keep them.
  if (cards) attrs.role = header ? "rowheader" : "cell";
  return el(header ? "th" : "td", { class: spec.class, title: spec.title, attrs }, content);
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
 * counts shown abbreviated), with `csvHeader`. `cards`: on a phone each row is a
 * card of `column: value` lines (for tables too wide for a phone's screen);
 * other tables wrap their headers there.
 */
export function dataTable({ id, caption, columns, rows, csv, csvHeader, csvRows, className = "numbers", cards = false }) {
  const shown = rows.slice(0, MAX_TABLE_ROWS);
  const role = (name) => (cards ? { role: name } : {});
  const table = el(
    "table",
    { id, class: cards ? `${className} cards` : className, attrs: role("table") },
    caption ? el("caption", {}, caption) : null,
    el(
      "thead",
      { attrs: role("rowgroup") },
      el("tr", { attrs: role("row") }, columns.map((c) => el("th", { class: c.class, attrs: { scope: "col", ...role("columnheader") } }, c.name))),
    ),
    el("tbody", { attrs: role("rowgroup") }, shown.map((row) => rowNode(row, columns, cards))),
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

/** A row: cells, or `{ cells, className, dataset }`; each cell labelled with its column's name. */
function rowNode(row, columns, cards) {
  const cells = row.cells ?? row;
  return el(
    "tr",
    { class: row.className, dataset: row.dataset, attrs: cards ? { role: "row" } : undefined },
    cells.map((cell, i) => cellNode(cell, i, columns[i]?.name, cards)),
  );
}
