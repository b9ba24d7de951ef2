/*
 * results.c - the summary, percentiles and the human-readable report on stdout.
 */
#include "results.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h" /* cli_sort_t */

#define BITS_PER_BYTE 8.0
#define NS_PER_US 1000.0
#define PCT 100.0
#define KIB 1024.0
#define RECEIVERS_SHOWN 8u /* receivers named on their line, the busiest first */

uint64_t results_flow_latency(const flow_t *f, double p) { return latsum_pct(&f->lat, p); }

uint64_t results_hop_latency(const flow_t *f, uint32_t hop, double p) {
  return latsum_pct(&f->hlat[hop], p);
}

void results_group(const sim_t *sim, uint32_t group, group_result_t *r) {
  const sc_group_t *g = &sim_scenario(sim)->groups[group];
  uint64_t start = sc_us_to_cycles(sim_scenario(sim), g->start_us), end = 0;
  memset(r, 0, sizeof *r);
  r->complete = 1;
  for (uint32_t i = 0; i < sim_flows(sim)->n; i++) {
    const flow_t *f = &sim_flows(sim)->f[i];
    if (f->group != group) continue;
    r->flows++;
    if (f->done_cycle == SIM_NEVER) r->complete = 0;
    else if (f->done_cycle > end) end = f->done_cycle;
  }
  if (r->flows == 0) r->complete = 0;
  r->time_us = end > start ? (double)(end - start) * sim_cycle_ns(sim) / 1000.0 : 0.0;
  if (g->pattern == PAT_DDP)
    r->mfu = r->time_us > 0 ? g->steps * sc_group_compute_us(g) / r->time_us : 0.0;
  else
    r->mfu = g->compute_us > 0 ? g->compute_us / (g->compute_us + r->time_us) : 0.0;
}

typedef struct {
  uint64_t a, b;
} span_t;

static int by_span(const void *x, const void *y) {
  const span_t *p = x, *q = y;
  if (p->a != q->a) return p->a < q->a ? -1 : 1;
  return p->b < q->b ? -1 : p->b > q->b;
}

static int by_double(const void *x, const void *y) {
  const double p = *(const double *)x, q = *(const double *)y;
  return p < q ? -1 : p > q;
}

/* Nearest rank (as latsum.h): the ceil(p/100 x n)-th smallest of n sorted values. */
static double nearest_rank(const double *v, uint32_t n, double p) {
  uint32_t k = (uint32_t)ceil(p / PCT * n);
  return v[k > 0 ? k - 1u : 0];
}

int results_ddp(const sim_t *sim, uint32_t group, ddp_result_t *r) {
  const sc_group_t *g = &sim_scenario(sim)->groups[group];
  memset(r, 0, sizeof *r);
  r->compute_us = sc_group_compute_us(g);
  if (g->pattern != PAT_DDP) return 0;
  uint32_t n = 0;
  for (uint32_t i = 0; i < sim_flows(sim)->n; i++) n += sim_flows(sim)->f[i].group == group;
  span_t *sp = malloc((size_t)(n ? n : 1u) * sizeof *sp);
  double *t = malloc((size_t)g->steps * sizeof *t);
  r->step = calloc(g->steps, sizeof *r->step);
  if (!sp || !t || !r->step) {
    free(sp);
    free(t);
    results_ddp_free(r);
    return -1;
  }
  r->nsteps = g->steps;
  uint64_t prev = sc_us_to_cycles(sim_scenario(sim), g->start_us);
  /* flows are made step after step (traffic.c ddp_flows): one pass, step by step */
  uint32_t i = 0;
  for (uint32_t s = 0; s < g->steps; s++) {
    uint32_t m = 0;
    int done = 1;
    uint64_t end = 0;
    for (; i < sim_flows(sim)->n; i++) {
      const flow_t *f = &sim_flows(sim)->f[i];
      if (f->group != group) continue;
      if (f->step != s) break;
      if (f->done_cycle == SIM_NEVER) {
        done = 0;
        continue;
      }
      sp[m++] = (span_t){f->start, f->done_cycle};
      if (f->done_cycle > end) end = f->done_cycle;
    }
    step_result_t *st = &r->step[s];
    if (!done || (s > 0 && !r->step[s - 1].complete)) continue;
    qsort(sp, m, sizeof *sp, by_span);
    uint64_t busy = 0, a = 0, b = 0;
    for (uint32_t k = 0; k < m; k++) { /* the union of the intervals */
      if (k == 0 || sp[k].a > b) {
        busy += b - a;
        a = sp[k].a;
        b = sp[k].b;
      } else if (sp[k].b > b) {
        b = sp[k].b;
      }
    }
    busy += b - a;
    st->complete = 1;
    st->end_us = (double)end * sim_cycle_ns(sim) / NS_PER_US;
    st->time_us = end > prev ? (double)(end - prev) * sim_cycle_ns(sim) / NS_PER_US : 0.0;
    st->comm_us = (double)busy * sim_cycle_ns(sim) / NS_PER_US;
    st->exposed_us = st->time_us - r->compute_us;
    st->mfu = st->time_us > 0 ? r->compute_us / st->time_us : 0.0;
    t[r->ncomplete++] = st->time_us;
    prev = end;
  }
  if (r->ncomplete > 0) {
    qsort(t, r->ncomplete, sizeof *t, by_double);
    r->time_p50_us = nearest_rank(t, r->ncomplete, 50);
    r->time_p99_us = nearest_rank(t, r->ncomplete, 99);
    r->time_max_us = t[r->ncomplete - 1u];
  }
  free(sp);
  free(t);
  return 0;
}

