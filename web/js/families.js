// The randomizer families, as the Randomizers page's help and the Tuner page's
// systems list them. Generated from the engine's registry
// (crates/fairdice/src/randomizer/family.rs), which spec parsing, --help and the
// tuner read too; a test checks it. Do not edit: after changing a family, run
// FAIRDICE_WRITE_GENERATED=1 cargo test -p fairdice-cli --test command -- generated
export const FAMILIES = [
  {
    "name": "dice",
    "summary": "independent draws: a fair die, or the sums of any dice expression",
    "usage": "dice(values=N | base=EXPR)",
    "example": "dice(values=6)",
    "tunable": true,
    "tuned": []
  },
  {
    "name": "deck",
    "summary": "the generalized deck: each outcome `copies` times, refilled below `refill_below` cards",
    "usage": "deck(values=N | base=EXPR, copies=1, refill_below=1, refill=top-up|reshuffle)",
    "example": "deck(values=6, copies=1, refill_below=6)",
    "tunable": true,
    "tuned": [
      "copies",
      "refill_below",
      "refill"
    ]
  },
  {
    "name": "bag",
    "summary": "a dice bag: `sets` copies of min..max, refilled when empty",
    "usage": "bag(min=1, max=N, sets=1)",
    "example": "bag(min=1, max=6, sets=1)",
    "tunable": true,
    "tuned": [
      "sets"
    ]
  },
  {
    "name": "dynamic",
    "summary": "dynamic dice: a drawn outcome's chance is multiplied by `decrease`",
    "usage": "dynamic(values=N | base=EXPR, decrease=D in (0, 1])",
    "example": "dynamic(values=6, decrease=0.355)",
    "tunable": true,
    "tuned": [
      "decrease"
    ]
  },
  {
    "name": "fair",
    "summary": "the fair die roller: outcomes drawn more than their share become rarer",
    "usage": "fair(values=N | base=EXPR, tightness=K in [0, 1000], seats=S in 1..16)",
    "example": "fair(base=2d6, tightness=1)",
    "tunable": true,
    "tuned": [
      "tightness",
      "seats"
    ]
  },
  {
    "name": "prd",
    "summary": "pseudo-random distribution: a success with nominal chance `p` grows likelier after each failure",
    "usage": "prd(p=P in [0.000001, 1])",
    "example": "prd(p=0.25)",
    "tunable": false,
    "tuned": []
  },
  {
    "name": "pity",
    "summary": "bad-luck protection: a hit with chance `p`, rising by `rise` an attempt from attempt `soft`, certain at attempt `cap`",
    "usage": "pity(p=P in (0, 1], soft=S, rise=R in [0, 1], cap=N in 1..=1000000)",
    "example": "pity(p=0.006, soft=74, rise=0.06, cap=90)",
    "tunable": false,
    "tuned": []
  },
  {
    "name": "nes",
    "summary": "NES Tetris: a random piece, rerolled once if it repeats the last",
    "usage": "nes",
    "example": "nes",
    "tunable": true,
    "tuned": []
  },
  {
    "name": "tgm",
    "summary": "TGM-style history: rerolls a piece among the last `history` up to `tries` times",
    "usage": "tgm(preset=tgm1|tgm2) or tgm(history=4, tries=4)",
    "example": "tgm(history=4, tries=6)",
    "tunable": true,
    "tuned": [
      "history",
      "tries"
    ]
  },
  {
    "name": "tgm1",
    "summary": "Tetris: The Grand Master's randomizer (history 4, 4 tries)",
    "usage": "tgm1",
    "example": "tgm1",
    "tunable": true,
    "tuned": []
  },
  {
    "name": "tgm2",
    "summary": "Tetris: The Grand Master 2's randomizer (history 4, 6 tries)",
    "usage": "tgm2",
    "example": "tgm2",
    "tunable": true,
    "tuned": []
  },
  {
    "name": "tgm3",
    "summary": "Tetris: The Grand Master 3's 35-piece bag: a dealt piece's slot goes to the piece dealt longest ago; history 4, 6 tries",
    "usage": "tgm3 or tgm3(history=4, tries=6)",
    "example": "tgm3",
    "tunable": true,
    "tuned": [
      "history",
      "tries"
    ]
  },
  {
    "name": "bag7",
    "summary": "the 7-bag of modern Tetris: the seven pieces in a shuffled bag",
    "usage": "bag7",
    "example": "bag7",
    "tunable": true,
    "tuned": []
  }
];
