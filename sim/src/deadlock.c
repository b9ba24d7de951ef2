/*
 * deadlock.c - wait-for graph cycles among blocked egress queues (deadlock.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "deadlock.h"

#include <stdlib.h>
#include <string.h>

#include "outfile.h"

int deadlock_init(deadlock_t *dl, const lfc_scenario_t *sc, const sim_view_t *view, char *err,
                  size_t errlen) {
  memset(dl, 0, sizeof *dl);
  dl->view = *view;
  dl->stop_on_deadlock = sc->stop_on_deadlock;
  size_t n = SIM_NQ(view);
  dl->nq = n;
  dl->cyc = calloc(n, sizeof *dl->cyc);
  dl->color = calloc(n, 1);
  dl->stack = calloc(n, sizeof *dl->stack);
  dl->need = calloc(n, sizeof *dl->need);
  dl->touched = calloc(n, sizeof *dl->touched);
  dl->first_seen = DL_NONE;
  dl->persist = sc_ns_to_cycles(sc, sc->deadlock_us * 1000.0);
  if (!dl->cyc || !dl->color || !dl->stack || !dl->need || !dl->touched) {
    snprintf(err, errlen, "deadlock detector: out of memory (%zu queues)", n);
    return -1;
  }
  return 0;
}

void deadlock_free(deadlock_t *dl) {
  free(dl->cyc);
  free(dl->color);
  free(dl->stack);
  free(dl->need);
  free(dl->touched);
  memset(dl, 0, sizeof *dl);
}

/* ---- What each switch's input (port, class) holds: the egress ports its packets take ---- */

/* view.each_held: a packet held at switch sw, in on in_port in class cls, leaves by the port
 * its route table gives for dst (SPEC §7.1; the same table the switch has, explicit paths and
 * ECMP choice included: the choice is part of dst). */
static void on_held(void *ctx, uint32_t sw, uint32_t in_port, uint32_t cls, uint16_t dst) {
  deadlock_t *dl = ctx;
  if (sw >= dl->view.nsw || cls >= dl->view.qclasses) return; /* not routed here */
  uint32_t out = dl->view.route(dl->view.ctx, sw, dst);
  if (out >= LFC_MAX_PORTS) return;
  size_t i = SIM_QIDX(&dl->view, sw, in_port, cls);
  if (dl->need[i] == 0) dl->touched[dl->ntouched++] = (uint32_t)i;
  dl->need[i] |= 1ull << out;
}

static void need_build(deadlock_t *dl, uint64_t cycle) {
  dl->view.each_held(dl->view.ctx, cycle, on_held, dl);
}

static void need_clear(deadlock_t *dl) {
  for (uint32_t i = 0; i < dl->ntouched; i++) dl->need[dl->touched[i]] = 0;
  dl->ntouched = 0;
}

/* The queues queue q waits for: the next switch's egress queues (*n, port bit of the result,
 * class *c2) that hold packets which came in over q's cable in q's class after the cable's class
 * map, i.e. the occupants of the buffer that stops q. 0 if q's cable leads to no switch. */
static uint64_t waits_for(const deadlock_t *dl, size_t q, uint32_t *n_out, uint32_t *c2_out) {
  const sim_view_t *v = &dl->view;
  uint32_t s = (uint32_t)(q / ((size_t)v->qports * v->qclasses));
  uint32_t p = (uint32_t)(q / v->qclasses % v->qports), c = (uint32_t)(q % v->qclasses);
  uint32_t n, pp, c2;
  if (!v->next_hop(v->ctx, s, p, c, &n, &pp, &c2)) return 0;
  *n_out = n;
  *c2_out = c2;
  if (c2 >= v->qclasses) return 0; /* a class no switch holds a packet in: nothing waits */
  return dl->need[SIM_QIDX(v, n, pp, c2)];
}

/* Depth-first search for a cycle among blocked queues; fills dl->cyc. */
typedef struct {
  deadlock_t *dl;
  const uint8_t *blocked;
  uint8_t *color; /* 0 white, 1 on stack, 2 done */
  size_t *stack;
  uint32_t depth;
} dfs_t;

