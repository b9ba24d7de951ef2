/*
 * warnings.c - buffers below what the calculators say their cables need (warnings.h).
 *
 * The figures are the calculators' functions (calc.h), in the fabric's cycles and blocks, from
 * the cables as topo_build made them: delay D and speed divider k; with the terms lfc-sim's
 * defaults add (scenario.c follow_scenario): line time's gap slot and merged packets
 * (lfc_headroom_blocks_line), an FCP hold-off (lfc_credit_blocks_holdoff) and a host's response
 * jitter. A buffer at its default therefore never warns.
 */
#include "warnings.h"

#include <stdio.h>
#include <string.h>

#include "calc.h"

#define WARN_MAX_GROUPS 64u /* kinds x (roles + end nodes) x cable kinds, with room */
#define WARN_LINE 1024u
#define WARN_NAME 64u
#define WARN_VALUE 48u
#define END_NODE UINT32_MAX /* the receiver role of an end node */

typedef enum { W_HEADROOM = 0, W_CREDITS, W_HOST_HEADROOM, W_HOST_CREDITS } wkind_t;

/* Cables alike: one warning. */
typedef struct {
  wkind_t kind;
  uint32_t role; /* the receiving switch's role, or END_NODE */
  uint64_t need, have;
  uint32_t count;
  uint32_t from, to; /* the first such cable: sender and receiver node */
  uint32_t delay, k, mtu;
  uint64_t response;
  int line;         /* the figure includes line time's terms (wire_time = 1, SPEC §11) */
  uint32_t holdoff; /* the FCP hold-off the credit figure includes (SPEC §5.5), cycles */
} wgroup_t;

typedef struct {
  wgroup_t g[WARN_MAX_GROUPS];
  uint32_t n;
} wlist_t;

static void add(wlist_t *w, wgroup_t x) {
  for (uint32_t i = 0; i < w->n; i++)
    if (w->g[i].kind == x.kind && w->g[i].role == x.role && w->g[i].need == x.need) {
      w->g[i].count++;
      return;
    }
  if (w->n == WARN_MAX_GROUPS) return; /* cannot happen: 4 kinds x 4 receivers x 3 cables */
  x.count = 1;
  w->g[w->n++] = x;
}

/* The smallest data VL buffer of a configuration (each VL must cover the loop). */
static uint64_t min_vl_blocks(const lfc_switch_cfg_t *cfg) {
  uint64_t m = UINT64_MAX;
  for (uint32_t c = 0; c < cfg->classes && c < LFC_IB_MAX_VLS; c++)
    if (cfg->vl_blocks[c] < m) m = cfg->vl_blocks[c];
  return m;
}

/* One cable direction: sender `from`, receiver `to`. */
static void check(const lfc_scenario_t *sc, const topo_t *t, const topo_link_t *lk, uint32_t from,
                  uint32_t to, wlist_t *w) {
  int ib = sc->sw[0].mode == LFC_MODE_IB;
  wgroup_t x = {0};
  x.from = from;
  x.to = to;
  x.delay = lk->delay;
  x.k = lk->speed_div;
  if (to < t->nsw) {
    const lfc_switch_cfg_t *cfg = &sc->sw[t->role[to]];
    x.role = t->role[to];
    x.mtu = cfg->mtu_blocks;
    if (ib) {
      x.kind = W_CREDITS;
      x.holdoff = cfg->fcp_holdoff;
      x.need = lfc_credit_blocks_holdoff(
          lfc_credit_blocks_switch(x.mtu, x.delay, cfg->latency, (int)cfg->cut_through, x.k),
          x.holdoff, x.k);
      x.have = min_vl_blocks(cfg);
    } else {
      if (cfg->lossless_mask == 0) return; /* no headroom to fill */
      x.kind = W_HEADROOM;
      /* a host applies a pause up to response + jitter late (SPEC §12.2); lfc switches: R = 0 */
      x.response = from >= t->nsw ? (uint64_t)sc->nic.response_cycles + sc->nic.response_jitter
                                  : 0u;
      x.line = cfg->wire_time;
      x.need = lfc_headroom_blocks(x.mtu, x.delay, x.response, x.k);
      if (x.line) x.need = lfc_headroom_blocks_line(x.need, x.mtu);
      x.have = cfg->headroom_blocks;
    }
  } else {
    const lfc_nic_cfg_t *nic = &sc->nic;
    if (nic->rx_blocks == 0) return; /* unlimited: never pauses, always has credit */
    x.role = END_NODE;
    x.mtu = nic->mtu_blocks;
    if (ib) {
      x.kind = W_HOST_CREDITS;
      x.holdoff = nic->fcp_holdoff;
      x.need = lfc_credit_blocks_holdoff(lfc_credit_blocks(x.mtu, x.delay, x.k), x.holdoff, x.k);
      x.have = nic->rx_blocks;
    } else {
      x.kind = W_HOST_HEADROOM;
      x.line = nic->wire_time;
      x.need = lfc_headroom_blocks(x.mtu, x.delay, 0, x.k);
      if (x.line) x.need = lfc_headroom_blocks_line(x.need, x.mtu);
      x.have = nic->rx_blocks - nic->rx_xoff;
    }
  }
  if (x.have < x.need) add(w, x);
}

