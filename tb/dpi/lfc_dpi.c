/*
 * lfc_dpi.c - the DPI-C side of tb/dpi/lfc_dpi_pkg.sv: the C model (lfc/flat.h) for a
 * SystemVerilog testbench, with the RTL's packed buses (SPEC §13) as arguments.
 *
 * In the style of OpenTitan's model wrappers (a C model kept standalone, a DPI file that only
 * converts arguments): this file holds no switch logic. It unpacks the rx_*_i buses the checker
 * observed into per-port fields, steps the model, packs the expected tx_*_o and stat_*_o buses,
 * and compares observed buses with them, writing a MISMATCH report like the C co-simulation's
 * (tb/common/tb_main.c) that the checker prints with $error.
 *
 * Buses cross as svBitVecVal arrays of LFC_DPI_BUS_BITS bits (the widest bus of the largest
 * RTL, 16 ports x 128 bits of pfc_time), port p's slice at bit p*W, W the bits per port of the
 * bus. Bus numbers: 0..13 the link-word buses kind, sop, eop, cls, nblk, dst, tag, ecn, fc_op,
 * fc_vl, fc_fctbs, fc_fccl, pfc_en, pfc_time (SPEC §2 order), then 14 pad and 15 mrg (SPEC 0.3,
 * §2.4; last, like lfc/flat.h's LFC_FLAT_PAD and LFC_FLAT_MRG); stat numbers are lfc/flat.h's
 * LFC_FLAT_STAT_*. Compiled with gcc (C11) and linked into the Verilated model.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svdpi.h"

#include "lfc/flat.h"

/* The RTL supports 2..16 ports (SPEC §3); its widest bus is pfc_time, 128 bits per port. */
#define LFC_DPI_MAX_PORTS 16
#define PFC_TIME_BITS 16
#define PFC_PRIOS 8
#define PFC_TIME_BUS_BITS (PFC_TIME_BITS * PFC_PRIOS)
#define LFC_DPI_BUS_BITS (LFC_DPI_MAX_PORTS * PFC_TIME_BUS_BITS)
#define SV_WORD_BITS 32
#define LFC_DPI_BUS_WORDS (LFC_DPI_BUS_BITS / SV_WORD_BITS)
/* The link-word buses: every flat.h field but the eight pfc_time ones, plus one pfc_time bus;
   the buses after pfc_time's are the flat.h fields after the pause times. */
#define LFC_DPI_BUS_PFC_TIME LFC_FLAT_PFC_TIME0
#define LFC_DPI_BUSES (LFC_FLAT_FIELDS - PFC_PRIOS + 1)
#define MSG_LEN 2048

typedef struct {
  lfc_flat_t *m;
  char name[64]; /* instance name, for reports */
  char msg[MSG_LEN];
} lfc_dpi_t;

/* ---- bits of an svBitVecVal array (bit i is bit i % 32 of word i / 32) ---- */

static uint32_t get_bits(const svBitVecVal *v, unsigned lsb, unsigned width) {
  uint32_t r = 0;
  for (unsigned i = 0; i < width; i++) {
    unsigned b = lsb + i;
    r |= ((v[b / SV_WORD_BITS] >> (b % SV_WORD_BITS)) & 1u) << i;
  }
  return r;
}

static void put_bits(svBitVecVal *v, unsigned lsb, unsigned width, uint32_t x) {
  for (unsigned i = 0; i < width; i++) {
    unsigned b = lsb + i;
    uint32_t m = 1u << (b % SV_WORD_BITS);
    if ((x >> i) & 1u)
      v[b / SV_WORD_BITS] |= m;
    else
      v[b / SV_WORD_BITS] &= ~m;
  }
}

/* The flat.h fields of bus `bus` for port p: first field, count, bits per port. */
static int bus_fields(int bus, int *first, int *count, unsigned *per_port) {
  if (bus < 0 || bus >= LFC_DPI_BUSES) return -1;
  if (bus == LFC_DPI_BUS_PFC_TIME) {
    *first = LFC_FLAT_PFC_TIME0;
    *count = PFC_PRIOS;
    *per_port = PFC_TIME_BUS_BITS;
  } else {
    *first = bus < LFC_DPI_BUS_PFC_TIME ? bus : bus + PFC_PRIOS - 1; /* pad, mrg */
    *count = 1;
    *per_port = (unsigned)lfc_flat_field_width(*first);
  }
  return 0;
}

static int ports_of(const lfc_dpi_t *d) { return (int)lfc_flat_param(d->m, "ports", 0); }

/* ---- life cycle ---- */

