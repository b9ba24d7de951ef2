/*
 * testutil.c - the test bench of testutil.h: scheduled inputs, recorded outputs and events.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Benches still open, so that tu_teardown can free what a failed test left behind. */
#define TU_MAX_OPEN 16
static tu_t *tu_open_list[TU_MAX_OPEN];

static void *tu_grow(void *p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return p;
  size_t c = *cap ? *cap : 64;
  while (c < need) c *= 2;
  void *q = realloc(p, c * elem);
  if (q == NULL) fail_msg("testutil: out of memory");
  *cap = c;
  return q;
}

int tu_teardown(void **state) {
  (void)state;
  for (size_t i = 0; i < TU_MAX_OPEN; i++) {
    if (tu_open_list[i] != NULL) tu_close(tu_open_list[i]);
  }
  return 0;
}

/* ---- Configurations ---- */

void tu_cfg_pfc(lfc_switch_cfg_t *cfg, uint32_t ports, uint32_t classes) {
  lfc_switch_cfg_default(cfg, LFC_MODE_PFC, ports, classes);
  cfg->lossless_mask = 0;
  cfg->shared_blocks = 1u << 16;
  cfg->xoff_th = 1u << 16;
}

void tu_cfg_ib(lfc_switch_cfg_t *cfg, uint32_t ports, uint32_t classes) {
  lfc_switch_cfg_default(cfg, LFC_MODE_IB, ports, classes);
  cfg->fcp_period = 65535;
}

/* ---- Bench life cycle ---- */

tu_t *tu_open(const lfc_switch_cfg_t *cfg) {
  char err[512] = "";
  if (lfc_switch_cfg_check(cfg, err, sizeof err) != 0) {
    fail_msg("testutil: configuration rejected: %s", err);
  }
  tu_t *t = calloc(1, sizeof *t);
  if (t == NULL) fail_msg("testutil: out of memory");
  size_t slot = TU_MAX_OPEN;
  for (size_t i = 0; i < TU_MAX_OPEN; i++) {
    if (tu_open_list[i] == NULL) {
      slot = i;
      break;
    }
  }
  if (slot == TU_MAX_OPEN) {
    free(t);
    fail_msg("testutil: more than %d benches open", TU_MAX_OPEN);
  }
  tu_open_list[slot] = t;
  t->cfg = *cfg;
  t->ports = cfg->ports;
  t->sw = lfc_switch_create(cfg, err, sizeof err);
  if (t->sw == NULL) fail_msg("testutil: lfc_switch_create failed: %s", err);
  return t;
}

void tu_close(tu_t *t) {
  if (t == NULL) return;
  for (size_t i = 0; i < TU_MAX_OPEN; i++) {
    if (tu_open_list[i] == t) tu_open_list[i] = NULL;
  }
  lfc_switch_destroy(t->sw);
  for (uint32_t p = 0; p < LFC_MAX_PORTS; p++) free(t->in[p].v);
  free(t->out);
  free(t->ev);
  free(t);
}

/* ---- Input scheduling ---- */

static void tu_check_port(const tu_t *t, uint32_t port) {
  if (port >= t->ports) fail_msg("testutil: port %u >= ports %u", port, t->ports);
}

static uint32_t tu_k(const tu_t *t, uint32_t port) {
  uint32_t k = t->cfg.speed_div[port];
  return k ? k : 1u;
}

uint64_t tu_now(const tu_t *t) { return lfc_switch_cycle(t->sw); }

uint64_t tu_cursor(const tu_t *t, uint32_t port) {
  tu_check_port(t, port);
  uint64_t now = tu_now(t);
  return t->in[port].cursor > now ? t->in[port].cursor : now;
}

void tu_at(tu_t *t, uint32_t port, uint64_t cycle) {
  tu_check_port(t, port);
  if (cycle < tu_now(t)) {
    fail_msg("testutil: tu_at(port %u, cycle %llu) is in the past (now %llu)", port,
             (unsigned long long)cycle, (unsigned long long)tu_now(t));
  }
  if (cycle < t->in[port].cursor) {
    fail_msg("testutil: tu_at(port %u, cycle %llu) is before a scheduled word (next free %llu)",
             port, (unsigned long long)cycle, (unsigned long long)t->in[port].cursor);
  }
  t->in[port].cursor = cycle;
}

void tu_idle(tu_t *t, uint32_t port, uint64_t n) {
  t->in[port].cursor = tu_cursor(t, port) + n;
}

