/*
 * The C library from C, as a game engine calls it (scripts/test-c.sh builds and
 * runs it, under valgrind too).
 *
 *   test                          every entry point: draws, saves, errors, NULL and
 *                                 freed pointers, invalid UTF-8, run_json
 *   draw SPEC SEED COUNT          draws COUNT outcomes, printed as `fairdice sample`
 *                                 prints them (their names, separated by spaces)
 *   save SPEC SEED COUNT FILE     draws COUNT outcomes (printed), then saves to FILE
 *   resume FILE COUNT             continues the session in FILE for COUNT draws
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fairdice.h"

static int failures = 0;

#define CHECK(condition)                                                       \
  do {                                                                         \
    if (!(condition)) {                                                        \
      fprintf(stderr, "%s:%d: failed: %s (last error: %s)\n", __FILE__,        \
              __LINE__, #condition,                                            \
              fairdice_last_error() ? fairdice_last_error() : "none");         \
      failures++;                                                              \
    }                                                                          \
  } while (0)

static int error_contains(const char *part) {
  const char *error = fairdice_last_error();
  return error != NULL && strstr(error, part) != NULL;
}

/* Draws `count` outcomes and prints their names on one line. */
static int print_draws(FairdiceRandomizer *randomizer, long count) {
  for (long i = 0; i < count; i++) {
    int64_t index = fairdice_randomizer_next_index(randomizer);
    if (index < 0) return 0;
    char *label = fairdice_randomizer_label(randomizer, (size_t)index);
    if (label == NULL) return 0;
    printf(i == 0 ? "%s" : " %s", label);
    fairdice_string_free(label);
  }
  printf("\n");
  return 1;
}

static char *read_file(const char *path) {
  FILE *file = fopen(path, "rb");
  if (file == NULL) return NULL;
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  char *text = malloc((size_t)size + 1);
  size_t read = fread(text, 1, (size_t)size, file);
  text[read] = '\0';
  fclose(file);
  return text;
}

static void test_draws_saves_and_restores(void) {
  FairdiceRandomizer *uninterrupted = fairdice_randomizer_new("bag7", 42);
  FairdiceRandomizer *first = fairdice_randomizer_new("bag7", 42);
  CHECK(uninterrupted != NULL && first != NULL);
  int64_t expected[40];
  CHECK(fairdice_randomizer_take(uninterrupted, expected, 40) == 40);
  for (int i = 0; i < 15; i++) CHECK(fairdice_randomizer_next(first) == expected[i]);
  char *saved = fairdice_randomizer_save(first);
  CHECK(saved != NULL && strstr(saved, "fairdice-randomizer") != NULL);
  fairdice_randomizer_free(first);
  FairdiceRandomizer *resumed = fairdice_randomizer_restore(saved);
  fairdice_string_free(saved);
  CHECK(resumed != NULL);
  CHECK(fairdice_randomizer_draws(resumed) == 15);
  for (int i = 15; i < 40; i++) CHECK(fairdice_randomizer_next(resumed) == expected[i]);
  CHECK(fairdice_randomizer_outcome_count(resumed) == 7);
  CHECK(fairdice_randomizer_labelled(resumed) == 1);
  char *label = fairdice_randomizer_label(resumed, 0);
  CHECK(label != NULL && strlen(label) == 1);
  fairdice_string_free(label);
  char *spec = fairdice_randomizer_spec(resumed);
  CHECK(spec != NULL && strcmp(spec, "bag7") == 0);
  fairdice_string_free(spec);
  char *next = fairdice_randomizer_next_distribution(resumed);
  CHECK(next != NULL && strstr(next, "\"outcomes\"") != NULL);
  fairdice_string_free(next);
  fairdice_randomizer_free(resumed);
  fairdice_randomizer_free(uninterrupted);

  FairdiceRandomizer *die = fairdice_randomizer_new("dice(values=6)", 1);
  CHECK(fairdice_randomizer_labelled(die) == 0);
  CHECK(fairdice_randomizer_value(die, 5) == 6);
  for (int i = 0; i < 1000; i++) {
    int64_t value = fairdice_randomizer_next(die);
    CHECK(value >= 1 && value <= 6);
  }
  fairdice_randomizer_free(die);
}

