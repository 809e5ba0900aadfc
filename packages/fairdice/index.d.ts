// Types of the fairdice package: the request options of each use case and the
// report documents it returns (the documents `fairdice … --json` prints). Exact
// counts and totals are decimal strings, exact probabilities "p/q" fractions.

/** A count or total written out exactly, e.g. `"1296"`. */
export type DecimalCount = string;
/** An exact fraction `"p/q"`, e.g. `"15869/1296"`. */
export type Fraction = string;
/** A 64-bit seed: a number up to 2^53, a bigint, or a decimal string. */
export type Seed = number | bigint | string;

/** The use-case layer's error document. */
export interface ErrorDocument {
  /** A stable code: `parse`, `invalid`, `not_a_pool`, `invalid_input`, `bad_request`, `too_big`, `cancelled`, `internal`. */
  kind: string;
  category: "invalid" | "too_large" | "cancelled" | "internal";
  message: string;
  /** The message as the command line prints it: for an expression, a caret line under the part at fault. */
  rendered: string;
  span: { start: number; end: number } | null;
  expression: string | null;
  hint: string | null;
  /** A request that answers instead and finishes: a Monte Carlo estimate sized to take seconds. */
  suggestion: { use_case: string; request: Record<string, unknown>; command: string } | null;
}

/** Thrown when a use case refuses a request. */
export declare class FairdiceError extends Error {
  readonly kind: string;
  readonly category: ErrorDocument["category"];
  readonly rendered: string;
  readonly suggestion: ErrorDocument["suggestion"];
  readonly error: ErrorDocument;
}

// ---- dist and roll ----

export interface DistOptions {
  /** Estimate from this many seeded rolls instead of computing exactly. */
  runs?: number | null;
  seed?: Seed;
  /** Extra rolls an exploding die may make (default 9). */
  explode_depth?: number;
  /** Read the expression as this dice tool reads it (default "fairdice"). */
  dialect?: Dialect;
}

/** The dice tools whose strings can be read as they read them. */
export type Dialect = "fairdice" | "roll20" | "foundry" | "rpg-dice-roller" | "anydice";

/** How a dialect read an expression: `expression` is its reading written in fairdice. */
export interface Translation {
  dialect: Dialect;
  written: string;
  expression: string;
  /** Each part read otherwise: as written, its fairdice spelling, and what the tool does. */
  changes: { written: string; reads_as: string; why: string }[];
  /** All of it in one line, as every front-end shows it. */
  note: string;
}

export interface OutcomeRow {
  /** The outcome; for a tuple (`(count(p, 5, 6), count(p, 1))`), its values. */
  outcome: number | number[];
  count: DecimalCount;
  probability: number;
  /** P(X ≤ outcome) and P(X ≥ outcome). */
  at_most: number;
  at_least: number;
  /** The outcome's label, for an expression with labels (`as {…}`); outcomes then number the labels from 0. */
  label?: string;
}

/** A part of an expression another dice tool reads differently. */
export interface OtherReading {
  /** The part as written, and where it is (bytes). */
  text: string;
  span: [number, number];
  /** The tools that read it otherwise, e.g. "rpg-dice-roller", "Roll20". */
  tools: string[];
  there: string;
  here: string;
  /** Their reading written in fairdice, where the language can. */
  spelling?: string;
  /** All of it in one line, as every front-end shows it. */
  note: string;
}

/** One value of a tuple, alone. */
export interface ValueSummary {
  expression: string;
  mean: number;
  mean_exact: Fraction | null;
  sd: number;
  variance_exact: Fraction | null;
  min: number;
  max: number;
}

interface DistributionCommon {
  expression: string;
  /** For a tuple: each value alone (mean, sd, min and max above are the first value's). */
  values?: ValueSummary[];
  /** Parts another dice tool reads differently (absent when none does). */
  other_readings?: OtherReading[];
  /** How the request's dialect read the expression (absent for fairdice's own reading). */
  dialect?: Translation;
  /** Equally likely rolls (exact), or rolls made (estimate). */
  total: DecimalCount;
  outcomes: OutcomeRow[];
  mean: number;
  sd: number;
  min: number;
  max: number;
  /** The smallest outcome with P(X ≤ x) ≥ 1/2. */
  median: number;
}

