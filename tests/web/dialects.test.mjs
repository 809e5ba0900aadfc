// Dialects against their tools (issue 44): a corpus of dice strings in each
// dialect's own notation, each compared with an independent reading.
// - rpg-dice-roller: its own seeded rolls (the npm package), compared with the
//   exact mean fairdice gives under `dialect: "rpg-dice-roller"` within 5
//   standard errors; and where fairdice's own reading of the string is clearly
//   another distribution, a note must say that rpg-dice-roller reads it otherwise.
// - Roll20, Foundry and AnyDice: each string beside the spelling docs/notation.md's
//   table for the tool gives it in fairdice, compared outcome by outcome, counts
//   exact; the strings each table refuses are refused, the difference named.
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { DiceRoll, NumberGenerator } from "@dice-roller/rpg-dice-roller";

const PACKAGE = process.env.FAIRDICE_PACKAGE;
/** Rolls of each string by rpg-dice-roller. */
const ROLLS = 1500;
/** The agreement asked of a sample mean, in standard errors. */
const WITHIN = 5;

let fairdice;
let FairdiceError;
before(async () => {
  ({ FairdiceError } = await import(pathToFileURL(join(PACKAGE, "node.js"))));
  fairdice = await (await import(pathToFileURL(join(PACKAGE, "node.js")))).load();
});

/** A small seeded generator (mulberry32), for the corpus's parameters. */
function generator(seed) {
  let a = seed >>> 0;
  return (lo, hi) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const r = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return lo + Math.floor(r * (hi - lo + 1));
  };
}

/**
 * rpg-dice-roller's forms, each a function of a parameter draw giving a string;
 * `refused` marks the forms fairdice must refuse (naming the difference).
 */
