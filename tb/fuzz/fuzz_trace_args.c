/*
 * fuzz_trace_args.c - libFuzzer target: the command line of lfc-trace (cmodel/tools/lfc_trace.c,
 * its parse_args), one argument per line of the input.
 *
 * lfc_trace.c is compiled into this file (its parser is static; its main is renamed out of
 * libFuzzer's way). Checked besides crashes and sanitizer findings, against what its usage
 * says: `lfc-trace NAME [CYCLES]` with NAME one of --list's names and CYCLES a whole number
 * 1..10^9 (default 20000), or exactly one of --list, --help, --version:
 *   - a trace is asked for exactly when the arguments are of that form, with that NAME and that
 *     number of cycles, and nothing is printed then;
 *   - --list, --help, --version print on stdout only;
 *   - anything else: exit status 2, exactly one line on stderr, nothing on stdout.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fuzz_parse.h"

#define main lfc_trace_main
int lfc_trace_main(int argc, char **argv);
#include "../../cmodel/tools/lfc_trace.c"
#undef main

#define TARGET "trace_args"
#define CYCLES_MAX 1000000000u

/* The reference: 1 and *v if s is a whole number 1..10^9 (decimal digits only). */
static int ref_cycles(const char *s, uint64_t *v) {
  uint64_t x = 0;
  if (*s == '\0') return 0;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return 0;
    x = x * 10u + (uint64_t)(*s - '0');
    if (x > CYCLES_MAX) return 0;
  }
  *v = x;
  return x >= 1u;
}

static const named_t *ref_name(const char *s) {
  for (size_t i = 0; i < NNAMED; i++)
    if (strcmp(s, NAMED[i].name) == 0) return &NAMED[i];
  return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *argv[FUZZ_MAX_ARGS + 2];
  int argc = fuzz_argv(data, size, "lfc-trace", argv);
  if (argc < 0) return 0;
  /* What the usage allows. */
  const named_t *want_nm = argc >= 2 && argc <= 3 ? ref_name(argv[1]) : NULL;
  uint64_t want_cycles = TRACE_CYCLES;
  if (want_nm && argc == 3 && !ref_cycles(argv[2], &want_cycles)) want_nm = NULL;
  int info = argc == 2 && (!strcmp(argv[1], "--list") || !strcmp(argv[1], "--help") ||
                           !strcmp(argv[1], "--version"));

  fuzz_capture_t cap;
  if (fuzz_capture_begin(&cap) != 0) {
    fuzz_argv_free(argc, argv);
    return 0;
  }
  const named_t *nm = NULL;
  uint64_t cycles = 0;
  int rc = parse_args(argc, argv, &nm, &cycles);
  fuzz_capture_end(&cap);
  fuzz_verbose("%s: rc %d %s", TARGET, rc, cap.err ? cap.err : "");

  if (want_nm) {
    if (rc != -1 || nm != want_nm || cycles != want_cycles)
      fuzz_fail(TARGET, "'%s %s' is a trace of %s, %llu cycles; got rc %d, %s, %llu cycles",
                argv[1], argc == 3 ? argv[2] : "", want_nm->name,
                (unsigned long long)want_cycles, rc, nm ? nm->name : "no name",
                (unsigned long long)cycles);
    if (cap.out_len || cap.err_len)
      fuzz_fail(TARGET, "'%s': a trace is asked for, but the parser printed", argv[1]);
  } else if (info) {
    if (rc != 0 || cap.err_len || cap.out_len == 0)
      fuzz_fail(TARGET, "'%s': rc %d, expected 0 and output on stdout only", argv[1], rc);
  } else {
    if (rc != EXIT_USAGE)
      fuzz_fail(TARGET, "%d arguments, the first '%s', are not allowed, but rc %d", argc - 1,
                argc > 1 ? argv[1] : "", rc);
    if (cap.out_len || !fuzz_one_line(cap.err, cap.err_len))
      fuzz_fail(TARGET, "'%s': bad arguments, but not one line on stderr: '%s'",
                argc > 1 ? argv[1] : "", cap.err ? cap.err : "");
  }
  fuzz_capture_free(&cap);
  fuzz_argv_free(argc, argv);
  return 0;
}
