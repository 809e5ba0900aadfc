/*
 * fairdice.h: fairdice's C library (libfairdice_c), randomizers for games and
 * every use case's JSON document. Written by cbindgen from crates/fairdice-c/src/lib.rs;
 * do not edit.
 *
 * Errors: a failing call returns NULL, FAIRDICE_ERROR or -1, and
 * fairdice_last_error() says why, on the calling thread.
 * Strings returned are freed with fairdice_string_free().
 * Threads: one randomizer is used by one thread at a time; different randomizers
 * may be used on different threads at once; everything else is thread-safe.
 */

#ifndef FAIRDICE_H
#define FAIRDICE_H

#include <stdint.h>
#include <stddef.h>

// What `fairdice_randomizer_next()` and `fairdice_randomizer_value()` return on an
// error (no randomizer has this outcome: one that would is refused when opened).
#define FAIRDICE_ERROR INT64_MIN

// A randomizer and its generator, opened by `fairdice_randomizer_new()` or
// `fairdice_randomizer_restore()` and released by `fairdice_randomizer_free()`.
// Opaque: its pointer is a handle, never dereferenced.
typedef struct FairdiceRandomizer FairdiceRandomizer;

#ifdef __cplusplus
extern "C" {
#endif // __cplusplus

// The library's version, as `fairdice --version` prints it (a static string:
// never freed).
const char *fairdice_version(void);

// Sets the budget of the later calls on this thread that compute:
// `fairdice_randomizer_new()`, `fairdice_randomizer_restore()` and
// `fairdice_run_json()`. A computation estimated above `max_steps` work steps (the
// command line's `--max-steps`) or planning more than `max_memory` bytes is
// refused before it starts, its error saying the estimate. 0 for either keeps its
// default: 2,000,000,000 steps and 2 GiB, the command
// line's. A game that opens specs its players or modders write keeps a load from
// stalling a frame or exhausting memory this way; drawing from a randomizer is
// never limited.
void fairdice_set_limits(uint64_t max_steps,
                         uint64_t max_memory);

// Opens the randomizer of `spec` (`"deck(values=6)"`, `"tgm3"`, a machine document),
// its generator seeded by `seed`. Its draws are `fairdice sample SPEC --seed SEED`'s.
// NULL on an error: a spec that does not parse or build, NULL, not UTF-8.
//
// # Safety
// `spec` is NULL or a NUL-terminated string.
FairdiceRandomizer *fairdice_randomizer_new(const char *spec,
                                            uint64_t seed);

// Opens a saved session (the text `fairdice_randomizer_save()` or
// `fairdice sample --save` writes), to continue where it stopped. NULL on an
// error: a session that is corrupt, of another program or too long, NULL, not
// UTF-8.
//
// # Safety
// `session` is NULL or a NUL-terminated string.
FairdiceRandomizer *fairdice_randomizer_restore(const char *session);

// Draws the next outcome and returns its value (a die's face; a piece's number
// for labelled families, whose names `fairdice_randomizer_label()` gives).
// `FAIRDICE_ERROR` when `randomizer` is NULL, freed or not a randomizer.
//
// # Safety
// No other thread uses `randomizer` during the call.
int64_t fairdice_randomizer_next(FairdiceRandomizer *randomizer);

// Draws the next outcome and returns its index (0 to
// `fairdice_randomizer_outcome_count(randomizer) - 1`), or -1 on an error.
//
// # Safety
// No other thread uses `randomizer` during the call.
int64_t fairdice_randomizer_next_index(FairdiceRandomizer *randomizer);

// Draws `count` outcomes into `out` (their values) and returns `count`, or -1 on
// an error (nothing is drawn then).
//
// # Safety
// No other thread uses `randomizer` during the call; `out` is NULL or valid for
// writing `count` values.
int64_t fairdice_randomizer_take(FairdiceRandomizer *randomizer,
                                 int64_t *out,
                                 size_t count);

// How many outcomes the randomizer has, or -1 on an error.
//
// # Safety
// No other thread uses `randomizer` during the call.
int64_t fairdice_randomizer_outcome_count(const FairdiceRandomizer *randomizer);

// The value of outcome `index`, or `FAIRDICE_ERROR` on an error (an index out of
// range among them).
//
// # Safety
// No other thread uses `randomizer` during the call.
int64_t fairdice_randomizer_value(const FairdiceRandomizer *randomizer,
                                  size_t index);

// The name of outcome `index` (a piece's letter, "success"; a value's digits when
// the outcomes have no names), or NULL on an error. Free it with
// `fairdice_string_free()`.
//
// # Safety
// No other thread uses `randomizer` during the call.
char *fairdice_randomizer_label(const FairdiceRandomizer *randomizer,
                                size_t index);

// 1 when the outcomes have names of their own (pieces, fail/success), 0 when
// they are numbers, -1 on an error.
//
// # Safety
// No other thread uses `randomizer` during the call.
int fairdice_randomizer_labelled(const FairdiceRandomizer *randomizer);

// How many outcomes this session has drawn, across saves, or -1 on an error.
//
// # Safety
// No other thread uses `randomizer` during the call.
int64_t fairdice_randomizer_draws(const FairdiceRandomizer *randomizer);

// The randomizer's spec in its canonical form, or NULL on an error. Free it with
// `fairdice_string_free()`.
//
// # Safety
// No other thread uses `randomizer` during the call.
char *fairdice_randomizer_spec(const FairdiceRandomizer *randomizer);

// The session as the text `fairdice sample --save` writes (JSON), for
// `fairdice_randomizer_restore()` or any other front-end to continue; NULL on an
// error. Free it with `fairdice_string_free()`.
//
// # Safety
// No other thread uses `randomizer` during the call.
char *fairdice_randomizer_save(const FairdiceRandomizer *randomizer);

// The distribution of the next outcome, as the JSON document
// `fairdice next --json` prints; NULL on an error. Free it with
// `fairdice_string_free()`.
//
// # Safety
// No other thread uses `randomizer` during the call.
char *fairdice_randomizer_next_distribution(const FairdiceRandomizer *randomizer);

// Releases a randomizer. NULL is ignored; a handle already freed, or not of this
// library, is refused (an error, and nothing is released).
//
// # Safety
// No other thread uses `randomizer` during or after the call.
void fairdice_randomizer_free(FairdiceRandomizer *randomizer);

// Runs the use case `use_case` (`"dist"`, `"risk"`, `"analyze"`, … every name
// `fairdice` has a command for) on its JSON request and returns its JSON report,
// the document `fairdice … --json` prints (written compactly); NULL on an error,
// whose JSON error document `fairdice_last_error_json()` gives. It runs under the
// command line's default budget, on the calling thread. Free the result with
// `fairdice_string_free()`.
//
// # Safety
// `use_case` and `request_json` are NULL or NUL-terminated strings.
char *fairdice_run_json(const char *use_case,
                        const char *request_json);

// Why the last call that failed on this thread failed: the message as the command
// line prints it (with a caret under the part of an expression at fault, and a
// hint when there is one); NULL when no call has failed on this thread. Valid
// until the next failing call on this thread; never freed by the caller.
const char *fairdice_last_error(void);

// The last error on this thread as the JSON error document of the web API and
// `run_json` (`{"error": {"kind", "category", "message", …, "suggestion"}}`), or
// NULL when no call has failed on this thread. Valid and owned as
// `fairdice_last_error()`.
const char *fairdice_last_error_json(void);

// Releases a string this library returned. NULL is ignored; a pointer the library
// did not return, or already took back, is refused (an error, and nothing is
// released).
//
// # Safety
// `string` is not used after the call.
void fairdice_string_free(char *string);

#ifdef __cplusplus
}  // extern "C"
#endif  // __cplusplus

#endif  /* FAIRDICE_H */
