/*
 * cosim_vpi.c - tb/common/dut.h on Icarus Verilog 11 through VPI, the way cocotb drives a
 * simulator: the module registers itself (vlog_startup_routines), starts the test at
 * cbStartOfSimulation, drives the clock and the inputs with vpi_put_value and lets simulated time
 * pass with cbAfterDelay callbacks; outputs are sampled with vpi_get_value.
 *
 * The test (tb_main, tb/common) is written as straight-line code. It runs as a coroutine on its
 * own stack (ucontext): every dut.h call that needs simulated time to pass (dut_settle,
 * dut_reset) registers a callback and switches back to the simulator; the callback switches into
 * the test again. No test logic here.
 *
 * Time: cycle c starts at (c + 2) * 100 (two reset cycles first). The inputs of the cycle are
 * applied at +0 (with the falling clock edge); each dut_settle lets one time unit pass (+1, +2,
 * ...: the first samples the outputs, further ones read the debug port); the rising edge is at
 * +50.
 *
 * Speed: a VPI call costs far more in vvp than the bits it moves, and so does a trip through the
 * scheduler, so a cycle takes as few of both as the lockstep allows (tb/README.md, "Speed"):
 *   - tb/vpi/tb_top.v has one register per input port (written only when the port's word
 *     changed), one for the debug-port selects, and one vector with every output of every port
 *     (one vpi_get_value per cycle) beside dbg_val_o;
 *   - dut_clock does not wait: it schedules the rising edge (+50) and the falling edge of the next
 *     cycle (+100) as delayed vpi_put_values, and the next dut_settle schedules that cycle's
 *     inputs at +100 the same way and waits for +101. The inputs of cycle t+1 come from the C side
 *     only (the partners, fed by the model), so nothing needs the simulator between the sampling
 *     of cycle t and the sampling of cycle t+1: one callback per cycle, plus one per further
 *     debug-port read.
 *
 * Exit status: tb_main's, through vpip_set_return_value and vpi_control(vpiFinish); tb_main also
 * writes it to +result=FILE, which the make rule checks in case vvp does not pass it on.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <vpi_user.h>

#include "dut.h"

#define PERIOD 100u
#define RISE (PERIOD / 2u)
#define RESET_CYCLES 2u
#define STACK_BYTES (64u << 20)

/* ---- the layout of tb_top.v's packed vectors (keep in step with it) ---- */

#define WORD_BITS 234u                 /* one link word (SPEC §13 fields) */
#define STAT_BITS 86u                  /* the stat_* bits of one port */
#define OUT_BITS (WORD_BITS + STAT_BITS) /* one port's outputs in out_all: 320 = 10 words */
#define WORD_WORDS ((WORD_BITS + 31u) / 32u)
#define OUT_WORDS_MAX (DUT_MAX_PORTS * OUT_BITS / 32u)

typedef struct {
  const char *name;
  unsigned lsb, width;
} field_t;

/* One port's slice of out_all, from bit 0 up (the word's fields, then stat_*). */
static const field_t OUT_FIELDS[] = {
    {"tx_kind_o", 0, 2},          {"tx_sop_o", 2, 1},          {"tx_eop_o", 3, 1},
    {"tx_cls_o", 4, 4},           {"tx_nblk_o", 8, 8},         {"tx_dst_o", 16, 16},
    {"tx_tag_o", 32, 32},         {"tx_ecn_o", 64, 2},         {"tx_fc_op_o", 66, 4},
    {"tx_fc_vl_o", 70, 4},        {"tx_fc_fctbs_o", 74, 12},   {"tx_fc_fccl_o", 86, 12},
    {"tx_pfc_en_o", 98, 8},       {"tx_pfc_time_o", 106, 128}, {"stat_drop_o", 234, 1},
    {"stat_drop_cause_o", 235, 3}, {"stat_wd_drop_o", 238, 16}, {"stat_ecn_mark_o", 254, 1},
    {"stat_xoff_o", 255, 16},     {"stat_xon_o", 271, 16},     {"stat_wd_trip_o", 287, 16},
    {"stat_wd_restore_o", 303, 16}, {"stat_rx_malformed_o", 319, 1},
};
#define N_OUT_FIELDS (sizeof OUT_FIELDS / sizeof OUT_FIELDS[0])