static int dfs(dfs_t *x, size_t q) {
  x->color[q] = 1;
  x->stack[x->depth++] = q;
  uint32_t n = 0, c2 = 0;
  /* the queues q waits for, in port order */
  for (uint64_t m = waits_for(x->dl, q, &n, &c2); m != 0; m &= m - 1u) {
    size_t q2 = SIM_QIDX(&x->dl->view, n, (uint32_t)__builtin_ctzll(m), c2);
    if (!x->blocked[q2]) continue;
    if (x->color[q2] == 1) { /* found: the stack from q2 up */
      uint32_t i = x->depth;
      while (i > 0 && x->stack[i - 1] != q2) i--;
      x->dl->ncyc = 0;
      for (uint32_t j = i - 1; j < x->depth; j++) {
        size_t z = x->stack[j];
        const sim_view_t *v = &x->dl->view;
        x->dl->cyc[x->dl->ncyc++] = (dl_queue_t){(uint32_t)(z / ((size_t)v->qports * v->qclasses)),
                                                 (uint32_t)(z / v->qclasses % v->qports),
                                                 (uint32_t)(z % v->qclasses)};
      }
      return 1;
    }
    if (x->color[q2] == 0 && dfs(x, q2)) return 1;
  }
  x->depth--;
  x->color[q] = 2;
  return 0;
}

static size_t qidx(const deadlock_t *dl, const dl_queue_t *x) {
  return SIM_QIDX(&dl->view, x->sw, x->port, x->cls);
}

/* The watched cycle is still one: every queue blocked, and waiting for the next. */
static int still_cycle(const deadlock_t *dl, const uint8_t *blocked) {
  for (uint32_t i = 0; i < dl->ncyc; i++) {
    const dl_queue_t *y = &dl->cyc[(i + 1) % dl->ncyc];
    uint32_t n = 0, c2 = 0;
    uint64_t m = waits_for(dl, qidx(dl, &dl->cyc[i]), &n, &c2);
    if (!blocked[qidx(dl, &dl->cyc[i])] || n != y->sw || c2 != y->cls || !((m >> y->port) & 1u))
      return 0;
  }
  return dl->ncyc > 0;
}

void deadlock_check(deadlock_t *dl, uint64_t cycle, const uint8_t *blocked) {
  if (dl->found) return;
  if (memchr(blocked, 1, dl->nq) == NULL) { /* no queue blocked: no cycle (the common case) */
    dl->first_seen = DL_NONE;
    dl->ncyc = 0;
    return;
  }
  need_build(dl, cycle);
  if (dl->first_seen != DL_NONE && still_cycle(dl, blocked)) {
    if (cycle - dl->first_seen >= dl->persist) {
      dl->found = 1;
      dl->found_cycle = dl->first_seen;
      if (dl->stop_on_deadlock) dl->view.stop(dl->view.ctx);
    }
    need_clear(dl);
    return;
  }
  dl->first_seen = DL_NONE;
  dl->ncyc = 0;
  memset(dl->color, 0, dl->nq);
  dfs_t x = {dl, blocked, dl->color, dl->stack, 0};
  for (size_t q = 0; q < dl->nq; q++)
    if (blocked[q] && x.color[q] == 0 && dfs(&x, q)) {
      dl->first_seen = cycle;
      break;
    }
  need_clear(dl);
}

int deadlock_dot(const deadlock_t *dl, const char *path, char *err, size_t errlen) {
  outfile_t o;
  if (outfile_open(&o, path, err, errlen) != 0) return -1;
  FILE *f = o.f;
  char a[64], b[64];
  fprintf(f, "digraph deadlock {\n  label=\"wait-for cycle formed at cycle %llu (%.3f us)\";\n"
             "  node [shape=box, style=filled, fillcolor=\"#f4cccc\"];\n",
          (unsigned long long)dl->found_cycle, (double)dl->found_cycle * dl->view.cycle_ns / 1000.0);
  for (uint32_t i = 0; i < dl->ncyc; i++) {
    const dl_queue_t *x = &dl->cyc[i], *y = &dl->cyc[(i + 1) % dl->ncyc];
    fprintf(f, "  \"%s p%u c%u\" -> \"%s p%u c%u\" [label=\"waits for\"];\n",
            dl->view.name(dl->view.ctx, x->sw, a, sizeof a), x->port, x->cls,
            dl->view.name(dl->view.ctx, y->sw, b, sizeof b), y->port, y->cls);
  }
  fprintf(f, "}\n");
  return outfile_close(&o, err, errlen);
}