const DICE_ROLLER_FORMS = [
  { form: (p) => `${p.n}d${p.f}` },
  { form: (p) => `${p.n}d${p.f}+${p.c}` },
  { form: (p) => `${p.n}d${p.f}-${p.c}` },
  { form: (p) => `${p.n}d${p.f}*${p.c}` },
  { form: (p) => `${p.n}d${p.f}>${p.t}` },
  { form: (p) => `${p.n}d${p.f}>=${p.t}` },
  { form: (p) => `${p.n}d${p.f}<${p.t}` },
  { form: (p) => `${p.n}d${p.f}<=${p.t}` },
  { form: (p) => `${p.n}d${p.f}=${p.t}` },
  { form: (p) => `${p.n}d${p.f}kh${p.k}` },
  { form: (p) => `${p.n}d${p.f}kl${p.k}` },
  { form: (p) => `${p.n}d${p.f}dh${p.k}` },
  { form: (p) => `${p.n}d${p.f}dl${p.k}` },
  { form: (p) => `${p.n}d${p.f}d${p.k}` },
  { form: (p) => `${p.n}d${p.f}k${p.k}` },
  { form: (p) => `${p.n}d${p.f}kh${p.k}kl${p.j}` },
  { form: (p) => `${p.n}d${p.f}dl${p.k}dh${p.j}` },
  { form: (p) => `${p.n}d${p.f}kl${p.k}dl${p.j}` },
  { form: (p) => `${p.n}d${p.f}!` },
  { form: (p) => `${p.n}d${p.f}!!` },
  { form: (p) => `${p.n}d${p.f}!p` },
  // Explosions on the top two faces at most: the chance of a chain longer
  // than fairdice's 9 extra rolls (rpg-dice-roller's is 1,000) stays below 0.1%.
  { form: (p) => `${p.n}d${p.f}!>=${p.f - 1}` },
  { form: (p) => `d${p.f}!=${p.f - 1}` },
  { form: (p) => `${p.n}d${p.f}cs>=${p.t}` },
  { form: (p) => `${p.n}d${p.f}cf<${p.t}` },
  { form: (p) => `${p.n}d${p.f}min${p.m}` },
  { form: (p) => `${p.n}d${p.f}max${p.m}` },
  { form: (p) => `${p.n}d${p.f}r<${p.t}` },
  { form: (p) => `${p.n}d${p.f}ro<${p.t}` },
  { form: (p) => `${p.n}d${p.f}max${p.m}!` },
  { form: (p) => `d${p.f}!max${p.f - 1}` },
  { form: (p) => `{${p.n}d${p.f}+${p.c}}dl1` },
  { form: (p) => `{${p.n}d${p.f}, ${p.j}d${p.g}}kh1` },
  { form: (p) => `(${p.n}d${p.f}+${p.c})*2` },
  { form: (p) => `${p.n}d${p.f}%${p.k + 1}` },
  { form: (p) => `floor(${p.n}d${p.f}/${p.k + 1})` },
  { form: (p) => `ceil(${p.n}d${p.f}/${p.k + 1})` },
  { form: (p) => `round(${p.n}d${p.f}/${p.k + 1})` },
  { form: (p) => `${p.n}dF` },
  { form: (p) => `${Math.min(p.n, p.f)}d${p.f}u` },
  { form: (p) => `${Math.min(p.n, p.f)}d${p.f}u + ${p.c}` },
  // Unique dice walked over the multisets rolled (a condition, `uo`, keeps):
  // small dice, so that each string is computed in milliseconds.
  { form: (p) => `${p.n}d${p.g}uo` },
  { form: (p) => `${p.n}d${p.g}u=${Math.min(p.t, p.g)}` },
  { form: (p) => `${p.n}d${p.g}uo>${Math.min(p.t, p.g - 1)}` },
  { form: (p) => `${Math.min(p.n, p.g)}d${p.g}ukh${p.k}` },
  { form: (p) => `${Math.min(p.n, p.g)}d${p.g}kh${p.k}u` },
  { form: (p) => `${p.n}d${p.g}uodl${p.k}` },
  { form: (p) => `${p.n}d${p.g}uo<=2cs>=${Math.min(p.t, p.g)}` },
  // Rerolls after an explosion: each die it made rolled again, not exploding.
  { form: (p) => `${p.n}d${p.f}!r<${p.t}` },
  { form: (p) => `${p.n}d${p.f}!ro=1` },
  { form: (p) => `${p.n}d${p.f}!pr<${p.t}` },
  { form: (p) => `${p.n}d${p.g}!r=1kh${p.k}` },
  { form: (p) => `${p.n}d${p.f}r` },
  { form: (p) => `${p.g + 1}d${p.g}u`, refused: "cannot all differ" },
  { form: (p) => `${p.n}d${p.f}min${p.m}!`, refused: "first roll clamped" },
  { form: (p) => `${p.n}d${p.f}!!r<${p.t}`, refused: "one plain roll" },
  { form: (p) => `${p.n}d${p.f}max${p.m}r=${p.m}`, refused: "bare die" },
  { form: (p) => `${p.n}d${p.f}/${p.k + 1}`, refused: "divides exactly" },
  { form: (p) => `{${p.n}d${p.f}-d${p.g}}dl1`, refused: "cannot write" },
];

/** Parameters for one string: n dice of f faces, counts k and j below n, a target t, … */
function draw(random) {
  const f = [4, 6, 8, 10, 12, 20][random(0, 5)];
  const n = random(2, 6);
  return {
    n,
    f,
    g: [4, 6, 8][random(0, 2)],
    c: random(1, 5),
    t: random(2, f - 1),
    k: random(1, n - 1),
    j: random(1, n - 1),
    m: random(2, f - 1),
  };
}

/** fairdice's document of `expression`, or the refusal's message. */
function dist(expression, options = {}) {
  try {
    return { report: fairdice.dist(expression, options) };
  } catch (error) {
    if (!(error instanceof FairdiceError)) throw error;
    return { refused: error.message };
  }
}

function sampleMean(expression) {
  let sum = 0;
  for (let i = 0; i < ROLLS; i++) sum += new DiceRoll(expression).total;
  return sum / ROLLS;
}