/* Field f of OUT_FIELDS (f < 14: the word's fields; the input word has the same layout). */
enum {
  F_KIND, F_SOP, F_EOP, F_CLS, F_NBLK, F_DST, F_TAG, F_ECN, F_FC_OP, F_FC_VL, F_FC_FCTBS,
  F_FC_FCCL, F_PFC_EN, F_PFC_TIME, F_DROP, F_DROP_CAUSE, F_WD_DROP, F_ECN_MARK, F_XOFF, F_XON,
  F_WD_TRIP, F_WD_RESTORE, F_RX_MALFORMED
};

/* Bits [lsb, lsb + width) of a little-endian array of 32-bit words; width <= 32. */
static uint32_t bits_get(const uint32_t *w, unsigned lsb, unsigned width) {
  const unsigned i = lsb / 32u, sh = lsb % 32u;
  uint64_t v = w[i];
  if (sh + width > 32u) v |= (uint64_t)w[i + 1] << 32;
  return (uint32_t)((v >> sh) & ((1ull << width) - 1u));
}

static void bits_put(uint32_t *w, unsigned lsb, unsigned width, uint32_t val) {
  const unsigned i = lsb / 32u, sh = lsb % 32u;
  const uint64_t mask = ((1ull << width) - 1u) << sh;
  uint64_t v = w[i] | (sh + width > 32u ? (uint64_t)w[i + 1] << 32 : 0u);
  v = (v & ~mask) | (((uint64_t)val << sh) & mask);
  w[i] = (uint32_t)v;
  if (sh + width > 32u) w[i + 1] = (uint32_t)(v >> 32);
}

/* ---- the signals of tb_top ---- */

/* A register the test writes. `vec` is handed to vpi_put_value; a delayed put may read it when it
   fires, so it is only rewritten after that (the next write is in a later cycle). */
typedef struct {
  vpiHandle h;
  unsigned width, words;
  uint32_t bits[WORD_WORDS]; /* the value the test wants */
  int dirty;                 /* bits changed since the last put */
  s_vpi_vecval vec[WORD_WORDS];
} in_sig_t;

static in_sig_t g_rx[DUT_MAX_PORTS];
static in_sig_t g_dbg_sel;           /* {dbg_cls_i, dbg_port_i, dbg_reg_i} */
static in_sig_t g_rst;
static vpiHandle g_clk, g_out_all, g_dbg_val;

static uint32_t g_out[OUT_WORDS_MAX]; /* out_all as last read, x/z bits as 0 */
static int g_out_valid;               /* read in this time step */
static uint32_t g_dbg_val_bits;
static int g_dbg_valid;

static unsigned g_ports;
static int g_xz;              /* an output read had x/z bits since dut_get_xz last looked */
static char g_xz_name[64];
static unsigned g_xz_port;

/* ---- the coroutine ---- */

static ucontext_t g_sim_ctx, g_tb_ctx;
static void *g_stack;
static int g_done, g_rc;
static uint64_t g_cycle_base; /* when the inputs of the current (or next, after dut_clock) cycle
                                 take effect */
static uint64_t g_now;        /* time now, as the test sees it */

static uint64_t sim_time(void) {
  s_vpi_time t = {.type = vpiSimTime};
  vpi_get_time(NULL, &t);
  return ((uint64_t)t.high << 32) | t.low;
}

static void end_simulation(void) {
  vpip_set_return_value(g_rc);
  vpi_control(vpiFinish, 0);
}

