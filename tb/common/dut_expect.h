/*
 * dut_expect.h - what the RTL's outputs must be, derived from the model (SPEC §13): the stat_*
 * pulses of a cycle from the model's events, the first stat_* that differs, and the debug port's
 * register selections. Shared by the lockstep checker (tb_check.c) and the differential fuzz
 * target (tb/fuzz/fuzz_cosim.c), so that both judge the RTL by the same rules.
 */
#ifndef DUT_EXPECT_H
#define DUT_EXPECT_H

#include <stddef.h>
#include <stdint.h>

#include "dut.h"
#include "lfc/switch.h"

/* One register selection of the debug port (SPEC §13.1). */
typedef struct {
  uint16_t reg;
  uint8_t port, cls;
  uint32_t mask; /* the register's width (dbg_val_o is 32 bits wide) */
} dbg_sel_t;

/* The registers to compare for configuration c (all: every register, including the other
   mode's, which read 0), in the order of the per-cycle rotation (rotation = 1: by class, then
   port) or of the final sweep (0: by port, then class). NULL if out of memory; *n their number.
   The caller frees the list. */
dbg_sel_t *dut_dbg_list(const lfc_switch_cfg_t *c, int all, int rotation, size_t *n);

/* The stat_* pulses of a cycle from its events ev[0..nev) and inputs in[] (SPEC §13): a WATCHDOG
   drop counts as stat_drop_o when it is an admission drop - it names the packet whose first
   block arrives on its port in this cycle (rx_rem[port] == 0: the port is between packets;
   rx_rem NULL: every DATA word with sop is a first block) - and as stat_wd_drop_o otherwise. */
void dut_expected_stats(const lfc_word_t *in, const uint8_t *rx_rem, const lfc_event_t *ev,
                        size_t nev, dut_stat_t *s);

/* The first stat_* of port p in which e (expected) and a (actual) differ: 1 with its signal name
   in sig and the two values as text, or 0 if they agree. */
int dut_stat_diff(const dut_stat_t *e, const dut_stat_t *a, unsigned p, char *sig, size_t sl,
                  char *ev, char *av, size_t vl);

#endif
