/*
 * switch.c - the switch top (SPEC §3, §4): configuration, life cycle, the cycle order of §4.1,
 * skip-ahead, statistics and events.
 */
#include "lfc_internal.h"

#include "lfc_rules.h"
#include "alloc.h"
#include "params_table.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* SPEC §3 ranges and defaults: tables/params.toml, through params_table.h (LFC_P_<KEY>_MIN,
   _MAX, _DEFAULT). The VL arbitration weight of the default low table (SPEC §3.2): */
#define DEFAULT_VLARB_WEIGHT 4u
#define ROUTE_LEN_MAX 65536u /* dst is 16 bits */

/* ---------------------------------------------------------------------------------------- */
/* Configuration (SPEC §3)                                                                  */
/* ---------------------------------------------------------------------------------------- */

void lfc_switch_cfg_default(lfc_switch_cfg_t *cfg, lfc_mode_t mode, uint32_t ports,
                            uint32_t classes) {
  memset(cfg, 0, sizeof *cfg);
  cfg->mode = mode;
  cfg->ports = ports;
  cfg->classes = classes;
  /* Every one-value parameter with a number for default (tables/params.toml). */
#define SET_DEFAULT(field, value) cfg->field = value;
  LFC_PARAM_DEFAULTS(SET_DEFAULT)
#undef SET_DEFAULT
  /* The lists, and the defaults that follow a rule (SPEC §3.1, §3.2). */
  for (uint32_t p = 0; p < LFC_MAX_PORTS; p++) cfg->speed_div[p] = LFC_P_SPEED_DIV_DEFAULT;
  for (uint32_t c = 0; c < LFC_IB_MAX_VLS; c++) cfg->vl_blocks[c] = LFC_P_VL_BLOCKS_DEFAULT;
  /* vlarb_low: (c, 4) for every data VL; vlarb_high: empty. */
  uint32_t vls = classes < LFC_IB_MAX_VLS ? classes : LFC_IB_MAX_VLS;
  for (uint32_t c = 0; c < vls; c++) {
    cfg->vlarb_low[c].vl = (uint8_t)c;
    cfg->vlarb_low[c].weight = DEFAULT_VLARB_WEIGHT;
  }
  cfg->vlarb_low_len = vls;
  cfg->vlarb_high_len = 0;
  /* lossless_mask: every class; drr_quantum: mtu_blocks. */
  uint32_t prios = classes < LFC_PFC_MAX_PRIOS ? classes : LFC_PFC_MAX_PRIOS;
  cfg->lossless_mask = (uint8_t)((1u << prios) - 1u);
  for (uint32_t c = 0; c < LFC_PFC_MAX_PRIOS; c++) cfg->drr_quantum[c] = cfg->mtu_blocks;
}

static int fail(char *err, size_t errlen, const char *fmt, ...) {
  if (err != NULL && errlen > 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
  }
  return -1;
}

/* A range check with the standard message "name = v is outside lo..hi". */
#define CHECK_RANGE(name, v, lo, hi)                                                           \
  do {                                                                                         \
    if ((int64_t)(v) < (int64_t)(lo) || (int64_t)(v) > (int64_t)(hi))                          \
      return fail(err, errlen, "%s = %lld is outside %lld..%lld", name, (long long)(v),        \
                  (long long)(lo), (long long)(hi));                                           \
  } while (0)

static int check_vlarb(const lfc_switch_cfg_t *cfg, char *err, size_t errlen) {
  const char *names[2] = {"vlarb_high", "vlarb_low"};
  const lfc_vlarb_entry_t *tbl[2] = {cfg->vlarb_high, cfg->vlarb_low};
  uint32_t len[2] = {cfg->vlarb_high_len, cfg->vlarb_low_len};
  uint32_t weighted = 0;
  for (int t = 0; t < 2; t++) {
    if (len[t] > LFC_VLARB_MAX_ENTRIES)
      return fail(err, errlen, "%s_len = %u is outside 0..%u", names[t], len[t],
                  LFC_VLARB_MAX_ENTRIES);
    for (uint32_t e = 0; e < len[t]; e++) {
      uint32_t vl = tbl[t][e].vl;
      if (vl >= LFC_IB_MAX_VLS)
        return fail(err, errlen, "%s[%u].vl = %u is outside 0..%u", names[t], e, vl,
                    LFC_IB_MAX_VLS - 1u);
      if (vl >= cfg->classes)
        return fail(err, errlen,
                    "%s[%u].vl = %u is not a data VL: classes = %u, so VLs are 0..%u",
                    names[t], e, vl, cfg->classes, cfg->classes - 1u);
      if (tbl[t][e].weight > 0) weighted |= 1u << vl;
    }
  }
  for (uint32_t vl = 0; vl < cfg->classes; vl++)
    if (!((weighted >> vl) & 1u))
      return fail(err, errlen,
                  "VL %u has no vlarb_high or vlarb_low entry with weight > 0: it could never "
                  "be scheduled",
                  vl);
  CHECK_RANGE("vlarb_high_limit", cfg->vlarb_high_limit, LFC_P_VLARB_HIGH_LIMIT_MIN,
              LFC_P_VLARB_HIGH_LIMIT_MAX);
  return 0;
}