uint64_t tu_word(tu_t *t, uint32_t port, const lfc_word_t *w) {
  uint64_t c = tu_cursor(t, port);
  tu_inq_t *q = &t->in[port];
  q->v = tu_grow(q->v, &q->cap, q->n + 1, sizeof *q->v);
  q->v[q->n].cycle = c;
  q->v[q->n].w = *w;
  q->n++;
  q->cursor = c + tu_k(t, port);
  return c;
}

lfc_word_t tu_data_word(uint32_t sop, uint32_t eop, uint32_t cls, uint32_t nblk, uint32_t dst,
                        uint32_t tag, uint32_t ecn) {
  lfc_word_t w;
  memset(&w, 0, sizeof w);
  w.kind = LFC_DATA;
  w.sop = (uint8_t)sop;
  w.eop = (uint8_t)eop;
  w.cls = (uint8_t)cls;
  w.nblk = (uint8_t)nblk;
  w.dst = (uint16_t)dst;
  w.tag = tag;
  w.ecn = (uint8_t)ecn;
  return w;
}

uint64_t tu_pkt(tu_t *t, uint32_t port, uint32_t cls, uint32_t nblk, uint32_t dst, uint32_t tag,
                uint32_t ecn) {
  uint64_t first = 0;
  if (nblk == 0) fail_msg("testutil: tu_pkt with nblk 0 (use tu_word for malformed input)");
  for (uint32_t i = 0; i < nblk; i++) {
    lfc_word_t w = tu_data_word(i == 0, i == nblk - 1, cls, nblk, dst, tag, ecn);
    uint64_t c = tu_word(t, port, &w);
    if (i == 0) first = c;
  }
  return first;
}

uint64_t tu_fcp_op(tu_t *t, uint32_t port, uint32_t op, uint32_t vl, uint32_t fctbs,
                   uint32_t fccl) {
  lfc_word_t w;
  memset(&w, 0, sizeof w);
  w.kind = LFC_FCP;
  w.fc_op = (uint8_t)op;
  w.fc_vl = (uint8_t)vl;
  w.fc_fctbs = (uint16_t)(fctbs & 0xFFFu);
  w.fc_fccl = (uint16_t)(fccl & 0xFFFu);
  return tu_word(t, port, &w);
}

uint64_t tu_fcp(tu_t *t, uint32_t port, uint32_t vl, uint32_t fctbs, uint32_t fccl) {
  return tu_fcp_op(t, port, LFC_FCP_OP_NORMAL, vl, fctbs, fccl);
}

uint64_t tu_pfc(tu_t *t, uint32_t port, uint32_t en, uint32_t quanta) {
  lfc_word_t w;
  memset(&w, 0, sizeof w);
  w.kind = LFC_PFC;
  w.pfc_en = (uint8_t)en;
  for (uint32_t c = 0; c < LFC_PFC_MAX_PRIOS; c++) {
    if (en & (1u << c)) w.pfc_time[c] = (uint16_t)quanta;
  }
  return tu_word(t, port, &w);
}

/* ---- Running ---- */

void tu_step(tu_t *t) {
  uint64_t now = tu_now(t);
  lfc_word_t in[LFC_MAX_PORTS];
  lfc_word_t out[LFC_MAX_PORTS];
  memset(in, 0, sizeof in);
  memset(out, 0, sizeof out);
  for (uint32_t p = 0; p < t->ports; p++) {
    tu_inq_t *q = &t->in[p];
    if (q->head < q->n) {
      if (q->v[q->head].cycle < now) {
        fail_msg("testutil: input word of port %u for cycle %llu was never sent", p,
                 (unsigned long long)q->v[q->head].cycle);
      }
      if (q->v[q->head].cycle == now) {
        in[p] = q->v[q->head].w;
        q->head++;
      }
    }
  }
  lfc_switch_step(t->sw, in, out);
  for (uint32_t p = 0; p < t->ports; p++) {
    t->last_out[p] = out[p];
    if (out[p].kind != LFC_IDLE) {
      t->out = tu_grow(t->out, &t->capout, t->nout + 1, sizeof *t->out);
      t->out[t->nout].cycle = now;
      t->out[t->nout].port = p;
      t->out[t->nout].w = out[p];
      t->nout++;
    }
  }
  const lfc_event_t *ev = NULL;
  size_t n = lfc_switch_events(t->sw, &ev);
  if (n > 0) {
    t->ev = tu_grow(t->ev, &t->capev, t->nev + n, sizeof *t->ev);
    for (size_t i = 0; i < n; i++) {
      t->ev[t->nev].cycle = now;
      t->ev[t->nev].ev = ev[i];
      t->nev++;
    }
  }
}

void tu_run(tu_t *t, uint64_t cycles) {
  for (uint64_t i = 0; i < cycles; i++) tu_step(t);
}

void tu_run_to(tu_t *t, uint64_t cycle) {
  while (tu_now(t) < cycle) tu_step(t);
}

