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
 * Speed (docs/perf-log.md): vvp's own evaluation of the RTL is nearly all of the time (a
 * replay of the same inputs from Verilog, without VPI, runs no faster); what the adapter adds is
 * kept small:
 *   - tb/vpi/tb_top.v drives each input port of lfc_switch from a register and has each output
 *     port on a wire, all ports' slices in one vector: a register is written (one vpi_put_value)
 *     only when one of its slices changed, an output vector is read (one vpi_get_value, on first
 *     use) only when a cbValueChange callback said it changed (most do not, in most cycles).
 *     No vector there is assembled from per-port parts: vvp rebuilds such a net bit by bit on
 *     every change of any part, which cost more than these calls;
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
#include <sys/stat.h>
#include <vpi_user.h>

#include "dut.h"

#define PERIOD 100u
#define RISE (PERIOD / 2u)
#define RESET_CYCLES 2u
#define STACK_BYTES (64u << 20)

/* ---- the ports of lfc_switch (SPEC §13), as tb_top.v names them ---- */

/* A port of lfc_switch: `width` bits per switch port, switch port p at [p*width +: width]. */
typedef struct {
  const char *name;
  unsigned width;
} port_t;

enum {
  I_KIND, I_SOP, I_EOP, I_CLS, I_NBLK, I_DST, I_TAG, I_ECN, I_PAD, I_MRG, I_FC_OP, I_FC_VL,
  I_FC_FCTBS, I_FC_FCCL, I_PFC_EN, I_PFC_TIME, N_IN
};
static const port_t IN_PORTS[N_IN] = {
    {"rx_kind_i", 2},     {"rx_sop_i", 1},       {"rx_eop_i", 1},     {"rx_cls_i", 4},
    {"rx_nblk_i", 8},     {"rx_dst_i", 16},      {"rx_tag_i", 32},    {"rx_ecn_i", 2},
    {"rx_pad_i", 6},      {"rx_mrg_i", 1},
    {"rx_fc_op_i", 4},    {"rx_fc_vl_i", 4},     {"rx_fc_fctbs_i", 12}, {"rx_fc_fccl_i", 12},
    {"rx_pfc_en_i", 8},   {"rx_pfc_time_i", 128},
};

enum {
  O_KIND, O_SOP, O_EOP, O_CLS, O_NBLK, O_DST, O_TAG, O_ECN, O_PAD, O_MRG, O_FC_OP, O_FC_VL,
  O_FC_FCTBS, O_FC_FCCL, O_PFC_EN, O_PFC_TIME, O_DROP, O_DROP_CAUSE, O_WD_DROP, O_ECN_MARK,
  O_XOFF, O_XON,
  O_WD_TRIP, O_WD_RESTORE, O_RX_MALFORMED, N_OUT
};
static const port_t OUT_PORTS[N_OUT] = {
    {"tx_kind_o", 2},         {"tx_sop_o", 1},          {"tx_eop_o", 1},
    {"tx_cls_o", 4},          {"tx_nblk_o", 8},         {"tx_dst_o", 16},
    {"tx_tag_o", 32},         {"tx_ecn_o", 2},          {"tx_pad_o", 6},
    {"tx_mrg_o", 1},          {"tx_fc_op_o", 4},
    {"tx_fc_vl_o", 4},        {"tx_fc_fctbs_o", 12},    {"tx_fc_fccl_o", 12},
    {"tx_pfc_en_o", 8},       {"tx_pfc_time_o", 128},   {"stat_drop_o", 1},
    {"stat_drop_cause_o", 3}, {"stat_wd_drop_o", 16},   {"stat_ecn_mark_o", 1},
    {"stat_xoff_o", 16},      {"stat_xon_o", 16},       {"stat_wd_trip_o", 16},
    {"stat_wd_restore_o", 16}, {"stat_rx_malformed_o", 1},
};

#define PFC_TIME_BITS 16u /* one priority's pause time in a pfc_time field */
#define PFC_PRIOS 8u
#define MAX_PORT_WIDTH 128u /* the widest per-port field (pfc_time) */
#define VEC_WORDS (DUT_MAX_PORTS * MAX_PORT_WIDTH / 32u)
#define DBG_SEL_BITS 20u /* {dbg_cls_i[3:0], dbg_port_i[7:0], dbg_reg_i[7:0]} (tb_top.v) */
#define DBG_REG_LSB 0u
#define DBG_REG_BITS 8u
#define DBG_PORT_LSB 8u
#define DBG_PORT_BITS 8u
#define DBG_CLS_LSB 16u
#define DBG_CLS_BITS 4u
#define DBG_VAL_BITS 32u

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
  unsigned words;
  uint32_t bits[VEC_WORDS]; /* the value the test wants */
  int dirty;                /* bits changed since the last put */
  s_vpi_vecval vec[VEC_WORDS];
} in_sig_t;