static int check_ib(const lfc_switch_cfg_t *cfg, char *err, size_t errlen) {
  CHECK_RANGE("classes", cfg->classes, LFC_P_CLASSES_MIN, LFC_P_CLASSES_MAX);
  for (uint32_t c = 0; c < cfg->classes; c++) {
    if (cfg->vl_blocks[c] > LFC_P_VL_BLOCKS_MAX)
      return fail(err, errlen, "vl_blocks[%u] = %u is outside mtu_blocks..%u", c,
                  cfg->vl_blocks[c], LFC_P_VL_BLOCKS_MAX);
    if (cfg->vl_blocks[c] < cfg->mtu_blocks)
      return fail(err, errlen,
                  "vl_blocks[%u] = %u is below mtu_blocks = %u: a full-size packet could never "
                  "get credit",
                  c, cfg->vl_blocks[c], cfg->mtu_blocks);
  }
  CHECK_RANGE("vl15_blocks", cfg->vl15_blocks, LFC_P_VL15_BLOCKS_MIN, LFC_P_VL15_BLOCKS_MAX);
  CHECK_RANGE("fcp_period", cfg->fcp_period, LFC_P_FCP_PERIOD_MIN, LFC_P_FCP_PERIOD_MAX);
  /* fcp_holdoff >= fcp_period is legal: only the periodic FCP is sent then (SPEC §5.5) */
  CHECK_RANGE("fcp_holdoff", cfg->fcp_holdoff, LFC_P_FCP_HOLDOFF_MIN, LFC_P_FCP_HOLDOFF_MAX);
  return check_vlarb(cfg, err, errlen);
}

/* A PFC priority mask must name classes only. */
static int check_mask(const char *name, uint32_t mask, uint32_t classes, char *err,
                      size_t errlen) {
  if (mask >> classes)
    return fail(err, errlen,
                "%s = 0x%02x names priority %u, but classes = %u: priorities are 0..%u", name,
                mask, lfc_msb(mask), classes, classes - 1u);
  return 0;
}

