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

typedef struct {
  uint16_t reg;
  uint8_t port, cls;
} sel_t;
static sel_t *g_sel;
static size_t g_nsel;

static uint64_t reg_mask(size_t reg) {
  unsigned w = lfc_reg_info(reg)->width;
  if (w > 32) w = 32;
  return (1ull << w) - 1u;
}

/* Every register of this mode, every port and class (and the VL15 queue). */
static void build_sel(void) {
  const lfc_switch_cfg_t *c = &g_cfg.sw;
  size_t cap = lfc_reg_count() * c->ports * (LFC_MAX_CLASSES + 1), k = 0;
  g_sel = calloc(cap, sizeof *g_sel);
  if (!g_sel) abort();
  for (size_t r = 0; r < lfc_reg_count(); r++) {
    const lfc_reg_info_t *ri = lfc_reg_info(r);
    if (ri->mode != 2 && ri->mode != (uint8_t)c->mode) continue;
    if (ri->scope == LFC_SCOPE_SWITCH) {
      g_sel[k++] = (sel_t){(uint16_t)r, 0, 0};
      continue;
    }
    for (unsigned p = 0; p < c->ports; p++) {
      if (ri->scope == LFC_SCOPE_PORT) {
        g_sel[k++] = (sel_t){(uint16_t)r, (uint8_t)p, 0};
        continue;
      }
      for (unsigned cl = 0; cl < c->classes; cl++)
        g_sel[k++] = (sel_t){(uint16_t)r, (uint8_t)p, (uint8_t)cl};
      if (c->mode == LFC_MODE_IB && (!strcmp(ri->name, "qlen") || !strcmp(ri->name, "qpkts")))
        g_sel[k++] = (sel_t){(uint16_t)r, (uint8_t)p, LFC_VL15};
    }
  }
  g_nsel = k;
}

static void init(void) {
  if (g_ready) return;
  if (tb_config_load(FUZZ_CONFIG, &g_cfg)) exit(2);
  build_sel();
  g_ready = 1;
}

/* Save the input next to the report, for a run outside libFuzzer's own crash file. */
static void mismatch(unsigned cycle, unsigned port, const char *signal, uint64_t exp,
                     uint64_t act, const lfc_word_t *in) {
  char b[256];
  printf("MISMATCH cycle=%u port=%u signal=%s expected=0x%llx actual=0x%llx config=%s "
         "input_bytes=%zu\n",
         cycle, port, signal, (unsigned long long)exp, (unsigned long long)act, g_cfg.name,
         g_size);
  if (in) printf("  input word this cycle: %s\n", lfc_word_format(&in[port], b, sizeof b));
  printf("  reproduce: run the fuzz binary on the saved input (make fuzz-replay FUZZ_INPUT=...)\n");
  fflush(stdout);
  (void)g_data;
  abort();
}

/* stat_* from the model's events, as tb_main derives them (SPEC §13): a WATCHDOG drop is an
   admission drop when it names the packet starting on its port (tags are unique here). */
static void expected_stats(const lfc_word_t *in, const lfc_event_t *ev, size_t nev,
                           dut_stat_t *s) {
  memset(s, 0, sizeof *s);
  for (size_t i = 0; i < nev; i++) {
    unsigned p = ev[i].port, c = ev[i].cls & 15u;
    if (p >= DUT_MAX_PORTS) continue;
    switch (ev[i].kind) {
      case LFC_EV_DROP: {
        const lfc_word_t *w = &in[p];
        int admission = w->kind == LFC_DATA && w->sop && w->tag == ev[i].tag;
        if (ev[i].cause == LFC_DROP_WATCHDOG && !admission) {
          s->wd_drop[p] |= (uint16_t)(1u << c);
        } else {
          s->drop[p] = 1;
          s->drop_cause[p] = ev[i].cause;
        }
        break;
      }
      case LFC_EV_ECN_MARK: s->ecn_mark[p] = 1; break;
      case LFC_EV_XOFF: s->xoff[p] |= (uint16_t)(1u << c); break;
      case LFC_EV_XON: s->xon[p] |= (uint16_t)(1u << c); break;
      case LFC_EV_WD_TRIP: s->wd_trip[p] |= (uint16_t)(1u << c); break;
      case LFC_EV_WD_RESTORE: s->wd_restore[p] |= (uint16_t)(1u << c); break;
      case LFC_EV_RX_MALFORMED: s->rx_malformed[p] = 1; break;
      default: break;
    }
  }
}

static void compare_stats(unsigned cycle, const dut_stat_t *e, const dut_stat_t *a,
                          const lfc_word_t *in) {
  for (unsigned p = 0; p < g_cfg.sw.ports; p++) {
#define CMP(f, name) \
  if (e->f[p] != a->f[p]) mismatch(cycle, p, name, e->f[p], a->f[p], in)
    CMP(drop, "stat_drop_o");
    if (e->drop[p]) CMP(drop_cause, "stat_drop_cause_o");
    CMP(wd_drop, "stat_wd_drop_o");
    CMP(ecn_mark, "stat_ecn_mark_o");
    CMP(xoff, "stat_xoff_o");
    CMP(xon, "stat_xon_o");
    CMP(wd_trip, "stat_wd_trip_o");
    CMP(wd_restore, "stat_wd_restore_o");
    CMP(rx_malformed, "stat_rx_malformed_o");
#undef CMP
  }
}

static void compare_reg(unsigned cycle, const lfc_switch_t *sw, const sel_t *s, uint64_t exp) {
  dut_set_dbg(s->reg, s->port, s->cls);
  dut_settle();
  uint64_t act = dut_get_dbg() & reg_mask(s->reg);
  if (act != exp) {
    char name[96];
    snprintf(name, sizeof name, "dbg:%s[cls=%u]", lfc_reg_info(s->reg)->name, s->cls);
    mismatch(cycle, s->port, name, exp, act, NULL);
  }
  (void)sw;
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
    sel_t cur[FUZZ_REGS_PER_CYCLE];
    uint64_t expv[FUZZ_REGS_PER_CYCLE];
    for (unsigned k = 0; k < FUZZ_REGS_PER_CYCLE; k++) {
      cur[k] = g_sel[(rot + k) % g_nsel];
      expv[k] = lfc_switch_reg(sw, cur[k].reg, cur[k].port, cur[k].cls) & reg_mask(cur[k].reg);
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
          mismatch(cycle, p, dut_word_field_name[i], dut_word_field(&out[p], i),
                   dut_word_field(&rtl, i), in);
    }
    dut_stat_t es, as;
    dut_get_stat(&as);
    expected_stats(in, ev, nev, &es);
    compare_stats(cycle, &es, &as, in);
    for (unsigned k = 0; k < FUZZ_REGS_PER_CYCLE; k++) compare_reg(cycle, sw, &cur[k], expv[k]);
    dut_clock();
    cycle++;
  }
  for (size_t i = 0; i < g_nsel; i++)
    compare_reg(cycle, sw, &g_sel[i],
                lfc_switch_reg(sw, g_sel[i].reg, g_sel[i].port, g_sel[i].cls) &
                    reg_mask(g_sel[i].reg));
  dut_close();
  lfc_switch_destroy(sw);
  return 0;
}
