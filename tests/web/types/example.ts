// The package's TypeScript declarations in use: every function with its options
// and reports type-checks, and wrong uses are rejected (each `@ts-expect-error`
// fails the check if the line below it is accepted).
import { FairdiceError, Randomizer, load, type BattleReport, type DistributionReport } from "../../../packages/fairdice/index.js";

const fairdice = await load();

const stat: DistributionReport = fairdice.dist("4d6kh3", { runs: null, seed: 7n, explode_depth: 9 });
if (stat.method === "exact") {
  const mean: string = stat.mean_exact;
  console.log(mean);
} else {
  const error: number = stat.mean_standard_error;
  console.log(error);
}
const counts: string[] = stat.outcomes.map((o) => o.count);

const rolled = fairdice.roll("4d6kh3", { times: 2, seed: "18446744073709551615" });
const kept: boolean = rolled.rolls[0].terms[0].dice[0].counted;

const contest = fairdice.contest("5d6", "4d6+1d8", { pairing: "sorted", ties: "a-wins" });
const bias: number = contest.win_bias;
const battle: BattleReport = fairdice.risk(10, 10, { rule: "official", per_roll: true, table: 5, runs: 100 });
const exact: string | null = battle.p_attacker_wins_exact;

const drawn = fairdice.sample("deck(values=6)", { samples: 12, seed: 1, save: true });
const resumed = fairdice.sample({ session: drawn.session ?? "" }, { samples: 3 });
const next = fairdice.next({ spec: "fair(base=2d6, tightness=1)" }, ["2", "4", "7", "7"]);
const state = fairdice.state(drawn.session ?? "");
const prd = fairdice.prd(0.25, { limit: 10 });
const featured: number | null = fairdice.goal({ layers: [{ name: "pity", counter: 2, draw: { hit: "n == 1 ? 1 : 1/2", miss: "rest" }, next: { hit: 0, miss: "n + 1" } }] }, ["hit"], { budget: 2 }).mean;
const analysis = fairdice.analyze("dynamic(values=6, decrease=0.355)", 25, { droughts: false, runs: 1000 });
const steps: number = analysis.steps.length;
const tuned = fairdice.tune({ values: 6, samples: "25", min_entropy: 0.9, systems: ["deck", "dynamic"] });
const fairest: string | null = tuned.fairest;
const seated = fairdice.seats({ players: ["red", "blue"], turns: true, payoffs: { "6": [1, 0], "8": [0, 1] } }, "dice(base=2d6)", 30, { runs: 2000, shares: [0.5] });
const grown: number[] = seated.all_rolls.players[0].expected_by_roll;
const spread: number | undefined = seated.own_turns?.spread.error;
const { charts } = fairdice.charts("dist", { expression: "3d6" }, { measures: ["at_least"], width: 360 });
const svg: string = charts[0].svg;

const bag: Randomizer = fairdice.randomizer("bag(min=1, max=6, sets=1)", { seed: 42n });
const piece: number | string = bag.next();
const both: { value: number; label: string } = bag.nextOutcome();
const saved: string = bag.save();
const again = fairdice.randomizer({ session: saved });
const chances: number = again.nextDistribution().outcomes[0].probability;
const seed: bigint | null = again.seed;
bag.free();

try {
  fairdice.dist("4d6kh3y");
} catch (error) {
  if (error instanceof FairdiceError) console.log(error.kind, error.rendered, error.suggestion?.command);
}

// @ts-expect-error: an expression is text.
fairdice.dist(36);
// @ts-expect-error: no such tie rule.
fairdice.contest("3d6", "3d6", { ties: "draw" });
// @ts-expect-error: armies are numbers.
fairdice.risk("10", 10);
// @ts-expect-error: unknown option.
fairdice.dist("3d6", { rolls: 10 });
// @ts-expect-error: a randomizer takes a count.
bag.take("3");
// @ts-expect-error: randomizers are opened with fairdice.randomizer().
new Randomizer();
// @ts-expect-error: a game has players.
fairdice.seats({ payoffs: {} }, "dice(values=6)", 10);

console.log(counts, kept, bias, exact, resumed, next, state, prd, featured, steps, fairest, svg, grown, spread, piece, both, chances, seed);
