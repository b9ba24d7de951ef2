/*
 * cosim_vpi.c - tb/common/dut.h on Icarus Verilog 11 through VPI, the way cocotb drives a
 * simulator: the module registers itself (vlog_startup_routines), starts the test at
 * cbStartOfSimulation, drives the clock and the inputs with vpi_put_value and lets simulated time
 * pass with cbAfterDelay callbacks; outputs are sampled with vpi_get_value.
 *
 * The test (tb_main, tb/common) is written as straight-line code. It runs as a coroutine on its
 * own stack (ucontext): every dut.h call that needs simulated time to pass (dut_settle,
 * dut_clock, dut_reset) registers a callback and switches back to the simulator; the callback
 * switches into the test again. No test logic here.
 *
 * Time: cycle c starts at (c + 2) * 100 (two reset cycles first). The inputs of the cycle are
 * put at +0 (with the falling clock edge); each dut_settle lets one time unit pass (+1, +2, ...:
 * the first samples the outputs, further ones read the debug port); the rising edge is at +50.
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
#define RESET_CYCLES 2u
#define STACK_BYTES (64u << 20)

/* ---- the signals of tb_top ---- */

enum {
  S_RX_KIND, S_RX_SOP, S_RX_EOP, S_RX_CLS, S_RX_NBLK, S_RX_DST, S_RX_TAG, S_RX_ECN, S_RX_FC_OP,
  S_RX_FC_VL, S_RX_FC_FCTBS, S_RX_FC_FCCL, S_RX_PFC_EN, S_RX_PFC_TIME,
  S_DBG_REG, S_DBG_PORT, S_DBG_CLS, S_RST, S_CLK,
  S_INPUTS, /* the ones above are driven */
  S_TX_KIND = S_INPUTS, S_TX_SOP, S_TX_EOP, S_TX_CLS, S_TX_NBLK, S_TX_DST, S_TX_TAG, S_TX_ECN,
  S_TX_FC_OP, S_TX_FC_VL, S_TX_FC_FCTBS, S_TX_FC_FCCL, S_TX_PFC_EN, S_TX_PFC_TIME,
  S_ST_DROP, S_ST_DROP_CAUSE, S_ST_WD_DROP, S_ST_ECN_MARK, S_ST_XOFF, S_ST_XON, S_ST_WD_TRIP,
  S_ST_WD_RESTORE, S_ST_RX_MALFORMED, S_DBG_VAL,
  S_COUNT
};

typedef struct {
  const char *name;
  unsigned per_port; /* bits per port; 0: a plain signal of `width` bits */
  unsigned width;
} sig_desc_t;

