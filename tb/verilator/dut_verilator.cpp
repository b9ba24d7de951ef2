// dut_verilator.cpp - tb/common/dut.h on a Verilated lfc_switch (Verilator 5).
//
// Only what Verilator needs: construct Vlfc_switch, set and get its ports (SPEC §13: port p of a
// field of width W is bits [p*W +: W]), eval, clock, FST tracing (in the build made with
// --trace-fst, obj-trace/; the plain build has none and compiles in half the time). No test logic: the test is
// tb_main() in tb/common, compiled with gcc and linked in. main() hands it the command line.
//
// Simulated time (for the waves): cycle c starts at (c + 2) * 100 (two reset cycles first); the
// inputs settle at +1, each further debug-port read at +2, +3, ...; the rising edge is at +50.

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>

#include "Vlfc_switch.h"
#include "verilated.h"
#if VM_COVERAGE
#include "verilated_cov.h"
#endif
#if VM_TRACE
#include "verilated_fst_c.h"
#endif

#include "dut.h"

#ifdef TB_MUTSEL
// tb/mutants (make mutants): the model is a Yosys netlist with many mutants in it, each enabled by
// one value of the extra input `mutsel` (TB_MUTSEL bits wide; 0 = the unmutated design). The
// value comes from the environment variable LFC_MUTSEL and holds for the whole run.
#include <cerrno>
#include <cstdlib>
#include <type_traits>
static int tb_mutsel_set(Vlfc_switch *top, char *err, size_t errlen) {
  const char *s = std::getenv("LFC_MUTSEL");
  const unsigned long max = (1ul << TB_MUTSEL) - 1u;
  char *end = nullptr;
  errno = 0;
  const unsigned long v = (s && *s) ? std::strtoul(s, &end, 10) : 0ul;
  if (s && *s && (errno != 0 || *end != '\0' || v > max)) {
    std::snprintf(err, errlen, "LFC_MUTSEL='%s': allowed a decimal number 0..%lu", s, max);
    return -1;
  }
  top->mutsel = static_cast<std::remove_reference<decltype(top->mutsel)>::type>(v);
  return 0;
}
#endif  // TB_MUTSEL

#ifndef TB_PORTS
#error "TB_PORTS (the configuration's port count) must be defined when compiling the shim"
#endif

namespace {

const uint64_t kPeriod = 100;
const uint64_t kResetCycles = 2;

std::unique_ptr<VerilatedContext> g_ctx;
// The command line, for Verilator's own +verilator+... options: they must reach the context the
// model lives in (g_ctx), not only Verilator's default one, or e.g. +verilator+rand+reset+2 is
// silently ignored.
int g_argc = 0;
char **g_argv = nullptr;
std::unique_ptr<Vlfc_switch> g_top;
#if VM_TRACE
std::unique_ptr<VerilatedFstC> g_fst;
#endif
uint64_t g_cycle_base = 0;  // time of the start of the current cycle
uint64_t g_phase = 0;       // offset within the cycle of the last dump
uint64_t g_trace_from = 0;  // first time traced
// The word last put on each input port: most ports repeat their word (IDLE) from cycle to cycle,
// and an unchanged word needs no stores. Compared bytewise: equal bytes are equal fields.
lfc_word_t g_rx_last[TB_PORTS];
bool g_rx_valid[TB_PORTS];
#if VM_COVERAGE
const char *g_cov_file = "coverage.dat";
#endif

// Bit fields of scalar ports (CData/SData/IData/QData).
template <typename T>
void put(T &sig, unsigned lsb, unsigned width, uint64_t v) {
  const uint64_t mask = width >= 64 ? ~0ull : ((1ull << width) - 1u);
  uint64_t s = static_cast<uint64_t>(sig);
  s = (s & ~(mask << lsb)) | ((v & mask) << lsb);
  sig = static_cast<T>(s);
}
template <typename T>
uint64_t get(const T &sig, unsigned lsb, unsigned width) {
  const uint64_t mask = width >= 64 ? ~0ull : ((1ull << width) - 1u);
  return (static_cast<uint64_t>(sig) >> lsb) & mask;
}
// Bit fields of wide ports (VlWide<N>, 32-bit words). A field is at most 32 bits wide, so it
// lies in one word or straddles two (the 12-bit FCTBS/FCCL fields); moved a word at a time, not a
// bit at a time: these run for every field of every port every cycle.
template <std::size_t N>
void put(VlWide<N> &sig, unsigned lsb, unsigned width, uint64_t v) {
  const unsigned w = lsb / 32, sh = lsb % 32;
  const bool two = sh + width > 32;
  const uint64_t mask = (1ull << width) - 1u;
  uint64_t s = sig[w] | (two ? static_cast<uint64_t>(sig[w + 1]) << 32 : 0u);
  s = (s & ~(mask << sh)) | ((v & mask) << sh);
  sig[w] = static_cast<uint32_t>(s);
  if (two) sig[w + 1] = static_cast<uint32_t>(s >> 32);
}
template <std::size_t N>
uint64_t get(const VlWide<N> &sig, unsigned lsb, unsigned width) {
  const unsigned w = lsb / 32, sh = lsb % 32;
  const bool two = sh + width > 32;
  const uint64_t s = sig[w] | (two ? static_cast<uint64_t>(sig[w + 1]) << 32 : 0u);
  return (s >> sh) & ((1ull << width) - 1u);
}

void dump(uint64_t phase) {
  g_phase = phase;
  const uint64_t t = g_cycle_base + phase;
  g_ctx->time(t);
#if VM_TRACE
  if (g_fst && t >= g_trace_from) g_fst->dump(t);
#endif
}

void eval_at(uint64_t phase) {
  g_top->eval();
  dump(phase);
}

// The falling edge is evaluated only when tracing (so that the waves show it at +0): nothing in
// lfc_switch is sensitive to it, and the next dut_settle evaluates the new inputs and the low clock
// together. Each eval() costs a pass over all the logic that depends on an input, so this saves a
// third of the evaluations of a cycle.
void edge() {
  g_top->clk_i = 1;
  eval_at(kPeriod / 2);
  g_top->clk_i = 0;
  g_cycle_base += kPeriod;
#if VM_TRACE
  eval_at(0);
#else
  g_phase = 0;
#endif
}

}  // namespace