static int check_pfc(const lfc_switch_cfg_t *cfg, char *err, size_t errlen) {
  CHECK_RANGE("classes", cfg->classes, LFC_P_CLASSES_MIN, LFC_P_CLASSES_MAX_PFC);
  if (check_mask("lossless_mask", cfg->lossless_mask, cfg->classes, err, errlen)) return -1;
  if (check_mask("strict_mask", cfg->strict_mask, cfg->classes, err, errlen)) return -1;
  if (check_mask("ecn_mask", cfg->ecn_mask, cfg->classes, err, errlen)) return -1;
  CHECK_RANGE("reserve_blocks", cfg->reserve_blocks, LFC_P_RESERVE_BLOCKS_MIN,
              LFC_P_RESERVE_BLOCKS_MAX);
  if (cfg->shared_blocks == 0)
    return fail(err, errlen,
                "shared_blocks = 0 is not allowed: the shared pool needs at least 1 block "
                "(1..1048575)");
  CHECK_RANGE("shared_blocks", cfg->shared_blocks, LFC_P_SHARED_BLOCKS_MIN,
              LFC_P_SHARED_BLOCKS_MAX);
  CHECK_RANGE("headroom_blocks", cfg->headroom_blocks, LFC_P_HEADROOM_BLOCKS_MIN,
              LFC_P_HEADROOM_BLOCKS_MAX);
  CHECK_RANGE("xoff_th", cfg->xoff_th, LFC_P_XOFF_TH_MIN, LFC_P_XOFF_TH_MAX);
  CHECK_RANGE("alpha_log2", cfg->alpha_log2, LFC_P_ALPHA_LOG2_MIN, LFC_P_ALPHA_LOG2_MAX);
  /* xon_offset 0 flaps: SPEC §3.2 */
  CHECK_RANGE("xon_offset", cfg->xon_offset, LFC_P_XON_OFFSET_MIN, LFC_P_XON_OFFSET_MAX);
  CHECK_RANGE("pause_quanta", cfg->pause_quanta, LFC_P_PAUSE_QUANTA_MIN,
              LFC_P_PAUSE_QUANTA_MAX);
  CHECK_RANGE("refresh_cycles", cfg->refresh_cycles, LFC_P_REFRESH_CYCLES_MIN,
              LFC_P_REFRESH_CYCLES_MAX);
  if (cfg->refresh_cycles >= cfg->pause_quanta)
    return fail(err, errlen,
                "refresh_cycles = %u is not below pause_quanta = %u: the peer's pause would "
                "lapse before the refresh (it must come within one pause time even at k = 1)",
                cfg->refresh_cycles, cfg->pause_quanta);
  for (uint32_t c = 0; c < cfg->classes; c++) {
    if (cfg->drr_quantum[c] > LFC_P_DRR_QUANTUM_MAX)
      return fail(err, errlen, "drr_quantum[%u] = %u is outside mtu_blocks..%u", c,
                  cfg->drr_quantum[c], LFC_P_DRR_QUANTUM_MAX);
    if (cfg->drr_quantum[c] < cfg->mtu_blocks)
      return fail(err, errlen,
                  "drr_quantum[%u] = %u is below mtu_blocks = %u: a new DRR turn must always "
                  "be able to send a packet (SPEC §8.2)",
                  c, cfg->drr_quantum[c], cfg->mtu_blocks);
  }
  CHECK_RANGE("wd_detect", cfg->wd_detect, LFC_P_WD_DETECT_MIN, LFC_P_WD_DETECT_MAX);
  CHECK_RANGE("wd_restore", cfg->wd_restore, LFC_P_WD_RESTORE_MIN, LFC_P_WD_RESTORE_MAX);
  if (cfg->wd_action != LFC_WD_DROP && cfg->wd_action != LFC_WD_FORWARD)
    return fail(err, errlen, "wd_action = %d is neither drop (0) nor forward (1)",
                (int)cfg->wd_action);
  CHECK_RANGE("kmin", cfg->kmin, LFC_P_KMIN_MIN, LFC_P_KMIN_MAX);
  CHECK_RANGE("kmax", cfg->kmax, LFC_P_KMAX_MIN, LFC_P_KMAX_MAX);
  if (cfg->kmin >= cfg->kmax)
    return fail(err, errlen,
                "kmin = %u is not below kmax = %u: the WRED band kmin < q <= kmax would be "
                "empty",
                cfg->kmin, cfg->kmax);
  CHECK_RANGE("pmax", cfg->pmax, LFC_P_PMAX_MIN, LFC_P_PMAX_MAX);
  return 0;
}

int lfc_switch_cfg_check(const lfc_switch_cfg_t *cfg, char *err, size_t errlen) {
  if (err != NULL && errlen > 0) err[0] = '\0';
  if (cfg == NULL) return fail(err, errlen, "cfg is NULL");
  if (cfg->mode != LFC_MODE_IB && cfg->mode != LFC_MODE_PFC)
    return fail(err, errlen, "mode = %d is neither IB (0) nor PFC (1)", (int)cfg->mode);
  CHECK_RANGE("ports", cfg->ports, LFC_P_PORTS_MIN, LFC_P_PORTS_MAX);
  for (uint32_t p = 0; p < cfg->ports; p++)
    if (cfg->speed_div[p] < LFC_P_SPEED_DIV_MIN || cfg->speed_div[p] > LFC_P_SPEED_DIV_MAX)
      return fail(err, errlen, "speed_div[%u] = %u is outside %u..%u", p, cfg->speed_div[p],
                  LFC_P_SPEED_DIV_MIN, LFC_P_SPEED_DIV_MAX);
  CHECK_RANGE("latency", cfg->latency, LFC_P_LATENCY_MIN, LFC_P_LATENCY_MAX);
  CHECK_RANGE("mtu_blocks", cfg->mtu_blocks, LFC_P_MTU_BLOCKS_MIN, LFC_P_MTU_BLOCKS_MAX);
  if (cfg->cut_through)
    for (uint32_t p = 1; p < cfg->ports; p++)
      if (cfg->speed_div[p] != cfg->speed_div[0])
        return fail(err, errlen,
                    "cut_through = 1 with speed_div[0] = %u but speed_div[%u] = %u: a slower "
                    "ingress would underrun a faster egress; use equal speeds or "
                    "store-and-forward",
                    cfg->speed_div[0], p, cfg->speed_div[p]);
  if (cfg->route != NULL) {
    if (cfg->route_len == 0 || cfg->route_len > ROUTE_LEN_MAX)
      return fail(err, errlen, "route_len = %u is outside 1..%u (dst is 16 bits)",
                  cfg->route_len, ROUTE_LEN_MAX);
    for (uint32_t i = 0; i < cfg->route_len; i++)
      if (cfg->route[i] >= cfg->ports)
        return fail(err, errlen, "route[%u] = %u names a port >= ports = %u", i,
                    (unsigned)cfg->route[i], cfg->ports);
  }
  return cfg->mode == LFC_MODE_IB ? check_ib(cfg, err, errlen) : check_pfc(cfg, err, errlen);
}

