/*
 * oracle_buffer.h - a reference model of the PFC buffer accounting and XOFF state of a switch
 * (docs/SPEC.md §6.2-§6.5, §10), written from the SPEC rules, not from buffer.c or pfc_gen.c.
 * test_buffer.c drives it with random traffic.
 *
 * Before every step the oracle reads S(t) through the register API (pg_min, pg_shared,
 * pg_hdrm, xoff, shared_used) and takes T of §6.2 from it; after the step it computes the
 * expected S(t+1) and compares:
 *  - frees of packets starting in the cycle (§6.3: headroom, shared, reserve; several frees of a
 *    PG in ascending egress order), admissions of first blocks (§6.4 with the chain of lower
 *    ports, from S(t)), drops with their cause (event);
 *  - xoff' of each lossless PG (§6.5, T of §6.2 from S(t)) and its XOFF/XON event; lossy PGs
 *    never xoff;
 *  - §10 invariants: shared_used = sum of pg_shared <= shared_blocks, pg_min <= reserve,
 *    pg_hdrm <= headroom.
 * A mismatch fails the cmocka test with the cycle and what the SPEC gives.
 */
#ifndef LFC_ORACLE_BUFFER_H
#define LFC_ORACLE_BUFFER_H

#include <stdint.h>

#include "testutil.h"

/* The switch the oracle follows: ports and classes, and packet tags (one per packet). */
enum { ORACLE_BUF_PORTS = 4, ORACLE_BUF_CLASSES = 2, ORACLE_BUF_MAX_TAGS = 20000 };

/* A packet the test sent, by tag. */
typedef struct {
  uint8_t in_port, cls, nblk;
} oracle_buf_pkt_t;

/* One PG's counters. */
typedef struct {
  uint64_t min, shared, hdrm;
} oracle_buf_pg_t;

typedef struct {
  lfc_switch_cfg_t cfg;
  oracle_buf_pkt_t pk[ORACLE_BUF_MAX_TAGS];
  size_t i_shared_used, i_min, i_sh, i_hd, i_xoff; /* register indices */
  /* S(t), read before the step */
  oracle_buf_pg_t pg[ORACLE_BUF_PORTS][ORACLE_BUF_CLASSES];
  uint64_t xoff[ORACLE_BUF_PORTS][ORACLE_BUF_CLASSES];
  uint64_t used, th;
  /* what the run exercised */
  uint64_t drops, hdrm_seen, xoffs;
} oracle_buf_t;

/* Follow a switch of configuration cfg (ORACLE_BUF_PORTS ports, ORACLE_BUF_CLASSES classes). */
void oracle_buf_init(oracle_buf_t *o, const lfc_switch_cfg_t *cfg);
/* Cycle begins: read S(t) of the bench's switch and T (§6.2). */
void oracle_buf_begin(oracle_buf_t *o, const tu_t *t);
/* The bench stepped cycle cyc with the input words in[]: check S(t+1), the drops and the
 * XOFF/XON events of the cycle. A first block's tag indexes o->pk, which the test fills. */
void oracle_buf_check_step(oracle_buf_t *o, const tu_t *t, uint64_t cyc,
                           const lfc_word_t in[ORACLE_BUF_PORTS]);

#endif
