/*
 * fuzz_parse.h - what the parser fuzz targets (tb/fuzz/fuzz_<parser>.c) share: the input as a
 * C string or as an argument vector, the capture of what a parser prints, and the PROPERTY line
 * a target prints before it aborts on a broken property (docs/fuzzing.md §5).
 *
 * Header-only (static functions), so that each target is one translation unit plus the code
 * under test. Linux/glibc and clang's libFuzzer only, like the rest of tb/fuzz.
 */
#ifndef FUZZ_PARSE_H
#define FUZZ_PARSE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* open_memstream is POSIX 2008; the targets define _POSIX_C_SOURCE before any include. */
FILE *open_memstream(char **ptr, size_t *sizeloc);

/* Most arguments an argument-vector target makes of one input (argv[0] not counted). */
#define FUZZ_MAX_ARGS 16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The streams the process started with, kept while a parser's output is captured. */
static FILE *fuzz_real_out, *fuzz_real_err;

/* A broken property: one line on the real standard output, "PROPERTY target=NAME what", that
   tb/fuzz/run.sh shows; then abort, so that libFuzzer saves the input. */
__attribute__((format(printf, 2, 3), noreturn))
static inline void fuzz_fail(const char *target, const char *fmt, ...) {
  FILE *f = fuzz_real_out ? fuzz_real_out : stdout;
  va_list ap;
  va_start(ap, fmt);
  fprintf(f, "PROPERTY target=%s ", target);
  vfprintf(f, fmt, ap);
  fputc('\n', f);
  va_end(ap);
  fflush(f);
  abort();
}

/* With FUZZ_VERBOSE set in the environment, one line per input on stderr saying what the
   parser made of it (to check that a seed is accepted: FUZZ_VERBOSE=1 BINARY FILE...). */
__attribute__((format(printf, 1, 2)))
static inline void fuzz_verbose(const char *fmt, ...) {
  static int verbose = -1;
  if (verbose < 0) verbose = getenv("FUZZ_VERBOSE") != NULL;
  if (!verbose) return;
  FILE *f = fuzz_real_err ? fuzz_real_err : stderr;
  va_list ap;
  va_start(ap, fmt);
  vfprintf(f, fmt, ap);
  va_end(ap);
  fputc('\n', f);
}

/* The input as a C string in a heap block of exactly size + 1 bytes (ASan sees a read past its
   end). A NUL inside ends the string early, as it would for the parser's real callers. */
static inline char *fuzz_cstring(const uint8_t *data, size_t size) {
  char *s = malloc(size + 1u);
  if (s == NULL) return NULL;
  if (size) memcpy(s, data, size);
  s[size] = '\0';
  return s;
}

/* The input as argv: argv[0] = prog, then one argument per line (split at '\n', so that no
   argument holds a newline and "exactly one line of error" is a property a parser can keep).
   Each argument is a heap block of its own, of exactly its length + 1. Returns argc, or -1 when
   out of memory or when there would be more than FUZZ_MAX_ARGS arguments (input skipped). */
static inline int fuzz_argv(const uint8_t *data, size_t size, const char *prog,
                     char *argv[FUZZ_MAX_ARGS + 2]) {
  int argc = 0;
  argv[argc++] = fuzz_cstring((const uint8_t *)prog, strlen(prog));
  size_t start = 0;
  /* An empty input is no argument at all; "a\n" is one argument "a" and one empty one. */
  for (size_t i = 0; size > 0 && i <= size; i++) {
    if (i < size && data[i] != '\n') continue;
    if (argc > FUZZ_MAX_ARGS) {
      for (int j = 0; j < argc; j++) free(argv[j]);
      return -1;
    }
    argv[argc++] = fuzz_cstring(data + start, i - start);
    start = i + 1u;
  }
  argv[argc] = NULL;
  for (int j = 0; j < argc; j++)
    if (argv[j] == NULL) {
      for (int k = 0; k < argc; k++) free(argv[k]);
      return -1;
    }
  return argc;
}

static inline void fuzz_argv_free(int argc, char **argv) {
  for (int j = 0; j < argc; j++) free(argv[j]);
}

/* What a parser printed on stdout and stderr while captured. */
typedef struct {
  char *out, *err;
  size_t out_len, err_len;
} fuzz_capture_t;

/* From here to fuzz_capture_end, whatever the code under test prints to stdout and stderr goes
   to memory (glibc lets a program assign the standard streams). The sanitizers and libFuzzer
   write to file descriptor 2 directly and are not captured. */
static inline int fuzz_capture_begin(fuzz_capture_t *c) {
  memset(c, 0, sizeof *c);
  FILE *o = open_memstream(&c->out, &c->out_len);
  FILE *e = open_memstream(&c->err, &c->err_len);
  if (o == NULL || e == NULL) {
    if (o) fclose(o);
    if (e) fclose(e);
    free(c->out);
    free(c->err);
    return -1;
  }
  fflush(stdout);
  fflush(stderr);
  fuzz_real_out = stdout;
  fuzz_real_err = stderr;
  stdout = o;
  stderr = e;
  return 0;
}

static inline void fuzz_capture_end(fuzz_capture_t *c) {
  (void)c; /* fclose of the memory streams sets c->out, c->err and their lengths */
  fclose(stdout);
  fclose(stderr);
  stdout = fuzz_real_out;
  stderr = fuzz_real_err;
  fuzz_real_out = NULL;
  fuzz_real_err = NULL;
}

static inline void fuzz_capture_free(fuzz_capture_t *c) {
  free(c->out);
  free(c->err);
}

/* 1 if s (len bytes) is exactly one non-empty line: text, then one '\n' at the end. */
static inline int fuzz_one_line(const char *s, size_t len) {
  return len >= 2u && s[len - 1u] == '\n' && memchr(s, '\n', len - 1u) == NULL &&
         strlen(s) == len;
}

#endif /* FUZZ_PARSE_H */