/* ---- Outputs ---- */

lfc_word_t tu_out_at(const tu_t *t, uint32_t port, uint64_t cycle) {
  /* The log is in cycle order: binary search for the first record of `cycle`. */
  size_t lo = 0, hi = t->nout;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (t->out[mid].cycle < cycle) lo = mid + 1;
    else hi = mid;
  }
  for (size_t i = lo; i < t->nout && t->out[i].cycle == cycle; i++) {
    if (t->out[i].port == port) return t->out[i].w;
  }
  lfc_word_t idle;
  memset(&idle, 0, sizeof idle);
  return idle;
}

const tu_out_t *tu_find(const tu_t *t, uint32_t port, uint32_t kind, uint64_t from) {
  for (size_t i = 0; i < t->nout; i++) {
    const tu_out_t *o = &t->out[i];
    if (o->cycle >= from && o->port == port && o->w.kind == kind) return o;
  }
  return NULL;
}

const tu_out_t *tu_find_sop(const tu_t *t, uint32_t port, uint32_t tag) {
  for (size_t i = 0; i < t->nout; i++) {
    const tu_out_t *o = &t->out[i];
    if (o->port == port && o->w.kind == LFC_DATA && o->w.sop && o->w.tag == tag) return o;
  }
  return NULL;
}

size_t tu_count_out(const tu_t *t, uint32_t port, uint32_t kind, uint64_t from, uint64_t to) {
  size_t n = 0;
  for (size_t i = 0; i < t->nout; i++) {
    const tu_out_t *o = &t->out[i];
    if (o->port == port && o->w.kind == kind && o->cycle >= from && o->cycle < to) n++;
  }
  return n;
}

size_t tu_sops(const tu_t *t, uint32_t port, uint64_t from, const tu_out_t **v, size_t max) {
  size_t n = 0;
  for (size_t i = 0; i < t->nout; i++) {
    const tu_out_t *o = &t->out[i];
    if (o->port == port && o->cycle >= from && o->w.kind == LFC_DATA && o->w.sop) {
      if (n < max) v[n] = o;
      n++;
    }
  }
  return n;
}

/* ---- Events ---- */

static bool tu_ev_match(const tu_ev_t *e, int kind, int port, int cls, int cause) {
  if (e->ev.kind != kind) return false;
  if (port >= 0 && e->ev.port != port) return false;
  if (cls >= 0 && e->ev.cls != cls) return false;
  if (cause >= 0 && e->ev.cause != cause) return false;
  return true;
}

size_t tu_count_ev(const tu_t *t, int kind, int port, int cls, int cause) {
  size_t n = 0;
  for (size_t i = 0; i < t->nev; i++) n += tu_ev_match(&t->ev[i], kind, port, cls, cause);
  return n;
}

const tu_ev_t *tu_find_ev(const tu_t *t, int kind, int port, int cls, int cause) {
  for (size_t i = 0; i < t->nev; i++) {
    if (tu_ev_match(&t->ev[i], kind, port, cls, cause)) return &t->ev[i];
  }
  return NULL;
}

size_t tu_count_ev_last(const tu_t *t, int kind, int port, int cls) {
  uint64_t now = tu_now(t);
  if (now == 0) return 0;
  size_t n = 0;
  for (size_t i = t->nev; i-- > 0 && t->ev[i].cycle == now - 1;) {
    n += tu_ev_match(&t->ev[i], kind, port, cls, -1);
  }
  return n;
}

/* ---- Registers and counters ---- */

size_t tu_reg_idx(const char *name) {
  int idx = lfc_reg_find(name);
  if (idx < 0) fail_msg("testutil: the model has no register named \"%s\"", name);
  return (size_t)idx;
}

uint64_t tu_reg(const tu_t *t, const char *name, uint32_t port, uint32_t cls) {
  return lfc_switch_reg(t->sw, tu_reg_idx(name), port, cls);
}

const lfc_port_stats_t *tu_stats(const tu_t *t, uint32_t port) {
  tu_check_port(t, port);
  return lfc_switch_stats(t->sw, port);
}

void tu_dump(const tu_t *t, uint32_t port, uint64_t from, uint64_t to) {
  char buf[160];
  for (size_t i = 0; i < t->nout; i++) {
    const tu_out_t *o = &t->out[i];
    if (o->port == port && o->cycle >= from && o->cycle < to) {
      printf("  t=%llu p%u %s\n", (unsigned long long)o->cycle, port,
             lfc_word_format(&o->w, buf, sizeof buf));
    }
  }
}

uint32_t tu_rand(uint32_t *s) {
  uint32_t x = *s;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *s = x;
}