uint64_t lfc_switch_cfg_buffer_blocks(const lfc_switch_cfg_t *cfg) {
  uint64_t ports = cfg->ports;
  if (cfg->mode == LFC_MODE_IB) {
    uint64_t per_port = cfg->vl15_blocks;
    for (uint32_t c = 0; c < cfg->classes && c < LFC_IB_MAX_VLS; c++)
      per_port += cfg->vl_blocks[c];
    return ports * per_port;
  }
  return ports * cfg->classes * cfg->reserve_blocks + cfg->shared_blocks +
         ports * (uint64_t)__builtin_popcount(cfg->lossless_mask) * cfg->headroom_blocks;
}

/* ---------------------------------------------------------------------------------------- */
/* Life cycle                                                                               */
/* ---------------------------------------------------------------------------------------- */

lfc_switch_t *lfc_switch_create(const lfc_switch_cfg_t *cfg, char *err, size_t errlen) {
  if (lfc_switch_cfg_check(cfg, err, errlen) != 0) return NULL;
  uint64_t blocks = lfc_switch_cfg_buffer_blocks(cfg);
  if (blocks >= LFC_NIL) {
    fail(err, errlen, "buffer of %llu blocks is too large for the model (max %u)",
         (unsigned long long)blocks, LFC_NIL - 1u);
    return NULL;
  }
  lfc_switch_t *sw = lfc_calloc(1, sizeof *sw);
  if (sw == NULL) {
    fail(err, errlen, "out of memory");
    return NULL;
  }
  sw->cfg = *cfg;
  sw->ports = cfg->ports;
  sw->classes = cfg->classes;
  sw->ib = cfg->mode == LFC_MODE_IB;
  sw->class_bits = (uint16_t)((1u << cfg->classes) - 1u);
  sw->rx_class_bits = sw->class_bits;
  if (sw->ib && cfg->vl15_blocks > 0) sw->rx_class_bits |= (uint16_t)(1u << LFC_VL15);
  sw->lossless = sw->ib ? 0 : cfg->lossless_mask;
  sw->desc_cap = (uint32_t)blocks;
  /* Aligned to a cache line as lfc_port_t's layout requires (zeroed by lfc_switch_reset). */
  sw->port = aligned_alloc(LFC_CACHE_LINE, cfg->ports * sizeof *sw->port);
  sw->stats = lfc_calloc(cfg->ports, sizeof *sw->stats);
  uint32_t ncs = sw->ib ? cfg->classes + 1u : cfg->classes; /* VL15's after the data classes */
  while ((1u << sw->stat_shift) < ncs) sw->stat_shift++; /* lfc_cstats */
  sw->cstats = lfc_calloc((size_t)cfg->ports << sw->stat_shift, sizeof *sw->cstats);
  sw->out_scratch = lfc_calloc(cfg->ports, sizeof *sw->out_scratch);
  sw->pipe_ring_mask = lfc_pipe_ring_size(cfg->latency) - 1u;
  sw->pipe_ring = lfc_calloc(sw->pipe_ring_mask + 1u, sizeof *sw->pipe_ring);
  int ev_ok = lfc_event_log_init(&sw->events, cfg->ports, cfg->classes);
  /* Used from a high-water mark: untouched pages cost nothing (lfc_pool_alloc): a
     switch of a fabric holds far fewer packets than its buffer has blocks. */
  sw->desc = lfc_pool_alloc((size_t)sw->desc_cap * sizeof *sw->desc);
  if (!sw->port || !sw->stats || !sw->cstats || !sw->out_scratch ||
      !sw->pipe_ring || ev_ok != 0 || !sw->desc) {
    lfc_switch_destroy(sw);
    fail(err, errlen, "out of memory (buffer of %llu blocks)", (unsigned long long)blocks);
    return NULL;
  }
  lfc_vlarb_init(sw);
  lfc_switch_reset(sw);
  return sw;
}

void lfc_switch_destroy(lfc_switch_t *sw) {
  if (sw == NULL) return;
  free(sw->port);
  free(sw->stats);
  free(sw->cstats);
  free(sw->view);
  free(sw->out_scratch);
  free(sw->pipe_ring);
  lfc_event_log_free(&sw->events);
  lfc_pool_free(sw->desc, (size_t)sw->desc_cap * sizeof *sw->desc);
  free(sw);
}