void results_ddp_free(ddp_result_t *r) {
  free(r->step);
  r->step = NULL;
  r->nsteps = r->ncomplete = 0;
}

void results_summary(const sim_t *sim, const deadlock_t *dl, double wall, summary_t *sum) {
  memset(sum, 0, sizeof *sum);
  sum->sim_cycles = sim_end(sim);
  sum->sim_us = (double)sim_end(sim) * sim_cycle_ns(sim) / 1000.0;
  sum->wall_seconds = wall;
  sum->delivered_bytes = sim_delivered_bytes(sim);
  const topo_t *t = sim_topo(sim);
  for (uint32_t d = 0; d < t->nnodes; d++) {
    if (d >= t->nsw) { /* an end node: a host or an aggregation engine */
      const lfc_nic_stats_t *st = lfc_nic_stats(sim_nic(sim, d));
      sum->pause_frames += st->pfc_tx;
      for (uint32_t c = 0; c < LFC_DROP_CAUSES; c++) sum->nic_drops += st->drop_pkts[c];
      sum->host_paused_cycles += st->paused_cycles;
      sum->host_credit_blocked_cycles += st->credit_blocked_cycles;
      continue;
    }
    for (uint32_t p = 0; p < t->nports[d]; p++) {
      lfc_port_stats_t st_buf;
      const lfc_port_stats_t *st = sim_port_stats(sim, d, p, &st_buf);
      sum->pause_frames += st->pfc_tx;
      for (uint32_t c = 0; c < LFC_MAX_CLASSES; c++) {
        const lfc_class_stats_t *cs = &st->cls[c];
        for (uint32_t k = 0; k < LFC_DROP_CAUSES; k++) sum->drops_by_cause[k] += cs->drop_pkts[k];
        sum->ecn_marks += cs->ecn_mark;
        sum->wd_trips += cs->wd_trip;
        sum->credit_blocked_cycles += cs->credit_blocked_cycles;
        sum->paused_cycles += cs->paused_cycles;
      }
    }
  }
  for (uint32_t k = 0; k < LFC_DROP_CAUSES; k++) sum->drops += sum->drops_by_cause[k];
  sum->drops += sum->nic_drops;
  sum->paused_cycles += sum->host_paused_cycles;
  sum->credit_blocked_cycles += sum->host_credit_blocked_cycles;
  sum->flows = sim_flows(sim)->n;
  for (uint32_t i = 0; i < sim_flows(sim)->n; i++) {
    const flow_t *f = &sim_flows(sim)->f[i];
    sum->offered_bytes += f->offered_bytes;
    sum->wire_bytes += f->wire_bytes;
    sum->out_of_order += f->out_of_order;
    sum->out_of_order_flows += f->out_of_order > 0;
    if (f->done_cycle == SIM_NEVER) continue;
    sum->flows_done++;
    if (f->done_cycle > sum->max_fct_cycle) sum->max_fct_cycle = f->done_cycle;
  }
  sum->deadlock = dl->found;
  sum->deadlock_cycle = dl->found ? dl->found_cycle : 0;
}

double results_flow_gbps(const sim_t *sim, const flow_t *f) {
  const uint64_t t0 = f->first_tx == SIM_NEVER ? 0 : f->first_tx;
  const uint64_t t1 = f->done_cycle != SIM_NEVER ? f->done_cycle : sim_end(sim);
  return t1 > t0 ? (double)f->rx_bytes * BITS_PER_BYTE / ((double)(t1 - t0) * sim_cycle_ns(sim))
                 : 0.0;
}