export interface ExactDistribution extends DistributionCommon {
  method: "exact";
  mean_exact: Fraction;
  variance_exact: Fraction;
  /** Present when an explosion was cut at this many extra rolls per die. */
  explode_depth?: number;
  /** What the total counts when not rolls of dice alone: deals of cards, or both. */
  counted?: "deals" | "rolls_and_deals";
}

export interface EstimatedDistribution extends DistributionCommon {
  method: "monte_carlo";
  mean_exact: null;
  variance_exact: null;
  runs: number;
  seed: number;
  mean_standard_error: number;
}

export type DistributionReport = ExactDistribution | EstimatedDistribution;

export interface RollOptions {
  /** Rolls to make (default 1). */
  times?: number;
  /** The same seed gives the same rolls on every platform; a fresh one is picked when left out. */
  seed?: Seed;
  explode_depth?: number;
  /** Read the expression as this dice tool reads it (default "fairdice"). */
  dialect?: Dialect;
}

export interface RollReport {
  expression: string;
  seed: number;
  /** Parts another dice tool reads differently (absent when none does). */
  other_readings?: OtherReading[];
  /** How the request's dialect read the expression (absent for fairdice's own reading). */
  dialect?: Translation;
  rolls: {
    value: number;
    /** The value's label (`as {…}`), or a tuple as shown: `(3, 1)`. */
    label?: string;
    /** For a tuple, each of its values (`value` is then the first). */
    values?: number[];
    terms: {
      term: string;
      /** A dice term, a group (`{d8!, d6!}kh1`) or a repetition (`6#(4d6kh3)`). */
      kind: "dice" | "group" | "repeat";
      value: number;
      dice: { value: number; rolls: number[]; counted: boolean; /** Added by an explosion (each extra roll is a die). */ extra: boolean }[];
    }[];
    /** Every binding rolled (`[r = d20] …`), in the order rolled. */
    names: { name: string; binding: string; value: number }[];
  }[];
}

// ---- contests and Risk ----

export interface ContestOptions {
  pairing?: "sorted" | "unsorted";
  ties?: "stand" | "a-wins" | "b-wins" | "reroll";
  runs?: number | null;
  seed?: Seed;
  /** Read both pools as this dice tool reads them (default "fairdice"). */
  dialect?: Dialect;
}

export interface ContestReport {
  a: string;
  b: string;
  pairing: "sorted" | "unsorted";
  ties: "stand" | "a-wins" | "b-wins" | "reroll";
  pairs: number;
  win_bias: number;
  tie_percent: number;
  /** `null` when the net score is always 0. */
  closeness: number | null;
  p_a_wins: number;
  p_a_wins_exact: Fraction;
  p_tie: number;
  p_tie_exact: Fraction;
  p_b_wins: number;
  p_b_wins_exact: Fraction;
  mean_square_exact: Fraction;
  net: { score: number; count: DecimalCount; probability: number }[];
  total: DecimalCount;
  method: "exact" | "monte_carlo";
  runs?: number;
  seed?: number;
  win_bias_standard_error?: number;
  tie_percent_standard_error?: number;
  closeness_standard_error?: number;
  /** The dice each side rolls. */
  a_dice: number;
  b_dice: number;
}

export interface RiskOptions {
  rule?: "simple" | "official";
  faces?: number;
  attacker_dice?: number;
  defender_dice?: number;
  /** Include the one-roll tables. */
  per_roll?: boolean;
  /** Include P(attacker wins) for A, D = 1..table. */
  table?: number | null;
  /** Solve in floating point even where exact fractions are affordable. */
  float?: boolean;
  /** Also fight this many battles by seeded Monte Carlo (`simulate` is read as this too). */
  runs?: number | null;
  seed?: Seed;
}

