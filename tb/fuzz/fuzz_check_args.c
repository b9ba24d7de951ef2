/*
 * fuzz_check_args.c - libFuzzer target: the command line of lfc-check (cmodel/tools/lfc_check.c),
 * one argument per line of the input, run whole: options, the captures it reads, the checkers,
 * the coverage file, the report.
 *
 * lfc_check.c is compiled into this file: its main is renamed, and its exit (die() on bad input,
 * --help, --version) becomes a longjmp back here with the status. lfc_check.c frees what it
 * holds before it exits, so LeakSanitizer stays on: a bad input that leaves memory behind is a
 * finding.
 *
 * Captures: an argument "@NAME" (NAME of letters, digits, '-' and '_') is the file
 * NAME.pcap of the fixtures directory (FUZZ_CHECK_FIXTURES, tb/fuzz/check_fixtures: small
 * captures written by tb/fuzz/make_check_seeds.py with lfc_wire_gen, clean, with violations and
 * broken), so that the fuzzer gets past "cannot open". Files the program writes (--coverage)
 * go to a directory of this process instead, their names flattened ('/' to '_'), and are
 * removed after each input; special files (/dev, /proc, /sys) are not opened.
 *
 * Checked besides crashes and sanitizer findings, from the usage and docs/exit-status.md:
 *   - the exit status is 0, 1 or 2;
 *   - 2: exactly one line on stderr, starting "lfc-check: ", nothing on stdout;
 *   - 0 and 1: nothing on stderr; --help and --version print their text and exit 0; a run
 *     prints its summary line, "...: 0 violations" exactly when the status is 0.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_parse.h"
#include "lfc/pcap.h"

#define TARGET "check_args"
#define PATH_LEN 4096u
#define WRITTEN_MAX 8u

#ifndef FUZZ_CHECK_FIXTURES
#define FUZZ_CHECK_FIXTURES "tb/fuzz/check_fixtures"
#endif

static jmp_buf harness_jump;
static char harness_dir[PATH_LEN]; /* where the program's files are written */
static char harness_written[WRITTEN_MAX][PATH_LEN];
static unsigned harness_nwritten;

__attribute__((noreturn)) static void harness_exit(int status) {
  /* status 0..255 as exit() would keep it; +1 so that setjmp tells it from its first return */
  longjmp(harness_jump, (status & 0xFF) + 1);
}

/* The name a file of the program gets in harness_dir. */
static const char *harness_map(const char *path, char out[PATH_LEN]) {
  int n = snprintf(out, PATH_LEN, "%s/", harness_dir);
  for (const char *p = path; *p && n + 1 < (int)PATH_LEN; p++) out[n++] = *p == '/' ? '_' : *p;
  out[n] = '\0';
  return out;
}

static void harness_note(const char *mapped) {
  if (harness_nwritten < WRITTEN_MAX) snprintf(harness_written[harness_nwritten++], PATH_LEN,
                                               "%s", mapped);
}

static FILE *harness_fopen(const char *path, const char *mode) {
  char m[PATH_LEN];
  if (mode[0] == 'r') return fopen(path, mode);
  harness_map(path, m);
  harness_note(m);
  return fopen(m, mode);
}

static int harness_rename(const char *from, const char *to) {
  char a[PATH_LEN], b[PATH_LEN];
  harness_map(to, b);
  harness_note(b);
  return rename(harness_map(from, a), b);
}

static int harness_unlink(const char *path) {
  char m[PATH_LEN];
  return unlink(harness_map(path, m));
}

/* Special files could block (a FIFO, /dev/stdin) or never end: not opened; the refusal has the
   reader's form. */
static lfc_pcap_reader_t *harness_reader_open(const char *path, char *err, size_t errlen) {
  if (!strncmp(path, "/dev/", 5) || !strncmp(path, "/proc/", 6) || !strncmp(path, "/sys/", 5)) {
    snprintf(err, errlen, "%s: cannot open: a special file (the fuzz target opens none)", path);
    return NULL;
  }
  return lfc_pcap_reader_open(path, err, errlen);
}

#define main lfc_check_main
#define exit(status) harness_exit(status)
#define fopen harness_fopen
#define rename harness_rename
#define unlink harness_unlink
#define lfc_pcap_reader_open harness_reader_open
int lfc_check_main(int argc, char **argv);
/* Its option loop steps i in the body too (an option and its value), on purpose; gcc builds it
   with -Werror in the main build, this is clang's extra warning. */
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wfor-loop-analysis"
#include "../../cmodel/tools/lfc_check.c"
#pragma clang diagnostic pop
#undef main
#undef exit
#undef fopen
#undef rename
#undef unlink
#undef lfc_pcap_reader_open

