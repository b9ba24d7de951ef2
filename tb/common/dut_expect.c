/*
 * dut_expect.c - what the RTL's outputs must be, derived from the model (dut_expect.h): the
 * debug port's register selections, the stat_* pulses of a cycle and their comparison.
 */
#include "dut_expect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- registers through the debug port ---- */

static uint32_t reg_mask(size_t reg) {
  unsigned w = lfc_reg_info(reg)->width;
  return w >= 32 ? UINT32_MAX : (uint32_t)((1ull << w) - 1u);
}

static dbg_sel_t dbg_sel(size_t reg, unsigned port, unsigned cls) {
  return (dbg_sel_t){(uint16_t)reg, (uint8_t)port, (uint8_t)cls, reg_mask(reg)};
}

/* The order of each register's selections: by port, then class (rotation = 0; the final sweep
   and +dump), or by class, then port (rotation = 1, the per-cycle rotation): consecutive reads
   then differ only in dbg_port_i, the last stage of the debug multiplexer (lfc_switch.v), and
   not in dbg_reg_i and dbg_cls_i, which every port's stages decode. On Icarus that saves 4 % of
   a cycle at one read per cycle (docs/perf-log.md); which registers are compared, and how
   often, is the same. */
dbg_sel_t *dut_dbg_list(const lfc_switch_cfg_t *c, int all, int rotation, size_t *n) {
  size_t cap = lfc_reg_count() * c->ports * (LFC_MAX_CLASSES + 1u) + 1u, k = 0;
  dbg_sel_t *l = calloc(cap, sizeof *l);
  if (!l) return NULL;
  for (size_t r = 0; r < lfc_reg_count(); r++) {
    const lfc_reg_info_t *ri = lfc_reg_info(r);
    if (!all && ri->mode != 2 && ri->mode != (uint8_t)c->mode) continue;
    if (ri->scope == LFC_SCOPE_SWITCH) {
      l[k++] = dbg_sel(r, 0, 0);
      continue;
    }
    /* The classes of the register: one for a port register, the VL15 queue as class 15 of
       qlen and qpkts (SPEC §13.1). */
    unsigned cls[LFC_MAX_CLASSES + 1], ncls = 0;
    if (ri->scope == LFC_SCOPE_PORT) {
      cls[ncls++] = 0;
    } else {
      for (unsigned cl = 0; cl < c->classes; cl++) cls[ncls++] = cl;
      if (c->mode == LFC_MODE_IB && (!strcmp(ri->name, "qlen") || !strcmp(ri->name, "qpkts")))
        cls[ncls++] = LFC_VL15;
    }
    const unsigned outer = rotation ? ncls : c->ports, inner = rotation ? c->ports : ncls;
    for (unsigned i = 0; i < outer; i++)
      for (unsigned j = 0; j < inner; j++)
        l[k++] = rotation ? dbg_sel(r, j, cls[i]) : dbg_sel(r, i, cls[j]);
  }
  *n = k;
  return l;
}

/* ---- the stat_* pulses (SPEC §13) ---- */

/* An admission drop: the event names the packet whose first block arrives on its port now. */
static int admission_drop(const lfc_event_t *ev, const lfc_word_t *in, const uint8_t *rx_rem) {
  const lfc_word_t *w = &in[ev->port];
  return w->kind == LFC_DATA && w->sop && (rx_rem == NULL || rx_rem[ev->port] == 0) &&
         w->tag == ev->tag;
}

void dut_expected_stats(const lfc_word_t *in, const uint8_t *rx_rem, const lfc_event_t *ev,
                        size_t nev, dut_stat_t *s) {
  memset(s, 0, sizeof *s);
  for (size_t i = 0; i < nev; i++) {
    unsigned p = ev[i].port, c = ev[i].cls & 15u;
    if (p >= DUT_MAX_PORTS) continue;
    switch (ev[i].kind) {
      case LFC_EV_DROP:
        if (ev[i].cause == LFC_DROP_WATCHDOG && !admission_drop(&ev[i], in, rx_rem)) {
          s->wd_drop[p] |= (uint16_t)(1u << c);
        } else {
          s->drop[p] = 1;
          s->drop_cause[p] = ev[i].cause;
        }
        break;
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

int dut_stat_diff(const dut_stat_t *e, const dut_stat_t *a, unsigned p, char *sig, size_t sl,
                  char *ev, char *av, size_t vl) {
#define BIT1(field, name)                                     \
  if (e->field[p] != a->field[p]) {                           \
    snprintf(sig, sl, "%s", name);                            \
    snprintf(ev, vl, "%u", (unsigned)e->field[p]);            \
    snprintf(av, vl, "%u", (unsigned)a->field[p]);            \
    return 1;                                                 \
  }
#define MASK16(field, name)                                                 \
  if (e->field[p] != a->field[p]) {                                         \
    unsigned d = (unsigned)(e->field[p] ^ a->field[p]);                     \
    unsigned c = (unsigned)__builtin_ctz(d);                                \
    snprintf(sig, sl, "%s[cls=%u]", name, c);                               \
    snprintf(ev, vl, "%u", (e->field[p] >> c) & 1u);                        \
    snprintf(av, vl, "%u", (a->field[p] >> c) & 1u);                        \
    return 1;                                                               \
  }
  BIT1(drop, "stat_drop_o");
  if (e->drop[p] && e->drop_cause[p] != a->drop_cause[p]) {
    snprintf(sig, sl, "stat_drop_cause_o");
    snprintf(ev, vl, "%u(%s)", e->drop_cause[p],
             lfc_drop_cause_name((lfc_drop_cause_t)e->drop_cause[p]));
    snprintf(av, vl, "%u(%s)", a->drop_cause[p],
             a->drop_cause[p] < LFC_DROP_CAUSES
                 ? lfc_drop_cause_name((lfc_drop_cause_t)a->drop_cause[p])
                 : "?");
    return 1;
  }
  MASK16(wd_drop, "stat_wd_drop_o");
  BIT1(ecn_mark, "stat_ecn_mark_o");
  MASK16(xoff, "stat_xoff_o");
  MASK16(xon, "stat_xon_o");
  MASK16(wd_trip, "stat_wd_trip_o");
  MASK16(wd_restore, "stat_wd_restore_o");
  BIT1(rx_malformed, "stat_rx_malformed_o");
  return 0;
#undef BIT1
#undef MASK16
}