export interface BattleReport {
  attacker: number;
  defender: number;
  rule: "simple" | "official";
  faces: number;
  attacker_dice: number;
  defender_dice: number;
  method: "exact" | "float";
  p_attacker_wins: number;
  p_attacker_wins_exact: Fraction | null;
  attacker_survivors_if_win: number;
  defender_survivors_if_win: number;
  expected_losses: { attacker: number; defender: number };
  attacker_survivors: { armies: number; probability: number }[];
  defender_survivors: { armies: number; probability: number }[];
  simulation?: { runs: number; seed: number; attacker_wins: number; p_attacker_wins: number; interval95: [number, number] };
  table?: number[][];
  per_roll?: {
    attacker_dice: number;
    defender_dice: number;
    total: DecimalCount;
    outcomes: { attacker_loses: number; defender_loses: number; count: DecimalCount; probability: number }[];
  }[];
  /** The setup in words, as every front-end shows it. */
  setup: string;
  /** Why the battle was solved in floating point (absent when exact). */
  float_reason?: string;
}

// ---- randomizers ----

/** A randomizer: its spec (`"deck(values=6)"`), or a saved session to continue. */
/** A machine document (docs/machines.md): the game's own randomizer as layers of states. */
export interface MachineDocument {
  name?: string;
  about?: string;
  outcomes?: (string | number)[];
  layers: Record<string, unknown>[];
}

export type Source = string | MachineDocument | { spec: string } | { session: string };

export interface SampleOptions {
  /** Outcomes to draw (default 10; `count` is read as this too). */
  samples?: number;
  seed?: Seed;
  /** Also return the session after the draws (`session`), to continue later. */
  save?: boolean;
}

export interface SampleReport {
  spec: string;
  /** The seed of a fresh randomizer; null when a saved session continued. */
  seed: number | null;
  /** Outcomes drawn, in order. */
  samples: number[];
  /** Their names, for randomizers with named outcomes (Tetris pieces). */
  labels?: string[];
  /** The session after the draws (its saved JSON document), when asked for. */
  session?: string;
}

export interface RandomizerOptions {
  /** The generator's seed: the same seed draws what `fairdice sample SPEC --seed S` draws; a fresh one is picked when left out. */
  seed?: Seed;
}

/** One outcome of a randomizer: its value and its name (a value's name is its digits). */
export interface RandomizerOutcome {
  value: number;
  label: string;
}

/**
 * A randomizer kept inside the WebAssembly module, for game loops: `next()` draws
 * without JSON. Release it with `free()` (the garbage collector releases an
 * unreachable one too).
 */
export declare class Randomizer {
  private constructor();
  /** The generator's seed; null when a saved session was continued. */
  readonly seed: bigint | null;
  /** The next outcome: its value, or its name for a family that names its outcomes. */
  next(): number | string;
  /** The next outcome with both its value and its name. */
  nextOutcome(): RandomizerOutcome;
  /** The next `n` outcomes, as `next()` gives them. */
  take(n: number): (number | string)[];
  /** The session text `fairdice sample --save` writes; `randomizer({ session })` continues it. */
  save(): string;
  readonly spec: string;
  /** Outcomes drawn in this session, saves included. */
  readonly draws: number;
  /** Every outcome it can give. */
  readonly outcomes: RandomizerOutcome[];
  /** The chance of each outcome next. */
  nextDistribution(): NextReport;
  /** Releases its memory now; any later call throws a FairdiceError. */
  free(): void;
}

export interface NextOutcome {
  outcome: number;
  probability: number;
  label?: string;
}

export interface NextReport {
  spec: string;
  history: string[];
  outcomes: NextOutcome[];
}

export interface GoalOptions {
  /** How many draws of the outcomes (default 1). */
  times?: number;
  /** Each outcome of `until` (every outcome when it is empty) at least once instead. */
  every?: boolean;
  /** The attempts the player has: the report gives the chance within them. */
  budget?: number;
  /** Outcomes drawn before counting starts, oldest first (`"3-star*73"` repeats). */
  history?: string[] | string;
  /** Tabulate at most this many attempts (default 1000). */
  limit?: number;
  /** Exact, or an error (no Monte Carlo fallback). */
  exact?: boolean;
  /** Estimate by Monte Carlo with this many runs. */
  runs?: number;
  seed?: Seed;
}

export interface GoalReport {
  spec: string;
  name?: string;
  goal: string;
  until: string[];
  history: string[];
  /** Where a machine stood, each layer and its state (`"pity: n = 73"`). */
  start: string[];
  method: { method: "exact"; states: number } | { method: "monte_carlo"; runs: number; seed: number };
  ever: number;
  mean: number | null;
  sd: number | null;
  mean_error?: number;
  /** The mean as an exact fraction `"p/q"` (a machine's goal certain by some attempt). */
  mean_exact?: string;
  certain_by: number | null;
  percentiles: { chance: number; attempts: number | null }[];
  budget?: {
    attempts: number;
    chance: number;
    expected_hits?: number;
    chance_exact?: string;
    expected_hits_exact?: string;
  };
  attempts: { attempt: number; chance: number; cumulative: number }[];
  truncated: boolean;
}

