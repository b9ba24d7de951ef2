/*
 * lfc_rules.h - the pure arithmetic rules of docs/SPEC.md, shared by the switch and the end node
 * (internal to the library). Each function is one rule of the SPEC and nothing else: no state, no
 * side effects, widths masked as the hardware holds them.
 */
#ifndef LFC_RULES_H
#define LFC_RULES_H

#include "lfc/types.h"

/* SPEC §5.3: may a packet of n blocks start, given FCTBS and the FCCL received? */
static inline bool lfc_rule_send_ok(uint32_t fctbs, uint32_t fccl, uint32_t n) {
  uint32_t cr = (fctbs + n) & LFC_CREDIT_MASK;
  return ((fccl - cr) & LFC_CREDIT_MASK) <= LFC_CREDIT_WINDOW;
}

/* SPEC §5.5: the first cycle u in which a change of FCTBS or FCCL makes a VL's FCP pending,
   fcp_timer + fcp_holdoff <= fcp_period - 1 with fcp_timer = fcp_due - u: u >= fcp_due +
   fcp_holdoff + 1 - fcp_period, and at least cycle 0. */
static inline uint64_t lfc_rule_fcp_change_from(uint64_t fcp_due, uint32_t fcp_holdoff,
                                                uint32_t fcp_period) {
  uint64_t from = fcp_due + fcp_holdoff + 1u;
  return from > fcp_period ? from - fcp_period : 0u;
}

/* SPEC §5.4: the credit limit to advertise, from ABR and the free blocks of the VL. */
static inline uint32_t lfc_rule_fccl(uint32_t abr, uint32_t free_blocks) {
  uint32_t grant = free_blocks < LFC_CREDIT_WINDOW ? free_blocks : LFC_CREDIT_WINDOW;
  return (abr + grant) & LFC_CREDIT_MASK;
}

/* 12-bit modular add (FCTBS and ABR updates, SPEC §5.3, §5.4). */
static inline uint32_t lfc_rule_credit_add(uint32_t counter, uint32_t n) {
  return (counter + n) & LFC_CREDIT_MASK;
}

/* SPEC §6.2: the saturation bound of the 20-bit buffer counters and thresholds. */
#define LFC_COUNTER20_MAX ((1u << 20) - 1u)

/* SPEC §6.2: dynamic threshold alpha * free, alpha = 2^alpha_log2, saturated to 20 bits. */
static inline uint32_t lfc_rule_dynamic_th(uint32_t shared_blocks, uint32_t shared_used,
                                           int32_t alpha_log2) {
  uint64_t free_blocks = shared_used < shared_blocks ? shared_blocks - shared_used : 0u;
  uint64_t t = alpha_log2 >= 0 ? free_blocks << alpha_log2 : free_blocks >> (-alpha_log2);
  return t > LFC_COUNTER20_MAX ? LFC_COUNTER20_MAX : (uint32_t)t;
}

/*
 * SPEC §6.5: XOFF and XON conditions of a PG. XOFF needs pg_shared > 0 so that the two can never
 * hold together (with T = 0 an empty PG would otherwise flip every cycle and its PFC frames
 * would starve the port's data: a livelock the co-simulation found).
 */
static inline bool lfc_rule_xoff_cond(uint32_t pg_shared, uint32_t pg_hdrm, uint32_t th) {
  return pg_hdrm > 0u || (pg_shared > 0u && pg_shared >= th);
}
static inline bool lfc_rule_xon_cond(uint32_t pg_shared, uint32_t pg_hdrm, uint32_t th,
                                     uint32_t xon_offset) {
  return pg_hdrm == 0u && (pg_shared == 0u || (uint64_t)pg_shared + xon_offset <= th);
}

/* SPEC §9.3: one step of the 32-bit Galois LFSR x^32 + x^22 + x^2 + x + 1. */
#define LFC_LFSR_TAPS 0x80200003u
#define LFC_LFSR_STEPS_PER_DRAW 16u
#define LFC_LFSR_PORT_SALT 0x9E3779B9u

static inline uint32_t lfc_rule_lfsr_step(uint32_t x) {
  return (x >> 1) ^ ((0u - (x & 1u)) & LFC_LFSR_TAPS);
}

/* SPEC §9.3: reset value of port p's LFSR. */
static inline uint32_t lfc_rule_lfsr_seed(uint32_t seed, uint32_t port) {
  uint32_t x = seed ^ (LFC_LFSR_PORT_SALT * (port + 1u));
  return x != 0u ? x : 1u;
}

/* SPEC §9.3: a draw: advance 16 steps, return the low 16 bits of the new value. */
static inline uint32_t lfc_rule_lfsr_draw(uint32_t *x) {
  uint32_t v = *x;
  for (uint32_t i = 0; i < LFC_LFSR_STEPS_PER_DRAW; i++) v = lfc_rule_lfsr_step(v);
  *x = v;
  return v & 0xFFFFu;
}

/* SPEC §9.2: WRED outcome for queue depth q. */
typedef enum { LFC_WRED_NO_MARK = 0, LFC_WRED_MARK, LFC_WRED_DRAW } lfc_wred_zone_t;

static inline lfc_wred_zone_t lfc_rule_wred_zone(uint32_t q, uint32_t kmin, uint32_t kmax) {
  if (q <= kmin) return LFC_WRED_NO_MARK;
  if (q > kmax) return LFC_WRED_MARK;
  return LFC_WRED_DRAW;
}

/* SPEC §9.2: in the draw zone, mark iff r * (kmax - kmin) < pmax * (q - kmin). */
static inline bool lfc_rule_wred_draw_marks(uint32_t r, uint32_t q, uint32_t kmin, uint32_t kmax,
                                            uint32_t pmax) {
  return (uint64_t)r * (kmax - kmin) < (uint64_t)pmax * (q - kmin);
}

/* SPEC §9.1: is this ECN codepoint ECN-capable but not yet marked? */
static inline bool lfc_rule_ecn_markable(uint32_t ecn) {
  return ecn == LFC_ECN_ECT0 || ecn == LFC_ECN_ECT1;
}

#endif /* LFC_RULES_H */
