/*
 * regs.c - the register table of SPEC §13.1 and the register values of the current state.
 *
 * The indices are fixed by the SPEC (they are the RTL's dbg_reg_i numbers, `LFC_REG_<NAME> of
 * rtl/lfc_tables.vh); both come from tables/regs.toml. Values are as the
 * RTL holds them: timers kept here as absolute cycles read as the remaining cycles, the signed
 * deficit as two's complement, everything masked to its width. A register of the other mode, or
 * of a class or port that does not exist, reads 0.
 */
#include "lfc_internal.h"

#include <string.h>

/* The register indices (enum R_<NAME>, R_COUNT) and the table: tables/regs.toml. */
#include "regs_table.h"

#define BOTH LFC_REG_BOTH
#define S LFC_SCOPE_SWITCH
#define P LFC_SCOPE_PORT
#define PC LFC_SCOPE_PORT_CLASS

static const lfc_reg_info_t regs[R_COUNT] = {LFC_REGS_TABLE};

size_t lfc_reg_count(void) { return R_COUNT; }

const lfc_reg_info_t *lfc_reg_info(size_t reg) { return reg < R_COUNT ? &regs[reg] : NULL; }

int lfc_reg_find(const char *name) {
  if (name == NULL) return -1;
  for (int i = 0; i < R_COUNT; i++)
    if (strcmp(regs[i].name, name) == 0) return i;
  return -1;
}

/* Remaining cycles of a timer that reads 0 from cycle `due` on. */
static uint64_t remaining(const lfc_switch_t *sw, uint64_t due) {
  return due > sw->now ? due - sw->now : 0u;
}

static uint64_t port_reg(const lfc_switch_t *sw, size_t reg, const lfc_port_t *pp) {
  switch (reg) {
  case R_RX_REM: return lfc_rx_rem(sw, (uint32_t)(pp - sw->port));
  case R_TX_REM: return lfc_tx_rem(sw, (uint32_t)(pp - sw->port), sw->now);
  case R_SLACK: /* two's complement in its 8 bits (masked by the caller); 0 with wire_time = 0 */
    return (uint64_t)(int64_t)lfc_line_slack(&pp->line, sw->now, pp->k);
  case R_DRR_PTR: return pp->drr_ptr;
  case R_HI_IDX: return pp->hi_idx;
  case R_LO_IDX: return pp->lo_idx;
  case R_HI_REM: return pp->hi_rem;
  case R_LO_REM: return pp->lo_rem;
  case R_HI_SENT: return pp->hi_sent;
  case R_LFSR: return pp->lfsr;
  case R_OCC15: return pp->occ15;
  default: (void)sw; return 0;
  }
}

static uint64_t ib_class_reg(const lfc_switch_t *sw, size_t reg, const lfc_port_t *pp,
                             uint32_t c) {
  if (c >= sw->classes) return 0;
  const lfc_vl_t *v = &pp->vl[c];
  switch (reg) {
  case R_FCTBS: return v->fctbs;
  case R_FCCL: return v->fccl;
  case R_ABR: return v->abr;
  case R_OCC: return v->occ;
  case R_FCP_SENT_FCTBS: return v->sent_fctbs;
  case R_FCP_SENT_FCCL: return v->sent_fccl;
  case R_FCP_TIMER: return remaining(sw, v->fcp_due);
  default: return 0;
  }
}

static uint64_t pfc_class_reg(const lfc_switch_t *sw, size_t reg, uint32_t p, uint32_t c) {
  if (c >= sw->classes) return 0;
  const lfc_port_t *pp = &sw->port[p];
  const lfc_pcls_t *pc = &pp->pc[c];
  switch (reg) {
  case R_PG_MIN: return pc->pg_min;
  case R_PG_SHARED: return pc->pg_shared;
  case R_PG_HDRM: return pc->pg_hdrm;
  case R_XOFF: return (pp->xoff >> c) & 1u;
  case R_PFC_PEND: return (pp->pend >> c) & 1u;
  case R_REFRESH_TIMER: return remaining(sw, pc->refresh_due);
  case R_PAUSE_TIMER: return remaining(sw, pc->pause_until);
  case R_WD_STORM: return (pp->storm >> c) & 1u;
  case R_WD_CNT: return lfc_wd_cnt(sw, p, c);
  case R_WD_RCNT: return lfc_wd_rcnt(sw, p, c);
  case R_DEFICIT: return (uint16_t)pc->deficit; /* two's complement in 16 bits */
  default: return 0;
  }
}

uint64_t lfc_switch_reg(const lfc_switch_t *sw, size_t reg, uint32_t port, uint32_t cls) {
  if (reg >= R_COUNT) return 0;
  const lfc_reg_info_t *ri = &regs[reg];
  if (ri->mode != BOTH && ri->mode != (sw->ib ? LFC_MODE_IB : LFC_MODE_PFC)) return 0;
  if (ri->scope != S && port >= sw->ports) return 0;
  if (ri->scope == PC && cls >= LFC_MAX_CLASSES) return 0;
  uint64_t v;
  const lfc_port_t *pp = ri->scope != S ? &sw->port[port] : NULL;
  if (reg == R_SHARED_USED)
    v = sw->shared_used;
  else if (reg == R_QLEN)
    v = pp->q[cls].qlen;
  else if (reg == R_QPKTS)
    v = pp->q[cls].qpkts;
  else if (ri->scope == P)
    v = port_reg(sw, reg, pp);
  else if (sw->ib)
    v = ib_class_reg(sw, reg, pp, cls);
  else
    v = pfc_class_reg(sw, reg, port, cls);
  return ri->width >= 64 ? v : v & ((1ull << ri->width) - 1u);
}
