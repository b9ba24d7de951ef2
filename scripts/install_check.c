/*
 * install_check.c - the program a user of the installed lfc would write first, built by
 * scripts/install_check.sh against an installed tree with `pkg-config --cflags --libs lfc`.
 *
 *   install_check VERSION
 *
 * Creates a 4-port IB switch from the defaults (docs/SPEC.md §3), steps it with IDLE inputs
 * and checks that it sends its periodic flow control packets (FCP, SPEC §5) on the links, and
 * that lfc_version() of the library it loaded is VERSION. Exit status 0 when all holds, 1 when
 * a check fails, 2 for bad arguments.
 */
#include <stdio.h>
#include <string.h>

#include <lfc/lfc.h>

#define CHECK_PORTS 4u
#define CHECK_CLASSES 2u
#define CHECK_CYCLES 5000u /* several default FCP periods (fcp_period, SPEC §5) */
#define EXIT_USAGE 2

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s VERSION\n", argv[0]);
    return EXIT_USAGE;
  }
  if (strcmp(lfc_version(), argv[1]) != 0) {
    fprintf(stderr, "install_check: lfc_version() is '%s', VERSION is '%s'\n", lfc_version(),
            argv[1]);
    return 1;
  }
  lfc_switch_cfg_t cfg;
  lfc_switch_cfg_default(&cfg, LFC_MODE_IB, CHECK_PORTS, CHECK_CLASSES);
  char err[256];
  lfc_switch_t *sw = lfc_switch_create(&cfg, err, sizeof err);
  if (sw == NULL) {
    fprintf(stderr, "install_check: lfc_switch_create: %s\n", err);
    return 1;
  }
  lfc_word_t in[CHECK_PORTS], out[CHECK_PORTS];
  unsigned words_out = 0;
  for (unsigned t = 0; t < CHECK_CYCLES; t++) {
    memset(in, 0, sizeof in); /* every port IDLE */
    lfc_switch_step(sw, in, out);
    for (unsigned p = 0; p < CHECK_PORTS; p++) words_out += out[p].kind != LFC_IDLE;
  }
  uint64_t cycle = lfc_switch_cycle(sw);
  lfc_switch_destroy(sw);
  if (cycle != CHECK_CYCLES || words_out == 0) {
    fprintf(stderr, "install_check: after %u steps the switch is at cycle %llu and sent %u words\n",
            CHECK_CYCLES, (unsigned long long)cycle, words_out);
    return 1;
  }
  printf("install_check: lfc %s, %u cycles, %u non-IDLE words sent\n", lfc_version(),
         (unsigned)cycle, words_out);
  return 0;
}