test("rpg-dice-roller: 360 strings rolled by rpg-dice-roller agree with fairdice's reading in that dialect, and a note names every clearly different own reading", () => {
  NumberGenerator.generator.engine = NumberGenerator.engines.MersenneTwister19937.seed(44);
  const random = generator(44);
  const corpus = [];
  for (let i = 0; corpus.length < 360; i++) {
    const { form, refused } = DICE_ROLLER_FORMS[i % DICE_ROLLER_FORMS.length];
    corpus.push({ text: form(draw(random)), refused });
  }
  const tally = { agree: 0, refused: 0, alike: 0, noted: 0 };
  const failures = [];
  for (const { text, refused } of corpus) {
    const read = dist(text, { dialect: "rpg-dice-roller" });
    if (refused) {
      if (!read.refused?.includes(refused)) failures.push(`${text}: expected a refusal naming "${refused}", got ${JSON.stringify(read)}`);
      tally.refused++;
      continue;
    }
    if (read.refused) {
      failures.push(`${text}: refused: ${read.refused}`);
      continue;
    }
    const mean = sampleMean(text);
    const error = read.report.sd / Math.sqrt(ROLLS);
    const off = Math.abs(mean - read.report.mean);
    if (off > WITHIN * error + 1e-9) {
      failures.push(`${text} (read as ${read.report.expression}): rpg-dice-roller's mean ${mean}, exact ${read.report.mean} (${(off / error).toFixed(1)} standard errors)`);
      continue;
    }
    tally.agree++;
    // fairdice's own reading of the same string.
    const own = dist(text);
    if (own.refused) continue;
    const noted = (own.report.other_readings ?? []).some((r) => r.tools.includes("rpg-dice-roller"));
    const ownOff = Math.abs(mean - own.report.mean);
    if (ownOff > 8 * error + 1e-9 && !noted) {
      failures.push(`${text}: fairdice's own mean ${own.report.mean} against rpg-dice-roller's ${mean}, and no note says so`);
    }
    if (noted) tally.noted++;
    else tally.alike++;
  }
  console.log(`rpg-dice-roller corpus: ${JSON.stringify(tally)}`);
  assert.deepEqual(failures, []);
  assert.equal(tally.agree + tally.refused, corpus.length);
});

/**
 * Roll20's forms beside their spelling in fairdice (docs/notation.md, the Roll20
 * table of "Dialects" and the conversion table).
 */
const ROLL20_FORMS = [
  (p) => [`${p.n}d${p.f}>${p.t}`, `${p.n}d${p.f}cs>=${p.t}`],
  (p) => [`${p.n}d${p.f}<${p.t}`, `${p.n}d${p.f}cs<=${p.t}`],
  (p) => [`${p.n}d${p.f}=${p.t}`, `${p.n}d${p.f}cs=${p.t}`],
  (p) => [`${p.n}d${p.f}>${p.t}f1`, `${p.n}d${p.f}cs>=${p.t}df=1`],
  (p) => [`${p.n}d${p.f}>${p.t}f<${p.k}`, `${p.n}d${p.f}cs>=${p.t}df<=${p.k}`],
  (p) => [`d${p.f}!>${Math.max(p.t, 2)}`, `d${p.f}!>=${Math.max(p.t, 2)}`],
  (p) => [`${p.n}d${p.f}!>${p.f - 1}`, `${p.n}d${p.f}!>=${p.f - 1}`],
  (p) => [`${p.n}d${p.f}r<${Math.min(p.k, p.f - 1)}`, `${p.n}d${p.f}r<=${Math.min(p.k, p.f - 1)}`],
  (p) => [`${p.n}d${p.f}ro<${p.k}`, `${p.n}d${p.f}ro<=${p.k}`],
  (p) => [`${p.n}d${p.f}d${p.k}`, `${p.n}d${p.f}dl${p.k}`],
  (p) => [`${p.n}d${p.f}k${p.k}`, `${p.n}d${p.f}kh${p.k}`],
  (p) => [`${p.n}d${p.f}kl${p.k}`, `${p.n}d${p.f}kl${p.k}`],
  (p) => [`${p.n}d${p.f}!!`, `${p.n}d${p.f}!!`],
  (p) => [`${p.n}d${p.f}!p`, `${p.n}d${p.f}!p`],
  (p) => [`[[${p.n}d${p.f}+${p.c}]]`, `${p.n}d${p.f}+${p.c}`],
  (p) => [`${p.n}d${p.f} [damage] + ${p.c}`, `${p.n}d${p.f} + ${p.c}`],
  (p) => [`d20cs>${p.t} + ${p.c}`, `d20 + ${p.c}`],
  (p) => [`${p.n}d${p.f}sd`, `${p.n}d${p.f}`],
  (p) => [`floor(${p.n}d${p.f}/${p.k + 1})`, `floor(${p.n}d${p.f}/${p.k + 1})`],
  (p) => [`{${p.n}d${p.f}+${p.j}d${p.g}}k${p.k}`, `{${p.n}d${p.f}+${p.j}d${p.g}}kh${p.k}`],
  (p) => [`{d20+${p.c}, ${p.t + 5}}kh1`, `max(d20+${p.c}, ${p.t + 5})`],
  (p) => [`${p.n}d${p.f}!r<${p.t}`, null, "does not document"],
];