void lfc_switch_reset(lfc_switch_t *sw) {
  sw->now = 0;
  lfc_event_log_clear(&sw->events);
  memset(sw->port, 0, sw->ports * sizeof *sw->port);
  memset(sw->tx_end, 0, sizeof sw->tx_end);
  memset(sw->stats, 0, sw->ports * sizeof *sw->stats);
  memset(sw->cstats, 0, ((size_t)sw->ports << sw->stat_shift) * sizeof *sw->cstats);
  for (uint32_t p = 0; p < sw->ports; p++) {
    lfc_port_t *pp = &sw->port[p];
    pp->k = sw->cfg.speed_div[p];
    pp->lfsr = lfc_rule_lfsr_seed(sw->cfg.seed, p);
    pp->drr_ptr = (uint8_t)(sw->classes - 1u);
    lfc_fcp_reset_port(sw, p);
  }
  lfc_queue_reset(sw);
  lfc_wd_reset(sw);
  lfc_pfc_gen_reset(sw);
  sw->tx_work = lfc_all_ports(sw); /* a superset; PFC ports leave it at their first decision */
  sw->tx_busy = sw->rx_busy = sw->rx_held = 0;
  sw->tx_end_lb = sw->rx_end_lb = LFC_NEVER;
  sw->tx_parked = 0;
  sw->tx_wake_min = LFC_NEVER;
  if (!sw->ib) lfc_pfc_gen_decide(sw); /* step G of cycle 0 (see lfc_switch_step) */
}

const lfc_switch_cfg_t *lfc_switch_cfg(const lfc_switch_t *sw) { return &sw->cfg; }

uint64_t lfc_switch_cycle(const lfc_switch_t *sw) { return sw->now; }

/* ---------------------------------------------------------------------------------------- */
/* Events (SPEC §13): the log is event_log.c                                                */
/* ---------------------------------------------------------------------------------------- */

size_t lfc_switch_events(const lfc_switch_t *sw, const lfc_event_t **ev) {
  if (ev != NULL) *ev = sw->events.ev;
  return sw->events.count;
}

/* ---------------------------------------------------------------------------------------- */
/* One cycle (SPEC §4.1)                                                                    */
/* ---------------------------------------------------------------------------------------- */

/* The input of a switch whose caller has none: every port IDLE. */
static const lfc_word_t idle_inputs[LFC_MAX_PORTS];
static const lfc_word_t idle_word;

_Static_assert(LFC_MAX_PORTS == 64u, "a port set is one uint64_t, every bit a port");

/* Every port of sw, as a set. */
static uint64_t all_ports(const lfc_switch_t *sw) {
  return sw->ports == LFC_MAX_PORTS ? ~0ull : (1ull << sw->ports) - 1u;
}

uint64_t lfc_switch_receiving(const lfc_switch_t *sw) { return sw->rx_busy; }

void lfc_switch_step(lfc_switch_t *sw, const lfc_word_t *in, lfc_word_t *out) {
  if (in == NULL) in = idle_inputs;
  if (out == NULL) out = sw->out_scratch;
  const uint64_t ports = all_ports(sw);
  const uint64_t t = sw->now;
  /* the ports not at a decision point: a packet's next block in its slot, else IDLE (the
     packet in flight in cycle t is still the port's: only a decision point starts one) */
  for (uint64_t m = ports & ~lfc_switch_step_ports(sw, in, ports, out); m != 0; m &= m - 1u)
    lfc_tx_stream(sw, lfc_ctz(m), t, &out[lfc_ctz(m)]);
}

