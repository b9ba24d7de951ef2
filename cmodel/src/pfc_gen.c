/*
 * pfc_gen.c - PFC generation: XOFF/XON per lossless PG and the PFC frames that carry them
 * (SPEC §6.5, §6.6).
 *
 * Registers xoff, pfc_pend and refresh_timer (kept as the cycle refresh_due at which it reads 0).
 *
 * Exact and cheap XOFF/XON evaluation. A PG's next xoff is a function of (pg_shared, pg_hdrm, T,
 * xoff). If an evaluation left xoff unchanged and none of those inputs changed since, the next
 * evaluation leaves it unchanged too. So the PGs of a port are evaluated (all of them, in one
 * pass; evaluating a PG is never wrong) only
 *   - when one of them is marked in `check`: its pg_shared or pg_hdrm changed (buffer.c marks
 *     it); at reset every lossless PG is marked. (A PG that just flipped cannot flip back with
 *     the same inputs: §6.5's two conditions exclude each other.)
 *   - when T changed (dynamic threshold) and the new T leaves the port's band.
 * The band of a port is the range of T in which none of its unmarked PGs can flip, from
 * §6.5 with pg_shared, pg_hdrm and xoff fixed:
 *   - xoff = 0, pg_hdrm = 0: flips iff T <= pg_shared, so T must be above band_lo = the largest
 *     such pg_shared (xoff = 0 with pg_hdrm > 0 always flips: band_lo = infinity);
 *   - xoff = 1, pg_hdrm = 0: flips iff pg_shared = 0 or pg_shared + xon_offset <= T, so T must be
 *     below band_hi = the smallest pg_shared + xon_offset (0 if pg_shared = 0);
 *   - xoff = 1, pg_hdrm > 0: never flips.
 * It is kept as band_base = band_lo + 1 and band_width = band_hi - band_lo - 1 (0 if empty), so
 * that the test of every port is one subtraction and one comparison. The band is recomputed
 * whenever the port is evaluated, with the xoff of the next state; PGs whose counters change
 * later in the cycle are marked, so the band only has to hold for the others. Under load T
 * changes nearly every cycle, but by little: most ports stay inside their band, and a port
 * outside it has a PG that really flips. The switch also keeps a part of the intersection of
 * all bands: while T stays in it, no port is tested.
 */
#include "lfc_internal.h"

#include "event_log.h"

#include "lfc_rules.h"

#define BAND_NONE_LO (-1)            /* no PG bounds T from below */
#define BAND_NONE_HI (INT32_MAX - 1) /* no PG bounds T from above (T < 2^20) */
#define BAND_ALWAYS (INT32_MAX - 2)  /* band_lo of a port that must always be evaluated */

/*
 * Ports whose band does not contain T (none when T did not change). band_lo < T < band_hi is
 * (unsigned)(T - band_base) < band_width. The switch keeps an intersection of all bands, exact
 * after this loop and narrowed by every band update since (so it stays inside the true
 * intersection): while T is in it, no port needs looking at.
 */
static uint64_t outside_band(lfc_switch_t *sw, uint32_t th, bool th_changed) {
  if (!th_changed || th - (uint32_t)sw->gband_base < sw->gband_width) return 0;
  uint64_t out = 0;
  int64_t lo = INT64_MIN, hi = INT64_MAX;
  for (uint32_t p = 0; p < sw->ports; p++) {
    int64_t base = sw->band_base[p], end = base + sw->band_width[p];
    out |= (uint64_t)((th - (uint32_t)sw->band_base[p]) >= sw->band_width[p]) << p;
    lo = base > lo ? base : lo;
    hi = end < hi ? end : hi;
  }
  sw->gband_base = (int32_t)lo;
  sw->gband_width = hi > lo ? (uint32_t)(hi - lo) : 0u;
  return out;
}

/*
 * SPEC §6.5 for every lossless PG of port p, from S(t): which of them change xoff in this cycle;
 * and, in the same pass, the port's new band. Evaluating a PG is always right; the marks and
 * bands only decide which ports can be left out.
 */