static const sig_desc_t SIGS[S_COUNT] = {
    [S_RX_KIND] = {"rx_kind_i", 2, 0},         [S_RX_SOP] = {"rx_sop_i", 1, 0},
    [S_RX_EOP] = {"rx_eop_i", 1, 0},           [S_RX_CLS] = {"rx_cls_i", 4, 0},
    [S_RX_NBLK] = {"rx_nblk_i", 8, 0},         [S_RX_DST] = {"rx_dst_i", 16, 0},
    [S_RX_TAG] = {"rx_tag_i", 32, 0},          [S_RX_ECN] = {"rx_ecn_i", 2, 0},
    [S_RX_FC_OP] = {"rx_fc_op_i", 4, 0},       [S_RX_FC_VL] = {"rx_fc_vl_i", 4, 0},
    [S_RX_FC_FCTBS] = {"rx_fc_fctbs_i", 12, 0}, [S_RX_FC_FCCL] = {"rx_fc_fccl_i", 12, 0},
    [S_RX_PFC_EN] = {"rx_pfc_en_i", 8, 0},     [S_RX_PFC_TIME] = {"rx_pfc_time_i", 128, 0},
    [S_DBG_REG] = {"dbg_reg_i", 0, 8},         [S_DBG_PORT] = {"dbg_port_i", 0, 8},
    [S_DBG_CLS] = {"dbg_cls_i", 0, 4},         [S_RST] = {"rst_ni", 0, 1},
    [S_CLK] = {"clk_i", 0, 1},
    [S_TX_KIND] = {"tx_kind_o", 2, 0},         [S_TX_SOP] = {"tx_sop_o", 1, 0},
    [S_TX_EOP] = {"tx_eop_o", 1, 0},           [S_TX_CLS] = {"tx_cls_o", 4, 0},
    [S_TX_NBLK] = {"tx_nblk_o", 8, 0},         [S_TX_DST] = {"tx_dst_o", 16, 0},
    [S_TX_TAG] = {"tx_tag_o", 32, 0},          [S_TX_ECN] = {"tx_ecn_o", 2, 0},
    [S_TX_FC_OP] = {"tx_fc_op_o", 4, 0},       [S_TX_FC_VL] = {"tx_fc_vl_o", 4, 0},
    [S_TX_FC_FCTBS] = {"tx_fc_fctbs_o", 12, 0}, [S_TX_FC_FCCL] = {"tx_fc_fccl_o", 12, 0},
    [S_TX_PFC_EN] = {"tx_pfc_en_o", 8, 0},     [S_TX_PFC_TIME] = {"tx_pfc_time_o", 128, 0},
    [S_ST_DROP] = {"stat_drop_o", 1, 0},       [S_ST_DROP_CAUSE] = {"stat_drop_cause_o", 3, 0},
    [S_ST_WD_DROP] = {"stat_wd_drop_o", 16, 0}, [S_ST_ECN_MARK] = {"stat_ecn_mark_o", 1, 0},
    [S_ST_XOFF] = {"stat_xoff_o", 16, 0},      [S_ST_XON] = {"stat_xon_o", 16, 0},
    [S_ST_WD_TRIP] = {"stat_wd_trip_o", 16, 0}, [S_ST_WD_RESTORE] = {"stat_wd_restore_o", 16, 0},
    [S_ST_RX_MALFORMED] = {"stat_rx_malformed_o", 1, 0}, [S_DBG_VAL] = {"dbg_val_o", 0, 32},
};

typedef struct {
  vpiHandle h;
  unsigned width, words;
  uint32_t *bits;  /* shadow value, 32 bits a word */
  int dirty;       /* inputs: changed since the last put */
  int valid;       /* outputs: read since the last time step */
  s_vpi_vecval *vec;
} sig_t_;

static sig_t_ g_sig[S_COUNT];
static unsigned g_ports;
static int g_xz;              /* an output read had x/z bits since dut_get_xz last looked */
static unsigned g_xz_sig, g_xz_bit;

/* ---- the coroutine ---- */

static ucontext_t g_sim_ctx, g_tb_ctx;
static void *g_stack;
static int g_done, g_rc;
static uint64_t g_cycle_base; /* time of the start of the current cycle */
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
  for (unsigned i = S_INPUTS; i < S_COUNT; i++) g_sig[i].valid = 0;
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

static void put_sig(unsigned s) {
  sig_t_ *g = &g_sig[s];
  for (unsigned i = 0; i < g->words; i++) {
    g->vec[i].aval = (PLI_INT32)g->bits[i];
    g->vec[i].bval = 0;
  }
  s_vpi_value v = {.format = vpiVectorVal};
  v.value.vector = g->vec;
  vpi_put_value(g->h, &v, NULL, vpiNoDelay);
  g->dirty = 0;
}

static void flush_inputs(void) {
  for (unsigned s = 0; s < S_INPUTS; s++)
    if (g_sig[s].dirty) put_sig(s);
}

static void read_sig(unsigned s) {
  sig_t_ *g = &g_sig[s];
  if (g->valid) return;
  s_vpi_value v = {.format = vpiVectorVal};
  vpi_get_value(g->h, &v);
  for (unsigned i = 0; i < g->words; i++) {
    uint32_t b = (uint32_t)v.value.vector[i].bval;
    g->bits[i] = (uint32_t)v.value.vector[i].aval & ~b; /* x/z read as 0, and reported */
    if (b && !g_xz) {
      g_xz = 1;
      g_xz_sig = s;
      g_xz_bit = i * 32 + (unsigned)__builtin_ctz(b);
    }
  }
  g->valid = 1;
}

static void set_bits(unsigned s, unsigned lsb, unsigned width, uint64_t val) {
  sig_t_ *g = &g_sig[s];
  for (unsigned i = 0; i < width; i++) {
    unsigned b = lsb + i;
    uint32_t m = 1u << (b % 32), bit = (uint32_t)((val >> i) & 1u) << (b % 32);
    uint32_t old = g->bits[b / 32];
    uint32_t nw = (old & ~m) | bit;
    if (nw != old) {
      g->bits[b / 32] = nw;
      g->dirty = 1;
    }
  }
}