double results_jain(const sim_t *sim, uint32_t *n) {
  double sum = 0.0, sq = 0.0;
  *n = 0;
  for (uint32_t i = 0; i < sim_flows(sim)->n; i++) {
    const flow_t *f = &sim_flows(sim)->f[i];
    if (f->first_tx == SIM_NEVER) continue;
    const double x = results_flow_gbps(sim, f);
    sum += x;
    sq += x * x;
    (*n)++;
  }
  return *n > 0 && sq > 0.0 ? sum * sum / ((double)*n * sq) : 0.0;
}

/* Bytes with a binary unit beside them: "3022848 bytes (2.88 MiB)". */
static const char *bytes_text(uint64_t b, char *buf, size_t len) {
  if (b < KIB)
    snprintf(buf, len, "%llu bytes", (unsigned long long)b);
  else if (b < KIB * KIB)
    snprintf(buf, len, "%llu bytes (%.2f KiB)", (unsigned long long)b, (double)b / KIB);
  else if (b < KIB * KIB * KIB)
    snprintf(buf, len, "%llu bytes (%.2f MiB)", (unsigned long long)b, (double)b / (KIB * KIB));
  else
    snprintf(buf, len, "%llu bytes (%.2f GiB)", (unsigned long long)b,
             (double)b / (KIB * KIB * KIB));
  return buf;
}

/* Per receiving host: what its flows delivered over the run, against its link's line rate. */
typedef struct {
  uint32_t host;
  uint64_t bytes;
} receiver_t;

static int by_bytes_desc(const void *a, const void *b) {
  const receiver_t *x = a, *y = b;
  if (x->bytes != y->bytes) return x->bytes < y->bytes ? 1 : -1;
  return x->host < y->host ? -1 : x->host > y->host;
}

static void print_receivers(FILE *o, const sim_t *sim) {
  const uint32_t nh = sim_topo(sim)->nhosts;
  receiver_t *r = nh > 0 ? calloc(nh, sizeof *r) : NULL;
  if (r == NULL || sim_end(sim) == 0) {
    free(r);
    return;
  }
  for (uint32_t h = 0; h < nh; h++) r[h].host = h;
  for (uint32_t i = 0; i < sim_flows(sim)->n; i++) {
    const flow_t *f = &sim_flows(sim)->f[i];
    if (f->dst != FLOW_ANY_DST && f->dst < nh) r[f->dst].bytes += f->rx_bytes;
  }
  qsort(r, nh, sizeof *r, by_bytes_desc);
  const double run_ns = (double)sim_end(sim) * sim_cycle_ns(sim);
  const double line = sim_scenario(sim)->host_speed_gbps;
  uint32_t shown = 0;
  for (uint32_t h = 0; h < nh && shown < RECEIVERS_SHOWN && r[h].bytes > 0; h++, shown++) {
    char n[64];
    const double gbps = (double)r[h].bytes * BITS_PER_BYTE / run_ns;
    fprintf(o, "%s %s %.2f Gb/s (%.1f %% of %g)", shown ? "," : "  receivers  ",
            topo_name(sim_topo(sim), sim_topo(sim)->nsw + r[h].host, n, sizeof n), gbps,
            line > 0 ? PCT * gbps / line : 0.0, line);
  }
  if (shown) {
    uint32_t more = 0;
    for (uint32_t h = shown; h < nh; h++) more += r[h].bytes > 0;
    fprintf(o, "%s; over the whole run, of the host link's Gb/s\n",
            more ? " ..." : "");
  }
  free(r);
}

#define STEPS_SHOWN 16u /* step lines of a ddp group on stdout; --json has every step */

static void print_steps(FILE *o, const sim_t *sim, uint32_t gi) {
  ddp_result_t d;
  if (results_ddp(sim, gi, &d) != 0) return;
  for (uint32_t s = 0; s < d.nsteps && s < STEPS_SHOWN; s++) {
    const step_result_t *st = &d.step[s];
    if (!st->complete) {
      fprintf(o, "    step %-4u not complete at the end\n", s);
      break;
    }
    fprintf(o, "    step %-4u %.3f us, communication %.3f us, exposed %.3f us, MFU %.3f\n", s,
            st->time_us, st->comm_us, st->exposed_us, st->mfu);
  }
  if (d.nsteps > STEPS_SHOWN && d.step[STEPS_SHOWN - 1u].complete)
    fprintf(o, "    ... %u more steps (every step is in --json)\n", d.nsteps - STEPS_SHOWN);
  if (d.ncomplete > 0)
    fprintf(o, "    step time p50 %.3f us, p99 %.3f us, max %.3f us over %u complete steps\n",
            d.time_p50_us, d.time_p99_us, d.time_max_us, d.ncomplete);
  results_ddp_free(&d);
}

