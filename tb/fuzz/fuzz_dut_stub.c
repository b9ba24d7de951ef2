/*
 * fuzz_dut_stub.c - the simulator side of tb/common/dut.h for fuzz_tb_args.c, which links
 * tb_main.c only to reach its argument parser: no simulator is ever opened. Every function
 * aborts if called, so that a harness that reached the co-simulation by mistake shows it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "dut.h"

static void not_reached(const char *what) {
  fprintf(stderr, "fuzz_dut_stub: %s called: the parser target runs no simulator\n", what);
  abort();
}

int dut_open(const dut_open_t *args, char *err, size_t errlen) {
  (void)args, (void)err, (void)errlen;
  not_reached("dut_open");
  return -1;
}
void dut_close(void) { not_reached("dut_close"); }
int dut_close_checked(char *err, size_t errlen) {
  (void)err;
  (void)errlen;
  not_reached("dut_close_checked");
  return -1;
}
const char *dut_sim_name(void) { return "fuzz-stub"; }
void dut_reset(void) { not_reached("dut_reset"); }
void dut_set_rx(unsigned port, const lfc_word_t *w) {
  (void)port, (void)w;
  not_reached("dut_set_rx");
}
void dut_set_dbg(unsigned reg, unsigned port, unsigned cls) {
  (void)reg, (void)port, (void)cls;
  not_reached("dut_set_dbg");
}
void dut_settle(void) { not_reached("dut_settle"); }
void dut_get_tx(unsigned port, lfc_word_t *w) {
  (void)port, (void)w;
  not_reached("dut_get_tx");
}
void dut_get_stat(dut_stat_t *s) {
  (void)s;
  not_reached("dut_get_stat");
}
uint32_t dut_get_dbg(void) {
  not_reached("dut_get_dbg");
  return 0;
}
int dut_get_xz(char *name, size_t len, unsigned *port) {
  (void)name, (void)len, (void)port;
  not_reached("dut_get_xz");
  return 0;
}
void dut_clock(void) { not_reached("dut_clock"); }
const dut_packed_t *dut_packed(void) { return NULL; }
