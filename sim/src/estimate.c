/*
 * estimate.c - memory and time of a run from the size of its fabric (estimate.h).
 */
#define _DEFAULT_SOURCE /* sysconf(_SC_PHYS_PAGES), a glibc and BSD extension */
#include "estimate.h"

#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "latsum.h"
#include "routing.h"
#include "topology.h"
#include "traffic.h"

/* Bytes of one flow beyond flow_t: its place in its host's list, dependencies (collectives). */
#define EST_FLOW_EXTRA_BYTES 16u

/* Flows group g makes (traffic.c flows_build), as a double: an all-to-all of many hosts does
 * not fit in 32 bits. */
static double group_flows(const lfc_scenario_t *sc, const sc_group_t *g, uint64_t nsw) {
  double n = g->nsrc;
  switch (g->pattern) {
    case PAT_ALL_TO_ALL: return n * (n - 1.0);
    case PAT_RING_ALLREDUCE: return 2.0 * (n - 1.0) * n;
    case PAT_TREE_ALLREDUCE: return 2.0 * (n - 1.0);
    case PAT_SHARP: { /* per chunk: up and down at the hosts and at each leaf switch */
      double chunk = g->chunk_bytes < g->bytes ? g->chunk_bytes : (double)g->bytes;
      double chunks = chunk > 0 ? (double)g->bytes / chunk + 1.0 : 1.0;
      return chunks * (2.0 * n + 2.0 * (n < (double)nsw ? n : (double)nsw));
    }
    case PAT_DDP: { /* steps x buckets all-reduces of a bucket */
      sc_group_t c = *g;
      c.pattern = g->collective;
      c.bytes = g->bucket_bytes;
      return (double)g->steps * g->buckets * group_flows(sc, &c, nsw);
    }
    case PAT_POISSON: /* flows arrive at load x line rate / mean size per source */
      return n * sc->host_speed_gbps * 1000.0 / 8.0 * (double)g->load_ppm / 1e6 *
             ((g->stop_us > 0 ? g->stop_us : sc->duration_us) - g->start_us) /
             sc_group_mean_size(g) + n;
    default: return n; /* flow, uniform, permutation, incast: one per source */
  }
}

/* Bytes of one latency series of a flow of group g (latsum.h). */
static double series_bytes(const lfc_scenario_t *sc, const sc_group_t *g) {
  double gbps = sc->host_speed_gbps;
  double pkt = g->packet_bytes > 0 ? g->packet_bytes : 1.0;
  /* packets at the group's load over the run, or of its bytes if fewer */
  double pk = (double)g->load_ppm / 1e6 * gbps * sc->duration_us * 1000.0 / (8.0 * pkt);
  if (g->bytes > 0 && (double)g->bytes / pkt < pk) pk = (double)g->bytes / pkt + 1.0;
  if (pk > LATSUM_RAW) return EST_COUNTED_BYTES;
  return 2.0 * (pk < 64.0 ? 64.0 : 1.25 * pk); /* grown by a quarter from 64 */
}

int sim_estimate(const lfc_scenario_t *sc, sim_estimate_t *e, char *err, size_t errlen) {
  memset(e, 0, sizeof *e);
  topo_t t;
  if (topo_build(sc, &t, err, errlen) != 0) return -1;
  e->switches = t.nsw;
  e->hosts = t.nhosts;
  e->endpoints = t.nendpoints;
  double ports = 0, ring = 0, wires = 0;
  for (uint32_t s = 0; s < t.nsw; s++) ports += t.nports[s];
  const int lanes_apart = !sc->step_all && sc->threads > 1u; /* some links cross lanes */
  for (uint32_t l = 0; l < t.nlinks; l++)
    if (!t.links[l].failed) { /* a ring of delay + 1 words each way, 2 x delay from another
                                 lane (engine.c wire_t): at most that */
      double d = (double)t.links[l].delay, words = lanes_apart && d > 1.0 ? 2.0 * d : d + 1.0;
      ring += 2.0 * words * (double)sim_ring_word_bytes();
      wires += 2.0;
    }
  e->switch_ports = (uint64_t)ports;
  double ndev = (double)t.nsw + t.nendpoints;
  double lanes = sc->step_all || sc->threads <= 1u ? 1.0 : 2.0 * sc->threads;
  double ways = routes_ways(sc, t.nendpoints);
  /* the observers' queues (engine.c sim_view): the most ports of a switch x the classes */
  double qports = 1, qclasses = 1;
  for (uint32_t s = 0; s < t.nsw; s++)
    if (t.nports[s] > qports) qports = t.nports[s];
  for (uint32_t r = 0; r < sc->nroles; r++) {
    double c = sc->sw[r].mode == LFC_MODE_IB ? LFC_MAX_CLASSES : sc->sw[r].classes;
    if (c > qclasses) qclasses = c;
  }
  if (sc->nclassmaps > 0) qclasses = LFC_MAX_CLASSES;
  /* the route tables and reachability (routing.h), per switch */
  double routes = (double)t.nsw * ((double)t.nendpoints * ways * sizeof(route_port_t) +
                                   (double)t.nendpoints);
  double b = EST_PROCESS_BYTES + ports * (EST_MODEL_PORT_BYTES + EST_SIM_PORT_BYTES) +
             (double)t.nendpoints * (EST_MODEL_NIC_BYTES + EST_SIM_PORT_BYTES) +
             ndev * (EST_SIM_DEVICE_BYTES + lanes * EST_LANE_DEVICE_BYTES) + ring + routes +
             (double)t.nsw * qports * qclasses * EST_QUEUE_BYTES;
  double flows = 0;
  for (uint32_t gi = 0; gi < sc->ngroups; gi++) {
    double n = group_flows(sc, &sc->groups[gi], t.nsw);
    flows += n;
    b += n * ((double)sizeof(flow_t) + EST_FLOW_EXTRA_BYTES +
              EST_SERIES_PER_FLOW * series_bytes(sc, &sc->groups[gi]));
  }
  topo_free(&t);
  e->flows = flows < 1.8e19 ? (uint64_t)flows : UINT64_MAX;
  e->bytes = b < 1.8e19 ? (uint64_t)b : UINT64_MAX;
  double cycles = sc->duration_us * 1000.0 / sc->cycle_ns;
  e->seconds = wires * cycles / EST_PORT_CYCLES_PER_S;
  e->setup_seconds = (ports + (double)e->endpoints) * EST_SETUP_S_PER_PORT +
                     (double)e->switches * (double)e->endpoints * EST_SETUP_S_PER_ROUTE;
  return 0;
}

uint64_t sim_default_memory_limit_mb(void) {
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || size <= 0) return 0;
  return (uint64_t)pages / 1024u * (uint64_t)size / 1024u * 3u / 4u;
}
