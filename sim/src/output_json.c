/*
 * output_json.c - --json FILE, the schema of docs/sim-json.md.
 */
#include <stdio.h>
#include <string.h>

#include "outfile.h"
#include "results.h"

static double us(const sim_t *sim, uint64_t cycles) { return (double)cycles * sim_cycle_ns(sim) / 1000.0; }

/* s as the characters of a JSON string (RFC 8259 §7): a scenario path or a group name may hold
 * a quote, a backslash or a control character. */
static const char *js(const char *s, char *buf, size_t len) {
  size_t j = 0;
  for (; *s && j + 7u < len; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') {
      buf[j++] = '\\';
      buf[j++] = (char)c;
    } else if (c < 0x20u) {
      j += (size_t)snprintf(buf + j, len - j, "\\u%04x", c);
    } else {
      buf[j++] = (char)c;
    }
  }
  buf[j] = '\0';
  return buf;
}

/* What the device at one end of a link sent on it, from its own counters (SPEC §10): packets
 * started, PFC frames, the priorities they paused (time > 0) and resumed, FCPs. */
typedef struct {
  uint64_t packets, pfc_frames, xoff, xon, fcps;
} link_sent_t;

static void link_sent(const sim_t *sim, uint32_t node, uint32_t port, link_sent_t *ls) {
  memset(ls, 0, sizeof *ls);
  if (node >= sim_topo(sim)->nsw) {
    const lfc_nic_stats_t *st = lfc_nic_stats(sim_nic(sim, node));
    *ls = (link_sent_t){st->tx_pkts, st->pfc_tx, st->xoff_tx, st->xon_tx, st->fcp_tx};
    return;
  }
  lfc_port_stats_t st_buf;
  const lfc_port_stats_t *st = sim_port_stats(sim, node, port, &st_buf);
  for (uint32_t c = 0; c < LFC_MAX_CLASSES; c++) {
    ls->packets += st->cls[c].tx_pkts;
    ls->xoff += st->cls[c].xoff_tx;
    ls->xon += st->cls[c].xon_tx;
  }
  ls->pfc_frames = st->pfc_tx;
  ls->fcps = st->fcp_tx;
}

/* A float, or null where a step did not complete. */
static void num_or_null(FILE *o, int ok, double x) {
  if (ok)
    fprintf(o, "%.6f", x);
  else
    fprintf(o, "null");
}

/* groups[].ddp: null for a group of another pattern. 0, or -1 out of memory. */
static int ddp_json(FILE *o, const sim_t *sim, uint32_t gi) {
  const sc_group_t *g = &sim_scenario(sim)->groups[gi];
  if (g->pattern != PAT_DDP) {
    fprintf(o, "null");
    return 0;
  }
  ddp_result_t d;
  if (results_ddp(sim, gi, &d) != 0) return -1;
  fprintf(o, "{\"collective\": \"%s\", \"steps\": %u, \"buckets\": %u, \"bucket_bytes\": %llu, "
             "\"forward_us\": %.6f, \"backward_us\": %.6f, \"overlap\": %s, "
             "\"steps_complete\": %u, \"step_time_us_p50\": ",
          sc_collective_name(g->collective), g->steps, g->buckets,
          (unsigned long long)g->bucket_bytes, g->forward_us, g->backward_us,
          g->overlap ? "true" : "false", d.ncomplete);
  num_or_null(o, d.ncomplete > 0, d.time_p50_us);
  fprintf(o, ", \"step_time_us_p99\": ");
  num_or_null(o, d.ncomplete > 0, d.time_p99_us);
  fprintf(o, ", \"step_time_us_max\": ");
  num_or_null(o, d.ncomplete > 0, d.time_max_us);
  fprintf(o, ", \"per_step\": [");
  for (uint32_t s = 0; s < d.nsteps; s++) {
    const step_result_t *st = &d.step[s];
    fprintf(o, "%s{\"step\": %u, \"complete\": %s, \"end_us\": ", s ? ", " : "", s,
            st->complete ? "true" : "false");
    num_or_null(o, st->complete, st->end_us);
    fprintf(o, ", \"time_us\": ");
    num_or_null(o, st->complete, st->time_us);
    fprintf(o, ", \"comm_us\": ");
    num_or_null(o, st->complete, st->comm_us);
    fprintf(o, ", \"exposed_us\": ");
    num_or_null(o, st->complete, st->exposed_us);
    fprintf(o, ", \"mfu\": ");
    num_or_null(o, st->complete, st->mfu);
    fprintf(o, "}");
  }
  fprintf(o, "]}");
  results_ddp_free(&d);
  return 0;
}

