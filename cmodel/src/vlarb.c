/*
 * vlarb.c - IB VL arbitration of one egress port (SPEC §5.6; IBA §7.6.9).
 *
 * Registers hi_idx, lo_idx, hi_rem, lo_rem, hi_sent. A table pick is a search for the first
 * entry, in rotating order, with weight > 0 whose VL is eligible. With a 64-bit mask per VL of
 * the entries naming it (built once), the candidate entries are the OR of the masks of the
 * eligible VLs and the search is two bit operations.
 */
#include "lfc_internal.h"

static void build(uint64_t ent[LFC_IB_MAX_VLS], const lfc_vlarb_entry_t *tbl, uint32_t len) {
  for (uint32_t v = 0; v < LFC_IB_MAX_VLS; v++) ent[v] = 0;
  for (uint32_t e = 0; e < len; e++)
    if (tbl[e].weight > 0 && tbl[e].vl < LFC_IB_MAX_VLS) ent[tbl[e].vl] |= 1ull << e;
}

void lfc_vlarb_init(lfc_switch_t *sw) {
  build(sw->hi_ent, sw->cfg.vlarb_high, sw->cfg.vlarb_high_len);
  build(sw->lo_ent, sw->cfg.vlarb_low, sw->cfg.vlarb_low_len);
}

typedef struct {
  bool found;
  bool new_turn;
  uint32_t entry;
} table_pick_t;

/* SPEC §5.6 step 2 for one table. */
static table_pick_t table_pick(const uint64_t ent[LFC_IB_MAX_VLS], uint32_t idx, uint32_t rem,
                               uint16_t eligible) {
  table_pick_t r = {false, false, 0};
  uint64_t cand = 0;
  for (uint16_t m = eligible; m != 0; m &= (uint16_t)(m - 1u)) cand |= ent[lfc_ctz(m)];
  if (cand == 0) return r;
  r.found = true;
  if ((cand >> idx) & 1u && rem > 0) {
    r.entry = idx; /* the turn goes on */
    return r;
  }
  /* First entry in the order idx+1, ..., idx+E (mod E): idx itself comes last. */
  uint64_t after = idx + 1u < 64u ? cand & (~0ull << (idx + 1u)) : 0;
  r.entry = lfc_ctz(after != 0 ? after : cand);
  r.new_turn = true;
  return r;
}

/* Step A: the data VL port p starts next, if any (VL15 is handled before, §5.6 step 1). */
bool lfc_vlarb_pick(const lfc_switch_t *sw, uint32_t p, lfc_tx_dec_t *d) {
  const lfc_port_t *pp = &sw->port[p];
  const lfc_switch_cfg_t *cfg = &sw->cfg;
  uint16_t elig = pp->credit_ok;
  if (elig == 0) return false;
  table_pick_t h = table_pick(sw->hi_ent, pp->hi_idx, pp->hi_rem, elig);
  table_pick_t l = table_pick(sw->lo_ent, pp->lo_idx, pp->lo_rem, elig);
  uint32_t limit = cfg->vlarb_high_limit;
  uint32_t allowance = limit == 0 ? 1u : LFC_VLARB_LIMIT_UNIT * limit;
  bool use_high =
      h.found && (!l.found || limit == LFC_VLARB_LIMIT_UNLIMITED || pp->hi_sent < allowance);
  const table_pick_t *t = use_high ? &h : &l;
  if (!t->found) return false;
  d->src = use_high ? LFC_SRC_HIGH : LFC_SRC_LOW;
  d->entry = (uint8_t)t->entry;
  d->new_turn = t->new_turn;
  d->cls = use_high ? cfg->vlarb_high[t->entry].vl : cfg->vlarb_low[t->entry].vl;
  return true;
}

/* Step B: a packet of n blocks started from a table (SPEC §5.6 step 4). */
void lfc_vlarb_commit(lfc_switch_t *sw, uint32_t p, const lfc_tx_dec_t *d, uint32_t n) {
  lfc_port_t *pp = &sw->port[p];
  bool high = d->src == LFC_SRC_HIGH;
  uint8_t *idx = high ? &pp->hi_idx : &pp->lo_idx;
  uint8_t *rem = high ? &pp->hi_rem : &pp->lo_rem;
  if (d->new_turn) {
    *idx = d->entry;
    *rem = high ? sw->cfg.vlarb_high[d->entry].weight : sw->cfg.vlarb_low[d->entry].weight;
  }
  *rem = (uint8_t)(*rem - lfc_min_u32(*rem, n)); /* sent while any weight remains */
  if (high)
    pp->hi_sent = (uint16_t)lfc_min_u32(pp->hi_sent + n, LFC_HI_SENT_MAX);
  else
    pp->hi_sent = 0;
}