static uint8_t evaluate(const lfc_switch_t *sw, uint32_t p, uint32_t th, int32_t *band_lo,
                        int32_t *band_hi) {
  const lfc_port_t *pp = &sw->port[p];
  uint32_t xon_offset = sw->cfg.xon_offset;
  uint8_t flip = 0;
  int32_t lo = BAND_NONE_LO, hi = BAND_NONE_HI;
  for (uint8_t m = sw->lossless; m != 0; m &= (uint8_t)(m - 1u)) {
    uint32_t c = lfc_ctz(m);
    uint32_t shared = pp->pc[c].pg_shared, hdrm = pp->pc[c].pg_hdrm;
    bool on = (pp->xoff >> c) & 1u;
    bool next = on ? !lfc_rule_xon_cond(shared, hdrm, th, xon_offset)
                   : lfc_rule_xoff_cond(shared, hdrm, th);
    if (next != on) flip |= (uint8_t)(1u << c);
    /* The band is that of S(t+1): with the new xoff. */
    if (next) {
      int32_t v = shared == 0 ? 0 : (int32_t)(shared + xon_offset);
      if (hdrm == 0 && v < hi) hi = v;
    } else {
      /* An empty PG never turns xoff (SPEC §6.5 needs pg_shared > 0): no bound on T. */
      if (hdrm > 0 || shared > 0) {
        int32_t v = hdrm > 0 ? BAND_ALWAYS : (int32_t)shared;
        if (v > lo) lo = v;
      }
    }
  }
  *band_lo = lo;
  *band_hi = hi;
  return flip;
}

/* Does step G look at port p in this cycle? */
static bool visited(const lfc_switch_t *sw, uint32_t p, uint64_t outside) {
  return sw->port[p].check != 0 || ((outside >> p) & 1u);
}

/* For the tests: the PGs of port p that step G would evaluate now. */
uint8_t lfc_pfc_gen_eval_mask(const lfc_switch_t *sw, uint32_t p, uint32_t th, bool th_changed) {
  bool out = th_changed && th - (uint32_t)sw->band_base[p] >= sw->band_width[p];
  return visited(sw, p, (uint64_t)out << p) ? sw->lossless : 0;
}

/* Store the band of port p and narrow the intersection by it. */
static void set_band(lfc_switch_t *sw, uint32_t p, int32_t lo, int32_t hi) {
  int32_t base = lo + 1;
  uint32_t width = hi > base ? (uint32_t)(hi - base) : 0u; /* empty: always outside */
  sw->band_base[p] = base;
  sw->band_width[p] = width;
  int64_t g_lo = sw->gband_base, g_hi = g_lo + sw->gband_width;
  int64_t b_hi = (int64_t)base + width;
  int64_t n_lo = base > g_lo ? base : g_lo, n_hi = b_hi < g_hi ? b_hi : g_hi;
  sw->gband_base = (int32_t)n_lo;
  sw->gband_width = n_hi > n_lo ? (uint32_t)(n_hi - n_lo) : 0u;
}

/*
 * Step G decision, from S(t): computes each port's `flip`. Consumes the `check` marks (they
 * are hints, not SPEC state): changes applied later in this cycle mark PGs for the next one.
 * lfc_switch_step takes it at the end of the step before, once S(t) is complete, and
 * lfc_switch_reset for cycle 0.
 */
void lfc_pfc_gen_decide(lfc_switch_t *sw) {
  uint32_t th = lfc_buffer_threshold(sw);
  uint64_t outside = outside_band(sw, th, th != sw->th_last);
  sw->flip_ports = 0;
  for (uint64_t ports = sw->check_ports | outside; ports != 0; ports &= ports - 1u) {
    uint32_t p = lfc_ctz(ports);
    lfc_port_t *pp = &sw->port[p];
    if (!visited(sw, p, outside)) continue;
    int32_t lo, hi;
    pp->flip = evaluate(sw, p, th, &lo, &hi);
    pp->check = 0;
    if (pp->flip) sw->flip_ports |= 1ull << p;
    if (sw->cfg.dynamic_th) set_band(sw, p, lo, hi);
  }
  sw->check_ports = 0;
  sw->th_last = th;
}

/* Would step G change any xoff in the current cycle? (For lfc_switch_next_event.) Its
 * decision is taken at the end of the step before (lfc_switch_step). */
bool lfc_pfc_gen_settled(const lfc_switch_t *sw) { return sw->ib || sw->flip_ports == 0; }

static void update_refresh_min(lfc_port_t *pp) {
  uint64_t m = LFC_NEVER;
  for (uint8_t x = pp->xoff; x != 0; x &= (uint8_t)(x - 1u))
    m = lfc_min_u64(m, pp->pc[lfc_ctz(x)].refresh_due);
  pp->refresh_min_due = m;
}

