/*
 * testutil.h - helpers shared by the cmocka unit tests of the switch (cmodel/tests/test_*.c).
 *
 * A test bench `tu_t` wraps one lfc_switch_t and drives it cycle by cycle:
 *   - input words are scheduled per port at absolute cycles (tu_pkt, tu_fcp, tu_pfc, ...), one
 *     word per speed_div cycles on a port, as a legal peer sends (SPEC §1.2, §2.1);
 *   - tu_step / tu_run step the switch and record every non-IDLE output word and every event
 *     with the cycle it belongs to;
 *   - queries find outputs (first of a kind on a port, the first block of a tagged packet, ...),
 *     count events, and read registers by name (lfc_reg_find / lfc_switch_reg).
 *
 * Benches live on the heap. Every tu_open should be matched by tu_close; tests registered with
 * TU_TEST also get tu_teardown, which closes whatever a failed test left open (so a failure does
 * not turn into a leak report under ASan).
 *
 * Expected values in the tests are computed from the SPEC text, never from these helpers or the
 * model's internals; the helpers only move words in and out.
 */
#ifndef LFC_TESTUTIL_H
#define LFC_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>

#include "lfc/switch.h"

/* A cmocka test whose teardown closes any bench the test left open. */
#define TU_TEST(f) cmocka_unit_test_teardown(f, tu_teardown)

int tu_teardown(void **state);

/* One recorded output word (non-IDLE only). */
typedef struct {
  uint64_t cycle;
  uint32_t port;
  lfc_word_t w;
} tu_out_t;

/* One recorded event of lfc_switch_events, with the cycle of the step that produced it. */
typedef struct {
  uint64_t cycle;
  lfc_event_t ev;
} tu_ev_t;

/* Scheduled input word. */
typedef struct {
  uint64_t cycle;
  lfc_word_t w;
} tu_in_t;

typedef struct {
  tu_in_t *v;
  size_t n, head, cap;
  uint64_t cursor; /* next cycle a word appended to this port may use */
} tu_inq_t;

typedef struct {
  lfc_switch_t *sw;
  lfc_switch_cfg_t cfg;
  uint32_t ports;
  tu_inq_t in[LFC_MAX_PORTS];
  tu_out_t *out;
  size_t nout, capout;
  tu_ev_t *ev;
  size_t nev, capev;
  lfc_word_t last_out[LFC_MAX_PORTS]; /* outputs of the most recent step */
} tu_t;

/* ---- Configurations ---- */

/* SPEC §3 defaults (lfc_switch_cfg_default) for PFC mode, then made quiet: all priorities lossy
 * (no PFC frames), a large shared pool and threshold (no drops), so a test sets only what it
 * exercises. */
void tu_cfg_pfc(lfc_switch_cfg_t *cfg, uint32_t ports, uint32_t classes);

/* SPEC §3 defaults for IB mode with fcp_period 65535 (no periodic FCP during a short test). */
void tu_cfg_ib(lfc_switch_cfg_t *cfg, uint32_t ports, uint32_t classes);

/* ---- Bench life cycle ---- */

/* Check cfg (fails the test with the model's message if illegal) and create the switch in a new
 * bench. cfg is copied; a route table it points to must outlive the bench. */
tu_t *tu_open(const lfc_switch_cfg_t *cfg);
/* Free the bench and its switch. NULL is allowed. */
void tu_close(tu_t *t);

/* ---- Input scheduling ---- */

/* Next cycle an appended word of `port` would use (>= the current cycle). */
uint64_t tu_cursor(const tu_t *t, uint32_t port);
/* Make the next appended word of `port` go at absolute cycle `cycle` (>= current cycle and not
 * before a word already scheduled). */
void tu_at(tu_t *t, uint32_t port, uint64_t cycle);
/* Leave n idle cycles on `port` before the next appended word. */
void tu_idle(tu_t *t, uint32_t port, uint64_t n);
/* Append a raw word on `port`; returns the cycle it is received. Consecutive words on a port
 * are spaced speed_div[port] cycles apart (SPEC §1.2). */