static uint64_t get_bits(unsigned s, unsigned lsb, unsigned width) {
  read_sig(s);
  const sig_t_ *g = &g_sig[s];
  uint64_t v = 0;
  for (unsigned i = 0; i < width; i++) {
    unsigned b = lsb + i;
    v |= (uint64_t)((g->bits[b / 32] >> (b % 32)) & 1u) << i;
  }
  return v;
}

/* ---- dut.h ---- */

const char *dut_sim_name(void) { return "icarus"; }

int dut_open(const dut_open_t *a, char *err, size_t errlen) {
  g_ports = a->ports;
  if (g_ports == 0 || g_ports > DUT_MAX_PORTS) {
    snprintf(err, errlen, "ports = %u is outside 1..%u", g_ports, DUT_MAX_PORTS);
    return -1;
  }
  for (unsigned s = 0; s < S_COUNT; s++) {
    char name[128];
    snprintf(name, sizeof name, "tb_top.%s", SIGS[s].name);
    sig_t_ *g = &g_sig[s];
    g->h = vpi_handle_by_name(name, NULL);
    if (!g->h) {
      snprintf(err, errlen, "no signal %s in the simulation (is tb/vpi/tb_top.v the top?)", name);
      return -1;
    }
    unsigned want = SIGS[s].per_port ? SIGS[s].per_port * g_ports : SIGS[s].width;
    g->width = (unsigned)vpi_get(vpiSize, g->h);
    if (g->width != want) {
      snprintf(err, errlen,
               "%s is %u bits wide, expected %u for %u ports: the simulation was compiled for "
               "another configuration",
               name, g->width, want, g_ports);
      return -1;
    }
    g->words = (g->width + 31) / 32;
    g->bits = calloc(g->words, sizeof *g->bits);
    g->vec = calloc(g->words, sizeof *g->vec);
    if (!g->bits || !g->vec) {
      snprintf(err, errlen, "out of memory");
      return -1;
    }
    g->dirty = s < S_INPUTS;
  }
  (void)a->waves; /* tb_top.v dumps from +waves / +waves_from itself */
  g_cycle_base = g_now;
  return 0;
}

void dut_close(void) {
  for (unsigned s = 0; s < S_COUNT; s++) {
    free(g_sig[s].bits);
    free(g_sig[s].vec);
    g_sig[s].bits = NULL;
    g_sig[s].vec = NULL;
  }
}

static void clock_edge(void) {
  flush_inputs();
  wait_until(g_cycle_base + PERIOD / 2);
  set_bits(S_CLK, 0, 1, 1);
  flush_inputs();
  wait_until(g_cycle_base + PERIOD);
  g_cycle_base += PERIOD;
  set_bits(S_CLK, 0, 1, 0);
  flush_inputs();
}

void dut_reset(void) {
  const lfc_word_t idle = {0};
  for (unsigned p = 0; p < g_ports; p++) dut_set_rx(p, &idle);
  dut_set_dbg(0, 0, 0);
  set_bits(S_RST, 0, 1, 0);
  /* The first cycle of the reset starts at the next multiple of the period. */
  g_cycle_base = (g_now / PERIOD + 1) * PERIOD;
  flush_inputs();
  wait_until(g_cycle_base);
  for (unsigned i = 0; i < RESET_CYCLES; i++) clock_edge();
  set_bits(S_RST, 0, 1, 1);
  flush_inputs();
}

void dut_set_rx(unsigned p, const lfc_word_t *w) {
  set_bits(S_RX_KIND, p * 2, 2, w->kind);
  set_bits(S_RX_SOP, p, 1, w->sop);
  set_bits(S_RX_EOP, p, 1, w->eop);
  set_bits(S_RX_CLS, p * 4, 4, w->cls);
  set_bits(S_RX_NBLK, p * 8, 8, w->nblk);
  set_bits(S_RX_DST, p * 16, 16, w->dst);
  set_bits(S_RX_TAG, p * 32, 32, w->tag);
  set_bits(S_RX_ECN, p * 2, 2, w->ecn);
  set_bits(S_RX_FC_OP, p * 4, 4, w->fc_op);
  set_bits(S_RX_FC_VL, p * 4, 4, w->fc_vl);
  set_bits(S_RX_FC_FCTBS, p * 12, 12, w->fc_fctbs);
  set_bits(S_RX_FC_FCCL, p * 12, 12, w->fc_fccl);
  set_bits(S_RX_PFC_EN, p * 8, 8, w->pfc_en);
  for (unsigned c = 0; c < 8; c++) set_bits(S_RX_PFC_TIME, p * 128 + c * 16, 16, w->pfc_time[c]);
}