void *lfc_dpi_create(const char *name, const char *config) {
  lfc_dpi_t *d = calloc(1, sizeof *d);
  if (d == NULL) return NULL;
  snprintf(d->name, sizeof d->name, "%s", name ? name : "lfc");
  d->m = lfc_flat_create(config);
  if (d->m == NULL) {
    free(d);
    return NULL;
  }
  if (lfc_flat_ok(d->m) && ports_of(d) > LFC_DPI_MAX_PORTS) {
    snprintf(d->msg, sizeof d->msg, "%s: %d ports; the RTL has at most %d", d->name, ports_of(d),
             LFC_DPI_MAX_PORTS);
  }
  return d;
}

int lfc_dpi_ok(void *h) {
  const lfc_dpi_t *d = h;
  return d != NULL && lfc_flat_ok(d->m) && d->msg[0] == '\0';
}

/* The creation error, or the last report of a check. */
const char *lfc_dpi_message(void *h) {
  const lfc_dpi_t *d = h;
  if (d == NULL) return "lfc_dpi: no model (out of memory)";
  if (!lfc_flat_ok(d->m)) return lfc_flat_error(d->m);
  return d->msg;
}

void lfc_dpi_destroy(void *h) {
  lfc_dpi_t *d = h;
  if (d == NULL) return;
  lfc_flat_destroy(d->m);
  free(d);
}

int lfc_dpi_reset(void *h) {
  lfc_dpi_t *d = h;
  return d ? lfc_flat_reset(d->m) : -1;
}

/* The cycle the last step simulated (SPEC §1.2: cycle 0 is the first after reset). */
long long lfc_dpi_cycle(void *h) {
  const lfc_dpi_t *d = h;
  return d ? (long long)lfc_flat_cycle(d->m) - 1 : -1;
}

/* ---- one cycle ---- */

/* An observed rx bus into the model's inputs. Returns 0, -1 for a bad bus. */
int lfc_dpi_set_rx(void *h, int bus, const svBitVecVal *v) {
  lfc_dpi_t *d = h;
  int first, count;
  unsigned pw;
  if (d == NULL || bus_fields(bus, &first, &count, &pw)) return -1;
  for (int p = 0; p < ports_of(d); p++)
    for (int i = 0; i < count; i++) {
      unsigned w = (unsigned)lfc_flat_field_width(first + i);
      uint32_t x = get_bits(v, (unsigned)p * pw + (unsigned)i * w, w);
      if (lfc_flat_set_in(d->m, p, first + i, x)) return -1;
    }
  return 0;
}

/* Register reg of (port, cls) in the current state (before lfc_dpi_step: S(t)), -1 if bad. */
long long lfc_dpi_reg(void *h, int reg, int port, int cls) {
  const lfc_dpi_t *d = h;
  return d ? (long long)lfc_flat_reg(d->m, reg, port, cls) : -1;
}

/* One cycle with the inputs set; the number of model events, or -1. */
int lfc_dpi_step(void *h) {
  lfc_dpi_t *d = h;
  return d ? (int)lfc_flat_step(d->m) : -1;
}

/* The expected tx bus of the last step. */
void lfc_dpi_get_tx(void *h, int bus, svBitVecVal *v) {
  const lfc_dpi_t *d = h;
  int first, count;
  unsigned pw;
  memset(v, 0, LFC_DPI_BUS_WORDS * sizeof *v);
  if (d == NULL || bus_fields(bus, &first, &count, &pw)) return;
  for (int p = 0; p < ports_of(d); p++)
    for (int i = 0; i < count; i++) {
      unsigned w = (unsigned)lfc_flat_field_width(first + i);
      put_bits(v, (unsigned)p * pw + (unsigned)i * w, w,
               (uint32_t)lfc_flat_out(d->m, p, first + i));
    }
}

/* The expected stat bus (LFC_FLAT_STAT_*) of the last step. */
void lfc_dpi_get_stat(void *h, int stat, svBitVecVal *v) {
  const lfc_dpi_t *d = h;
  memset(v, 0, LFC_DPI_BUS_WORDS * sizeof *v);
  int w = lfc_flat_stat_width(stat);
  if (d == NULL || w < 0) return;
  for (int p = 0; p < ports_of(d); p++)
    put_bits(v, (unsigned)(p * w), (unsigned)w, (uint32_t)lfc_flat_stat(d->m, stat, p));
}

/* ---- checks: 0 if equal, else 1 with the report in lfc_dpi_message ---- */