static void print_groups(FILE *o, const sim_t *sim) {
  const lfc_scenario_t *sc = sim_scenario(sim);
  for (uint32_t gi = 0; gi < sc->ngroups; gi++) {
    group_result_t r;
    results_group(sim, gi, &r);
    if (r.flows < 2u && sc->groups[gi].compute_us <= 0) continue; /* a single flow: its row */
    fprintf(o, "  group %-10s %s, %u flows, ", sc->groups[gi].name,
            sc_pattern_name(sc->groups[gi].pattern), r.flows);
    if (r.complete)
      fprintf(o, "complete in %.3f us", r.time_us);
    else
      fprintf(o, "not complete at the end");
    const sc_group_t *g = &sc->groups[gi];
    if (r.complete && g->pattern != PAT_DDP && g->compute_us > 0)
      fprintf(o, ", MFU %.3f (compute %.3f us, then the communication)", r.mfu, g->compute_us);
    if (g->pattern == PAT_DDP) {
      if (r.complete)
        fprintf(o, ", MFU %.3f", r.mfu);
      fprintf(o, " (%u steps of %.3f us compute; %s all-reduce of %u buckets x %llu bytes, %s)\n",
              g->steps, sc_group_compute_us(g), sc_collective_name(g->collective), g->buckets,
              (unsigned long long)g->bucket_bytes,
              g->overlap ? "released during backward" : "after backward");
      print_steps(o, sim, gi);
      continue;
    }
    fprintf(o, "\n");
  }
}

/* The flow table's sort key for a flow (larger first), per cli_sort_t. */
typedef struct {
  const sim_t *sim;
  int sort;
} sort_ctx_t;
static _Thread_local sort_ctx_t sort_ctx;

static double sort_key(const flow_t *f) {
  const sim_t *sim = sort_ctx.sim;
  switch (sort_ctx.sort) {
  case CLI_SORT_BYTES: return (double)f->rx_bytes;
  case CLI_SORT_GBPS: return results_flow_gbps(sim, f);
  case CLI_SORT_FCT: return f->done_cycle == SIM_NEVER ? INFINITY : (double)(f->done_cycle - f->start);
  case CLI_SORT_P99: return f->rx_pkts ? (double)results_flow_latency(f, 99) : -1.0;
  default: return 0.0;
  }
}

static int by_key(const void *a, const void *b) {
  const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  const double kx = sort_key(&sim_flows(sort_ctx.sim)->f[x]), ky = sort_key(&sim_flows(sort_ctx.sim)->f[y]);
  if (kx != ky) return kx < ky ? 1 : -1;
  return x < y ? -1 : x > y; /* ties by id: the same order on every run */
}

static void print_flows(FILE *o, const sim_t *sim, const results_view_t *v) {
  const uint32_t n = sim_flows(sim)->n;
  if (n == 0) return;
  const uint32_t show = v->rows == 0 || v->rows > n ? n : v->rows;
  uint32_t *order = malloc((size_t)n * sizeof *order);
  if (order == NULL) return;
  for (uint32_t i = 0; i < n; i++) order[i] = i;
  if (v->sort != CLI_SORT_ID) {
    sort_ctx = (sort_ctx_t){sim, v->sort};
    qsort(order, n, sizeof *order, by_key);
  }
  const double line = sim_scenario(sim)->host_speed_gbps;
  fprintf(o, "  flow group      src -> dst  cls      bytes   Gb/s  %%line     fct_us  lat_p50_ns  "
             "lat_p99_ns\n");
  for (uint32_t k = 0; k < show; k++) {
    const uint32_t i = order[k];
    const flow_t *f = &sim_flows(sim)->f[i];
    char src[32], dst[32];
    topo_name(sim_topo(sim), sim_topo(sim)->nsw + f->src, src, sizeof src);
    if (f->dst == FLOW_ANY_DST)
      snprintf(dst, sizeof dst, "any");
    else
      topo_name(sim_topo(sim), sim_topo(sim)->nsw + f->dst, dst, sizeof dst);
    /* a flow still running at the end has no completion time (null in --json) */
    char fct[24] = "running";
    if (f->done_cycle != SIM_NEVER)
      snprintf(fct, sizeof fct, "%.3f", (double)(f->done_cycle - f->start) * sim_cycle_ns(sim) /
                                            NS_PER_US);
    const double gbps = results_flow_gbps(sim, f);
    fprintf(o, "  %4u %-9.9s %4s -> %-4s %3u %10llu %6.2f %6.1f %10s ", i,
            sim_scenario(sim)->groups[f->group].name, src, dst, f->cls, (unsigned long long)f->rx_bytes, gbps,
            line > 0 ? PCT * gbps / line : 0.0, fct);
    if (f->rx_pkts == 0)
      fprintf(o, "%23s\n", f->first_tx == SIM_NEVER ? "not started" : "nothing delivered");
    else
      fprintf(o, "%11.1f %11.1f\n", (double)results_flow_latency(f, 50) * sim_cycle_ns(sim),
              (double)results_flow_latency(f, 99) * sim_cycle_ns(sim));
  }
  if (n > show)
    fprintf(o, "  ... %u more flows (--flows 0 shows all; every flow is in --json)\n", n - show);
  free(order);
}