void dut_set_dbg(unsigned reg, unsigned port, unsigned cls) {
  set_bits(S_DBG_REG, 0, 8, reg);
  set_bits(S_DBG_PORT, 0, 8, port);
  set_bits(S_DBG_CLS, 0, 4, cls & 15u);
}

void dut_settle(void) {
  flush_inputs();
  wait_until(g_now + 1);
}

void dut_get_tx(unsigned p, lfc_word_t *w) {
  w->kind = (uint8_t)get_bits(S_TX_KIND, p * 2, 2);
  w->sop = (uint8_t)get_bits(S_TX_SOP, p, 1);
  w->eop = (uint8_t)get_bits(S_TX_EOP, p, 1);
  w->cls = (uint8_t)get_bits(S_TX_CLS, p * 4, 4);
  w->nblk = (uint8_t)get_bits(S_TX_NBLK, p * 8, 8);
  w->dst = (uint16_t)get_bits(S_TX_DST, p * 16, 16);
  w->tag = (uint32_t)get_bits(S_TX_TAG, p * 32, 32);
  w->ecn = (uint8_t)get_bits(S_TX_ECN, p * 2, 2);
  w->fc_op = (uint8_t)get_bits(S_TX_FC_OP, p * 4, 4);
  w->fc_vl = (uint8_t)get_bits(S_TX_FC_VL, p * 4, 4);
  w->fc_fctbs = (uint16_t)get_bits(S_TX_FC_FCTBS, p * 12, 12);
  w->fc_fccl = (uint16_t)get_bits(S_TX_FC_FCCL, p * 12, 12);
  w->pfc_en = (uint8_t)get_bits(S_TX_PFC_EN, p * 8, 8);
  for (unsigned c = 0; c < 8; c++)
    w->pfc_time[c] = (uint16_t)get_bits(S_TX_PFC_TIME, p * 128 + c * 16, 16);
}

void dut_get_stat(dut_stat_t *s) {
  memset(s, 0, sizeof *s);
  for (unsigned p = 0; p < g_ports; p++) {
    s->drop[p] = (uint8_t)get_bits(S_ST_DROP, p, 1);
    s->drop_cause[p] = (uint8_t)get_bits(S_ST_DROP_CAUSE, p * 3, 3);
    s->wd_drop[p] = (uint16_t)get_bits(S_ST_WD_DROP, p * 16, 16);
    s->ecn_mark[p] = (uint8_t)get_bits(S_ST_ECN_MARK, p, 1);
    s->xoff[p] = (uint16_t)get_bits(S_ST_XOFF, p * 16, 16);
    s->xon[p] = (uint16_t)get_bits(S_ST_XON, p * 16, 16);
    s->wd_trip[p] = (uint16_t)get_bits(S_ST_WD_TRIP, p * 16, 16);
    s->wd_restore[p] = (uint16_t)get_bits(S_ST_WD_RESTORE, p * 16, 16);
    s->rx_malformed[p] = (uint8_t)get_bits(S_ST_RX_MALFORMED, p, 1);
  }
}

uint32_t dut_get_dbg(void) { return (uint32_t)get_bits(S_DBG_VAL, 0, 32); }

int dut_get_xz(char *name, size_t len, unsigned *port) {
  if (!g_xz) return 0;
  g_xz = 0;
  const sig_desc_t *d = &SIGS[g_xz_sig];
  unsigned w = d->per_port ? d->per_port : d->width;
  *port = d->per_port ? g_xz_bit / d->per_port : 0;
  snprintf(name, len, "%s[bit %u]", d->name, g_xz_bit % w);
  return 1;
}

void dut_clock(void) { clock_edge(); }