#if defined(__GNUC__)
__attribute__((format(printf, 6, 7)))
#endif
static int mismatch(lfc_dpi_t *d, int port, const char *signal, const char *exp, const char *act,
                    const char *ctx_fmt, ...) {
  char ctx[MSG_LEN / 2];
  va_list ap;
  va_start(ap, ctx_fmt);
  vsnprintf(ctx, sizeof ctx, ctx_fmt, ap);
  va_end(ap);
  char ev[MSG_LEN / 4];
  snprintf(ev, sizeof ev, "%s", lfc_flat_format_events(d->m));
  snprintf(d->msg, sizeof d->msg,
           "MISMATCH cycle=%lld port=%d signal=%s expected=%s actual=%s config=%s\n%s"
           "  model events this cycle: %s\n"
           "  reproduce: make dpi (the stimulus is deterministic)",
           lfc_dpi_cycle(d), port, signal, exp, act, d->name, ctx, ev);
  return 1;
}

int lfc_dpi_check_tx(void *h, int bus, const svBitVecVal *actual) {
  lfc_dpi_t *d = h;
  int first, count;
  unsigned pw;
  if (d == NULL || bus_fields(bus, &first, &count, &pw)) return -1;
  for (int p = 0; p < ports_of(d); p++)
    for (int i = 0; i < count; i++) {
      int f = first + i;
      unsigned w = (unsigned)lfc_flat_field_width(f);
      uint32_t a = get_bits(actual, (unsigned)p * pw + (unsigned)i * w, w);
      uint32_t e = (uint32_t)lfc_flat_out(d->m, p, f);
      if (a == e) continue;
      char sig[64], es[32], as[32], ew[256], in[256];
      if (bus == LFC_DPI_BUS_PFC_TIME)
        snprintf(sig, sizeof sig, "tx_pfc_time_o[%d]", i);
      else
        snprintf(sig, sizeof sig, "tx_%s_o", lfc_flat_field_name(f));
      const char *fmt = f == LFC_FLAT_TAG ? "0x%08" PRIx32 : "%" PRIu32;
      snprintf(es, sizeof es, fmt, e);
      snprintf(as, sizeof as, fmt, a);
      snprintf(ew, sizeof ew, "%s", lfc_flat_format_out(d->m, p));
      snprintf(in, sizeof in, "%s", lfc_flat_format_in(d->m, p));
      return mismatch(d, p, sig, es, as,
                      "  expected word (model): %s\n  input word this cycle: %s\n", ew, in);
    }
  return 0;
}

int lfc_dpi_check_stat(void *h, int stat, const svBitVecVal *actual) {
  lfc_dpi_t *d = h;
  int w = lfc_flat_stat_width(stat);
  if (d == NULL || w < 0) return -1;
  for (int p = 0; p < ports_of(d); p++) {
    uint32_t a = get_bits(actual, (unsigned)(p * w), (unsigned)w);
    uint32_t e = (uint32_t)lfc_flat_stat(d->m, stat, p);
    if (a == e) continue;
    /* The cause means something only with a drop (as tb/common/tb_main.c compares it). */
    if (stat == LFC_FLAT_STAT_DROP_CAUSE && !lfc_flat_stat(d->m, LFC_FLAT_STAT_DROP, p)) continue;
    char sig[64], es[32], as[32], in[256];
    if (w == 16) { /* one bit per class: name the lowest class that differs */
      int c = __builtin_ctz(a ^ e);
      snprintf(sig, sizeof sig, "%s[cls=%d]", lfc_flat_stat_name(stat), c);
      snprintf(es, sizeof es, "%" PRIu32, (e >> c) & 1u);
      snprintf(as, sizeof as, "%" PRIu32, (a >> c) & 1u);
    } else {
      snprintf(sig, sizeof sig, "%s", lfc_flat_stat_name(stat));
      snprintf(es, sizeof es, "%" PRIu32, e);
      snprintf(as, sizeof as, "%" PRIu32, a);
    }
    snprintf(in, sizeof in, "%s", lfc_flat_format_in(d->m, p));
    return mismatch(d, p, sig, es, as, "  input word this cycle: %s\n", in);
  }
  return 0;
}

/* The debug port: register reg of (port, cls), expected (read with lfc_dpi_reg before the step)
   against dbg_val_o. */
int lfc_dpi_check_dbg(void *h, int reg, int port, int cls, long long expected, int actual) {
  lfc_dpi_t *d = h;
  if (d == NULL) return -1;
  uint32_t a = (uint32_t)actual;
  if (expected == (long long)a) return 0;
  char sig[64], es[32], as[32];
  if (lfc_flat_reg_scope(reg) == 2)
    snprintf(sig, sizeof sig, "dbg:%s[cls=%d](reg=%d)", lfc_flat_reg_name(reg), cls, reg);
  else
    snprintf(sig, sizeof sig, "dbg:%s(reg=%d)", lfc_flat_reg_name(reg), reg);
  snprintf(es, sizeof es, "%lld", expected);
  snprintf(as, sizeof as, "%" PRIu32, a);
  return mismatch(d, port, sig, es, as, "  register value in S(t), the state before the cycle\n");
}