static void test_bad_input_is_an_error(void) {
  CHECK(fairdice_randomizer_new(NULL, 1) == NULL);
  CHECK(error_contains("the spec is NULL"));
  CHECK(fairdice_randomizer_new("deck(values=6", 1) == NULL);
  CHECK(error_contains("expected `)`"));
  CHECK(fairdice_randomizer_new("d\xff" "6", 1) == NULL);
  CHECK(error_contains("not UTF-8"));
  CHECK(fairdice_randomizer_restore(NULL) == NULL);
  CHECK(fairdice_randomizer_restore("{\"format\": \"something else\"}") == NULL);
  CHECK(fairdice_last_error() != NULL);
  CHECK(fairdice_randomizer_restore("") == NULL);

  /* A session whose count of draws was changed fails its check. */
  FairdiceRandomizer *game = fairdice_randomizer_new("deck(values=6)", 3);
  fairdice_randomizer_next(game);
  char *saved = fairdice_randomizer_save(game);
  char *digit = strpbrk(strstr(saved, "\"draws\""), "0123456789");
  *digit = *digit == '9' ? '8' : (char)(*digit + 1);
  CHECK(fairdice_randomizer_restore(saved) == NULL);
  CHECK(error_contains("check"));
  fairdice_string_free(saved);

  CHECK(fairdice_randomizer_next(NULL) == FAIRDICE_ERROR);
  CHECK(error_contains("NULL"));
  CHECK(fairdice_randomizer_next((FairdiceRandomizer *)&failures) == FAIRDICE_ERROR);
  CHECK(error_contains("not a randomizer"));
  CHECK(fairdice_randomizer_value(game, 6) == FAIRDICE_ERROR);
  CHECK(fairdice_randomizer_label(game, 6) == NULL);
  CHECK(fairdice_randomizer_take(game, NULL, 2) == -1);

  fairdice_randomizer_free(game);
  CHECK(fairdice_randomizer_next(game) == FAIRDICE_ERROR);
  CHECK(error_contains("freed"));
  CHECK(fairdice_randomizer_next_index(game) == -1);
  CHECK(fairdice_randomizer_save(game) == NULL);
  fairdice_randomizer_free(game); /* twice: refused, nothing released */
  CHECK(error_contains("freed"));
  fairdice_randomizer_free(NULL);

  FairdiceRandomizer *pieces = fairdice_randomizer_new("tgm3", 1);
  char *spec = fairdice_randomizer_spec(pieces);
  fairdice_randomizer_free(pieces);
  fairdice_string_free(spec);
  fairdice_string_free(spec); /* twice: refused */
  CHECK(error_contains("freed already"));
  char mine[] = "not the library's";
  fairdice_string_free(mine);
  CHECK(error_contains("not a string of this library"));
  fairdice_string_free(NULL);
}

static void test_run_json(void) {
  char *report = fairdice_run_json("dist", "{\"expression\": \"4d6kh3\"}");
  CHECK(report != NULL && strstr(report, "\"15869/1296\"") != NULL);
  fairdice_string_free(report);
  CHECK(fairdice_run_json("dist", "{\"expression\": \"4d6kh3y\"}") == NULL);
  CHECK(error_contains("^"));
  CHECK(strstr(fairdice_last_error_json(), "\"kind\":\"parse\"") != NULL);
  CHECK(fairdice_run_json("no_such_use_case", "{}") == NULL);
  CHECK(error_contains("no_such_use_case"));
  CHECK(fairdice_run_json("dist", "not json") == NULL);
  CHECK(fairdice_run_json(NULL, "{}") == NULL);
  CHECK(fairdice_run_json("dist", NULL) == NULL);
  /* Too large for an exact answer: refused with a Monte Carlo request instead. */
  CHECK(fairdice_run_json("dist", "{\"expression\": \"1000d1000000kh500\"}") == NULL);
  CHECK(strstr(fairdice_last_error_json(), "\"suggestion\":{") != NULL);
}

static void test_limits(void) {
  /* A small budget refuses a large base before building it; 0 restores the default. */
  fairdice_set_limits(0, 1 << 20);
  CHECK(fairdice_randomizer_new("dice(base=300d300)", 1) == NULL);
  CHECK(error_contains("MiB"));
  fairdice_set_limits(1000, 0);
  CHECK(fairdice_run_json("dist", "{\"expression\": \"300d300\"}") == NULL);
  CHECK(error_contains("steps"));
  fairdice_set_limits(0, 0);
  FairdiceRandomizer *randomizer = fairdice_randomizer_new("dice(base=300d300)", 1);
  CHECK(fairdice_randomizer_outcome_count(randomizer) == 89701);
  fairdice_randomizer_free(randomizer);
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "test") == 0) {
    CHECK(strlen(fairdice_version()) > 0);
    test_draws_saves_and_restores();
    test_bad_input_is_an_error();
    test_run_json();
    test_limits();
    if (failures > 0) {
      fprintf(stderr, "%d checks failed\n", failures);
      return 1;
    }
    printf("every check passed (fairdice %s)\n", fairdice_version());
    return 0;
  }
  FairdiceRandomizer *randomizer = NULL;
  long count = 0;
  if ((argc == 5 && strcmp(argv[1], "draw") == 0) ||
      (argc == 6 && strcmp(argv[1], "save") == 0)) {
    randomizer = fairdice_randomizer_new(argv[2], strtoull(argv[3], NULL, 10));
    count = strtol(argv[4], NULL, 10);
  } else if (argc == 4 && strcmp(argv[1], "resume") == 0) {
    char *session = read_file(argv[2]);
    randomizer = session ? fairdice_randomizer_restore(session) : NULL;
    free(session);
    count = strtol(argv[3], NULL, 10);
  } else {
    fprintf(stderr, "usage: test | draw SPEC SEED COUNT | save SPEC SEED COUNT FILE | resume FILE COUNT\n");
    return 2;
  }
  if (randomizer == NULL || !print_draws(randomizer, count)) {
    fprintf(stderr, "error: %s\n", fairdice_last_error());
    return 1;
  }
  if (argc == 6) {
    char *saved = fairdice_randomizer_save(randomizer);
    FILE *file = fopen(argv[5], "wb");
    fputs(saved, file);
    fclose(file);
    fairdice_string_free(saved);
  }
  fairdice_randomizer_free(randomizer);
  return 0;
}