/* A wire the test reads. The simulator marks it changed (a cbValueChange callback); it is read
   again (vpi_get_value) only then, on first use. */
typedef struct {
  vpiHandle h, cb;           /* the signal, its cbValueChange (kept: freeing may remove it) */
  const char *name;
  unsigned words, port_width;
  uint32_t bits[VEC_WORDS]; /* as last read, x/z bits as 0 */
  int changed;              /* changed since the last read */
  int xz_bit;               /* the first x/z bit of the last read, or -1 */
  unsigned gen;             /* how many times it was read: a cached field of it is current
                               while the generation it was taken from is this one */
} out_sig_t;

static in_sig_t g_in[N_IN];
static in_sig_t g_dbg_sel;
static in_sig_t g_rst;
static vpiHandle g_clk;
static out_sig_t g_out[N_OUT];
static out_sig_t g_dbg_val;

/* What the test last set and read, per port, so that a word that repeats (IDLE, a pause frame)
   costs one memcmp, and a read takes only the fields of the vectors that changed since (Speed
   in tb/README.md: a cycle reads about 120 fields, most of them unchanged). */
static lfc_word_t g_rx_last[DUT_MAX_PORTS];
static int g_rx_known[DUT_MAX_PORTS];
static lfc_word_t g_tx_cache[DUT_MAX_PORTS];
static unsigned g_tx_gen[DUT_MAX_PORTS][O_PFC_TIME + 1];
static dut_stat_t g_stat_cache;
static unsigned g_stat_gen[N_OUT];

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
  for (unsigned f = 0; f < N_IN; f++)
    if (g_in[f].dirty) put_at(&g_in[f], at);
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

/* The value of output o now (x/z bits as 0; the first one is reported by signal and port through
   dut_get_xz, at every use of the value, as a fresh read would). */
static const uint32_t *out_read(out_sig_t *o) {
  if (o->changed) {
    s_vpi_value v = {.format = vpiVectorVal};
    vpi_get_value(o->h, &v);
    o->xz_bit = -1;
    for (unsigned i = 0; i < o->words; i++) {
      const uint32_t b = (uint32_t)v.value.vector[i].bval;
      o->bits[i] = (uint32_t)v.value.vector[i].aval & ~b;
      if (b && o->xz_bit < 0) o->xz_bit = (int)(i * 32u + (unsigned)__builtin_ctz(b));
    }
    o->changed = 0;
    o->gen++;
  }
  if (o->xz_bit >= 0)
    note_xz(o->name, (unsigned)o->xz_bit / o->port_width, (unsigned)o->xz_bit % o->port_width);
  return o->bits;
}

static void in_bits(in_sig_t *s, unsigned lsb, unsigned width, uint32_t val) {
  if (bits_get(s->bits, lsb, width) == (val & (uint32_t)((1ull << width) - 1u))) return;
  bits_put(s->bits, lsb, width, val);
  s->dirty = 1;
}

/* Bits [off, off + width) of switch port p's slice of input i. */
static void in_field(unsigned i, unsigned p, unsigned off, unsigned width, uint32_t val) {
  in_bits(&g_in[i], p * IN_PORTS[i].width + off, width, val);
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
  s->words = (width + 31u) / 32u;
  s->dirty = 1;
  return 0;
}

static PLI_INT32 changed_cb(p_cb_data d) {
  ((out_sig_t *)(void *)d->user_data)->changed = 1;
  return 0;
}