uint64_t lfc_switch_step_ports(lfc_switch_t *sw, const lfc_word_t *in, uint64_t in_ports,
                               lfc_word_t *out) {
  lfc_event_log_clear(&sw->events);

  /* Streaming (A and E of most ports at load), in one pass: the ports at a decision point, and
     the receivers given a word (see lfc_tx_stream). A port without work (sw->tx_work, which
     has every port with a packet in flight) sends IDLE without being looked at, one within a
     packet sends its next block without being written (lfc/switch.h; before tx_end_lb it is
     not looked at either), and one whose input is IDLE (not in in_ports) receives without
     being looked at. */
  lfc_tx_unpark(sw);
  lfc_port_t *const port = sw->port;
  const uint64_t now = sw->now;
  /* the ports that may be at a decision point: of tx_busy, none before tx_end_lb */
  const bool tx_scan = sw->tx_end_lb <= now;
  const uint64_t tx_live = tx_scan ? sw->tx_work : sw->tx_work & ~sw->tx_busy;
  in_ports &= all_ports(sw);
  uint64_t tx_slow = 0, rx_slow = 0, rx_last = 0, rx_bad = 0;
  uint64_t tx_end_busy = LFC_NEVER; /* tx_end of the ports of tx_busy looked at, and not at one */
  uint64_t held = sw->rx_held & ~in_ports;
  uint64_t rx_end_given = LFC_NEVER; /* lfc_rx_end of the given ports receiving on time */
  for (uint64_t m = tx_live | in_ports; m != 0; m &= m - 1u) {
    uint32_t p = lfc_ctz(m);
    uint64_t bit = 1ull << p;
    if ((tx_live & bit) != 0) {
      if (lfc_tx_at_decision(sw, p, now)) {
        tx_slow |= bit;
        out[p] = idle_word; /* until step A decides otherwise */
      } else if ((sw->tx_busy & bit) != 0) {
        tx_end_busy = lfc_min_u64(tx_end_busy, sw->tx_end[p]);
      }
    }
    if ((in_ports & bit) == 0) continue;
    lfc_rx_sync(sw, p);
    int how = lfc_rx_stream(&port[p], now, &in[p]);
    /* still receiving, and the block due now (or before) did not come: overdue (rx_held) */
    if (port[p].rx_rem != 0) {
      if (port[p].rx_last + port[p].k <= now)
        held |= bit;
      else
        rx_end_given = lfc_min_u64(rx_end_given, lfc_rx_end(&port[p]));
    }
    if (how == LFC_RX_STREAMED) continue;
    if (how == LFC_RX_SLOW) rx_slow |= bit;
    if (how == LFC_RX_LAST) rx_last |= bit;
    if (how == LFC_RX_BAD) rx_bad |= bit;
  }
  /* The ports receiving a packet whose word was not given: its next block if due, which is
     well formed by construction, else IDLE, which changes nothing (lfc/switch.h). Only the
     last block changes a register that is kept (rx_held); an overdue port's block is never
     due again until one is given. None ends before rx_end_lb, so only then are they looked at
     (and the bound made exact). */
  if (sw->rx_end_lb <= now) {
    uint64_t lb = LFC_NEVER;
    for (uint64_t m = sw->rx_busy & ~in_ports & ~sw->rx_held; m != 0; m &= m - 1u) {
      uint32_t p = lfc_ctz(m);
      uint64_t end = lfc_rx_end(&port[p]);
      if (end != now) {
        lb = lfc_min_u64(lb, end);
        continue;
      }
      port[p].rx_rem = 0; /* rx_last is read only while rx_rem > 0 */
      rx_last |= 1ull << p;
    }
    sw->rx_end_lb = lb;
  }
  sw->rx_end_lb = lfc_min_u64(sw->rx_end_lb, rx_end_given); /* step E adds the new packets */
  sw->rx_held = held;
  /* Decision points of ports without work stay IDLE (the invariant of sw->tx_work): only
     ports with work were looked at, so the mask below changes nothing; GCC's code for the
     step is shorter with it (docs/perf-log.md, 2026-12-04 afternoon). */
  sw->tx_busy &= ~tx_slow; /* a decision point has nothing in flight */
  if (tx_scan) sw->tx_end_lb = tx_end_busy; /* step B adds the packets it starts */
  sw->tx_slow = tx_slow & sw->tx_work;
  sw->rx_slow = rx_slow;
  for (uint64_t m = rx_last | rx_bad; m != 0; m &= m - 1u) {
    uint32_t p = lfc_ctz(m);
    lfc_rx_stream_end(sw, p, (rx_bad >> p) & 1u ? LFC_RX_BAD : LFC_RX_LAST);
  }

  /* Decisions, all from S(t): A outputs; E framing and admission; G XOFF/XON, which was taken
     at the end of the last step (or reset) from the same state (see below). A block is called
     only when it has ports to visit (most steps have one event). */
  /* This step's decisions, read by its applies only (A's at the ports of tx_slow, E's at those
     given a first block, each written before it is read): on the stack, where they stay in
     cache from one switch's step to the next (docs/perf-log.md, 2026-12-04 night). */
  lfc_tx_dec_t txd[LFC_MAX_PORTS];
  lfc_rx_dec_t rxd[LFC_MAX_PORTS];
  if (sw->tx_slow != 0) lfc_tx_decide_all(sw, out, txd);
  if (sw->rx_slow != 0) lfc_rx_decide_all(sw, in, rxd);

  /* The next state. */
  if (sw->ib) lfc_fcp_sent_all(sw, txd);            /* B, FCP bookkeeping: values of S(t) */
  if (sw->tx_slow != 0) lfc_tx_apply_all(sw, out, txd); /* B */
  if (sw->storm_ports != 0) lfc_wd_discard(sw);     /* C */
  if (sw->rx_slow != 0) lfc_rx_apply_all(sw, in, rxd); /* D, E */
  lfc_pipe_exit(sw);                                /* F */
  if (sw->flip_ports != 0) lfc_pfc_gen_apply(sw);   /* G (PFC mode only sets flip_ports) */
  lfc_wd_update(sw);                                /* H */
  sw->now++;
  /* Step G's decision of the next cycle, now: it reads only registers that nothing changes
     before that cycle's step G (the PGs' counters, xoff and T; streaming and step A do not
     touch them), so lfc_switch_next_event and lfc_switch_advance read it instead of
     evaluating the PGs again, and the next step applies it. */
  if (!sw->ib) lfc_pfc_gen_decide(sw);
  if (sw->events.count > 1) lfc_event_log_sort(&sw->events);
  return tx_slow; /* the decision points: written above and by step A */
}

