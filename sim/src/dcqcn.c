/*
 * dcqcn.c - DCQCN notification and reaction points (dcqcn.h; Zhu et al., SIGCOMM 2015, §3).
 */
#include "dcqcn.h"

#include <stdlib.h>

#define NS_PER_US 1000.0
#define BYTES_PER_KB 1024u
#define PPM 1000000.0

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

void dcqcn_cfg(const lfc_scenario_t *sc, double line_gbps, dcqcn_cfg_t *c) {
  c->g = sc->dcqcn_g;
  c->rai = sc->dcqcn_rai_gbps / line_gbps;
  c->rhai = sc->dcqcn_rhai_gbps / line_gbps;
  c->min_rate = sc->dcqcn_min_gbps / line_gbps;
  if (c->min_rate > 1.0) c->min_rate = 1.0;
  c->alpha_cycles = sc_ns_to_cycles(sc, sc->dcqcn_alpha_us * NS_PER_US);
  c->timer_cycles = sc_ns_to_cycles(sc, sc->dcqcn_timer_us * NS_PER_US);
  c->cnp_gap = sc->dcqcn_cnp_us > 0 ? sc_ns_to_cycles(sc, sc->dcqcn_cnp_us * NS_PER_US) : 1u;
  c->cnp_delay = sc_ns_to_cycles(sc, sc->dcqcn_cnp_delay_us * NS_PER_US);
  c->byte_counter = (uint64_t)sc->dcqcn_byte_counter_kb * BYTES_PER_KB;
  c->f = sc->dcqcn_f;
  c->queue_cap = (uint32_t)(c->cnp_delay / c->cnp_gap + 2u);
}

static void set_rate(flow_t *f) {
  double r = f->dc_rc * PPM + 0.5;
  f->rate_ppm = r < 1.0 ? 1u : r > PPM ? (uint32_t)PPM : (uint32_t)r;
}

int dcqcn_init(const dcqcn_cfg_t *cfg, flow_t *f) {
  f->dc_rc = f->dc_rt = 1.0;
  f->dc_alpha = 1.0; /* Zhu et al. §3: alpha starts at 1 */
  f->dc_alpha_at = f->dc_inc_at = SIM_NEVER;
  f->dc_np_last = SIM_NEVER;
  f->dc_cnp = calloc(cfg->queue_cap, sizeof *f->dc_cnp);
  set_rate(f);
  return f->dc_cnp ? 0 : -1;
}

static void increase(const dcqcn_cfg_t *c, flow_t *f) {
  uint32_t lo = f->dc_tstage < f->dc_bstage ? f->dc_tstage : f->dc_bstage;
  uint32_t hi = f->dc_tstage < f->dc_bstage ? f->dc_bstage : f->dc_tstage;
  if (hi < c->f) {
    /* fast recovery: towards the target */
  } else if (lo > c->f) {
    f->dc_rt += c->rhai;
  } else {
    f->dc_rt += c->rai;
  }
  if (f->dc_rt > 1.0) f->dc_rt = 1.0;
  f->dc_rc = (f->dc_rt + f->dc_rc) / 2.0;
  set_rate(f);
}

static void on_cnp(const dcqcn_cfg_t *c, flow_t *f, uint64_t t) {
  f->dc_rt = f->dc_rc;
  f->dc_rc *= 1.0 - f->dc_alpha / 2.0;
  if (f->dc_rc < c->min_rate) f->dc_rc = c->min_rate;
  f->dc_alpha = (1.0 - c->g) * f->dc_alpha + c->g;
  f->dc_tstage = f->dc_bstage = 0;
  f->dc_bytes = 0;
  f->dc_alpha_at = t + c->alpha_cycles;
  f->dc_inc_at = t + c->timer_cycles;
  f->dc_cnps++;
  set_rate(f);
}

void dcqcn_catch_up(const dcqcn_cfg_t *c, flow_t *f, uint64_t t) {
  for (;;) {
    uint64_t cnp = f->dc_n > 0 ? f->dc_cnp[f->dc_head] : SIM_NEVER;
    uint64_t e = min_u64(cnp, min_u64(f->dc_alpha_at, f->dc_inc_at));
    if (e > t) break;
    if (e == cnp) { /* a CNP first: it restarts the timers of the same cycle */
      f->dc_head = f->dc_head + 1u == c->queue_cap ? 0u : f->dc_head + 1u;
      f->dc_n--;
      on_cnp(c, f, e);
    } else if (e == f->dc_alpha_at) {
      f->dc_alpha *= 1.0 - c->g;
      f->dc_alpha_at += c->alpha_cycles;
    } else {
      f->dc_tstage++;
      f->dc_inc_at += c->timer_cycles;
      increase(c, f);
    }
  }
}

void dcqcn_on_send(const dcqcn_cfg_t *c, flow_t *f, uint32_t bytes) {
  if (f->dc_inc_at == SIM_NEVER) return; /* no CNP yet: at line rate, nothing to recover */
  f->dc_bytes += bytes;
  while (c->byte_counter > 0 && f->dc_bytes >= c->byte_counter) {
    f->dc_bytes -= c->byte_counter;
    f->dc_bstage++;
    increase(c, f);
  }
}

void dcqcn_on_ce(const dcqcn_cfg_t *c, flow_t *f, uint64_t t) {
  dcqcn_catch_up(c, f, t); /* every CNP and timer up to t is known now (see dcqcn.h) */
  if (f->dc_np_last != SIM_NEVER && t - f->dc_np_last < c->cnp_gap) return;
  f->dc_np_last = t;
  if (f->dc_n == c->queue_cap) return; /* cannot happen: queue_cap bounds the CNPs in flight */
  uint32_t tail = (f->dc_head + f->dc_n) % c->queue_cap;
  f->dc_cnp[tail] = t + c->cnp_delay;
  f->dc_n++;
}