static PLI_INT32 resume_cb(p_cb_data d) {
  (void)d;
  g_now = sim_time();
  g_out_valid = 0;
  g_dbg_valid = 0;
  swapcontext(&g_sim_ctx, &g_tb_ctx);
  if (g_done) end_simulation();
  return 0;
}

/* Let simulated time reach `when` (> now); the test resumes there. */
static void wait_until(uint64_t when) {
  uint64_t delay = when > g_now ? when - g_now : 1;
  s_vpi_time t = {.type = vpiSimTime, .high = (PLI_UINT32)(delay >> 32),
                  .low = (PLI_UINT32)delay};
  s_cb_data cb = {.reason = cbAfterDelay, .cb_rtn = resume_cb, .time = &t};
  vpiHandle h = vpi_register_cb(&cb);
  if (h) vpi_free_object(h);
  swapcontext(&g_tb_ctx, &g_sim_ctx);
}

static void tb_entry(void) {
  s_vpi_vlog_info info;
  int argc = 0;
  char **argv = NULL;
  if (vpi_get_vlog_info(&info)) {
    argc = info.argc;
    argv = info.argv;
  }
  g_rc = tb_main(argc, argv);
  g_done = 1;
  swapcontext(&g_tb_ctx, &g_sim_ctx);
}

/* The test starts at time 1, once the simulator has initialised the design: values put during
   cbStartOfSimulation itself do not reach the continuous assignments in Icarus 11. */
static PLI_INT32 run_cb(p_cb_data d) {
  (void)d;
  g_now = sim_time();
  g_stack = malloc(STACK_BYTES);
  if (!g_stack || getcontext(&g_tb_ctx) != 0) {
    vpi_printf("cosim_vpi: cannot create the test's coroutine\n");
    g_rc = 3;
    end_simulation();
    return 0;
  }
  g_tb_ctx.uc_stack.ss_sp = g_stack;
  g_tb_ctx.uc_stack.ss_size = STACK_BYTES;
  g_tb_ctx.uc_link = &g_sim_ctx;
  makecontext(&g_tb_ctx, tb_entry, 0);
  swapcontext(&g_sim_ctx, &g_tb_ctx);
  if (g_done) end_simulation();
  return 0;
}

static PLI_INT32 start_cb(p_cb_data d) {
  (void)d;
  s_vpi_time t = {.type = vpiSimTime, .high = 0, .low = 1};
  s_cb_data cb = {.reason = cbAfterDelay, .cb_rtn = run_cb, .time = &t};
  vpiHandle h = vpi_register_cb(&cb);
  if (h) vpi_free_object(h);
  return 0;
}

static void register_start(void) {
  s_cb_data cb = {.reason = cbStartOfSimulation, .cb_rtn = start_cb};
  vpiHandle h = vpi_register_cb(&cb);
  if (h) vpi_free_object(h);
}

void (*vlog_startup_routines[])(void) = {register_start, NULL};

/* ---- signal access ---- */

/* Put s's value at time `at` (now, or a scheduled put `at - now` later). */
static void put_at(in_sig_t *s, uint64_t at) {
  for (unsigned i = 0; i < s->words; i++) {
    s->vec[i].aval = (PLI_INT32)s->bits[i];
    s->vec[i].bval = 0;
  }
  s_vpi_value v = {.format = vpiVectorVal};
  v.value.vector = s->vec;
  if (at > g_now) {
    uint64_t delay = at - g_now;
    s_vpi_time t = {.type = vpiSimTime, .high = (PLI_UINT32)(delay >> 32),
                    .low = (PLI_UINT32)delay};
    vpi_put_value(s->h, &v, &t, vpiInertialDelay);
  } else {
    vpi_put_value(s->h, &v, NULL, vpiNoDelay);
  }
  s->dirty = 0;
}

/* The changed inputs take effect at `at`. */
static void flush_inputs(uint64_t at) {
  for (unsigned p = 0; p < g_ports; p++)
    if (g_rx[p].dirty) put_at(&g_rx[p], at);
  if (g_dbg_sel.dirty) put_at(&g_dbg_sel, at);
  if (g_rst.dirty) put_at(&g_rst, at);
}