/* ---------------------------------------------------------------------------------------- */
/* Skip-ahead                                                                               */
/* ---------------------------------------------------------------------------------------- */

/*
 * May skip-ahead move packets from the pipeline into their egress queues (lfc_pipe_next_start)?
 * In PFC mode without a queue in the watchdog's storm state: a queue push there sets only the
 * queue's registers, `nonempty` and tx_work. Not in IB mode (a new head starts a credit-blocked
 * interval at the current cycle, credit_tx.c), nor with a storm queue (which discards its
 * head in the cycle after the push when its action is drop, an event). A storm begins only at
 * an event (a trip, lfc_wd_next_event), so the test holds over the whole skip.
 */
static bool lfc_pipe_exits_skipped(const lfc_switch_t *sw) {
  return !sw->ib && sw->storm_ports == 0;
}

uint64_t lfc_switch_next_event(const lfc_switch_t *sw) {
  uint64_t m = lfc_min_u64(lfc_wd_next_event(sw), sw->tx_wake_min);
  /* Step G's XOFF/XON decided for the current cycle (taken at the end of the last step):
     lfc_switch_advance applies it when it passes this cycle. What follows is a pending PFC
     frame (SPEC §6.6), whose event is the first cycle its port can send it; nothing else reads
     xoff or pfc_pend. Whether the current cycle has another event does not depend on it:
     steps A..F read S(t), before G. */
  for (uint64_t w = sw->flip_ports; w != 0; w &= w - 1u)
    m = lfc_min_u64(m, lfc_tx_flip_event(sw, lfc_ctz(w)));
  /* Ports outside these masks have no event of that kind (see struct lfc_switch). The
     pipeline and receive events are cheap to compute and bound m first, so that a transmitter
     whose packet in flight ends at or after m (lfc_tx_busy_until) is not looked at further:
     its event cannot come before that end. The last block of a packet being received is not
     before rx_from (rx_end_lb). */
  const uint64_t rx_from = sw->rx_held != 0 ? sw->now : lfc_max_u64(sw->rx_end_lb, sw->now);
  if (lfc_pipe_exits_skipped(sw)) {
    for (uint64_t w = sw->pipe_busy; w != 0 && m > sw->now; w &= w - 1u)
      m = lfc_min_u64(m, lfc_pipe_next_start(sw, lfc_ctz(w)));
    /* a packet being received: its step F is lfc_rx_next_event, its start not before the
       cycle after that nor before its egress port is free (as lfc_pipe_next_start); the last
       block is not before rx_from, so none of them comes before rx_from + latency */
    for (uint64_t w = sw->rx_busy; w != 0 && m > rx_from + sw->cfg.latency; w &= w - 1u) {
      uint32_t p = lfc_ctz(w);
      uint64_t f = lfc_rx_next_event(sw, p);
      if (f == LFC_NEVER || f + 1u >= m) continue;
      uint64_t free_at = lfc_tx_busy_until(sw, sw->port[p].rx_out, sw->now);
      m = lfc_min_u64(m, f + 1u > free_at ? f + 1u : free_at);
    }
  } else {
    for (uint64_t w = sw->pipe_busy; w != 0 && m > sw->now; w &= w - 1u)
      m = lfc_min_u64(m, lfc_pipe_next_event(sw, lfc_ctz(w)));
    for (uint64_t w = sw->rx_busy; w != 0 && m >= rx_from + sw->cfg.latency; w &= w - 1u)
      m = lfc_min_u64(m, lfc_rx_next_event(sw, lfc_ctz(w)));
  }
  /* a port of tx_busy is not free before tx_end_lb */
  for (uint64_t w = m <= sw->tx_end_lb ? sw->tx_work & ~sw->tx_busy : sw->tx_work;
       w != 0 && m > sw->now; w &= w - 1u) {
    uint32_t p = lfc_ctz(w);
    if (lfc_tx_busy_until(sw, p, sw->now) < m)
      m = lfc_min_u64(m, lfc_tx_next_event(sw, p));
  }
  return m < sw->now ? sw->now : m;
}