/* Room for the longest string escaped: a scenario path (at most PATH_MAX, 4096 bytes on Linux,
 * or it would not have opened) with every byte written as \u00XX. */
#define JSON_STR_MAX (6u * 4096u + 1u)

int results_json(const char *path, const sim_t *sim, const deadlock_t *dl, const sampler_t *sp,
                 const summary_t *s, char *err, size_t errlen) {
  /* every delivered packet's latency, for the summary's (a latency-against-load curve) */
  latsum_t all = {0};
  for (uint32_t i = 0; i < sim_flows(sim)->n; i++)
    if (latsum_merge(&all, &sim_flows(sim)->f[i].lat) != 0) {
      latsum_free(&all);
      if (err && errlen) snprintf(err, errlen, "%s: out of memory for the latencies", path);
      return -1;
    }
  outfile_t of;
  if (outfile_open(&of, path, err, errlen) != 0) {
    latsum_free(&all);
    return -1;
  }
  FILE *o = of.f;
  const lfc_scenario_t *sc = sim_scenario(sim);
  char n[64], e[JSON_STR_MAX];
  fprintf(o, "{\n  \"schema\": \"lfc-sim/1\",\n");
  fprintf(o, "  \"scenario\": {\"file\": \"%s\", \"topology\": \"%s\", \"mode\": \"%s\", "
             "\"switches\": %u, \"hosts\": %u, \"links\": %u, \"cycle_ns\": %.6f, \"seed\": %llu, "
             "\"skip_ahead\": %s, \"adaptive\": %s},\n",
          js(sc->file, e, sizeof e), sc_topo_name(sc->topo),
          sc->sw[0].mode == LFC_MODE_IB ? "ib" : "pfc",
          sim_topo(sim)->nsw, sim_topo(sim)->nhosts, sim_wires(sim), sim_cycle_ns(sim),
          (unsigned long long)sc->seed, sim_scenario(sim)->step_all ? "false" : "true",
          sc->adaptive ? "true" : "false");
  fprintf(o, "  \"summary\": {\"sim_cycles\": %llu, \"sim_us\": %.6f, \"offered_bytes\": %llu, "
             "\"wire_bytes\": %llu, \"delivered_bytes\": %llu, \"drops\": %llu, \"drops_by_cause\": {",
          (unsigned long long)s->sim_cycles, s->sim_us, (unsigned long long)s->offered_bytes,
          (unsigned long long)s->wire_bytes, (unsigned long long)s->delivered_bytes,
          (unsigned long long)s->drops);
  for (uint32_t k = 0; k < LFC_DROP_CAUSES; k++)
    fprintf(o, "\"%s\": %llu, ", lfc_drop_cause_name((lfc_drop_cause_t)k),
            (unsigned long long)s->drops_by_cause[k]);
  fprintf(o, "\"host\": %llu}, \"pause_frames\": %llu, \"ecn_marks\": %llu, \"watchdog_trips\": %llu, "
             "\"paused_queue_cycles\": %llu, \"host_paused_queue_cycles\": %llu, "
             "\"credit_starved_queue_cycles\": %llu, \"host_credit_starved_queue_cycles\": %llu, "
             "\"out_of_order\": %llu, \"out_of_order_flows\": %llu, "
             "\"flows\": %llu, \"flows_complete\": %llu, \"last_completion_us\": %.6f, "
             "\"latency_ns_mean\": %.3f, \"latency_ns_p50\": %.3f, \"latency_ns_p99\": %.3f, "
             "\"latency_ns_max\": %.3f, \"deadlock\": %s, \"deadlock_cycle\": %llu, \"scoreboard_errors\": %llu, "
             "\"wall_seconds\": %.6f},\n",
          (unsigned long long)s->nic_drops, (unsigned long long)s->pause_frames,
          (unsigned long long)s->ecn_marks, (unsigned long long)s->wd_trips,
          (unsigned long long)s->paused_cycles, (unsigned long long)s->host_paused_cycles,
          (unsigned long long)s->credit_blocked_cycles,
          (unsigned long long)s->host_credit_blocked_cycles,
          (unsigned long long)s->out_of_order, (unsigned long long)s->out_of_order_flows,
          (unsigned long long)s->flows, (unsigned long long)s->flows_done, us(sim, s->max_fct_cycle),
          latsum_mean(&all) * sim_cycle_ns(sim), (double)latsum_pct(&all, 50) * sim_cycle_ns(sim),
          (double)latsum_pct(&all, 99) * sim_cycle_ns(sim), (double)latsum_pct(&all, 100) * sim_cycle_ns(sim),
          s->deadlock ? "true" : "false", (unsigned long long)s->deadlock_cycle,
          (unsigned long long)sim_errors(sim), s->wall_seconds);
  latsum_free(&all);
  fprintf(o, "  \"deadlock\": {\"found\": %s, \"cycle\": %llu, \"queues\": [", dl->found ? "true" : "false",
          (unsigned long long)(dl->found ? dl->found_cycle : 0));
  for (uint32_t i = 0; dl->found && i < dl->ncyc; i++)
    fprintf(o, "%s{\"switch\": \"%s\", \"port\": %u, \"class\": %u}", i ? ", " : "",
            topo_name(sim_topo(sim), dl->cyc[i].sw, n, sizeof n), dl->cyc[i].port, dl->cyc[i].cls);
  fprintf(o, "]},\n  \"groups\": [\n");
  for (uint32_t gi = 0; gi < sc->ngroups; gi++) {
    group_result_t r;
    results_group(sim, gi, &r);
    fprintf(o, "    {\"name\": \"%s\", \"pattern\": \"%s\", \"flows\": %u, \"complete\": %s, "
               "\"bytes\": %llu, \"time_us\": ",
            js(sc->groups[gi].name, e, sizeof e), sc_pattern_name(sc->groups[gi].pattern), r.flows,
            r.complete ? "true" : "false", (unsigned long long)sc->groups[gi].bytes);
    if (r.complete)
      fprintf(o, "%.6f", r.time_us);
    else
      fprintf(o, "null");
    const sc_group_t *g = &sc->groups[gi];
    fprintf(o, ", \"compute_us\": %.6f, \"mfu\": ", sc_group_compute_us(g));
    if (r.complete && sc_group_compute_us(g) > 0)
      fprintf(o, "%.6f", r.mfu);
    else
      fprintf(o, "null");
    fprintf(o, ", \"ddp\": ");
    if (ddp_json(o, sim, gi) != 0) {
      outfile_discard(&of);
      if (err && errlen) snprintf(err, errlen, "%s: out of memory", path);
      return -1;
    }
    fprintf(o, "}%s\n", gi + 1 < sc->ngroups ? "," : "");
  }
  fprintf(o, "  ],\n  \"flows\": [\n");
  for (uint32_t i = 0; i < sim_flows(sim)->n; i++) {
    const flow_t *f = &sim_flows(sim)->f[i];
    const double gbps = results_flow_gbps(sim, f);
    fprintf(o, "    {\"id\": %u, \"group\": \"%s\", \"src\": %u, \"dst\": %lld, \"class\": %u, "
               "\"bytes\": %llu, "
               "\"offered_bytes\": %llu, \"wire_bytes\": %llu, \"delivered_bytes\": %llu, "
               "\"offered_packets\": %llu, \"wire_packets\": %llu, \"delivered_packets\": %llu, "
               "\"drops\": %llu, \"ecn_ce\": %llu, \"cnps\": %llu, \"out_of_order\": %llu, "
               "\"throughput_gbps\": %.6f, "
               "\"fct_us\": ",
            i, js(sc->groups[f->group].name, e, sizeof e), f->src,
            f->dst == FLOW_ANY_DST ? -1LL : (long long)f->dst, f->cls,
            (unsigned long long)f->bytes, (unsigned long long)f->offered_bytes, (unsigned long long)f->wire_bytes,
            (unsigned long long)f->rx_bytes, (unsigned long long)f->offered_pkts,
            (unsigned long long)f->wire_pkts, (unsigned long long)f->rx_pkts,
            (unsigned long long)f->drops, (unsigned long long)f->ce,
            (unsigned long long)f->dc_cnps, (unsigned long long)f->out_of_order, gbps);
    if (f->done_cycle != SIM_NEVER)
      fprintf(o, "%.6f", us(sim, f->done_cycle - f->start));
    else
      fprintf(o, "null");
    fprintf(o, ", \"latency_ns_mean\": %.3f, \"latency_ns_p50\": %.3f, \"latency_ns_p99\": %.3f, "
               "\"latency_ns_max\": %.3f, \"hops\": [",
            latsum_mean(&f->lat) * sim_cycle_ns(sim), (double)results_flow_latency(f, 50) * sim_cycle_ns(sim),
            (double)results_flow_latency(f, 99) * sim_cycle_ns(sim),
            (double)results_flow_latency(f, 100) * sim_cycle_ns(sim));
    for (uint32_t h = 0; h < f->nhops; h++)
      fprintf(o, "%s{\"switch\": \"%s\", \"packets\": %llu, \"latency_ns_p50\": %.3f, "
                 "\"latency_ns_p99\": %.3f, \"latency_ns_max\": %.3f}",
              h ? ", " : "", topo_name(sim_topo(sim), f->hop_sw[h], n, sizeof n),
              (unsigned long long)f->hlat[h].n,
              (double)results_hop_latency(f, h, 50) * sim_cycle_ns(sim),
              (double)results_hop_latency(f, h, 99) * sim_cycle_ns(sim),
              (double)results_hop_latency(f, h, 100) * sim_cycle_ns(sim));
    fprintf(o, "]}%s\n", i + 1 < sim_flows(sim)->n ? "," : "");
  }
  fprintf(o, "  ],\n  \"ports\": [\n");
  int first = 1;
  uint32_t classes = sc->sw[0].classes;
  for (uint32_t sw = 0; sw < sim_topo(sim)->nsw; sw++)
    for (uint32_t p = 0; p < sim_topo(sim)->nports[sw]; p++) {
      if (!sim_port_wired(sim, sw, p)) continue;
      lfc_port_stats_t st_buf;
      const lfc_port_stats_t *st = sim_port_stats(sim, sw, p, &st_buf);
      for (uint32_t c = 0; c < classes; c++) {
        const lfc_class_stats_t *cs = &st->cls[c];
        uint64_t drops = 0;
        for (uint32_t k = 0; k < LFC_DROP_CAUSES; k++) drops += cs->drop_pkts[k];
        fprintf(o, "%s    {\"switch\": \"%s\", \"port\": %u, \"class\": %u, \"tx_pkts\": %llu, "
                   "\"pause_tx\": %llu, \"resume_tx\": %llu, \"pause_rx\": %llu, "
                   "\"paused_fraction\": %.6f, "
                   "\"credit_starved_fraction\": %.6f, \"occupancy_max\": %llu, "
                   "\"occupancy_p50\": %llu, \"occupancy_p99\": %llu, \"ingress_max\": %llu, "
                   "\"drops\": %llu, \"drops_by_cause\": [",
                first ? "" : ",\n", topo_name(sim_topo(sim), sw, n, sizeof n), p, c,
                (unsigned long long)cs->tx_pkts, (unsigned long long)cs->xoff_tx,
                (unsigned long long)cs->xon_tx, (unsigned long long)cs->pause_rx, (double)cs->paused_cycles / (double)sim_end(sim),
                (double)cs->credit_blocked_cycles / (double)sim_end(sim),
                (unsigned long long)cs->peak_qlen,
                (unsigned long long)sampler_occ_pct(sp, SIM_QIDX(&sp->view, sw, p, c), 50),
                (unsigned long long)sampler_occ_pct(sp, SIM_QIDX(&sp->view, sw, p, c), 99),
                (unsigned long long)cs->peak_pg, (unsigned long long)drops);
        for (uint32_t k = 0; k < LFC_DROP_CAUSES; k++)
          fprintf(o, "%s%llu", k ? ", " : "", (unsigned long long)cs->drop_pkts[k]);
        fprintf(o, "], \"ecn_marks\": %llu, \"watchdog_trips\": %llu}",
                (unsigned long long)cs->ecn_mark, (unsigned long long)cs->wd_trip);
        first = 0;
      }
    }
  fprintf(o, "\n  ],\n  \"hosts\": [\n");
  for (uint32_t ep = 0; ep < sim_topo(sim)->nendpoints; ep++) { /* hosts, then aggregation engines */
    uint32_t d = sim_topo(sim)->nsw + ep;
    const lfc_nic_stats_t *st = lfc_nic_stats(sim_nic(sim, d));
    uint64_t drops = 0;
    for (uint32_t k = 0; k < LFC_DROP_CAUSES; k++) drops += st->drop_pkts[k];
    fprintf(o, "    {\"host\": \"%s\", \"tx_pkts\": %llu, \"rx_pkts\": %llu, \"pause_tx\": %llu, "
               "\"pause_rx\": %llu, \"paused_cycles\": %llu, \"credit_starved_cycles\": %llu, "
               "\"drops\": %llu}%s\n",
            topo_name(sim_topo(sim), d, n, sizeof n), (unsigned long long)st->tx_pkts,
            (unsigned long long)st->rx_pkts, (unsigned long long)st->xoff_tx,
            (unsigned long long)st->pause_rx, (unsigned long long)st->paused_cycles,
            (unsigned long long)st->credit_blocked_cycles, (unsigned long long)drops,
            ep + 1 < sim_topo(sim)->nendpoints ? "," : "");
  }
  fprintf(o, "  ],\n  \"links\": [\n");
  first = 1;
  for (uint32_t l = 0; l < sim_topo(sim)->nlinks; l++) {
    const topo_link_t *lk = &sim_topo(sim)->links[l];
    if (lk->failed) continue;
    char name[160];
    topo_link_name(sim_topo(sim), l, name, sizeof name);
    for (uint32_t dir = 0; dir < 2; dir++) { /* A>B, then B>A */
      const uint32_t from = dir ? lk->b : lk->a, from_port = dir ? lk->pb : lk->pa;
      const uint32_t to = dir ? lk->a : lk->b, to_port = dir ? lk->pa : lk->pb;
      link_sent_t ls;
      link_sent(sim, from, from_port, &ls);
      char to_name[64];
      fprintf(o, "%s    {\"name\": \"%s\", \"dir\": \"%s\", \"from\": \"%s\", "
                 "\"from_port\": %u, \"to\": \"%s\", \"to_port\": %u, \"speed_gbps\": %.6f, "
                 "\"delay_cycles\": %u, \"packets\": %llu, \"pfc_frames\": %llu, \"xoff\": %llu, "
                 "\"xon\": %llu, \"fcps\": %llu}",
              first ? "" : ",\n", js(name, e, sizeof e), dir ? "B>A" : "A>B",
              topo_name(sim_topo(sim), from, n, sizeof n), from_port,
              topo_name(sim_topo(sim), to, to_name, sizeof to_name), to_port,
              sc->fastest_gbps / (double)(lk->speed_div > 0 ? lk->speed_div : 1u), lk->delay,
              (unsigned long long)ls.packets, (unsigned long long)ls.pfc_frames,
              (unsigned long long)ls.xoff, (unsigned long long)ls.xon,
              (unsigned long long)ls.fcps);
      first = 0;
    }
  }
  fprintf(o, "\n  ]\n}\n");
  return outfile_close(&of, err, errlen);
}
