/*
 * results.c - the summary, percentiles and the human-readable report on stdout.
 */
#include "results.h"

#include <math.h>
#include <string.h>

uint64_t results_flow_latency(const flow_t *f, double p) { return latsum_pct(&f->lat, p); }

uint64_t results_hop_latency(const flow_t *f, uint32_t hop, double p) {
  return latsum_pct(&f->hlat[hop], p);
}

void results_group(const sim_t *sim, uint32_t group, group_result_t *r) {
  const sc_group_t *g = &sim->sc->groups[group];
  uint64_t start = (uint64_t)llround(g->start_us * 1000.0 / sim->cycle_ns), end = 0;
  memset(r, 0, sizeof *r);
  r->complete = 1;
  for (uint32_t i = 0; i < sim->flows.n; i++) {
    const flow_t *f = &sim->flows.f[i];
    if (f->group != group) continue;
    r->flows++;
    if (f->done_cycle == SIM_NEVER) r->complete = 0;
    else if (f->done_cycle > end) end = f->done_cycle;
  }
  if (r->flows == 0) r->complete = 0;
  r->time_us = end > start ? (double)(end - start) * sim->cycle_ns / 1000.0 : 0.0;
  r->mfu = g->compute_us > 0 ? g->compute_us / (g->compute_us + r->time_us) : 0.0;
}

void results_summary(const sim_t *sim, const deadlock_t *dl, double wall, summary_t *sum) {
  memset(sum, 0, sizeof *sum);
  sum->sim_cycles = sim->end;
  sum->sim_us = (double)sim->end * sim->cycle_ns / 1000.0;
  sum->wall_seconds = wall;
  sum->delivered_bytes = sim->deliv_bytes;
  for (uint32_t d = 0; d < sim->ndev; d++) {
    const device_t *dv = &sim->dev[d];
    if (dv->is_host) {
      const lfc_nic_stats_t *st = lfc_nic_stats(dv->nic);
      sum->pause_frames += st->pfc_tx;
      for (uint32_t c = 0; c < LFC_DROP_CAUSES; c++) sum->nic_drops += st->drop_pkts[c];
      sum->host_paused_cycles += st->paused_cycles;
      sum->host_credit_blocked_cycles += st->credit_blocked_cycles;
      continue;
    }
    for (uint32_t p = 0; p < dv->nports; p++) {
      const lfc_port_stats_t *st = lfc_switch_stats(dv->sw, p);
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
  sum->flows = sim->flows.n;
  for (uint32_t i = 0; i < sim->flows.n; i++) {
    const flow_t *f = &sim->flows.f[i];
    sum->offered_bytes += f->offered_bytes;
    sum->wire_bytes += f->wire_bytes;
    if (f->done_cycle == SIM_NEVER) continue;
    sum->flows_done++;
    if (f->done_cycle > sum->max_fct_cycle) sum->max_fct_cycle = f->done_cycle;
  }
  sum->deadlock = dl->found;
  sum->deadlock_cycle = dl->found ? dl->found_cycle : 0;
}

void results_print(FILE *o, const sim_t *sim, const deadlock_t *dl, const summary_t *s) {
  const lfc_scenario_t *sc = sim->sc;
  fprintf(o, "lfc-sim %s: %s, %u switches, %u hosts, %s mode, %.2f ns/cycle\n", sc->file,
          sc_topo_name(sc->topo), sim->topo.nsw, sim->topo.nhosts,
          sc->sw[0].mode == LFC_MODE_IB ? "IB credit" : "PFC", sim->cycle_ns);
  fprintf(o, "  simulated   %llu cycles (%.3f us) in %.3f s wall\n",
          (unsigned long long)s->sim_cycles, s->sim_us, s->wall_seconds);
  fprintf(o, "  offered     %llu bytes to the NICs, %llu put on the wire\n",
          (unsigned long long)s->offered_bytes, (unsigned long long)s->wire_bytes);
  fprintf(o, "  delivered   %llu bytes; flows complete %llu of %llu", (unsigned long long)s->delivered_bytes,
          (unsigned long long)s->flows_done, (unsigned long long)s->flows);
  if (s->flows_done) fprintf(o, ", last at %.3f us", (double)s->max_fct_cycle * sim->cycle_ns / 1000.0);
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
  if (s->deadlock) {
    char n[64];
    fprintf(o, "  DEADLOCK formed at cycle %llu (%.3f us):", (unsigned long long)s->deadlock_cycle,
            (double)s->deadlock_cycle * sim->cycle_ns / 1000.0);
    for (uint32_t i = 0; i < dl->ncyc; i++)
      fprintf(o, " %s(%s p%u c%u)", i ? "->" : "", topo_name(&sim->topo, dl->cyc[i].sw, n, sizeof n),
              dl->cyc[i].port, dl->cyc[i].cls);
    fprintf(o, "\n");
  } else {
    fprintf(o, "  no deadlock\n");
  }
  if (sim->errors)
    fprintf(o, "  SCOREBOARD ERRORS %llu: %s\n", (unsigned long long)sim->errors, sim->error);
  uint32_t show = sim->flows.n < 16 ? sim->flows.n : 16;
  if (show) fprintf(o, "  flow  src -> dst  cls      bytes  Gb/s     fct_us  lat_p50_ns  lat_p99_ns\n");
  for (uint32_t i = 0; i < show; i++) {
    const flow_t *f = &sim->flows.f[i];
    uint64_t t0 = f->first_tx == SIM_NEVER ? 0 : f->first_tx;
    uint64_t t1 = f->done_cycle != SIM_NEVER ? f->done_cycle : sim->end;
    double gbps = t1 > t0 ? (double)f->rx_bytes * 8.0 / ((double)(t1 - t0) * sim->cycle_ns) : 0.0;
    char dst[16];
    if (f->dst == FLOW_ANY_DST) snprintf(dst, sizeof dst, "any"); else snprintf(dst, sizeof dst, "%u", f->dst);
    /* a flow still running at the end has no completion time (null in --json) */
    char fct[24] = "running";
    if (f->done_cycle != SIM_NEVER)
      snprintf(fct, sizeof fct, "%.3f", (double)(f->done_cycle - f->start) * sim->cycle_ns / 1000.0);
    fprintf(o, "  %4u %4u -> %-4s %3u %10llu %6.2f %10s %11.1f %11.1f\n", i, f->src, dst, f->cls,
            (unsigned long long)f->rx_bytes, gbps, fct,
            (double)results_flow_latency(f, 50) * sim->cycle_ns,
            (double)results_flow_latency(f, 99) * sim->cycle_ns);
  }
  if (sim->flows.n > show) fprintf(o, "  ... %u more flows in --json\n", sim->flows.n - show);
}