void results_print(FILE *o, const sim_t *sim, const deadlock_t *dl, const summary_t *s,
                   const results_view_t *view) {
  const lfc_scenario_t *sc = sim_scenario(sim);
  fprintf(o, "lfc-sim %s: %s, %u switches, %u hosts, %s mode, %.2f ns/cycle\n", sc->file,
          sc_topo_name(sc->topo), sim_topo(sim)->nsw, sim_topo(sim)->nhosts,
          sc->sw[0].mode == LFC_MODE_IB ? "IB credit" : "PFC", sim_cycle_ns(sim));
  fprintf(o, "  simulated   %llu cycles (%.3f us) in %.3f s wall\n",
          (unsigned long long)s->sim_cycles, s->sim_us, s->wall_seconds);
  char b1[64], b2[64];
  fprintf(o, "  offered     %s to the NICs, %s put on the wire\n",
          bytes_text(s->offered_bytes, b1, sizeof b1), bytes_text(s->wire_bytes, b2, sizeof b2));
  fprintf(o, "  delivered   %s; flows complete %llu of %llu",
          bytes_text(s->delivered_bytes, b1, sizeof b1), (unsigned long long)s->flows_done,
          (unsigned long long)s->flows);
  if (s->flows_done) fprintf(o, ", last at %.3f us", (double)s->max_fct_cycle * sim_cycle_ns(sim) / 1000.0);
  fprintf(o, "\n  drops       %llu (", (unsigned long long)s->drops);
  for (uint32_t k = 0; k < LFC_DROP_CAUSES; k++)
    fprintf(o, "%s %llu, ", lfc_drop_cause_name((lfc_drop_cause_t)k),
            (unsigned long long)s->drops_by_cause[k]);
  fprintf(o, "at hosts %llu)\n", (unsigned long long)s->nic_drops);
  fprintf(o, "  pause frames %llu, ECN marks %llu, watchdog trips %llu\n",
          (unsigned long long)s->pause_frames, (unsigned long long)s->ecn_marks,
          (unsigned long long)s->wd_trips);
  fprintf(o, "  paused queue-cycles %llu (at hosts %llu), credit-starved queue-cycles %llu (at hosts "
             "%llu)\n",
          (unsigned long long)s->paused_cycles, (unsigned long long)s->host_paused_cycles,
          (unsigned long long)s->credit_blocked_cycles,
          (unsigned long long)s->host_credit_blocked_cycles);
  fprintf(o, "  routing     %s, %s; %llu packets delivered out of order (in %llu flows)\n",
          sc->route == ROUTE_UPDOWN ? "up*/down*" : "shortest paths",
          sc->adaptive ? "adaptive per packet at every switch" : "ECMP hash per flow",
          (unsigned long long)s->out_of_order, (unsigned long long)s->out_of_order_flows);
  if (s->deadlock) {
    char n[64];
    fprintf(o, "  DEADLOCK formed at cycle %llu (%.3f us):", (unsigned long long)s->deadlock_cycle,
            (double)s->deadlock_cycle * sim_cycle_ns(sim) / 1000.0);
    for (uint32_t i = 0; i < dl->ncyc; i++)
      fprintf(o, " %s(%s p%u c%u)", i ? "->" : "", topo_name(sim_topo(sim), dl->cyc[i].sw, n, sizeof n),
              dl->cyc[i].port, dl->cyc[i].cls);
    fprintf(o, "\n");
  } else {
    fprintf(o, "  no deadlock\n");
  }
  if (sim_errors(sim))
    fprintf(o, "  SCOREBOARD ERRORS %llu: %s\n", (unsigned long long)sim_errors(sim), sim_error(sim));
  print_receivers(o, sim);
  uint32_t nj;
  const double jain = results_jain(sim, &nj);
  if (nj > 1)
    fprintf(o, "  fairness    Jain's index %.3f over the %u flows' Gb/s (1 = equal shares)\n", jain,
            nj);
  print_groups(o, sim);
  print_flows(o, sim, view);
}