static int bind_out(out_sig_t *o, const char *name, unsigned port_width, unsigned width,
                    char *err, size_t errlen) {
  memset(o, 0, sizeof *o);
  if (bind_sig(name, width, &o->h, err, errlen)) return -1;
  o->name = name;
  o->port_width = port_width;
  o->words = (width + 31u) / 32u;
  o->changed = 1;
  o->xz_bit = -1;
  static s_vpi_time no_time = {.type = vpiSuppressTime};
  static s_vpi_value no_value = {.format = vpiSuppressVal};
  s_cb_data cb = {.reason = cbValueChange, .cb_rtn = changed_cb, .obj = o->h,
                  .time = &no_time, .value = &no_value, .user_data = (PLI_BYTE8 *)(void *)o};
  o->cb = vpi_register_cb(&cb);
  if (!o->cb) {
    snprintf(err, errlen, "cannot watch tb_top.%s for changes (cbValueChange)", name);
    return -1;
  }
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
  /* The digest of the parameters the top was compiled with (-Ptb_top.ParamsId, tb/tb.mk; 0 when
     a build gave none). */
  vpiHandle id_h = vpi_handle_by_name("tb_top.ParamsId", NULL);
  if (id_h) {
    s_vpi_value v = {.format = vpiIntVal};
    vpi_get_value(id_h, &v);
    uint32_t built = (uint32_t)v.value.integer;
    if (built != 0 && built != a->params_id) {
      snprintf(err, errlen,
               "the simulation was compiled for other RTL parameters than this configuration's "
               "(tb-params id %u, the configuration's %u): run it through make cosim, which "
               "builds one per configuration",
               (unsigned)built, (unsigned)a->params_id);
      return -2;
    }
  }
  /* A top compiled for another port count has other port widths. */
  if (bind_out(&g_dbg_val, "dbg_val_o", DBG_VAL_BITS, DBG_VAL_BITS, err, errlen) ||
      bind_sig("clk_i", 1, &g_clk, err, errlen) ||
      bind_in(&g_dbg_sel, "dbg_sel", DBG_SEL_BITS, err, errlen) ||
      bind_in(&g_rst, "rst_ni", 1, err, errlen))
    return -1;
  for (unsigned i = 0; i < N_IN; i++)
    if (bind_in(&g_in[i], IN_PORTS[i].name, g_ports * IN_PORTS[i].width, err, errlen)) return -1;
  for (unsigned o = 0; o < N_OUT; o++)
    if (bind_out(&g_out[o], OUT_PORTS[o].name, OUT_PORTS[o].width,
                 g_ports * OUT_PORTS[o].width, err, errlen))
      return -1;
  /* tb_top.v dumps from +waves / +waves_from itself and vvp opens the file only when the dump
     starts, going on without waves when it cannot ("VCD Error"): its directory must be there
     now; tb/scripts/cosim.sh checks the file after vvp has closed it. */
  if (a->waves) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", a->waves);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = '\0';
    struct stat st;
    if (slash && dir[0] && (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))) {
      snprintf(err, errlen, "cannot write the waves %s (no directory %s)", a->waves, dir);
      return -3;
    }
  }
  memset(g_rx_known, 0, sizeof g_rx_known);
  memset(g_tx_cache, 0, sizeof g_tx_cache);
  memset(g_tx_gen, 0, sizeof g_tx_gen); /* generation 0: never read (bind_out sets changed) */
  memset(&g_stat_cache, 0, sizeof g_stat_cache);
  memset(g_stat_gen, 0, sizeof g_stat_gen);
  g_cycle_base = g_now;
  return 0;
}

void dut_close(void) {}

/* vvp writes and closes the VCD after the test has ended: tb/scripts/cosim.sh checks it. */
int dut_close_checked(char *err, size_t errlen) {
  (void)err;
  (void)errlen;
  return 0;
}

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
  in_bits(&g_rst, 0, 1, 0);
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
  in_bits(&g_rst, 0, 1, 1);
}

void dut_set_rx(unsigned p, const lfc_word_t *w) {
  if (g_rx_known[p] && memcmp(&g_rx_last[p], w, sizeof *w) == 0) return;
  g_rx_last[p] = *w;
  g_rx_known[p] = 1;
  in_field(I_KIND, p, 0, IN_PORTS[I_KIND].width, w->kind);
  in_field(I_SOP, p, 0, IN_PORTS[I_SOP].width, w->sop);
  in_field(I_EOP, p, 0, IN_PORTS[I_EOP].width, w->eop);
  in_field(I_CLS, p, 0, IN_PORTS[I_CLS].width, w->cls);
  in_field(I_NBLK, p, 0, IN_PORTS[I_NBLK].width, w->nblk);
  in_field(I_DST, p, 0, IN_PORTS[I_DST].width, w->dst);
  in_field(I_TAG, p, 0, IN_PORTS[I_TAG].width, w->tag);
  in_field(I_ECN, p, 0, IN_PORTS[I_ECN].width, w->ecn);
  in_field(I_PAD, p, 0, IN_PORTS[I_PAD].width, w->pad);
  in_field(I_MRG, p, 0, IN_PORTS[I_MRG].width, w->mrg);
  in_field(I_FC_OP, p, 0, IN_PORTS[I_FC_OP].width, w->fc_op);
  in_field(I_FC_VL, p, 0, IN_PORTS[I_FC_VL].width, w->fc_vl);
  in_field(I_FC_FCTBS, p, 0, IN_PORTS[I_FC_FCTBS].width, w->fc_fctbs);
  in_field(I_FC_FCCL, p, 0, IN_PORTS[I_FC_FCCL].width, w->fc_fccl);
  in_field(I_PFC_EN, p, 0, IN_PORTS[I_PFC_EN].width, w->pfc_en);
  for (unsigned c = 0; c < PFC_PRIOS; c++)
    in_field(I_PFC_TIME, p, c * PFC_TIME_BITS, PFC_TIME_BITS, w->pfc_time[c]);
}