/* The clock: a scalar value the simulator copies with the scheduled event. */
static void put_clk(int level, uint64_t at) {
  s_vpi_value v = {.format = vpiScalarVal};
  v.value.scalar = level ? vpi1 : vpi0;
  uint64_t delay = at > g_now ? at - g_now : 0;
  s_vpi_time t = {.type = vpiSimTime, .high = (PLI_UINT32)(delay >> 32), .low = (PLI_UINT32)delay};
  if (delay)
    vpi_put_value(g_clk, &v, &t, vpiInertialDelay);
  else
    vpi_put_value(g_clk, &v, NULL, vpiNoDelay);
}

static void note_xz(const char *name, unsigned port, unsigned bit) {
  if (g_xz) return;
  g_xz = 1;
  g_xz_port = port;
  snprintf(g_xz_name, sizeof g_xz_name, "%s[bit %u]", name, bit);
}

/* Read `words` 32-bit words of h into dst, x/z bits as 0; the first x/z bit is reported by the
   field it falls in (port and signal). */
static void read_vec(vpiHandle h, uint32_t *dst, unsigned words, int is_out_all) {
  s_vpi_value v = {.format = vpiVectorVal};
  vpi_get_value(h, &v);
  for (unsigned i = 0; i < words; i++) {
    uint32_t b = (uint32_t)v.value.vector[i].bval;
    dst[i] = (uint32_t)v.value.vector[i].aval & ~b;
    if (!b || g_xz) continue;
    unsigned bit = i * 32u + (unsigned)__builtin_ctz(b);
    if (!is_out_all) {
      note_xz("dbg_val_o", 0, bit);
      continue;
    }
    unsigned port = bit / OUT_BITS, off = bit % OUT_BITS;
    for (unsigned f = 0; f < N_OUT_FIELDS; f++)
      if (off >= OUT_FIELDS[f].lsb && off < OUT_FIELDS[f].lsb + OUT_FIELDS[f].width)
        note_xz(OUT_FIELDS[f].name, port, off - OUT_FIELDS[f].lsb);
  }
}

static const uint32_t *out_port(unsigned p) {
  if (!g_out_valid) {
    read_vec(g_out_all, g_out, g_ports * OUT_BITS / 32u, 1);
    g_out_valid = 1;
  }
  return g_out + p * (OUT_BITS / 32u);
}

static uint32_t out_field(unsigned p, unsigned f) {
  return bits_get(out_port(p), OUT_FIELDS[f].lsb, OUT_FIELDS[f].width);
}

static void in_field(in_sig_t *s, unsigned lsb, unsigned width, uint32_t val) {
  if (bits_get(s->bits, lsb, width) == (val & (uint32_t)((1ull << width) - 1u))) return;
  bits_put(s->bits, lsb, width, val);
  s->dirty = 1;
}

static int bind_sig(const char *name, unsigned want, vpiHandle *h, char *err, size_t errlen) {
  char full[128];
  snprintf(full, sizeof full, "tb_top.%s", name);
  *h = vpi_handle_by_name(full, NULL);
  if (!*h) {
    snprintf(err, errlen, "no signal %s in the simulation (is tb/vpi/tb_top.v the top?)", full);
    return -1;
  }
  unsigned width = (unsigned)vpi_get(vpiSize, *h);
  if (width != want) {
    snprintf(err, errlen,
             "%s is %u bits wide, expected %u for %u ports: the simulation was compiled for "
             "another configuration (or tb_top.v and cosim_vpi.c disagree)",
             full, width, want, g_ports);
    return -1;
  }
  return 0;
}

static int bind_in(in_sig_t *s, const char *name, unsigned width, char *err, size_t errlen) {
  memset(s, 0, sizeof *s);
  if (bind_sig(name, width, &s->h, err, errlen)) return -1;
  s->width = width;
  s->words = (width + 31u) / 32u;
  s->dirty = 1;
  return 0;
}

