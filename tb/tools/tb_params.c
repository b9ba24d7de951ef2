/*
 * tb-params - print the RTL parameters of a configuration (SPEC §13) as simulator flags.
 *
 *   tb-params verilator tb/configs/NAME.ini     -> -GMode=0 -GPorts=4 ...
 *   tb-params icarus    tb/configs/NAME.ini     -> -Ptb_top.Mode=0 -Ptb_top.Ports=4 ...
 *   tb-params check     tb/configs/NAME.ini     -> loads and validates only
 *   tb-params ports     tb/configs/NAME.ini     -> the port count (the Verilator shim's TB_PORTS)
 *   tb-params id        tb/configs/NAME.ini     -> the digest of the parameters (checked when a
 *                                                  simulator is run: tb_config_params_id)
 *   tb-params cycles    tb/configs/NAME.ini     -> the configuration's default run length
 *   tb-params test_cycles tb/configs/NAME.ini   -> its run length in `make test-cosim`
 *
 * Exit 0, or 2 with the configuration error on stderr.
 */
#include <stdio.h>
#include <string.h>

#include "tb_config.h"

int main(int argc, char **argv) {
  if (argc != 3 || (strcmp(argv[1], "verilator") && strcmp(argv[1], "icarus") &&
                    strcmp(argv[1], "check") && strcmp(argv[1], "ports") && strcmp(argv[1], "id") &&
                    strcmp(argv[1], "cycles") && strcmp(argv[1], "test_cycles"))) {
    fprintf(stderr,
            "usage: %s verilator|icarus|check|ports|id|cycles|test_cycles tb/configs/NAME.ini\n",
            argv[0]);
    return 2;
  }
  static tb_cfg_t cfg;
  if (tb_config_load(argv[2], &cfg)) return 2;
  if (!strcmp(argv[1], "check")) return 0;
  if (!strcmp(argv[1], "ports")) {
    printf("%u\n", cfg.sw.ports);
    return 0;
  }
  if (!strcmp(argv[1], "id")) {
    uint32_t id = tb_config_params_id(&cfg);
    if (id == 0) {
      fprintf(stderr, "%s: parameter list too long\n", argv[2]);
      return 2;
    }
    printf("%u\n", (unsigned)id);
    return 0;
  }
  if (!strcmp(argv[1], "cycles") || !strcmp(argv[1], "test_cycles")) {
    printf("%llu\n", (unsigned long long)(strcmp(argv[1], "cycles") ? cfg.test_cycles
                                                                     : cfg.cycles));
    return 0;
  }
  static char buf[16384];
  if (tb_config_rtl_params(&cfg, argv[1], "tb_top", buf, sizeof buf)) {
    fprintf(stderr, "%s: parameter list too long\n", argv[2]);
    return 2;
  }
  printf("%s\n", buf);
  return 0;
}