void lfc_switch_advance(lfc_switch_t *sw, uint64_t to) {
  assert(to >= sw->now);
  assert(to <= lfc_switch_next_event(sw));
  if (to <= sw->now) return;
  /* Only packets being received move (idle ports have no state that counts cycles: slots are
     t mod k = 0, timers are absolute, and so is the end of a packet in flight, tx_end). */
  if (sw->rx_held != 0 || sw->rx_end_lb < to) { /* else none ends before `to` (rx_end_lb) */
    uint64_t lb = LFC_NEVER;
    for (uint64_t m = sw->rx_busy; m != 0; m &= m - 1u) {
      uint32_t p = lfc_ctz(m); /* the others' registers are kept as predicted (rx_held) */
      const lfc_port_t *pp = &sw->port[p];
      if (((sw->rx_held >> p) & 1u) != 0 || lfc_rx_end(pp) < to) lfc_rx_advance(sw, p, to);
      if (((sw->rx_busy >> p) & 1u) != 0) lb = lfc_min_u64(lb, lfc_rx_end(pp));
    }
    sw->rx_end_lb = lb; /* every port still receiving is on time now */
  }
  /* Step F of the skipped cycles, if lfc_switch_next_event let them pass (PFC, no storm): after
     the packets whose last block came in them joined the pipeline. */
  if (lfc_pipe_exits_skipped(sw)) lfc_pipe_exit_until(sw, to);
  lfc_event_log_clear(&sw->events);
  /* Step G of the current cycle: the XOFF/XON decided at the end of the last step, which
     lfc_switch_next_event lets pass when it is the cycle's only event. The decisions of the
     skipped cycles after it and of `to` have nothing to decide: neither a PG's counters nor T
     change in them (streaming and the pipeline above touch neither), and a PG that just
     flipped does not flip back on the same inputs (pfc_gen.c). */
  if (!lfc_pfc_gen_settled(sw)) {
    lfc_pfc_gen_apply(sw);
    lfc_event_log_sort(&sw->events);
  }
  sw->now = to;
}

/* ---------------------------------------------------------------------------------------- */
/* Statistics (SPEC §10)                                                                    */
/* ---------------------------------------------------------------------------------------- */

/*
 * The counters of lfc_port_cnt_t and lfc_cstats in the public layout, with those kept as
 * intervals (paused_cycles, credit_blocked_cycles) completed up to the current cycle; the
 * switch is logically unchanged.
 */
static void stats_get(const lfc_switch_t *sw, uint32_t port, lfc_port_stats_t *v) {
  const lfc_port_cnt_t *st = &sw->stats[port];
  memset(v, 0, sizeof *v);
  v->rx_malformed = st->rx_malformed;
  v->rx_bad_fcp = st->rx_bad_fcp;
  v->rx_bad_ctrl = st->rx_bad_ctrl;
  v->fcp_tx = st->fcp_tx;
  v->fcp_rx = st->fcp_rx;
  v->pfc_tx = st->pfc_tx;
  v->pfc_rx = st->pfc_rx;
  for (uint32_t c = 0; c < sw->classes; c++) v->cls[c] = *lfc_cstats(sw, port, c);
  if (sw->ib) v->cls[LFC_VL15] = *lfc_cstats(sw, port, LFC_VL15);
  for (uint32_t c = 0; c < LFC_MAX_CLASSES; c++) {
    v->cls[c].drop_pkts[LFC_DROP_MALFORMED] = st->mal_pkts[c];
    v->cls[c].drop_blocks[LFC_DROP_MALFORMED] = st->mal_blocks[c];
  }
  for (uint32_t c = 0; c < sw->classes; c++) {
    if (sw->ib)
      v->cls[c].credit_blocked_cycles = lfc_credit_blocked_cycles(sw, port, c);
    else
      v->cls[c].paused_cycles = lfc_pfc_rx_paused_cycles(sw, port, c);
  }
}

int lfc_switch_stats_copy(const lfc_switch_t *sw, uint32_t port, lfc_port_stats_t *out) {
  if (port >= sw->ports) return -1;
  stats_get(sw, port, out);
  return 0;
}

/* The snapshots live in a buffer per port that the first call allocates (a large fabric's
 * switches would otherwise hold 3.5 KB a port for a view few callers take); the switch is
 * logically unchanged, so the buffer is reached through a cast of the const handle. */
const lfc_port_stats_t *lfc_switch_stats(const lfc_switch_t *sw, uint32_t port) {
  if (port >= sw->ports) return NULL;
  if (sw->view == NULL) {
    lfc_switch_t *mut = (lfc_switch_t *)sw;
    mut->view = calloc(sw->ports, sizeof *sw->view);
    if (mut->view == NULL) return NULL;
  }
  lfc_port_stats_t *v = &sw->view[port];
  stats_get(sw, port, v);
  return v;
}
