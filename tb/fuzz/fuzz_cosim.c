/*
 * fuzz_cosim.c - differential fuzz target: the Verilated RTL against the C model, cycle by
 * cycle, on words decoded from the fuzz bytes (fuzz_input.h), rule-breaking ones included.
 *
 * Built with clang and libFuzzer (tb/fuzz/fuzz.mk): the RTL through the co-simulation's DUT
 * interface (tb/common/dut.h, implemented by tb/verilator/dut_verilator.cpp, linked as it is),
 * the model from cmodel/, the configuration from FUZZ_CONFIG (an .ini of tb/configs format; the
 * RTL was elaborated with its parameters). Each cycle compares what tb_main compares: every field
 * of every transmitted word, the stat_* pulses, and FUZZ_REGS_PER_CYCLE registers of S(t) through
 * the debug port (rotating); after the last cycle every register. The first difference prints one
 * MISMATCH line and aborts, which libFuzzer records as a crash with the input that caused it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dut.h"
#include "dut_expect.h"
#include "fuzz_input.h"
#include "lfc/switch.h"
#include "tb_config.h"

#ifndef FUZZ_CONFIG
#error "FUZZ_CONFIG (the path of the configuration the RTL was built for) must be defined"
#endif

/* Registers compared per cycle: a few, so that an execution stays short; they rotate, and the
   last cycle compares all of them. */
#define FUZZ_REGS_PER_CYCLE 4u

static tb_cfg_t g_cfg;
static int g_ready;
static const uint8_t *g_data;
static size_t g_size;

static dbg_sel_t *g_sel;
static size_t g_nsel;

static void init(void) {
  if (g_ready) return;
  if (tb_config_load(FUZZ_CONFIG, &g_cfg)) exit(2);
  g_sel = dut_dbg_list(&g_cfg.sw, 0, 0, &g_nsel);
  if (!g_sel) abort();
  g_ready = 1;
}

/* The MISMATCH line, then abort: libFuzzer saves the input as a crash. */
static void mismatch(unsigned cycle, unsigned port, const char *signal, const char *exp,
                     const char *act, const lfc_word_t *in) {
  char b[256];
  printf("MISMATCH cycle=%u port=%u signal=%s expected=%s actual=%s config=%s input_bytes=%zu\n",
         cycle, port, signal, exp, act, g_cfg.name, g_size);
  if (in) printf("  input word this cycle: %s\n", lfc_word_format(&in[port], b, sizeof b));
  printf("  reproduce: run the fuzz binary on the saved input (make fuzz-replay FUZZ_INPUT=...)\n");
  fflush(stdout);
  (void)g_data;
  abort();
}

static void mismatch_hex(unsigned cycle, unsigned port, const char *signal, uint64_t exp,
                         uint64_t act, const lfc_word_t *in) {
  char e[24], a[24];
  snprintf(e, sizeof e, "0x%llx", (unsigned long long)exp);
  snprintf(a, sizeof a, "0x%llx", (unsigned long long)act);
  mismatch(cycle, port, signal, e, a, in);
}

static void compare_stats(unsigned cycle, const dut_stat_t *e, const dut_stat_t *a,
                          const lfc_word_t *in) {
  char sig[64], ev[48], av[48];
  for (unsigned p = 0; p < g_cfg.sw.ports; p++)
    if (dut_stat_diff(e, a, p, sig, sizeof sig, ev, av, sizeof ev))
      mismatch(cycle, p, sig, ev, av, in);
}

static void compare_reg(unsigned cycle, const dbg_sel_t *s, uint64_t exp) {
  dut_set_dbg(s->reg, s->port, s->cls);
  dut_settle();
  uint64_t act = dut_get_dbg() & s->mask;
  if (act != exp) {
    char name[96];
    snprintf(name, sizeof name, "dbg:%s[cls=%u]", lfc_reg_info(s->reg)->name, s->cls);
    mismatch_hex(cycle, s->port, name, exp, act, NULL);
  }
}

/* The shim's main() (renamed dut_verilator_main in this build) calls tb_main; libFuzzer has its
   own main, so the co-simulation's test is not linked and this is never called. */
int tb_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  return 2;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  init();
  g_data = data;
  g_size = size;
  const lfc_switch_cfg_t *c = &g_cfg.sw;
  unsigned ports = c->ports;
  char err[256];
  lfc_switch_t *sw = lfc_switch_create(c, err, sizeof err);
  if (!sw) {
    fprintf(stderr, "fuzz-cosim: lfc_switch_create: %s\n", err);
    exit(2);
  }
  /* A fresh RTL model per input: nothing carries over from the previous one. */
  /* params_id 0: the fuzz builds (tb/fuzz/fuzz.mk) record no parameter digest to check. */
  dut_open_t oa = {ports, NULL, 0, 0};
  if (dut_open(&oa, err, sizeof err)) {
    fprintf(stderr, "fuzz-cosim: %s\n", err);
    exit(3);
  }
  dut_reset();

  fuzz_in_t f;
  fuzz_in_init(&f, data, size, c);
  lfc_word_t in[LFC_MAX_PORTS], out[LFC_MAX_PORTS], rtl;
  size_t rot = 0;
  unsigned cycle = 0;
  while (fuzz_in_next(&f, in)) {
    dbg_sel_t cur[FUZZ_REGS_PER_CYCLE];
    uint64_t expv[FUZZ_REGS_PER_CYCLE];
    for (unsigned k = 0; k < FUZZ_REGS_PER_CYCLE; k++) {
      cur[k] = g_sel[(rot + k) % g_nsel];
      expv[k] = lfc_switch_reg(sw, cur[k].reg, cur[k].port, cur[k].cls) & cur[k].mask;
    }
    rot = (rot + FUZZ_REGS_PER_CYCLE) % g_nsel;

    for (unsigned p = 0; p < ports; p++) dut_set_rx(p, &in[p]);
    dut_set_dbg(cur[0].reg, cur[0].port, cur[0].cls);
    dut_settle();
    lfc_switch_step(sw, in, out);
    const lfc_event_t *ev;
    size_t nev = lfc_switch_events(sw, &ev);

    for (unsigned p = 0; p < ports; p++) {
      dut_get_tx(p, &rtl);
      for (unsigned i = 0; i < DUT_WORD_FIELDS; i++)
        if (dut_word_field(&out[p], i) != dut_word_field(&rtl, i))
          mismatch_hex(cycle, p, dut_word_field_name[i], dut_word_field(&out[p], i),
                       dut_word_field(&rtl, i), in);
    }
    dut_stat_t es, as;
    dut_get_stat(&as);
    /* No framing mirror here: tags are unique, so a WATCHDOG drop naming the packet whose
       first block arrives is that packet's admission drop. */
    dut_expected_stats(in, NULL, ev, nev, &es);
    compare_stats(cycle, &es, &as, in);
    for (unsigned k = 0; k < FUZZ_REGS_PER_CYCLE; k++) compare_reg(cycle, &cur[k], expv[k]);
    dut_clock();
    cycle++;
  }
  for (size_t i = 0; i < g_nsel; i++)
    compare_reg(cycle, &g_sel[i],
                lfc_switch_reg(sw, g_sel[i].reg, g_sel[i].port, g_sel[i].cls) & g_sel[i].mask);
  dut_close();
  lfc_switch_destroy(sw);
  return 0;
}