extern "C" {

const char *dut_sim_name(void) { return "verilator"; }

int dut_open(const dut_open_t *a, char *err, size_t errlen) {
  if (a->ports != TB_PORTS) {
    std::snprintf(err, errlen,
                  "the Verilated model was built for %d ports, the configuration has %u: "
                  "rebuild it (make cosim rebuilds per configuration)",
                  TB_PORTS, a->ports);
    return -1;
  }
  g_ctx.reset(new VerilatedContext);
  if (g_argc > 0) g_ctx->commandArgs(g_argc, g_argv);
#if VM_TRACE
  g_ctx->traceEverOn(a->waves != nullptr);
  g_top.reset(new Vlfc_switch(g_ctx.get(), "lfc_switch"));
  if (a->waves) {
    g_fst.reset(new VerilatedFstC);
    g_top->trace(g_fst.get(), 99);
    g_fst->open(a->waves);
    g_trace_from = (a->waves_from + kResetCycles) * kPeriod;
  }
#else
  if (a->waves) {
    std::snprintf(err, errlen, "this build has no tracing: waves come from the obj-trace build "
                               "(make cosim WAVES=1)");
    return -1;
  }
  g_top.reset(new Vlfc_switch(g_ctx.get(), "lfc_switch"));
#endif
#ifdef TB_MUTSEL
  if (tb_mutsel_set(g_top.get(), err, errlen)) return -1;
#endif  // TB_MUTSEL
  g_cycle_base = 0;
  for (bool &v : g_rx_valid) v = false;
  g_top->clk_i = 0;
  g_top->rst_ni = 0;
  eval_at(0);
  return 0;
}

void dut_close(void) {
  if (g_top) g_top->final();
#if VM_COVERAGE
  // The build made with --coverage (make coverage): line and toggle counts of this run.
  if (g_ctx && g_cov_file) g_ctx->coveragep()->write(g_cov_file);
#endif
#if VM_TRACE
  if (g_fst) g_fst->close();
  g_fst.reset();
#endif
  g_top.reset();
  g_ctx.reset();
}

void dut_reset(void) {
  const lfc_word_t idle = {};
  for (unsigned p = 0; p < TB_PORTS; p++) dut_set_rx(p, &idle);
  dut_set_dbg(0, 0, 0);
  g_top->rst_ni = 0;
  for (uint64_t i = 0; i < kResetCycles; i++) {
    eval_at(1);
    edge();
  }
  g_top->rst_ni = 1;
}

void dut_set_rx(unsigned p, const lfc_word_t *w) {
  if (g_rx_valid[p] && std::memcmp(&g_rx_last[p], w, sizeof *w) == 0) return;
  g_rx_last[p] = *w;
  g_rx_valid[p] = true;
  Vlfc_switch *t = g_top.get();
  put(t->rx_kind_i, p * 2, 2, w->kind);
  put(t->rx_sop_i, p, 1, w->sop);
  put(t->rx_eop_i, p, 1, w->eop);
  put(t->rx_cls_i, p * 4, 4, w->cls);
  put(t->rx_nblk_i, p * 8, 8, w->nblk);
  put(t->rx_dst_i, p * 16, 16, w->dst);
  put(t->rx_tag_i, p * 32, 32, w->tag);
  put(t->rx_ecn_i, p * 2, 2, w->ecn);
  put(t->rx_fc_op_i, p * 4, 4, w->fc_op);
  put(t->rx_fc_vl_i, p * 4, 4, w->fc_vl);
  put(t->rx_fc_fctbs_i, p * 12, 12, w->fc_fctbs);
  put(t->rx_fc_fccl_i, p * 12, 12, w->fc_fccl);
  put(t->rx_pfc_en_i, p * 8, 8, w->pfc_en);
  for (unsigned c = 0; c < 8; c++) put(t->rx_pfc_time_i, p * 128 + c * 16, 16, w->pfc_time[c]);
}

void dut_set_dbg(unsigned reg, unsigned port, unsigned cls) {
  g_top->dbg_reg_i = static_cast<uint8_t>(reg);
  g_top->dbg_port_i = static_cast<uint8_t>(port);
  g_top->dbg_cls_i = static_cast<uint8_t>(cls & 15u);
}

void dut_settle(void) { eval_at(g_phase == 0 ? 1 : g_phase + 1); }

void dut_get_tx(unsigned p, lfc_word_t *w) {
  const Vlfc_switch *t = g_top.get();
  w->kind = static_cast<uint8_t>(get(t->tx_kind_o, p * 2, 2));
  w->sop = static_cast<uint8_t>(get(t->tx_sop_o, p, 1));
  w->eop = static_cast<uint8_t>(get(t->tx_eop_o, p, 1));
  w->cls = static_cast<uint8_t>(get(t->tx_cls_o, p * 4, 4));
  w->nblk = static_cast<uint8_t>(get(t->tx_nblk_o, p * 8, 8));
  w->dst = static_cast<uint16_t>(get(t->tx_dst_o, p * 16, 16));
  w->tag = static_cast<uint32_t>(get(t->tx_tag_o, p * 32, 32));
  w->ecn = static_cast<uint8_t>(get(t->tx_ecn_o, p * 2, 2));
  w->fc_op = static_cast<uint8_t>(get(t->tx_fc_op_o, p * 4, 4));
  w->fc_vl = static_cast<uint8_t>(get(t->tx_fc_vl_o, p * 4, 4));
  w->fc_fctbs = static_cast<uint16_t>(get(t->tx_fc_fctbs_o, p * 12, 12));
  w->fc_fccl = static_cast<uint16_t>(get(t->tx_fc_fccl_o, p * 12, 12));
  w->pfc_en = static_cast<uint8_t>(get(t->tx_pfc_en_o, p * 8, 8));
  for (unsigned c = 0; c < 8; c++)
    w->pfc_time[c] = static_cast<uint16_t>(get(t->tx_pfc_time_o, p * 128 + c * 16, 16));
}

void dut_get_stat(dut_stat_t *s) {
  const Vlfc_switch *t = g_top.get();
  *s = dut_stat_t{};
  for (unsigned p = 0; p < TB_PORTS; p++) {
    s->drop[p] = static_cast<uint8_t>(get(t->stat_drop_o, p, 1));
    s->drop_cause[p] = static_cast<uint8_t>(get(t->stat_drop_cause_o, p * 3, 3));
    s->wd_drop[p] = static_cast<uint16_t>(get(t->stat_wd_drop_o, p * 16, 16));
    s->ecn_mark[p] = static_cast<uint8_t>(get(t->stat_ecn_mark_o, p, 1));
    s->xoff[p] = static_cast<uint16_t>(get(t->stat_xoff_o, p * 16, 16));
    s->xon[p] = static_cast<uint16_t>(get(t->stat_xon_o, p * 16, 16));
    s->wd_trip[p] = static_cast<uint16_t>(get(t->stat_wd_trip_o, p * 16, 16));
    s->wd_restore[p] = static_cast<uint16_t>(get(t->stat_wd_restore_o, p * 16, 16));
    s->rx_malformed[p] = static_cast<uint8_t>(get(t->stat_rx_malformed_o, p, 1));
  }
}

uint32_t dut_get_dbg(void) { return static_cast<uint32_t>(g_top->dbg_val_o); }

int dut_get_xz(char *name, size_t len, unsigned *port) {
  (void)name;
  (void)len;
  (void)port;
  return 0;  // two-state
}

void dut_clock(void) { edge(); }

}  // extern "C"

int main(int argc, char **argv) {
  // Verilator's own +verilator+... options are taken from the command line; tb_main ignores them.
  g_argc = argc;
  g_argv = argv;
#if VM_COVERAGE
  // +coverage_dat=FILE: where the coverage build writes its counts (tb_main ignores it).
  for (int i = 1; i < argc; i++)
    if (std::strncmp(argv[i], "+coverage_dat=", 14) == 0) g_cov_file = argv[i] + 14;
#endif
  return tb_main(argc, argv);
}