export interface AuditOptions {
  /** Randomizers to rank by likelihood (default: the spec's usual alternatives). */
  candidates?: (string | MachineDocument)[];
  /** Logs simulated from the randomizer for the tests' p-values (default 2000; 0: no tests). */
  runs?: number;
  seed?: Seed;
}

export interface AuditReport {
  spec: string;
  entries: number;
  /** The natural log-likelihood, each entry given the ones before; null when an entry is impossible. */
  log_likelihood: number | null;
  per_entry: number | null;
  impossible?: { entry: number; outcome: string; reason: string };
  counts: { outcome: string; count: number; expected: number }[];
  method: string;
  /** `method`: "exact" (over every log of this length) or "simulated (N logs, seed S)". */
  tests: { test: "fit" | "drought" | "repeats"; measures: string; statistic: number; p_value: number; method: string }[];
  candidates: { spec: string; log_likelihood: number | null; behind: number | null; impossible_entry?: number }[];
}

export interface StateReport {
  spec: string;
  draws: number;
  state: number[];
  next: NextOutcome[];
}

/** One attempt since the last success: its chance after failures, of the first success there, of one by then. */
export interface AttemptRow {
  attempt: number;
  probability: number;
  first_success: number;
  cumulative: number;
}

export interface PrdReport {
  p: number;
  c: number;
  expected_attempts: number;
  max_attempts: number;
  attempts: AttemptRow[];
  truncated: boolean;
}

// ---- analysis and tuning ----

export interface AnalyzeOptions {
  /** Exact, or an error (no Monte Carlo fallback). */
  exact?: boolean;
  /** Estimate by Monte Carlo with this many runs. */
  runs?: number | null;
  seed?: Seed;
  /** Merged states one step of the exact sweep may hold (`budget` is read as this too). */
  max_states?: number | null;
  /** Also measure droughts (default true). */
  droughts?: boolean;
}

export type Method =
  | { method: "exact"; peak_states: number }
  | { method: "monte_carlo"; runs: number; seed: number };

export type AnalysisReport = Method & {
  spec: string;
  samples: number;
  /** How many outcomes the randomizer has. */
  outcomes: number;
  mean_entropy: number;
  outcome_variance: number;
  /** The counts' deviation from what the base gives, as a chi-square scaled so plain dice read 1. */
  base_deviation: number;
  base_deviation_error?: number;
  /** Per outcome: its chance in the base and its scaled squared deviation. */
  base_deviation_per_outcome: { outcome: number | string; probability: number; deviation: number; error?: number }[];
  repeat_rate: number;
  errors?: { mean_entropy: number; outcome_variance: number; repeat_rate: number };
  steps: { step: number; entropy: number; outcome_variance: number; repeat: number; [error: string]: number }[];
  droughts?: Method & {
    /** Each outcome by value, or by its name for a randomizer that names them (`"fail"`). */
    outcomes: { outcome: number | string; longest_gap: number; gap_exceeds: number[]; [error: string]: unknown }[];
    /** The gaps k whose P(longest gap > k) a table shows. */
    shown_gaps: number[];
  };
  /** PRD and pity: the attempts until a success, from the start. */
  attempts?: {
    outcome: number | string;
    expected_attempts: number | null;
    max_attempts: number | null;
    attempts: AttemptRow[];
    truncated: boolean;
  };
};