/* "100 Gb/s, 2 m": the cable of a group, as the scenario gave it. */
static void cable_text(const lfc_scenario_t *sc, const topo_t *t, const wgroup_t *x, char *buf,
                       size_t len) {
  double gbps = sc->fastest_gbps / (x->k ? x->k : 1u);
  uint32_t nodes = t->nsw + t->nhosts;
  if (x->from >= nodes || x->to >= nodes)
    snprintf(buf, len, "%g Gb/s, the aggregation engine's port", gbps);
  else if (x->from >= t->nsw || x->to >= t->nsw)
    snprintf(buf, len, "%g Gb/s, %g m", gbps, sc->host_cable_m);
  else
    snprintf(buf, len, "%g Gb/s, %g m", gbps, sc->cable_m);
}

static void emit(const lfc_scenario_t *sc, const topo_t *t, const wgroup_t *x, sim_warn_fn fn,
                 void *ctx) {
  char from[WARN_NAME], to[WARN_NAME], cable[WARN_NAME * 2], more[WARN_NAME * 2] = "";
  char msg[WARN_LINE], value[WARN_VALUE];
  topo_name(t, x->from, from, sizeof from);
  topo_name(t, x->to, to, sizeof to);
  cable_text(sc, t, x, cable, sizeof cable);
  if (x->count > 1)
    snprintf(more, sizeof more, "; and %u more cables like it into %s%s", x->count - 1,
             x->role == END_NODE ? "end nodes" : t->role_name[x->role],
             x->role == END_NODE ? "" : " switches");
  uint32_t line = 0;
  const char *section = NULL, *val = NULL;
  const char *base = x->kind == W_HEADROOM ? "pfc" : "ib";
  const char *key = x->kind == W_HEADROOM ? "headroom_blocks" : "vl_blocks";
  if (x->kind == W_HEADROOM || x->kind == W_CREDITS) {
    if (!sc_switch_key(sc, x->role, base, key, &line, &section, &val)) {
      section = base; /* not given: the value that follows the scenario, clamped to its range */
      snprintf(value, sizeof value, "%llu (default)", (unsigned long long)x->have);
      val = value;
    }
  } else {
    section = "host";
    int xoff = x->kind == W_HOST_HEADROOM && sc->rx_xoff_line != 0;
    key = xoff ? "rx_xoff" : "rx_blocks";
    line = xoff ? sc->rx_xoff_line : sc->rx_blocks_line;
    snprintf(value, sizeof value, "%u", xoff ? sc->nic.rx_xoff : sc->nic.rx_blocks);
    val = value;
  }
  unsigned long long need = x->need, have = x->have, d = x->delay, r = x->response;
  /* The terms beyond the calculators' block-time figures, as the defaults add them. */
  const char *lt = x->line ? ", then + 1 + ceil(that / (mtu - 1)) for line time (wire_time = 1)"
                           : "";
  char ho[WARN_NAME * 2] = "";
  if (x->holdoff > 0)
    snprintf(ho, sizeof ho, ", + %llu for an FCP hold-off of %u cycles (SPEC §5.5)",
             (unsigned long long)(x->holdoff + x->k - 1u) / x->k, x->holdoff);
  switch (x->kind) {
    case W_HEADROOM:
      sc_key_warning(sc, line, section, key, val, msg, sizeof msg,
                     "below the %llu blocks the headroom calculator gives for the cable %s -> %s "
                     "(%s; mtu %u blocks, delay %llu cycles, peer response %llu cycles, k %u: "
                     "2 x %u - 1 + ceil((2 x %llu + %llu + 2) / %u)%s, SPEC §11): a lossless "
                     "priority can drop%s",
                     need, from, to, cable, x->mtu, d, r, x->k, x->mtu, d, r, x->k, lt, more);
      break;
    case W_CREDITS:
      sc_key_warning(sc, line, section, key, val, msg, sizeof msg,
                     "below the %llu credits of the credit loop of the cable %s -> %s (%s; mtu %u "
                     "blocks, delay %llu cycles, k %u; lfc-sim credits, lfc_credit_blocks_switch%s): "
                     "it cannot run at line rate%s%s",
                     need, from, to, cable, x->mtu, d, x->k, ho,
                     x->need > LFC_CREDIT_WINDOW ? "; nor can any buffer: that is more than the "
                                                   "2048-credit window (SPEC §5.3)" : "",
                     more);
      break;
    case W_HOST_HEADROOM:
      sc_key_warning(sc, line, section, key, val, msg, sizeof msg,
                     "leaves rx_blocks - rx_xoff = %llu blocks of headroom, below the %llu blocks "
                     "the headroom calculator gives for the cable %s -> %s (%s; mtu %u blocks, "
                     "delay %llu cycles, k %u%s, SPEC §11): the host can drop%s",
                     have, need, from, to, cable, x->mtu, d, x->k, lt, more);
      break;
    case W_HOST_CREDITS:
      sc_key_warning(sc, line, section, key, val, msg, sizeof msg,
                     "below the %llu credits an end node needs for line rate over the cable "
                     "%s -> %s (%s; ceil((2 x %llu + 2) / %u) + %u%s, SPEC §11)%s",
                     need, from, to, cable, d, x->k, x->mtu, ho, more);
      break;
  }
  fn(ctx, msg);
}

uint32_t sim_warnings(const lfc_scenario_t *sc, const topo_t *t, sim_warn_fn fn, void *ctx) {
  wlist_t w;
  memset(&w, 0, sizeof w);
  for (uint32_t l = 0; l < t->nlinks; l++) {
    const topo_link_t *lk = &t->links[l];
    if (lk->failed) continue;
    check(sc, t, lk, lk->a, lk->b, &w);
    check(sc, t, lk, lk->b, lk->a, &w);
  }
  for (uint32_t i = 0; i < w.n; i++) emit(sc, t, &w.g[i], fn, ctx);
  return w.n;
}