/**
 * The failures of `count` strings of `forms` (seeded by `seed`) read in
 * `dialect`: each must equal its documented spelling outcome by outcome, counts
 * exact, or, where the spelling is `null`, be refused naming `refusal`.
 */
function spellingFailures(forms, dialect, seed, count) {
  const random = generator(seed);
  const failures = [];
  for (let i = 0; i < count; i++) {
    const [text, spelling, refusal] = forms[i % forms.length](draw(random));
    const read = dist(text, { dialect });
    if (spelling === null) {
      if (!read.refused?.includes(refusal)) failures.push(`${text}: expected a refusal naming "${refusal}", got ${JSON.stringify(read).slice(0, 200)}`);
      continue;
    }
    const expected = dist(spelling);
    if (read.refused || expected.refused) {
      failures.push(`${text}: ${read.refused ?? ""} / ${spelling}: ${expected.refused ?? ""}`);
      continue;
    }
    const rows = (report) => report.outcomes.map((o) => [o.outcome, o.count]);
    if (JSON.stringify(rows(read.report)) !== JSON.stringify(rows(expected.report))) {
      failures.push(`${text} (read as ${read.report.expression}) differs from ${spelling}`);
    }
    assert.equal(read.report.dialect.written, text);
  }
  return failures;
}

test("Roll20: 320 strings read as the documented spelling, outcome by outcome, or refused naming the difference", () => {
  assert.deepEqual(spellingFailures(ROLL20_FORMS, "roll20", 20, 320), []);
});

/**
 * Foundry's and AnyDice's forms beside their spelling in fairdice (docs/notation.md,
 * the Foundry and AnyDice tables of "Dialects"); `null` where the dialect refuses
 * the string and the message must name the difference.
 */
