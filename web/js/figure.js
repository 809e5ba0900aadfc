// A chart on the page: the charts crate's SVG, with downloads of it as SVG and
// PNG (drawn from the same SVG by the browser) and of the reports as JSON.

import { button, download, el, svgNode } from "./dom.js";

/** A PNG of `svgText` at `scale` times its size, drawn by the browser. */
async function png(svgText, scale = 2) {
  const url = URL.createObjectURL(new Blob([svgText], { type: "image/svg+xml" }));
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = el("canvas", { width: image.naturalWidth * scale, height: image.naturalHeight * scale });
    const context = canvas.getContext("2d");
    context.scale(scale, scale);
    context.drawImage(image, 0, 0);
    return await new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
  } finally {
    URL.revokeObjectURL(url);
  }
}

/**
 * A figure holding `chart` (`{name, svg}` from the wasm module), captioned with
 * `caption` nodes and downloads: the SVG, a PNG and `documents` (`[{label, name,
 * json}]`, each a JSON download).
 */
export function figure({ id, chart, file, caption = [], documents = [] }) {
  const downloads = [
    button("SVG", () => download(`${file}.svg`, chart.svg, "image/svg+xml"), { class: "link" }),
    " or ",
    button("PNG", async () => download(`${file}.png`, await png(chart.svg)), { class: "link" }),
  ];
  for (const doc of documents) {
    downloads.push(" · ", button(doc.label, () => download(doc.name, doc.json, "application/json"), { class: "link" }));
  }
  return el(
    "figure",
    { id, class: "chart", dataset: { chart: chart.name } },
    svgNode(chart.svg),
    el("figcaption", {}, caption, caption.length ? " " : null, "Download the chart as ", downloads),
  );
}

/** A report as the pretty JSON document `fairdice … --json` prints. */
export function prettyJson(report) {
  return `${JSON.stringify(report, null, 2)}\n`;
}
