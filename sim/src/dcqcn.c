/*
 * dcqcn.c - DCQCN notification and reaction points (dcqcn.h; Zhu et al., SIGCOMM 2015, §3,
 * and the rate-decrease check of the authors' ns-3 model and the NICs).
 */
#include "dcqcn.h"

#include <stdlib.h>

#define NS_PER_US 1000.0
#define BYTES_PER_KB 1024u
#define PPM 1000000.0

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

static uint64_t at_least_one(uint64_t c) { return c > 0 ? c : 1u; }

void dcqcn_cfg(const lfc_scenario_t *sc, dcqcn_cfg_t *c) {
  const double line_gbps = sc->host_speed_gbps;
  c->g = sc->dcqcn_g;
  c->rai = sc->dcqcn_rai_gbps / line_gbps;
  c->rhai = sc->dcqcn_rhai_gbps / line_gbps;
  c->min_rate = sc->dcqcn_min_gbps / line_gbps;
  if (c->min_rate > 1.0) c->min_rate = 1.0;
  c->alpha_cycles = at_least_one(sc_ns_to_cycles(sc, sc->dcqcn_alpha_us * NS_PER_US));
  c->timer_cycles = at_least_one(sc_ns_to_cycles(sc, sc->dcqcn_timer_us * NS_PER_US));
  c->dec_cycles = at_least_one(sc_ns_to_cycles(sc, sc->dcqcn_decrease_us * NS_PER_US));
  c->cnp_gap = sc->dcqcn_cnp_us > 0 ? sc_ns_to_cycles(sc, sc->dcqcn_cnp_us * NS_PER_US) : 1u;
  c->cnp_gap = at_least_one(c->cnp_gap);
  c->cnp_delay = sc_ns_to_cycles(sc, sc->dcqcn_cnp_delay_us * NS_PER_US);
  c->byte_counter = (uint64_t)sc->dcqcn_byte_counter_kb * BYTES_PER_KB;
  c->f = sc->dcqcn_f;
  c->clamp_target = sc->dcqcn_clamp_target;
  c->queue_cap = (uint32_t)(c->cnp_delay / c->cnp_gap + 2u);
}

static void set_rate(flow_t *f) {
  double r = f->dc_rc * PPM + 0.5;
  f->rate_ppm = r < 1.0 ? 1u : r > PPM ? (uint32_t)PPM : (uint32_t)r;
}

int dcqcn_init(const dcqcn_cfg_t *cfg, flow_t *f) {
  f->dc_rc = f->dc_rt = 1.0;
  f->dc_alpha = 1.0; /* Zhu et al. §3: alpha starts at 1 */
  f->dc_alpha_at = f->dc_inc_at = f->dc_dec_at = SIM_NEVER;
  f->dc_dec_base = 0;
  f->dc_alpha_cnp = f->dc_dec_cnp = 0;
  f->dc_np_last = SIM_NEVER;
  f->dc_cnp = calloc(cfg->queue_cap, sizeof *f->dc_cnp);
  set_rate(f);
  return f->dc_cnp ? 0 : -1;
}

/* One increase event; t and b count the timer and byte events since the last decrease before
   this one (dcqcn.h). */
static void increase(const dcqcn_cfg_t *c, flow_t *f) {
  uint32_t t = f->dc_tstage;
  uint32_t b = c->byte_counter > 0 ? f->dc_bstage : t;
  uint32_t lo = t < b ? t : b;
  uint32_t hi = t < b ? b : t;
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

/* A CNP reached the RP at cycle t: flags only; the rate falls at the next decrease check. */
static void on_cnp(const dcqcn_cfg_t *c, flow_t *f, uint64_t t) {
  f->dc_cnps++;
  if (f->dc_alpha_at == SIM_NEVER) { /* the first CNP: alpha = 1, the periodic timers start */
    f->dc_alpha = 1.0;
    f->dc_alpha_cnp = 0;
    f->dc_alpha_at = t + c->alpha_cycles;
    f->dc_dec_base = t;
    f->dc_dec_cnp = 1;
    f->dc_dec_at = t + c->dec_cycles;
    return;
  }
  f->dc_alpha_cnp = 1;
  if (!f->dc_dec_cnp) { /* the first check of the grid at or after t */
    f->dc_dec_cnp = 1;
    uint64_t k = (t - f->dc_dec_base + c->dec_cycles - 1u) / c->dec_cycles;
    f->dc_dec_at = f->dc_dec_base + k * c->dec_cycles;
  }
}

static void on_alpha(const dcqcn_cfg_t *c, flow_t *f) {
  f->dc_alpha = (1.0 - c->g) * f->dc_alpha + (f->dc_alpha_cnp ? c->g : 0.0);
  f->dc_alpha_cnp = 0;
  f->dc_alpha_at += c->alpha_cycles;
}

static void on_decrease(const dcqcn_cfg_t *c, flow_t *f, uint64_t t) {
  if (c->clamp_target || f->dc_tstage > 0) f->dc_rt = f->dc_rc;
  f->dc_rc *= 1.0 - f->dc_alpha / 2.0;
  if (f->dc_rc < c->min_rate) f->dc_rc = c->min_rate;
  f->dc_dec_cnp = 0;
  f->dc_dec_at = SIM_NEVER;
  f->dc_tstage = f->dc_bstage = 0;
  f->dc_bytes = 0;
  f->dc_inc_at = t + c->timer_cycles;
  set_rate(f);
}

static void on_timer(const dcqcn_cfg_t *c, flow_t *f) {
  increase(c, f);
  f->dc_tstage++;
  /* at line rate there is nothing to recover: the timer rests until the next decrease */
  f->dc_inc_at = f->dc_rc >= 1.0 && f->dc_rt >= 1.0 ? SIM_NEVER : f->dc_inc_at + c->timer_cycles;
}

void dcqcn_catch_up(const dcqcn_cfg_t *c, flow_t *f, uint64_t t) {
  for (;;) {
    uint64_t cnp = f->dc_n > 0 ? f->dc_cnp[f->dc_head] : SIM_NEVER;
    uint64_t e = min_u64(min_u64(cnp, f->dc_alpha_at), min_u64(f->dc_dec_at, f->dc_inc_at));
    if (e > t) break;
    if (e == cnp) { /* a CNP first: a check of the same cycle sees it */
      f->dc_head = f->dc_head + 1u == c->queue_cap ? 0u : f->dc_head + 1u;
      f->dc_n--;
      on_cnp(c, f, e);
    } else if (e == f->dc_alpha_at) {
      on_alpha(c, f);
    } else if (e == f->dc_dec_at) {
      on_decrease(c, f, e);
    } else {
      on_timer(c, f);
    }
  }
}

void dcqcn_on_send(const dcqcn_cfg_t *c, flow_t *f, uint32_t bytes) {
  if (f->dc_inc_at == SIM_NEVER) return; /* no decrease to recover from */
  f->dc_bytes += bytes;
  while (c->byte_counter > 0 && f->dc_bytes >= c->byte_counter) {
    f->dc_bytes -= c->byte_counter;
    increase(c, f);
    f->dc_bstage++;
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
