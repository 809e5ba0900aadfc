/*
 * A game's dice bag through fairdice's C library: every face of a d6 once in each
 * six rolls, seeded, saved with the game and continued after loading.
 *
 *   cargo build --release -p fairdice-c
 *   cc -I crates/fairdice-c/include examples/c/dice_bag.c -L target/release -lfairdice_c -o dice_bag
 *   LD_LIBRARY_PATH=target/release ./dice_bag
 */
#include <stdio.h>

#include "fairdice.h"

int main(void) {
  FairdiceRandomizer *bag = fairdice_randomizer_new("bag(min=1, max=6, sets=1)", 42);
  if (bag == NULL) {
    fprintf(stderr, "fairdice: %s\n", fairdice_last_error());
    return 1;
  }
  printf("turns 1-6: ");
  for (int turn = 0; turn < 6; turn++) printf("%lld ", (long long)fairdice_randomizer_next(bag));

  /* Saving the game: the session text (the file `fairdice sample --save` writes). */
  char *saved = fairdice_randomizer_save(bag);
  fairdice_randomizer_free(bag);

  /* Loading it: the bag continues exactly where it stopped. */
  FairdiceRandomizer *loaded = fairdice_randomizer_restore(saved);
  fairdice_string_free(saved);
  printf("\nturns 7-12: ");
  for (int turn = 0; turn < 6; turn++) printf("%lld ", (long long)fairdice_randomizer_next(loaded));
  printf("\n");
  fairdice_randomizer_free(loaded);

  /* A mistake is an error message, never a crash. */
  if (fairdice_randomizer_new("bag(min=1, max=0)", 1) == NULL) {
    printf("refused: %s\n", fairdice_last_error());
  }
  return 0;
}