/* Step G apply: the flips of this cycle; a new transition makes its priority pending. */
void lfc_pfc_gen_apply(lfc_switch_t *sw) {
  for (uint64_t ports = sw->flip_ports; ports != 0; ports &= ports - 1u) {
    uint32_t p = lfc_ctz(ports);
    lfc_port_t *pp = &sw->port[p];
    for (uint8_t f = pp->flip; f != 0; f &= (uint8_t)(f - 1u)) {
      uint32_t c = lfc_ctz(f);
      bool on = !((pp->xoff >> c) & 1u);
      lfc_event_push(&sw->events, on ? LFC_EV_XOFF : LFC_EV_XON, p, c, 0, 0);
    }
    pp->xoff ^= pp->flip;
    pp->pend |= pp->flip; /* wins over the clear of step B (SPEC §6.6) */
    sw->tx_work |= 1ull << p; /* a PFC frame is pending */
    pp->flip = 0;
    update_refresh_min(pp);
  }
  sw->flip_ports = 0;
}

/* Step A, SPEC §6.6: is a PFC frame pending on port p? Which priorities does it carry? */
bool lfc_pfc_gen_pick(const lfc_switch_t *sw, uint32_t p, lfc_tx_dec_t *d) {
  const lfc_port_t *pp = &sw->port[p];
  uint8_t en = pp->pend;
  if (pp->refresh_min_due <= sw->now)
    for (uint8_t x = pp->xoff; x != 0; x &= (uint8_t)(x - 1u))
      if (pp->pc[lfc_ctz(x)].refresh_due <= sw->now) en |= (uint8_t)(1u << lfc_ctz(x));
  if (en == 0) return false;
  d->pfc_en = en;
  return true;
}

/* The frame: pfc_time[c] = pause_quanta if xoff[c] else 0, for every c (SPEC §6.6). */
void lfc_pfc_gen_word(const lfc_switch_t *sw, uint32_t p, const lfc_tx_dec_t *d, lfc_word_t *w) {
  uint8_t xoff = sw->port[p].xoff;
  w->kind = LFC_PFC;
  w->pfc_en = d->pfc_en;
  for (uint32_t c = 0; c < LFC_PFC_MAX_PRIOS; c++)
    w->pfc_time[c] = (xoff >> c) & 1u ? (uint16_t)sw->cfg.pause_quanta : 0u;
}

/* Step B of a sent frame: clear the pendings it carried, restart refresh of its XOFFs. */
void lfc_pfc_gen_sent(lfc_switch_t *sw, uint32_t p, const lfc_tx_dec_t *d) {
  lfc_port_t *pp = &sw->port[p];
  lfc_port_cnt_t *st = &sw->stats[p];
  pp->pend &= (uint8_t)~d->pfc_en;
  st->pfc_tx++;
  for (uint8_t en = d->pfc_en; en != 0; en &= (uint8_t)(en - 1u)) {
    uint32_t c = lfc_ctz(en);
    if ((pp->xoff >> c) & 1u) {
      pp->pc[c].refresh_due = sw->now + sw->cfg.refresh_cycles; /* timer = refresh - 1 */
      lfc_cstats(sw, p, c)->xoff_tx++;
    } else {
      lfc_cstats(sw, p, c)->xon_tx++;
    }
  }
  update_refresh_min(pp);
}

/* The first cycle >= now in which a PFC frame is pending on port p, with no new input. */
uint64_t lfc_pfc_gen_next_event(const lfc_switch_t *sw, uint32_t p) {
  const lfc_port_t *pp = &sw->port[p];
  if (pp->pend) return sw->now;
  return pp->refresh_min_due > sw->now ? pp->refresh_min_due : sw->now;
}

void lfc_pfc_gen_reset(lfc_switch_t *sw) {
  for (uint32_t p = 0; p < sw->ports; p++) {
    lfc_port_t *pp = &sw->port[p];
    pp->xoff = pp->pend = pp->shared_nz = pp->hdrm_nz = pp->flip = 0;
    pp->check = sw->ib ? 0 : sw->lossless;
    sw->band_base[p] = 0; /* no band yet: every T is outside */
    sw->band_width[p] = 0;
    sw->gband_base = 0;
    sw->gband_width = 0;
    pp->refresh_min_due = LFC_NEVER;
    if (sw->ib) continue; /* no PGs: lfc_port_t.pc exists in PFC mode only */
    for (uint32_t c = 0; c < LFC_PFC_MAX_PRIOS; c++) pp->pc[c].refresh_due = 0;
  }
  sw->check_ports = !sw->ib && sw->lossless != 0 ? lfc_all_ports(sw) : 0;
  sw->flip_ports = 0;
  sw->shared_used = 0;
  sw->th_last = sw->ib ? 0 : lfc_buffer_threshold(sw);
}