uint64_t tu_word(tu_t *t, uint32_t port, const lfc_word_t *w);
/* Append a well-formed packet (SPEC §2.1): nblk DATA blocks, sop on the first, eop on the last,
 * every block carrying cls/nblk/dst/tag/ecn. Returns the cycle of its first block. */
uint64_t tu_pkt(tu_t *t, uint32_t port, uint32_t cls, uint32_t nblk, uint32_t dst, uint32_t tag,
                uint32_t ecn);
/* Append an IB FCP (SPEC §2): op 0. Returns the cycle it is received. */
uint64_t tu_fcp(tu_t *t, uint32_t port, uint32_t vl, uint32_t fctbs, uint32_t fccl);
uint64_t tu_fcp_op(tu_t *t, uint32_t port, uint32_t op, uint32_t vl, uint32_t fctbs,
                   uint32_t fccl);
/* Append a PFC frame: class-enable vector `en`, pause time `quanta` for every enabled priority
 * (0 for the others). Returns the cycle it is received. */
uint64_t tu_pfc(tu_t *t, uint32_t port, uint32_t en, uint32_t quanta);
/* A DATA word with the given fields (for malformed framing). */
lfc_word_t tu_data_word(uint32_t sop, uint32_t eop, uint32_t cls, uint32_t nblk, uint32_t dst,
                        uint32_t tag, uint32_t ecn);

/* ---- Running ---- */

uint64_t tu_now(const tu_t *t);
/* One cycle: the scheduled inputs of this cycle (IDLE elsewhere), outputs and events recorded. */
void tu_step(tu_t *t);
void tu_run(tu_t *t, uint64_t cycles);
/* Step until the current cycle is `cycle` (no-op if already there). */
void tu_run_to(tu_t *t, uint64_t cycle);

/* ---- Outputs ---- */

/* The word port transmitted in `cycle` (IDLE if nothing was recorded). */
lfc_word_t tu_out_at(const tu_t *t, uint32_t port, uint64_t cycle);
/* First output of `kind` on `port` in a cycle >= from; NULL if none. */
const tu_out_t *tu_find(const tu_t *t, uint32_t port, uint32_t kind, uint64_t from);
/* First DATA block with sop = 1 and the given tag on `port`; NULL if none. */
const tu_out_t *tu_find_sop(const tu_t *t, uint32_t port, uint32_t tag);
/* Number of outputs of `kind` on `port` in cycles [from, to). */
size_t tu_count_out(const tu_t *t, uint32_t port, uint32_t kind, uint64_t from, uint64_t to);
/* The first blocks (sop = 1) sent on `port` in cycles >= from, in order: writes at most max into
 * v and returns how many there were (all of them, even beyond max). */
size_t tu_sops(const tu_t *t, uint32_t port, uint64_t from, const tu_out_t **v, size_t max);

/* ---- Events ---- */

/* Number of recorded events matching: kind, and port/cls/cause unless given as -1. */
size_t tu_count_ev(const tu_t *t, int kind, int port, int cls, int cause);
/* First recorded event matching (as tu_count_ev); NULL if none. */
const tu_ev_t *tu_find_ev(const tu_t *t, int kind, int port, int cls, int cause);
/* Events of the most recent step only. */
size_t tu_count_ev_last(const tu_t *t, int kind, int port, int cls);

/* ---- Registers and counters ---- */

/* Index of a register by name; fails the test if the model does not know the name. */
size_t tu_reg_idx(const char *name);
/* Value of register `name` of (port, cls) in the current state S(now). */
uint64_t tu_reg(const tu_t *t, const char *name, uint32_t port, uint32_t cls);
const lfc_port_stats_t *tu_stats(const tu_t *t, uint32_t port);

/* ---- Random numbers for the randomized oracle tests ---- */

/* Next value of a 32-bit xorshift generator (Marsaglia 2003, shifts 13/17/5) whose state is *s
 * (must not be 0). Deterministic, so a failing seed replays exactly; not the model's LFSR. */
uint32_t tu_rand(uint32_t *s);

/* Print outputs of `port` in [from, to) to stdout (for debugging a failing test). */
void tu_dump(const tu_t *t, uint32_t port, uint64_t from, uint64_t to);

#endif /* LFC_TESTUTIL_H */