static void harness_cleanup(void) {
  for (unsigned i = 0; i < harness_nwritten; i++) unlink(harness_written[i]);
  harness_nwritten = 0;
}

static void harness_remove_dir(void) {
  harness_cleanup();
  if (harness_dir[0]) rmdir(harness_dir);
}

static int harness_init(void) {
  if (harness_dir[0]) return 0;
  const char *tmp = getenv("TMPDIR");
  if (tmp == NULL || tmp[0] == '\0') tmp = "/tmp";
  snprintf(harness_dir, sizeof harness_dir, "%s/lfc-fuzz-check-args-XXXXXX", tmp);
  if (mkdtemp(harness_dir) == NULL) {
    harness_dir[0] = '\0';
    return -1;
  }
  atexit(harness_remove_dir);
  return 0;
}

/* "@NAME" becomes the fixture NAME.pcap; a new heap block of exactly its length + 1. */
static char *harness_fixture(char *arg) {
  if (arg[0] != '@' || arg[1] == '\0') return arg;
  for (const char *p = arg + 1; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '_'))
      return arg;
  const size_t n = strlen(FUZZ_CHECK_FIXTURES) + strlen(arg) + sizeof ".pcap";
  char *s = malloc(n);
  if (s == NULL) return arg;
  snprintf(s, n, "%s/%s.pcap", FUZZ_CHECK_FIXTURES, arg + 1);
  free(arg);
  return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (harness_init() != 0) return 0;
  char *argv[FUZZ_MAX_ARGS + 2];
  int argc = fuzz_argv(data, size, "lfc-check", argv);
  if (argc < 0) return 0;
  for (int i = 1; i < argc; i++) argv[i] = harness_fixture(argv[i]);
  /* main may reorder nothing, but keep the blocks to free whatever it does */
  char *mine[FUZZ_MAX_ARGS + 2];
  memcpy(mine, argv, sizeof argv);

  fuzz_capture_t cap;
  if (fuzz_capture_begin(&cap) != 0) {
    fuzz_argv_free(argc, mine);
    return 0;
  }
  volatile int rc;
  const int jumped = setjmp(harness_jump);
  if (jumped == 0) rc = lfc_check_main(argc, argv);
  else rc = jumped - 1;
  fuzz_capture_end(&cap);
  harness_cleanup();
  fuzz_verbose("%s: exit %d %s", TARGET, rc, cap.err ? cap.err : "");

  const char *first = argc > 1 ? mine[1] : "";
  if (rc != 0 && rc != 1 && rc != 2)
    fuzz_fail(TARGET, "'%s' ...: exit %d, allowed 0, 1, 2", first, rc);
  if (rc == 2) {
    if (!fuzz_one_line(cap.err, cap.err_len) || strncmp(cap.err, "lfc-check: ", 11) != 0)
      fuzz_fail(TARGET, "'%s' ...: exit 2, but stderr is not one line 'lfc-check: ...': '%s'",
                first, cap.err ? cap.err : "");
    if (cap.out_len)
      fuzz_fail(TARGET, "'%s' ...: exit 2, but stdout has '%.200s'", first, cap.out);
  } else {
    if (cap.err_len)
      fuzz_fail(TARGET, "'%s' ...: exit %d, but stderr has '%s'", first, rc, cap.err);
    const char *out = cap.out ? cap.out : "";
    const int info = !strncmp(out, "Usage: lfc-check", 16) || !strncmp(out, "lfc-check (lfc) ", 16);
    if (info) {
      if (rc != 0) fuzz_fail(TARGET, "'%s' ...: help or version, but exit %d", first, rc);
    } else {
      /* The summary: "lfc-check: MODE mode at S Gb/s, L links, F frames: N violations..." */
      const char *sum = strstr(out, "lfc-check: ");
      while (sum != NULL && sum != out && sum[-1] != '\n') sum = strstr(sum + 1, "lfc-check: ");
      if (sum == NULL) fuzz_fail(TARGET, "'%s' ...: exit %d, but no summary line", first, rc);
      const char *colon = strstr(sum, " frames: ");
      const char *eol = strchr(sum, '\n');
      if (colon == NULL || eol == NULL || colon > eol)
        fuzz_fail(TARGET, "'%s' ...: the summary line is '%.200s'", first, sum);
      const int clean = !strncmp(colon + 9, "0 violations\n", 13);
      if (clean != (rc == 0))
        fuzz_fail(TARGET, "'%s' ...: exit %d, but the summary says '%.*s'", first, rc,
                  (int)(eol - sum), sum);
    }
  }
  fuzz_capture_free(&cap);
  fuzz_argv_free(argc, mine);
  return 0;
}
