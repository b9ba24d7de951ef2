/*
 * fuzz_tb_config.c - libFuzzer target: the co-simulation's configuration reader,
 * tb_config_load (tb/common/tb_config.c: libinih, the key table, lfc_switch_cfg_set, the rules
 * over several keys), on arbitrary bytes as the .ini file.
 *
 * The input is written to an in-memory file (memfd) and loaded through its /proc/self/fd path,
 * the way tb_params and the simulators load tb/configs/NAME.ini. Checked besides crashes,
 * leaks and sanitizer findings:
 *   - the result is 0 or 2 (tb_config.h);
 *   - rejected: exactly one line on stderr, naming the file ("PATH:LINE: ..." or "PATH: ...")
 *     and a line that the file has, nothing on stdout (the house rule for bad input);
 *   - accepted: nothing printed, and what was accepted is what the rest of the co-simulation
 *     relies on: 2..TB_MAX_PORTS ports, a switch that lfc_switch_cfg_check accepts, a link
 *     partner per port that lfc_nic_cfg_check accepts, link delays in 1..1000, RTL parameters
 *     that fit (tb_config_rtl_params for Verilator and Icarus) and a digest that is not 0.
 */
#define _GNU_SOURCE /* memfd_create */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_parse.h"
#include "tb_config.h"

#define TARGET "tb_config"
/* The RTL parameter flags of one configuration: tb_params' buffer (tb/tools/tb_params.c). */
#define PARAMS_LEN 16384u
/* Link delays, cycles each way ([link] delay, SPEC §12.1). */
#define DELAY_MIN 1u
#define DELAY_MAX 1000u

static int g_fd = -1;
static char g_path[64];

/* The configuration is large (tb_cfg_t holds a partner per port): not on the stack. */
static tb_cfg_t g_cfg;
static char g_params[PARAMS_LEN];

static void check_accepted(const tb_cfg_t *c, const fuzz_capture_t *cap) {
  char err[1024];
  if (cap->out_len || cap->err_len)
    fuzz_fail(TARGET, "accepted, but printed: '%s%s'", cap->out ? cap->out : "",
              cap->err ? cap->err : "");
  if (c->sw.ports < 2u || c->sw.ports > TB_MAX_PORTS)
    fuzz_fail(TARGET, "accepted ports = %u, the RTL has 2..%u", c->sw.ports, TB_MAX_PORTS);
  if (lfc_switch_cfg_check(&c->sw, err, sizeof err) != 0)
    fuzz_fail(TARGET, "accepted a switch that lfc_switch_cfg_check rejects: %s", err);
  for (uint32_t p = 0; p < c->sw.ports; p++) {
    if (lfc_nic_cfg_check(&c->nic[p], err, sizeof err) != 0)
      fuzz_fail(TARGET, "accepted partner %u that lfc_nic_cfg_check rejects: %s", p, err);
    if (c->link_delay[p] < DELAY_MIN || c->link_delay[p] > DELAY_MAX)
      fuzz_fail(TARGET, "accepted link delay %u on port %u (allowed %u..%u)", c->link_delay[p], p,
                DELAY_MIN, DELAY_MAX);
  }
  if (tb_config_rtl_params(c, "verilator", "", g_params, sizeof g_params) != 0 ||
      tb_config_rtl_params(c, "icarus", "tb_top", g_params, sizeof g_params) != 0)
    fuzz_fail(TARGET, "accepted, but its RTL parameters do not fit in %u characters",
              PARAMS_LEN);
  if (tb_config_params_id(c) == 0) fuzz_fail(TARGET, "accepted, but its parameter digest is 0");
}

/* Lines of the input as an editor counts them (a last line without '\n' counts). */
static long count_lines(const uint8_t *data, size_t size) {
  long n = 0;
  for (size_t i = 0; i < size; i++) n += data[i] == '\n';
  return n + (size > 0 && data[size - 1] != '\n');
}

static void check_rejected(const fuzz_capture_t *cap, const uint8_t *data, size_t size) {
  size_t n = strlen(g_path);
  if (cap->out_len)
    fuzz_fail(TARGET, "rejected, and printed on stdout: '%s'", cap->out);
  if (!fuzz_one_line(cap->err, cap->err_len) || strncmp(cap->err, g_path, n) != 0 ||
      cap->err[n] != ':')
    fuzz_fail(TARGET, "rejected, but stderr is not one line naming the file: '%s'",
              cap->err ? cap->err : "");
  /* "PATH:LINE: ...": a line of the file. */
  const char *l = cap->err + n + 1;
  if (*l >= '0' && *l <= '9') {
    long line = strtol(l, NULL, 10);
    if (line < 1 || line > count_lines(data, size))
      fuzz_fail(TARGET, "rejected on line %ld of a file of %ld lines: '%s'", line,
                count_lines(data, size), cap->err);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (g_fd < 0) {
    g_fd = memfd_create("fuzz_tb_config", 0);
    if (g_fd < 0) {
      perror("fuzz_tb_config: memfd_create");
      abort();
    }
    snprintf(g_path, sizeof g_path, "/proc/self/fd/%d", g_fd);
  }
  if (ftruncate(g_fd, 0) != 0 || pwrite(g_fd, data, size, 0) != (ssize_t)size) {
    perror("fuzz_tb_config: writing the memfd");
    abort();
  }
  fuzz_capture_t cap;
  if (fuzz_capture_begin(&cap) != 0) return 0;
  int rc = tb_config_load(g_path, &g_cfg);
  fuzz_capture_end(&cap);
  fuzz_verbose("%s: rc %d %s", TARGET, rc, cap.err ? cap.err : "");
  if (rc == 0)
    check_accepted(&g_cfg, &cap);
  else if (rc == 2)
    check_rejected(&cap, data, size);
  else
    fuzz_fail(TARGET, "tb_config_load returned %d (allowed 0, 2)", rc);
  fuzz_capture_free(&cap);
  return 0;
}
