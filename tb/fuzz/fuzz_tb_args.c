/*
 * fuzz_tb_args.c - libFuzzer target: the plusargs of the co-simulation (tb/common/tb_main.c,
 * its parse_args: +config=, +seed=, +cycles=, +waves=, ... or the same with --), one argument
 * per line of the input.
 *
 * tb_main.c is compiled into this file (its parser is static); the simulator side of dut.h is
 * fuzz_dut_stub.c, never called. Checked besides crashes and sanitizer findings:
 *   - accepted: +config= was given, every number is in its range (+seed 0..2^32-1, +cycles
 *     1.., +dbg_per_cycle 1..40, +threads 1..2, +dump and +model_only 0..1), and nothing
 *     printed; and a round trip: the arguments written back from what was parsed (numbers in
 *     decimal) parse to the same;
 *   - refused: exactly one line on stderr, nothing on stdout.
 * Arguments the parser does not know belong to the simulator and are ignored, as in a run.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fuzz_parse.h"

#include "../common/tb_main.c"

#define TARGET "tb_args"
/* Arguments of the round trip: one per field of args_t. */
#define RT_ARGS 16
/* Longest argument written back: the longest input (run.sh: -max_len=4096) and a key. */
#define RT_LEN 4200u

static void check_range(const args_t *a) {
  if (a->config == NULL) fuzz_fail(TARGET, "accepted without +config=");
  if (a->pcap != NULL && a->pcap[0] == '\0') fuzz_fail(TARGET, "accepted an empty +pcap=");
  if (a->dbg_per_cycle > DBG_MAX || a->threads < 1 || a->threads > 2 || a->dump > 1 ||
      a->dump < 0 || a->model_only > 1 || a->model_only < 0)
    fuzz_fail(TARGET, "accepted out of range: dbg_per_cycle %u threads %u dump %d model_only %d",
              a->dbg_per_cycle, a->threads, a->dump, a->model_only);
}

/* The arguments that give a (every field written, in the parser's own syntax). */
static int write_back(const args_t *a, char text[RT_ARGS][RT_LEN], char *argv[RT_ARGS + 2]) {
  int n = 0;
  argv[n++] = "cosim";
#define ARG(...) (snprintf(text[n - 1], RT_LEN, __VA_ARGS__), argv[n] = text[n - 1], n++)
  ARG("+config=%s", a->config);
  ARG("+seed=%" PRIu32, a->seed);
  if (a->cycles) ARG("+cycles=%" PRIu64, a->cycles);
  if (a->waves) ARG("+waves=%s", a->waves);
  ARG("+waves_from=%" PRIu64, a->waves_from);
  if (a->waves_path) ARG("+waves_path=%s", a->waves_path);
  if (a->cov) ARG("+cov=%s", a->cov);
  if (a->result) ARG("+result=%s", a->result);
  if (a->sim) ARG("+sim=%s", a->sim);
  if (a->make_extra) ARG("+make=%s", a->make_extra);
  if (a->dbg_per_cycle) ARG("+dbg_per_cycle=%" PRIu32, a->dbg_per_cycle);
  ARG("+dump=%d", a->dump);
  ARG("+model_only=%d", a->model_only);
  ARG("+threads=%" PRIu32, a->threads);
  if (a->pcap) ARG("+pcap=%s", a->pcap);
#undef ARG
  argv[n] = NULL;
  return n;
}

static int same_str(const char *x, const char *y) {
  return (x == NULL && y == NULL) || (x && y && !strcmp(x, y));
}

static int same_args(const args_t *x, const args_t *y) {
  return same_str(x->config, y->config) && x->seed == y->seed && x->cycles == y->cycles &&
         same_str(x->waves, y->waves) && x->waves_from == y->waves_from &&
         same_str(x->waves_path, y->waves_path) && same_str(x->cov, y->cov) &&
         same_str(x->result, y->result) && same_str(x->sim, y->sim) &&
         same_str(x->make_extra, y->make_extra) && x->dbg_per_cycle == y->dbg_per_cycle &&
         x->dump == y->dump && x->model_only == y->model_only && x->threads == y->threads &&
         same_str(x->pcap, y->pcap);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *argv[FUZZ_MAX_ARGS + 2];
  int argc = fuzz_argv(data, size, "cosim", argv);
  if (argc < 0) return 0;
  fuzz_capture_t cap;
  if (fuzz_capture_begin(&cap) != 0) {
    fuzz_argv_free(argc, argv);
    return 0;
  }
  args_t a;
  int rc = parse_args(argc, argv, &a);
  fuzz_capture_end(&cap);
  fuzz_verbose("%s: rc %d %s", TARGET, rc, cap.err ? cap.err : "");
  if (rc == 0) {
    if (cap.out_len || cap.err_len) fuzz_fail(TARGET, "accepted, but the parser printed");
    check_range(&a);
    static char text[RT_ARGS][RT_LEN];
    char *argv2[RT_ARGS + 2];
    int argc2 = write_back(&a, text, argv2);
    args_t b;
    fuzz_capture_free(&cap);
    if (fuzz_capture_begin(&cap) != 0) {
      fuzz_argv_free(argc, argv);
      return 0;
    }
    int rc2 = parse_args(argc2, argv2, &b);
    fuzz_capture_end(&cap);
    if (rc2 != 0 || !same_args(&a, &b))
      fuzz_fail(TARGET, "accepted, but its arguments written back parse to something else "
                "(rc %d): %s", rc2, cap.err ? cap.err : "");
  } else if (rc == -1) {
    if (cap.out_len || !fuzz_one_line(cap.err, cap.err_len))
      fuzz_fail(TARGET, "refused, but not one line on stderr: '%s'", cap.err ? cap.err : "");
  } else {
    fuzz_fail(TARGET, "parse_args returned %d (allowed 0, -1)", rc);
  }
  fuzz_capture_free(&cap);
  fuzz_argv_free(argc, argv);
  return 0;
}
