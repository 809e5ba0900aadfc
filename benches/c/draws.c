/*
 * Per-draw time of the C library's randomizers against the same job written in
 * plain C in the same process: the generator fairdice uses (xoshiro256++) with an
 * unbiased bounded draw, for a d6 alone and for a dice bag (six faces, each drawn
 * once, refilled when empty). Built and run by benches/c/draws.sh:
 *
 *   benches/c/draws.sh [DRAWS [ROUNDS]]
 *
 * Each round times DRAWS draws of each contender, the contenders taking turns, each
 * contender called directly from its timing loop; the table gives the median
 * nanoseconds a draw and fairdice's ratio to plain C.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "fairdice.h"

typedef struct {
  uint64_t s[4];
} Xoshiro;

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t next_u64(Xoshiro *g) {
  uint64_t result = rotl(g->s[0] + g->s[3], 23) + g->s[0];
  uint64_t t = g->s[1] << 17;
  g->s[2] ^= g->s[0];
  g->s[3] ^= g->s[1];
  g->s[1] ^= g->s[2];
  g->s[0] ^= g->s[3];
  g->s[2] ^= t;
  g->s[3] = rotl(g->s[3], 45);
  return result;
}

static Xoshiro seeded(uint64_t seed) {
  Xoshiro g;
  for (int i = 0; i < 4; i++) { /* splitmix64 */
    uint64_t z = (seed += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    g.s[i] = z ^ (z >> 31);
  }
  return g;
}

/* An unbiased integer in 0..n-1 (multiply and reject). */
static uint64_t below(Xoshiro *g, uint64_t n) {
  for (;;) {
    __uint128_t m = (__uint128_t)next_u64(g) * n;
    uint64_t low = (uint64_t)m;
    if (low >= n || low >= (uint64_t)(-n) % n) return (uint64_t)(m >> 64);
  }
}

typedef struct {
  Xoshiro g;
  int64_t left[6];
  int count;
} Bag;

static int64_t bag_next(Bag *bag) {
  if (bag->count == 0) {
    for (int i = 0; i < 6; i++) bag->left[i] = i + 1;
    bag->count = 6;
  }
  uint64_t at = below(&bag->g, (uint64_t)bag->count);
  int64_t drawn = bag->left[at];
  bag->left[at] = bag->left[--bag->count];
  return drawn;
}

static Xoshiro die;
static Bag plain_bag;
static FairdiceRandomizer *fair_die, *fair_bag, *fair_tgm3, *fair_batch;

/* The plain contenders are kept out of line, so that each contender costs one call
 * a draw, as fairdice_randomizer_next does for a game. */
__attribute__((noinline)) static int64_t plain_d6(Xoshiro *g) { return (int64_t)below(g, 6) + 1; }
__attribute__((noinline)) static int64_t plain_bag_next(Bag *bag) { return bag_next(bag); }

/* A d6 drawn 1,024 at a time with fairdice_randomizer_take, handed out one by one. */
static int64_t batch[1024];
static size_t batch_left = 0;
static int64_t fairdice_d6_taken(FairdiceRandomizer *randomizer) {
  if (batch_left == 0) {
    fairdice_randomizer_take(randomizer, batch, 1024);
    batch_left = 1024;
  }
  return batch[--batch_left];
}

static long draws = 10000000;
static volatile int64_t sink;

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* Nanoseconds a draw of DRAWS calls of DRAW(STATE), called directly. */
#define TIME_NS(DRAW, STATE)                                  \
  __extension__({                                             \
    int64_t sum = 0;                                          \
    double start = now_ns();                                  \
    for (long i = 0; i < draws; i++) sum += DRAW(STATE);      \
    sink = sum;                                               \
    (now_ns() - start) / (double)draws;                       \
  })

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

#define MAX_ROUNDS 101

int main(int argc, char **argv) {
  if (argc > 1) draws = atol(argv[1]);
  int rounds = argc > 2 ? atoi(argv[2]) : 15;
  if (rounds < 1 || rounds > MAX_ROUNDS || draws < 1) {
    fprintf(stderr, "usage: draws [DRAWS [ROUNDS <= %d]]\n", MAX_ROUNDS);
    return 2;
  }
  die = seeded(1);
  plain_bag.g = seeded(1);
  fair_die = fairdice_randomizer_new("dice(values=6)", 1);
  fair_bag = fairdice_randomizer_new("bag(min=1, max=6, sets=1)", 1);
  fair_tgm3 = fairdice_randomizer_new("tgm3", 1);
  fair_batch = fairdice_randomizer_new("dice(values=6)", 1);
  if (!fair_die || !fair_bag || !fair_tgm3 || !fair_batch) {
    fprintf(stderr, "fairdice: %s\n", fairdice_last_error());
    return 1;
  }
  enum { N = 6 };
  static double ns[N][MAX_ROUNDS];
  for (int r = 0; r < rounds; r++) {
    ns[0][r] = TIME_NS(plain_d6, &die);
    ns[1][r] = TIME_NS(fairdice_randomizer_next, fair_die);
    ns[2][r] = TIME_NS(plain_bag_next, &plain_bag);
    ns[3][r] = TIME_NS(fairdice_randomizer_next, fair_bag);
    ns[4][r] = TIME_NS(fairdice_randomizer_next, fair_tgm3);
    ns[5][r] = TIME_NS(fairdice_d6_taken, fair_batch);
  }
  double median[N];
  for (int c = 0; c < N; c++) {
    qsort(ns[c], (size_t)rounds, sizeof(double), by_value);
    median[c] = ns[c][rounds / 2];
  }
  printf("median ns a draw over %d rounds of %ld draws (fairdice %s)\n\n", rounds, draws, fairdice_version());
  printf("| what | plain C (ns a draw) | fairdice_randomizer_next (ns a draw) | ratio |\n");
  printf("|---|---:|---:|---:|\n");
  printf("| d6: `dice(values=6)` | %.2f | %.2f | %.2f |\n", median[0], median[1], median[1] / median[0]);
  printf("| dice bag: `bag(min=1, max=6, sets=1)` | %.2f | %.2f | %.2f |\n", median[2], median[3], median[3] / median[2]);
  printf("| d6 drawn 1,024 at a time (`fairdice_randomizer_take`) | %.2f | %.2f | %.2f |\n", median[0], median[5], median[5] / median[0]);
  printf("| TGM3 pieces: `tgm3` (no plain C written) | | %.2f | |\n", median[4]);
  fairdice_randomizer_free(fair_die);
  fairdice_randomizer_free(fair_bag);
  fairdice_randomizer_free(fair_tgm3);
  fairdice_randomizer_free(fair_batch);
  return 0;
}
