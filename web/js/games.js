// The example games of docs/games/*.json, which scripts/build-site.sh copies into
// the site with an index: the Seats page offers them, and the Tuner searches for
// the fairest split between their players.

/** Every example game's file text by name (empty when the site has none). */
export const EXAMPLE_GAMES = await load().catch(() => new Map());

async function load() {
  const url = (name) => new URL(`../games/${name}`, import.meta.url);
  const response = await fetch(url("index.json"));
  if (!response.ok) return new Map();
  const names = await response.json();
  const texts = await Promise.all(names.map(async (name) => (await fetch(url(`${name}.json`))).text()));
  return new Map(names.map((name, i) => [name, texts[i]]));
}

/** The `name` of a game file's text, if it has one. */
export function gameName(text) {
  try {
    const name = JSON.parse(text)?.name;
    return typeof name === "string" ? name : null;
  } catch {
    return null;
  }
}