export interface TuneOptions {
  /** The faces 1..values of a fair die, or … */
  values?: number | null;
  /** … outcomes weighted by a dice expression, e.g. `"2d6"`. */
  base?: string | null;
  /** `"25"`, `"20..40"` or `"20:1,30:2,40:1"` (default `"25"`). */
  samples?: string;
  min_entropy?: number;
  /** The measure to minimise (default `"outcome_variance"` with `values`, `"base_deviation"` with a `base`). */
  fairness?: "outcome_variance" | "base_deviation" | "seat_spread" | null;
  /** A game (players and payoffs, the `seats` file format): the search then splits a match between its seats fairly (`"seat_spread"`). */
  game?: Record<string, unknown> | null;
  /** Systems to search (default deck and dynamic). */
  systems?: string[];
  /** Custom grids, e.g. `"dynamic(decrease=0.30..0.50 step 0.005)"`, or a machine document (JSON) whose parameters name a `tune` list, optionally followed by `(name=values)`. */
  grids?: string[];
  exact?: boolean;
  runs?: number | null;
  seed?: Seed;
  /** Merged states one step of a candidate's exact sweep may hold (`budget` is read as this too). */
  max_states?: number | null;
  /** List every candidate, not only each system's best. */
  all?: boolean;
}

export interface TuneReport {
  values?: number;
  base?: string;
  /** The machine's name, when the search tuned a machine document's parameters (its grid). */
  machine?: string;
  samples: number | { distribution: string; lengths: { samples: number; weight: number }[] };
  min_entropy: number;
  /** The measure the search minimised. */
  fairness: "outcome_variance" | "base_deviation" | "seat_spread";
  /** The game of a seat search. */
  game?: Record<string, unknown>;
  systems: (Partial<Method> & {
    system: string;
    params: Record<string, number | string> | null;
    spec?: string;
    mean_entropy: number | null;
    /** Standard error of the winner's mean entropy, when it was estimated. */
    mean_entropy_error?: number;
    outcome_variance: number | null;
    /** Standard error of the winner's outcome variance, when it was estimated. */
    outcome_variance_error?: number;
    /** The winner's deviation from the base (a chi-square scaled so plain dice read 1). */
    base_deviation: number | null;
    /** Its standard error, when the winner was estimated. */
    base_deviation_error?: number;
    /** The winner's expected gap between the best and the worst player's totals, in a seat search. */
    seat_spread?: number;
    seat_spread_error?: number;
    /** Whether the winner is certain (every rival measured exactly or ruled out by four standard errors). */
    certain: boolean;
    qualified: number;
    candidates_tried: number;
    candidates?: (Method & { params: Record<string, number | string>; spec: string; mean_entropy: number; mean_entropy_error?: number; outcome_variance: number; outcome_variance_error?: number; base_deviation: number; base_deviation_error?: number; seat_spread?: number; seat_spread_error?: number; qualifies: boolean })[];
    [more: string]: unknown;
  })[];
  fairest: string | null;
  /** What the `plain_dice_*` figures measure: "plain dice" over the same outcomes, or "as written" for a machine's search. */
  baseline: "plain dice" | "as written";
  plain_dice_outcome_variance: number;
  plain_dice_base_deviation: number;
  plain_dice_seat_spread?: number;
  plain_dice_seat_spread_error?: number;
}

// ---- seats: fairness between players ----

/** A game file (docs/seats.md): the players and what each outcome pays each of them. */
export interface Game {
  name?: string;
  /** The seats' names, in turn order (1 to 16). */
  players: string[];
  /** Roll t (from 0) is taken by player t mod players. */
  turns?: boolean;
  /** `"roller"` (with turns): column 0 is the player whose turn it is. */
  columns?: "players" | "roller";
  /** Outcome value → one whole amount (up to 1000) per column. */
  payoffs: Record<string, number[]>;
}

export interface SeatsOptions {
  /** Exact, or an error (no Monte Carlo fallback). */
  exact?: boolean;
  /** Estimate by Monte Carlo with this many runs. */
  runs?: number | null;
  seed?: Seed;
  /** (State, totals) pairs one step of the exact sweep may hold. */
  max_states?: number | null;
  /** The fractions of the fair share a starved player is asked about (default [0.5, 0.75]). */
  shares?: number[];
  /** Also the longest droughts (default true). */
  droughts?: boolean;
}

/** A value and, for a Monte Carlo estimate, its standard error. */
export interface Figure {
  value: number;
  error?: number;
}