void dut_set_dbg(unsigned reg, unsigned port, unsigned cls) {
  in_bits(&g_dbg_sel, DBG_REG_LSB, DBG_REG_BITS, reg);
  in_bits(&g_dbg_sel, DBG_PORT_LSB, DBG_PORT_BITS, port);
  in_bits(&g_dbg_sel, DBG_CLS_LSB, DBG_CLS_BITS, cls);
}

/* The first settle of a cycle: the inputs are scheduled for the start of the cycle and the test
   resumes one unit later; a further one (a debug-port read) lets one unit pass. */
void dut_settle(void) {
  uint64_t at = g_cycle_base > g_now ? g_cycle_base : g_now;
  flush_inputs(at);
  wait_until(at + 1);
}

/* Field o of switch port p's sent word, from the bits of output o. */
static void tx_field(lfc_word_t *w, unsigned o, unsigned p, const uint32_t *bits) {
  const unsigned lsb = p * OUT_PORTS[o].width, width = OUT_PORTS[o].width;
  const uint32_t v = width <= 32u ? bits_get(bits, lsb, width) : 0u;
  switch (o) {
  case O_KIND: w->kind = (uint8_t)v; break;
  case O_SOP: w->sop = (uint8_t)v; break;
  case O_EOP: w->eop = (uint8_t)v; break;
  case O_CLS: w->cls = (uint8_t)v; break;
  case O_NBLK: w->nblk = (uint8_t)v; break;
  case O_DST: w->dst = (uint16_t)v; break;
  case O_TAG: w->tag = v; break;
  case O_ECN: w->ecn = (uint8_t)v; break;
  case O_PAD: w->pad = (uint8_t)v; break;
  case O_MRG: w->mrg = (uint8_t)v; break;
  case O_FC_OP: w->fc_op = (uint8_t)v; break;
  case O_FC_VL: w->fc_vl = (uint8_t)v; break;
  case O_FC_FCTBS: w->fc_fctbs = (uint16_t)v; break;
  case O_FC_FCCL: w->fc_fccl = (uint16_t)v; break;
  case O_PFC_EN: w->pfc_en = (uint8_t)v; break;
  default: /* O_PFC_TIME, 128 bits per port */
    for (unsigned c = 0; c < PFC_PRIOS; c++)
      w->pfc_time[c] = (uint16_t)bits_get(bits, lsb + c * PFC_TIME_BITS, PFC_TIME_BITS);
  }
}

void dut_get_tx(unsigned p, lfc_word_t *w) {
  for (unsigned o = O_KIND; o <= O_PFC_TIME; o++) {
    const uint32_t *bits = out_read(&g_out[o]); /* reports x/z at every use */
    if (g_tx_gen[p][o] == g_out[o].gen) continue;
    g_tx_gen[p][o] = g_out[o].gen;
    tx_field(&g_tx_cache[p], o, p, bits);
  }
  *w = g_tx_cache[p];
}

void dut_get_stat(dut_stat_t *s) {
  dut_stat_t *c = &g_stat_cache;
  for (unsigned o = O_DROP; o < N_OUT; o++) {
    const uint32_t *bits = out_read(&g_out[o]); /* reports x/z at every use */
    if (g_stat_gen[o] == g_out[o].gen) continue;
    g_stat_gen[o] = g_out[o].gen;
    for (unsigned p = 0; p < g_ports; p++) {
      const uint32_t v = bits_get(bits, p * OUT_PORTS[o].width, OUT_PORTS[o].width);
      switch (o) {
      case O_DROP: c->drop[p] = (uint8_t)v; break;
      case O_DROP_CAUSE: c->drop_cause[p] = (uint8_t)v; break;
      case O_WD_DROP: c->wd_drop[p] = (uint16_t)v; break;
      case O_ECN_MARK: c->ecn_mark[p] = (uint8_t)v; break;
      case O_XOFF: c->xoff[p] = (uint16_t)v; break;
      case O_XON: c->xon[p] = (uint16_t)v; break;
      case O_WD_TRIP: c->wd_trip[p] = (uint16_t)v; break;
      case O_WD_RESTORE: c->wd_restore[p] = (uint16_t)v; break;
      default: c->rx_malformed[p] = (uint8_t)v; /* O_RX_MALFORMED */
      }
    }
  }
  *s = *c;
}

uint32_t dut_get_dbg(void) { return out_read(&g_dbg_val)[0]; }

/* No packed interface (dut.h): the ports are moved per field, which is not what costs here. */
const dut_packed_t *dut_packed(void) { return NULL; }

int dut_get_xz(char *name, size_t len, unsigned *port) {
  if (!g_xz) return 0;
  g_xz = 0;
  *port = g_xz_port;
  snprintf(name, len, "%s", g_xz_name);
  return 1;
}

void dut_clock(void) { schedule_edges(); }
