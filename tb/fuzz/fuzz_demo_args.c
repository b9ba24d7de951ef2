/*
 * fuzz_demo_args.c - libFuzzer target: the command line of lfc-demo (cmodel/demo/lfc_demo.c,
 * its parse_args), one argument per line of the input.
 *
 * lfc_demo.c is compiled into this file (its parser is static; its main is renamed out of
 * libFuzzer's way). --help, -h and --version print and exit the process; an input that reaches
 * one of them is skipped. Checked besides crashes and sanitizer findings, against a reference
 * written from the usage (options --ports N 3..64, --cycles N 1..10^8, --delay N
 * 1..LFC_LINK_MAX_DELAY, --seed N 0..2^64-1, each followed by a whole decimal number):
 *   - accepted exactly when the reference accepts, with the same options (defaults for the
 *     ones not given, the last of an option given twice), and nothing printed then;
 *   - refused: exactly one line on stderr, nothing on stdout.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fuzz_parse.h"

#define main lfc_demo_main
int lfc_demo_main(int argc, char **argv);
/* Its option loop steps i in the body too (an option and its value), on purpose; gcc builds it
   with -Werror in the main build, this is clang's extra warning. */
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wfor-loop-analysis"
#include "../../cmodel/demo/lfc_demo.c"
#pragma clang diagnostic pop
#undef main

#define TARGET "demo_args"

enum { REF_OK, REF_BAD, REF_EXITS };

/* A whole decimal number in [lo, hi]. */
static int ref_num(const char *s, uint64_t lo, uint64_t hi, uint64_t *v) {
  uint64_t x = 0;
  if (s == NULL || *s == '\0') return 0;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return 0;
    uint64_t d = (uint64_t)(*s - '0');
    if (x > (UINT64_MAX - d) / 10u) return 0; /* beyond 2^64 - 1 */
    x = x * 10u + d;
  }
  if (x < lo || x > hi) return 0;
  *v = x;
  return 1;
}

static int ref_parse(int argc, char **argv, opts_t *o) {
  o->ports = DEMO_DEFAULT_PORTS;
  o->cycles = DEMO_DEFAULT_CYCLES;
  o->delay = DEMO_DEFAULT_DELAY;
  o->seed = DEMO_DEFAULT_SEED;
  for (int i = 1; i < argc; i += 2) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    uint64_t x;
    if (!strcmp(a, "--help") || !strcmp(a, "-h") || !strcmp(a, "--version")) return REF_EXITS;
    if (!strcmp(a, "--ports")) {
      if (!ref_num(v, DEMO_MIN_PORTS, DEMO_MAX_PORTS, &x)) return REF_BAD;
      o->ports = (uint32_t)x;
    } else if (!strcmp(a, "--cycles")) {
      if (!ref_num(v, 1u, DEMO_MAX_CYCLES, &x)) return REF_BAD;
      o->cycles = x;
    } else if (!strcmp(a, "--delay")) {
      if (!ref_num(v, 1u, LFC_LINK_MAX_DELAY, &x)) return REF_BAD;
      o->delay = (uint32_t)x;
    } else if (!strcmp(a, "--seed")) {
      if (!ref_num(v, 0u, UINT64_MAX, &x)) return REF_BAD;
      o->seed = x;
    } else {
      return REF_BAD;
    }
  }
  return REF_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *argv[FUZZ_MAX_ARGS + 2];
  int argc = fuzz_argv(data, size, "lfc-demo", argv);
  if (argc < 0) return 0;
  opts_t want;
  int ref = ref_parse(argc, argv, &want);
  if (ref == REF_EXITS) {
    fuzz_argv_free(argc, argv);
    return 0;
  }
  fuzz_capture_t cap;
  if (fuzz_capture_begin(&cap) != 0) {
    fuzz_argv_free(argc, argv);
    return 0;
  }
  opts_t o;
  memset(&o, 0, sizeof o);
  int rc = parse_args(argc, argv, &o);
  fuzz_capture_end(&cap);
  fuzz_verbose("%s: rc %d %s", TARGET, rc, cap.err ? cap.err : "");
  if (ref == REF_OK) {
    if (rc != 0)
      fuzz_fail(TARGET, "%d arguments, the first '%s', are allowed, but rc %d: %s", argc - 1,
                argc > 1 ? argv[1] : "", rc, cap.err ? cap.err : "");
    if (o.ports != want.ports || o.cycles != want.cycles || o.delay != want.delay ||
        o.seed != want.seed)
      fuzz_fail(TARGET, "options ports %u cycles %llu delay %u seed %llu, expected %u %llu %u "
                "%llu", o.ports, (unsigned long long)o.cycles, o.delay,
                (unsigned long long)o.seed, want.ports, (unsigned long long)want.cycles,
                want.delay, (unsigned long long)want.seed);
    if (cap.out_len || cap.err_len) fuzz_fail(TARGET, "accepted, but the parser printed");
  } else {
    if (rc == 0)
      fuzz_fail(TARGET, "%d arguments, the first '%s', are not allowed, but accepted", argc - 1,
                argc > 1 ? argv[1] : "");
    if (cap.out_len || !fuzz_one_line(cap.err, cap.err_len))
      fuzz_fail(TARGET, "refused, but not one line on stderr: '%s'", cap.err ? cap.err : "");
  }
  fuzz_capture_free(&cap);
  fuzz_argv_free(argc, argv);
  return 0;
}