/* ---- dut.h ---- */

const char *dut_sim_name(void) { return "icarus"; }

int dut_open(const dut_open_t *a, char *err, size_t errlen) {
  g_ports = a->ports;
  if (g_ports == 0 || g_ports > DUT_MAX_PORTS) {
    snprintf(err, errlen, "ports = %u is outside 1..%u", g_ports, DUT_MAX_PORTS);
    return -1;
  }
  /* A top compiled for another port count has another out_all width. */
  if (bind_sig("out_all", g_ports * OUT_BITS, &g_out_all, err, errlen) ||
      bind_sig("dbg_val_o", 32, &g_dbg_val, err, errlen) ||
      bind_sig("clk_i", 1, &g_clk, err, errlen) ||
      bind_in(&g_dbg_sel, "dbg_sel", 20, err, errlen) ||
      bind_in(&g_rst, "rst_ni", 1, err, errlen))
    return -1;
  for (unsigned p = 0; p < g_ports; p++) {
    char name[64];
    snprintf(name, sizeof name, "g_port[%u].rx_w", p);
    if (bind_in(&g_rx[p], name, WORD_BITS, err, errlen)) return -1;
  }
  (void)a->waves; /* tb_top.v dumps from +waves / +waves_from itself */
  g_cycle_base = g_now;
  return 0;
}

void dut_close(void) {}

/* The rising edge of the current cycle at +50 and the falling edge at the start of the next,
   both scheduled now; the inputs changed since the last settle (none, as tb_main drives) take
   effect now, before the edge. */
static void schedule_edges(void) {
  flush_inputs(g_now);
  if (g_now >= g_cycle_base + RISE) wait_until(g_now + 1); /* cannot happen: settles are < +41 */
  put_clk(1, g_cycle_base + RISE);
  put_clk(0, g_cycle_base + PERIOD);
  g_cycle_base += PERIOD;
}

void dut_reset(void) {
  const lfc_word_t idle = {0};
  for (unsigned p = 0; p < g_ports; p++) dut_set_rx(p, &idle);
  dut_set_dbg(0, 0, 0);
  in_field(&g_rst, 0, 1, 0);
  /* The reset cycles are the ones that start at 0 and 100 (the test starts at time 1), so that
     cycle c starts at (c + 2) * 100 as in the Verilator waves. */
  g_cycle_base = (g_now / PERIOD) * PERIOD;
  flush_inputs(g_now);
  put_clk(0, g_now);
  for (unsigned i = 0; i < RESET_CYCLES; i++) {
    if (g_now < g_cycle_base + 1) wait_until(g_cycle_base + 1);
    schedule_edges();
  }
  /* rst_ni rises with the start of cycle 0 (the next dut_settle puts it there). */
  in_field(&g_rst, 0, 1, 1);
}

void dut_set_rx(unsigned p, const lfc_word_t *w) {
  in_sig_t *s = &g_rx[p];
  const field_t *F = OUT_FIELDS;
  in_field(s, F[F_KIND].lsb, F[F_KIND].width, w->kind);
  in_field(s, F[F_SOP].lsb, F[F_SOP].width, w->sop);
  in_field(s, F[F_EOP].lsb, F[F_EOP].width, w->eop);
  in_field(s, F[F_CLS].lsb, F[F_CLS].width, w->cls);
  in_field(s, F[F_NBLK].lsb, F[F_NBLK].width, w->nblk);
  in_field(s, F[F_DST].lsb, F[F_DST].width, w->dst);
  in_field(s, F[F_TAG].lsb, F[F_TAG].width, w->tag);
  in_field(s, F[F_ECN].lsb, F[F_ECN].width, w->ecn);
  in_field(s, F[F_FC_OP].lsb, F[F_FC_OP].width, w->fc_op);
  in_field(s, F[F_FC_VL].lsb, F[F_FC_VL].width, w->fc_vl);
  in_field(s, F[F_FC_FCTBS].lsb, F[F_FC_FCTBS].width, w->fc_fctbs);
  in_field(s, F[F_FC_FCCL].lsb, F[F_FC_FCCL].width, w->fc_fccl);
  in_field(s, F[F_PFC_EN].lsb, F[F_PFC_EN].width, w->pfc_en);
  for (unsigned c = 0; c < 8; c++) in_field(s, F[F_PFC_TIME].lsb + c * 16u, 16, w->pfc_time[c]);
}