const FOUNDRY_FORMS = [
  (p) => [`${p.n}d${p.f}r${p.k}`, `${p.n}d${p.f}ro${p.k}`],
  (p) => [`${p.n}d${p.f}r<${p.t}`, `${p.n}d${p.f}ro<${p.t}`],
  (p) => [`${p.n}d${p.f}rr<${p.t}`, `${p.n}d${p.f}r<${p.t}`],
  (p) => [`${p.n}d${p.f}d`, `${p.n}d${p.f}dl`],
  (p) => [`${p.n}d${p.f}d${p.k}`, `${p.n}d${p.f}dl${p.k}`],
  (p) => [`${p.n}d${p.f}kh${p.k}`, `${p.n}d${p.f}kh${p.k}`],
  (p) => [`${p.n}d${p.f}kl${p.k}`, `${p.n}d${p.f}kl${p.k}`],
  (p) => [`${p.n}d${p.f}cs>=${p.t}`, `${p.n}d${p.f}cs>=${p.t}`],
  (p) => [`${p.n}d${p.f}cs>${p.t}df=1`, `${p.n}d${p.f}cs>${p.t}df=1`],
  (p) => [`${p.n}d${p.f}x`, `${p.n}d${p.f}!`],
  (p) => [`${p.n}d${p.f}xo`, `${p.n}d${p.f}xo`],
  (p) => [`${p.n}d${p.f}x>=${p.f - 1}`, `${p.n}d${p.f}!>=${p.f - 1}`],
  (p) => [`${p.n}d${p.f}min${p.m}`, `${p.n}d${p.f}min${p.m}`],
  (p) => [`${p.n}d${p.f}max${p.m}`, `${p.n}d${p.f}max${p.m}`],
  (p) => [`${p.n}d${p.f}even`, `${p.n}d${p.f}even`],
  (p) => [`floor(${p.n}d${p.f}/${p.k + 1})`, `floor(${p.n}d${p.f}/${p.k + 1})`],
  (p) => [`${p.n}d${p.f}/${p.k + 1}`, null, "divides exactly"],
  (p) => [`(d${p.f}-${p.t}) % ${p.k + 1}`, null, "sign of the dividend"],
  (p) => [`(@level)d${p.f}`, null, "@level"],
  (p) => [`${p.n}d${p.f}xr1`, `${p.n}d${p.f}!ro1`],
  (p) => [`${p.n}d${p.f}xrr<${p.t}`, `${p.n}d${p.f}!r<${p.t}`],
  (p) => [`${p.n}d${p.f}xmin${p.m}`, `${p.n}d${p.f}!min${p.m}`],
  (p) => [`${p.n}d${p.f}min${p.m}x`, null, "as rolled"],
  (p) => [`${p.n}d${p.f}max${p.m}cs>=${p.t}`, null, "as rolled"],
  (p) => [`${p.n}d${p.f}r<${p.t}x`, null, "only the dice first rolled"],
];

const ANYDICE_FORMS = [
  (p) => [`output ${p.n}d${p.f} named "damage"`, `${p.n}d${p.f}`],
  (p) => [`output ${p.n}d${p.f}+${p.c}`, `${p.n}d${p.f}+${p.c}`],
  (p) => [`[highest ${p.k} of ${p.n}d${p.f}]`, `{${p.n}d${p.f}}kh${p.k}`],
  (p) => [`[lowest ${p.k} of ${p.n}d${p.f}]`, `{${p.n}d${p.f}}kl${p.k}`],
  (p) => [`[highest 1 of d${p.f} and d${p.g}]`, `{d${p.f}, d${p.g}}kh1`],
  (p) => [`${p.n}d${p.f} = ${p.t + p.n}`, `${p.n}d${p.f} == ${p.t + p.n}`],
  (p) => [`${p.n}d${p.f} >= ${p.t + p.n}`, `${p.n}d${p.f} >= ${p.t + p.n}`],
  (p) => [`d${p.f}/${p.k + 1}`, `d${p.f}/${p.k + 1}`],
  (p) => [`${p.n}d${p.f}*${p.c}-${p.k}`, `${p.n}d${p.f}*${p.c}-${p.k}`],
  (p) => [`(d${p.f}-${p.f})/${p.k + 1}`, null, "toward zero"],
];

for (const [name, dialect, forms, seed] of [
  ["Foundry", "foundry", FOUNDRY_FORMS, 70],
  ["AnyDice", "anydice", ANYDICE_FORMS, 80],
]) {
  test(`${name}: 100 strings read as the documented spelling, outcome by outcome, or refused naming the difference`, () => {
    assert.deepEqual(spellingFailures(forms, dialect, seed, 100), []);
  });
}

test("a dialect that does not exist is refused with the list", () => {
  assert.throws(() => fairdice.dist("d6", { dialect: "roll21" }), (error) => {
    assert.match(error.message, /the dialects are fairdice, roll20, foundry, rpg-dice-roller, anydice/);
    return true;
  });
});