export interface PlayerFigures {
  player: string;
  /** What the randomizer's base promises the player over the match. */
  fair_share: number;
  expected_total: Figure;
  /** `totals[k]` = P(total = k). */
  totals: number[];
  totals_errors?: number[];
  longest_drought?: Figure;
  /** At each of the scope's `rolls`: the fair share so far, the expected total, its standard error (Monte Carlo) and its sd. */
  fair_share_by_roll: number[];
  expected_by_roll: number[];
  expected_by_roll_errors?: number[];
  sd_by_roll: number[];
}

export interface SeatFigures {
  scope: "all_rolls" | "own_turns";
  /** The rolls at which the `*_by_roll` figures are given: every roll up to 200, else 200 evenly spaced. */
  rolls: number[];
  players: PlayerFigures[];
  /** E[best player's total − worst player's total]. */
  spread: Figure;
  /** The same spread after each of `rolls`: how the gap between the players grows over the match. */
  spread_by_roll: number[];
  /** Standard errors of `spread_by_roll` (Monte Carlo only). */
  spread_by_roll_errors?: number[];
  /** P(some player ends with at most `share` of their fair share). */
  starved: { share: number; probability: Figure }[];
}

export type SeatsReport = Method & {
  game: { name?: string; players: string[]; turns: boolean; columns: "players" | "roller"; payoffs: Record<string, number[]> };
  spec: string;
  samples: number;
  all_rolls: SeatFigures;
  /** The same over each player's own turns, when the game has turns. */
  own_turns?: SeatFigures;
};

// ---- charts ----

/** How charts are drawn: distribution measures and the width in pixels. */
export interface View {
  measures?: ("probability" | "at_least" | "at_most")[];
  width?: number;
  charts?: boolean;
}

/** A chart as the native app draws it: a name and a standalone SVG document. */
export interface Chart {
  name: string;
  svg: string;
}

export interface Computed {
  results: ({ report: unknown } | { error: ErrorDocument })[];
  charts: Chart[];
}

// ---- the functions ----

export interface Fairdice {
  dist(expression: string, options?: DistOptions): DistributionReport;
  roll(expression: string, options?: RollOptions): RollReport;
  contest(a: string, b: string, options?: ContestOptions): ContestReport;
  risk(attacker: number, defender: number, options?: RiskOptions): BattleReport;
  sample(source: Source, options?: SampleOptions): SampleReport;
  next(source: Source, history?: string[] | string): NextReport;
  state(session: string): StateReport;
  prd(p: number, options?: { limit?: number }): PrdReport;
  /** A recorded log (outcomes, or a file's text) against `spec`: likelihood, tests and the likeliest candidates. */
  audit(log: (string | number)[] | string, spec: string | MachineDocument, options?: AuditOptions): AuditReport;
  /** Attempts until `source` gives `until` (`times` of them, or `every` one), exact over its states. */
  goal(source: Source, until?: (string | number)[] | string, options?: GoalOptions): GoalReport;
  analyze(spec: string, samples: number, options?: AnalyzeOptions): AnalysisReport;
  tune(options: TuneOptions): TuneReport;
  /** How `spec` splits a match of `samples` rolls between the players of `game` (a game object or its file's JSON text). */
  seats(game: Game | string, spec: string, samples: number, options?: SeatsOptions): SeatsReport;
  /** A report with the charts the native app draws for it (`fairdice serve`'s pages, `--plot`). */
  charts(useCase: string, request: Record<string, unknown> | string, view?: View): { report: unknown; charts: Chart[] };
  /** Any use case by name, on its request document; returns its report document. */
  run(useCase: string, request: Record<string, unknown> | string): unknown;
  /** The same with JSON text both ways (64-bit seeds stay exact). */
  runJson(useCase: string, requestJson: string): string;
  /** Several requests of one use case, with the charts of their reports. */
  compute(useCase: string, requests: (Record<string, unknown> | string)[], view?: View): Computed;
  /** A randomizer to draw from one outcome at a time (a spec, a machine, or `{ session }` to continue a saved one). */
  randomizer(source: Source, options?: RandomizerOptions): Randomizer;
  useCases(): string[];
  version(): string;
}

/**
 * The fairdice functions. In Node the module is instantiated at import; in a
 * browser or a bundle it is fetched once, from `module` when given (a URL, a
 * Response, bytes or a compiled WebAssembly.Module).
 */
export declare function load(module?: RequestInfo | URL | Response | BufferSource | WebAssembly.Module): Promise<Fairdice>;