void dut_set_dbg(unsigned reg, unsigned port, unsigned cls) {
  in_field(&g_dbg_sel, 0, 8, reg);
  in_field(&g_dbg_sel, 8, 8, port);
  in_field(&g_dbg_sel, 16, 4, cls & 15u);
}

/* The first settle of a cycle: the inputs are scheduled for the start of the cycle and the test
   resumes one unit later; a further one (a debug-port read) lets one unit pass. */
void dut_settle(void) {
  uint64_t at = g_cycle_base > g_now ? g_cycle_base : g_now;
  flush_inputs(at);
  wait_until(at + 1);
}

void dut_get_tx(unsigned p, lfc_word_t *w) {
  w->kind = (uint8_t)out_field(p, F_KIND);
  w->sop = (uint8_t)out_field(p, F_SOP);
  w->eop = (uint8_t)out_field(p, F_EOP);
  w->cls = (uint8_t)out_field(p, F_CLS);
  w->nblk = (uint8_t)out_field(p, F_NBLK);
  w->dst = (uint16_t)out_field(p, F_DST);
  w->tag = out_field(p, F_TAG);
  w->ecn = (uint8_t)out_field(p, F_ECN);
  w->fc_op = (uint8_t)out_field(p, F_FC_OP);
  w->fc_vl = (uint8_t)out_field(p, F_FC_VL);
  w->fc_fctbs = (uint16_t)out_field(p, F_FC_FCTBS);
  w->fc_fccl = (uint16_t)out_field(p, F_FC_FCCL);
  w->pfc_en = (uint8_t)out_field(p, F_PFC_EN);
  for (unsigned c = 0; c < 8; c++)
    w->pfc_time[c] = (uint16_t)bits_get(out_port(p), OUT_FIELDS[F_PFC_TIME].lsb + c * 16u, 16);
}

void dut_get_stat(dut_stat_t *s) {
  memset(s, 0, sizeof *s);
  for (unsigned p = 0; p < g_ports; p++) {
    s->drop[p] = (uint8_t)out_field(p, F_DROP);
    s->drop_cause[p] = (uint8_t)out_field(p, F_DROP_CAUSE);
    s->wd_drop[p] = (uint16_t)out_field(p, F_WD_DROP);
    s->ecn_mark[p] = (uint8_t)out_field(p, F_ECN_MARK);
    s->xoff[p] = (uint16_t)out_field(p, F_XOFF);
    s->xon[p] = (uint16_t)out_field(p, F_XON);
    s->wd_trip[p] = (uint16_t)out_field(p, F_WD_TRIP);
    s->wd_restore[p] = (uint16_t)out_field(p, F_WD_RESTORE);
    s->rx_malformed[p] = (uint8_t)out_field(p, F_RX_MALFORMED);
  }
}

uint32_t dut_get_dbg(void) {
  if (!g_dbg_valid) {
    read_vec(g_dbg_val, &g_dbg_val_bits, 1, 0);
    g_dbg_valid = 1;
  }
  return g_dbg_val_bits;
}

int dut_get_xz(char *name, size_t len, unsigned *port) {
  if (!g_xz) return 0;
  g_xz = 0;
  *port = g_xz_port;
  snprintf(name, len, "%s", g_xz_name);
  return 1;
}

void dut_clock(void) { schedule_edges(); }
