// Per-draw time of the npm package's randomizer object against plain JavaScript
// doing the same job in the same process: a dice bag written the way games write
// one (an array of min..max per set, shuffled with Math.random when it runs out),
// and a fair die from Math.random. Run after scripts/build-npm.sh:
//
//   node benches/wasm/draws.mjs [--draws N] [--rounds R]
//
// Each round times N draws of each contender, the contenders taking turns; the
// table shows the median nanoseconds a draw and fairdice's ratio to the plain code.
import { load } from "../../packages/fairdice/node.js";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const DRAWS = option("--draws", 1_000_000);
const ROUNDS = option("--rounds", 15);

/** A dice bag as a game writes it: `sets` copies of min..max, reshuffled when empty. */
class PlainBag {
  constructor(min, max, sets) {
    this.min = min;
    this.max = max;
    this.sets = sets;
    this.left = [];
  }

  refill() {
    for (let s = 0; s < this.sets; s += 1) {
      for (let v = this.min; v <= this.max; v += 1) this.left.push(v);
    }
    for (let i = this.left.length - 1; i > 0; i -= 1) {
      const j = Math.floor(Math.random() * (i + 1));
      [this.left[i], this.left[j]] = [this.left[j], this.left[i]];
    }
  }

  getRoll() {
    if (this.left.length === 0) this.refill();
    return this.left.pop();
  }
}

const fairdice = await load();

/** Nanoseconds a draw over `DRAWS` calls of `draw`; the sum keeps the calls alive. */
function time(draw) {
  let sum = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < DRAWS; i += 1) sum += draw();
  const ns = Number(process.hrtime.bigint() - start) / DRAWS;
  if (sum === -1) console.log(sum);
  return ns;
}

const median = (xs) => xs.toSorted((a, b) => a - b)[Math.floor(xs.length / 2)];

const pairs = [
  {
    name: "dice bag 1..6, one set",
    plain: () => {
      const bag = new PlainBag(1, 6, 1);
      return () => bag.getRoll();
    },
    fairdice: () => {
      const bag = fairdice.randomizer("bag(min=1, max=6, sets=1)", { seed: 1 });
      return () => bag.next();
    },
  },
  {
    name: "fair die d6",
    plain: () => () => Math.floor(Math.random() * 6) + 1,
    fairdice: () => {
      const die = fairdice.randomizer("dice(values=6)", { seed: 1 });
      return () => die.next();
    },
  },
];

console.log(`| what | plain JavaScript (ns a draw) | fairdice \`randomizer().next()\` (ns a draw) | ratio |`);
console.log(`|---|---:|---:|---:|`);
for (const pair of pairs) {
  const plain = pair.plain();
  const ours = pair.fairdice();
  // Warm both up: V8 optimizes a loop only after it has run a while.
  time(plain);
  time(ours);
  const times = { plain: [], ours: [] };
  for (let r = 0; r < ROUNDS; r += 1) {
    times.plain.push(time(plain));
    times.ours.push(time(ours));
  }
  const [a, b] = [median(times.plain), median(times.ours)];
  console.log(`| ${pair.name} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(b / a).toFixed(2)} |`);
}
