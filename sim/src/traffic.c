/*
 * traffic.c - scenario traffic groups -> flows.
 *
 * Pacing: a flow sends a full packet every (its line time) * speed_div / load cycles (kept x1024
 * so that loads that do not divide evenly average out exactly): nblk slots, or with wire_time
 * its bytes on the wire / 64 (SPEC §2.4: + 20 bytes of preamble and gap in PFC mode). A flow at
 * full load with wire_time offers its second packet with its first (lead 1): its node then
 * always has the next packet when a packet ends, as a sender at line rate has, instead of
 * finding the FIFO empty for the fraction of a slot by which the next packet's due cycle was
 * rounded up, which would idle a slot and lose the slack of §2.4 at every packet. Collectives are chains of flows:
 *  - ring all-reduce (Patarasuk & Yuan 2009): 2(N-1) steps; in step s host i sends bytes/N to
 *    host i+1, after host i has received step s-1 from host i-1;
 *  - tree all-reduce: a binary tree over the hosts in order; each host sends the vector to its
 *    parent once all its children's vectors arrived, then the root's result flows back down.
 */
#include "traffic.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define X1024 1024u
#define PPM 1000000u

/* A full packet's line time in 1/1024 slots (SPEC §2.4), times the hosts' speed divider hk. */
static uint64_t line_x1024(const lfc_scenario_t *sc, uint32_t packet_bytes, uint32_t hk) {
  const lfc_switch_cfg_t *sw = &sc->sw[0];
  uint64_t nblk = (packet_bytes + LFC_BLOCK_BYTES - 1u) / LFC_BLOCK_BYTES;
  if (!sw->wire_time) return nblk * hk * X1024;
  uint64_t bytes = packet_bytes + (sw->mode == LFC_MODE_PFC ? LFC_ETH_LINE_OVERHEAD_BYTES : 0u);
  return bytes * hk * X1024 / LFC_BLOCK_BYTES;
}

typedef struct {
  flow_t *f;
  uint32_t n, cap;
} vec_t;

static flow_t *add(vec_t *v) {
  if (v->n == v->cap) {
    uint32_t cap = v->cap ? v->cap * 2 : 64;
    flow_t *nf = realloc(v->f, (size_t)cap * sizeof *nf);
    if (nf == NULL) return NULL;
    v->f = nf;
    v->cap = cap;
  }
  flow_t *f = &v->f[v->n++];
  memset(f, 0, sizeof *f);
  return f;
}

static int add_dep(flow_t *before, uint32_t after_id, flow_t *after) {
  uint32_t *s = realloc(before->succ, (before->nsucc + 1u) * sizeof *s);
  if (s == NULL) return -1;
  before->succ = s;
  s[before->nsucc++] = after_id;
  after->deps_left++;
  return 0;
}

#define NOMEM()                                                      \
  do {                                                               \
    if (err && errlen) snprintf(err, errlen, "traffic: out of memory"); \
    goto fail;                                                       \
  } while (0)

/*
 * In-network aggregation, SHARP-like (Graham et al., "Scalable Hierarchical Aggregation
 * Protocol (SHArP)", COMHPC 2016): the switches reduce. Each switch's aggregation engine (AE,
 * topology.h) is an end node on its own port. The tree: the AEs of the switches the group's
 * hosts hang on (leaves) and a root AE, the first switch of the top role (the hosts' only switch
 * when there is one). Per chunk of chunk_bytes, pipelined:
 *   host -> its leaf AE; leaf AE -> root AE once all its hosts' chunk arrived (the reduction);
 *   root AE -> leaf AEs once every leaf's (and its own hosts') chunk arrived; leaf AE -> hosts.
 * The AE reduces at line rate (no arithmetic delay). Its port is ae_speed_gbps (8 x the switch
 * links by default) so that it takes every child's stream at once, and each of its flows is
 * paced at the hosts' line rate, the speed of the link it leaves the switch on. Each flow of a
 * chunk also waits for the same flow of the previous chunk, so chunks leave every node in order.
 */
typedef struct { /* a collective's hosts and vector (a group's, or one ddp bucket's) */
  const uint32_t *src;
  uint32_t nsrc;
  uint64_t bytes;
  uint32_t chunk_bytes;
} coll_t;

static int sharp_flows(const topo_t *t, const coll_t *g, const flow_t *proto, vec_t *v,
                       char *err, size_t errlen) {
  uint32_t N = g->nsrc, top = 0, root = 0;
  for (uint32_t s = 0; s < t->nsw; s++)
    if (t->role[s] > top) top = t->role[s];
  while (t->role[root] != top) root++; /* the first switch of the top role */
  int one_switch = 1;
  for (uint32_t i = 0; i < N; i++)
    if (t->host_sw[g->src[i]] != t->host_sw[g->src[0]]) one_switch = 0;
  if (one_switch) root = t->host_sw[g->src[0]];
  uint64_t chunk = g->chunk_bytes < g->bytes ? g->chunk_bytes : g->bytes;
  uint64_t nchunk = (g->bytes + chunk - 1u) / chunk;
  /* the leaf switches, in order of first appearance */
  uint32_t *leaf = calloc(t->nsw, sizeof *leaf), nleaf = 0;
  uint8_t *is_leaf = calloc(t->nsw, 1);
  if (!leaf || !is_leaf) goto nomem;
  for (uint32_t i = 0; i < N; i++) {
    uint32_t s = t->host_sw[g->src[i]];
    if (s != root && !is_leaf[s]) {
      is_leaf[s] = 1;
      leaf[nleaf++] = s;
    }
  }
  /* flows per chunk: up1[N], up2[nleaf], down1[nleaf], down2[N] */
  uint32_t per = 2u * N + 2u * nleaf;
  for (uint64_t k = 0; k < nchunk; k++) {
    uint64_t bytes = k + 1u < nchunk ? chunk : g->bytes - chunk * (nchunk - 1u);
    uint32_t base = v->n;
    for (uint32_t j = 0; j < per; j++) {
      flow_t *f = add(v);
      if (!f) goto nomem;
      *f = *proto;
      f->bytes = bytes;
      if (k > 0 && add_dep(&v->f[base - per + j], base + j, f) != 0) goto nomem; /* in order */
    }
    flow_t *F = &v->f[base];
    for (uint32_t i = 0; i < N; i++) { /* up1: host -> its switch's AE */
      uint32_t s = t->host_sw[g->src[i]];
      F[i].src = g->src[i];
      F[i].dst = t->nhosts + s;
    }
    for (uint32_t l = 0; l < nleaf; l++) { /* up2: leaf AE -> root AE, after its hosts */
      flow_t *u = &F[N + l];
      u->src = t->nhosts + leaf[l];
      u->dst = t->nhosts + root;
      for (uint32_t i = 0; i < N; i++)
        if (t->host_sw[g->src[i]] == leaf[l] && add_dep(&F[i], base + N + l, u) != 0) goto nomem;
    }
    /* the root's reduction is complete when every up2 and every up1 into the root arrived */
    for (uint32_t l = 0; l < nleaf; l++) { /* down1: root AE -> leaf AE */
      flow_t *dn = &F[N + nleaf + l];
      dn->src = t->nhosts + root;
      dn->dst = t->nhosts + leaf[l];
      for (uint32_t x = 0; x < nleaf; x++)
        if (add_dep(&F[N + x], base + N + nleaf + l, dn) != 0) goto nomem;
      for (uint32_t i = 0; i < N; i++)
        if (t->host_sw[g->src[i]] == root && add_dep(&F[i], base + N + nleaf + l, dn) != 0)
          goto nomem;
    }
    for (uint32_t i = 0; i < N; i++) { /* down2: AE -> host */
      uint32_t s = t->host_sw[g->src[i]], id = base + N + 2u * nleaf + i;
      flow_t *dn = &F[N + 2u * nleaf + i];
      dn->src = t->nhosts + s;
      dn->dst = g->src[i];
      if (s != root) {
        uint32_t l = 0;
        while (leaf[l] != s) l++;
        if (add_dep(&F[N + nleaf + l], id, dn) != 0) goto nomem;
      } else {
        for (uint32_t x = 0; x < nleaf; x++)
          if (add_dep(&F[N + x], id, dn) != 0) goto nomem;
        for (uint32_t j = 0; j < N; j++)
          if (t->host_sw[g->src[j]] == root && add_dep(&F[j], id, dn) != 0) goto nomem;
      }
    }
  }
  free(leaf);
  free(is_leaf);
  return 0;
nomem:
  free(leaf);
  free(is_leaf);
  if (err && errlen) snprintf(err, errlen, "traffic: out of memory");
  return -1;
}


/* Ring all-reduce (Patarasuk & Yuan 2009): 2(N-1) steps of bytes/N; in step s host i sends to
 * host i+1 once step s-1 from host i-1 arrived. */
static int ring_flows(const coll_t *g, const flow_t *proto, vec_t *v) {
  uint32_t N = g->nsrc, first = v->n;
  const uint32_t *H = g->src;
  uint64_t chunk = (g->bytes + N - 1u) / N;
  for (uint32_t s = 0; s < 2u * (N - 1u); s++)
    for (uint32_t i = 0; i < N; i++) {
      flow_t *f = add(v);
      if (!f) return -1;
      *f = *proto;
      f->src = H[i];
      f->dst = H[(i + 1u) % N];
      f->bytes = chunk;
      if (s > 0) { /* after step s-1 from host i-1 arrived at host i */
        uint32_t before = first + (s - 1u) * N + (i + N - 1u) % N;
        if (add_dep(&v->f[before], v->n - 1u, f) != 0) return -1;
      }
    }
  return 0;
}

/* Tree all-reduce: flows first..first+N-2 up, child i (1..N-1) -> parent (i-1)/2; then down,
 * parent (i-1)/2 -> child i. */
static int tree_flows(const coll_t *g, const flow_t *proto, vec_t *v) {
  uint32_t N = g->nsrc, first = v->n;
  const uint32_t *H = g->src;
  for (uint32_t i = 1; i < N; i++) {
    flow_t *f = add(v);
    if (!f) return -1;
    *f = *proto;
    f->bytes = g->bytes;
    f->src = H[i];
    f->dst = H[(i - 1u) / 2u];
  }
  for (uint32_t i = 1; i < N; i++) {
    flow_t *f = add(v);
    if (!f) return -1;
    *f = *proto;
    f->bytes = g->bytes;
    f->src = H[(i - 1u) / 2u];
    f->dst = H[i];
  }
  for (uint32_t i = 1; i < N; i++) {
    flow_t *up = &v->f[first + i - 1u];
    for (uint32_t c = 2u * i + 1u; c <= 2u * i + 2u && c < N; c++) /* children first */
      if (add_dep(&v->f[first + c - 1u], first + i - 1u, up) != 0) return -1;
    flow_t *down = &v->f[first + N - 1u + i - 1u];
    uint32_t p = (i - 1u) / 2u;
    if (p == 0) { /* the root sends down once every child of the root reported */
      for (uint32_t c = 1; c <= 2u && c < N; c++)
        if (add_dep(&v->f[first + c - 1u], first + N - 1u + i - 1u, down) != 0) return -1;
    } else { /* after the parent got the result */
      if (add_dep(&v->f[first + N - 1u + p - 1u], first + N - 1u + i - 1u, down) != 0)
        return -1;
    }
  }
  return 0;
}

/* One all-reduce of c->bytes over c's hosts by `pattern`, appended to v. */
static int coll_flows(const topo_t *t, sc_pattern_t pattern, const coll_t *c, const flow_t *proto,
                      vec_t *v, char *err, size_t errlen) {
  int r;
  switch (pattern) {
    case PAT_RING_ALLREDUCE: r = ring_flows(c, proto, v); break;
    case PAT_TREE_ALLREDUCE: r = tree_flows(c, proto, v); break;
    default: return sharp_flows(t, c, proto, v, err, errlen);
  }
  if (r != 0 && err && errlen) snprintf(err, errlen, "traffic: out of memory");
  return r;
}


/* ---- Gates (traffic.h gate_t) ---- */

typedef struct {
  gate_t *g;
  uint32_t n, cap;
} gvec_t;

/* A new gate that opens no earlier than `ready`; its index, or UINT32_MAX out of memory. */
static uint32_t gate_new(gvec_t *gv, uint64_t ready) {
  if (gv->n == gv->cap) {
    uint32_t cap = gv->cap ? gv->cap * 2u : 64u;
    gate_t *ng = realloc(gv->g, (size_t)cap * sizeof *ng);
    if (ng == NULL) return UINT32_MAX;
    gv->g = ng;
    gv->cap = cap;
  }
  gate_t *x = &gv->g[gv->n];
  memset(x, 0, sizeof *x);
  x->ready = ready;
  return gv->n++;
}

/* Flow f (id fid) waits for gate gid, starting `delay` cycles after it opens. */
static int gate_to_flow(gvec_t *gv, uint32_t gid, vec_t *v, uint32_t fid, uint64_t delay) {
  gate_t *x = &gv->g[gid];
  uint32_t *s = realloc(x->succ, (x->nsucc + 1u) * sizeof *s);
  if (s == NULL) return -1;
  x->succ = s;
  uint64_t *d = realloc(x->delay, (x->nsucc + 1u) * sizeof *d);
  if (d == NULL) return -1;
  x->delay = d;
  s[x->nsucc] = fid;
  d[x->nsucc++] = delay;
  if (fid & FLOW_GATE)
    gv->g[fid & ~FLOW_GATE].deps_left++;
  else
    v->f[fid].deps_left++;
  return 0;
}

/* Gate gid waits for flow f to complete. */
static int flow_to_gate(flow_t *f, gvec_t *gv, uint32_t gid) {
  uint32_t *s = realloc(f->succ, (f->nsucc + 1u) * sizeof *s);
  if (s == NULL) return -1;
  f->succ = s;
  s[f->nsucc++] = FLOW_GATE | gid;
  gv->g[gid].deps_left++;
  return 0;
}

/* Every flow of v in [lo, hi) that a rank sends or receives opens that rank's gate gate[r]
 * (rank_of: endpoint -> rank, UINT32_MAX for an aggregation engine). */
static int touching_to_gates(vec_t *v, uint32_t lo, uint32_t hi, const uint32_t *rank_of,
                             gvec_t *gv, const uint32_t *gate) {
  for (uint32_t j = lo; j < hi; j++) {
    uint32_t rs = rank_of[v->f[j].src], rd = rank_of[v->f[j].dst];
    if (rs != UINT32_MAX && flow_to_gate(&v->f[j], gv, gate[rs]) != 0) return -1;
    if (rd != UINT32_MAX && flow_to_gate(&v->f[j], gv, gate[rd]) != 0) return -1;
  }
  return 0;
}

/*
 * Pattern ddp: data-parallel training steps with the gradient all-reduced in buckets during
 * the backward pass, as PyTorch DistributedDataParallel does (Li et al., "PyTorch Distributed:
 * Experiences on Accelerating Data Parallel Training", VLDB 2020, §3.2 "Gradient Reduction":
 * gradients are grouped into buckets, in about the reverse order of the parameters, and a
 * bucket's all-reduce is launched asynchronously as soon as all its gradients are ready; the
 * optimizer step waits for every all-reduce. torch DistributedDataParallel's bucket_cap_mb,
 * 25 MB by default, sets the size). Per rank (host) r and step s:
 *  - the step begins (gate S[r]) when every flow r sends or receives of the step's last bucket
 *    completed; step 0 begins at start_us;
 *  - bucket b is released forward_us + (b + 1) / buckets x backward_us after that (overlap 0:
 *    forward_us + backward_us, every bucket at the end of the backward pass);
 *  - r sends bucket b's data once it is released and r's part of bucket b - 1 completed (gate
 *    G[r]): the all-reduces of one rank run one at a time, in order (one communication stream,
 *    as NCCL runs DDP's all-reduces).
 * Each bucket is one all-reduce by `collective`, the same flows as the patterns
 * ring_allreduce, tree_allreduce and sharp of bucket_bytes; flows carry their step.
 */
static int ddp_flows(const lfc_scenario_t *sc, const topo_t *t, const sc_group_t *g,
                     const flow_t *proto, vec_t *v, gvec_t *gv, char *err, size_t errlen) {
  uint32_t N = g->nsrc, B = g->buckets;
  uint32_t *rank_of = malloc((size_t)t->nendpoints * sizeof *rank_of);
  uint32_t *S = calloc(N, sizeof *S), *G = calloc(N, sizeof *G);
  if (!rank_of || !S || !G) goto nomem;
  for (uint32_t e = 0; e < t->nendpoints; e++) rank_of[e] = UINT32_MAX;
  for (uint32_t i = 0; i < N; i++) rank_of[g->src[i]] = i;
  flow_t pr = *proto;
  pr.gated = 1;
  uint32_t plo = 0, phi = 0; /* the flows of the bucket before */
  for (uint32_t s = 0; s < g->steps; s++) {
    if (s > 0) {
      for (uint32_t i = 0; i < N; i++)
        if ((S[i] = gate_new(gv, 0)) == UINT32_MAX) goto nomem;
      if (touching_to_gates(v, plo, phi, rank_of, gv, S) != 0) goto nomem;
    }
    for (uint32_t b = 0; b < B; b++) {
      double at = g->forward_us + (g->overlap ? g->backward_us * (b + 1u) / B : g->backward_us);
      uint64_t rel = sc_us_to_cycles(sc, at);
      uint32_t lo = v->n;
      pr.step = s;
      coll_t c = {g->src, N, g->bucket_bytes, g->chunk_bytes};
      if (coll_flows(t, g->collective, &c, &pr, v, err, errlen) != 0) goto fail;
      uint32_t hi = v->n;
      if (s == 0 && b == 0) { /* released at a fixed time */
        for (uint32_t j = lo; j < hi; j++) v->f[j].start = proto->start + rel;
      } else {
        for (uint32_t i = 0; i < N; i++) {
          if ((G[i] = gate_new(gv, s == 0 ? proto->start + rel : 0)) == UINT32_MAX) goto nomem;
          if (s > 0 && gate_to_flow(gv, S[i], v, FLOW_GATE | G[i], rel) != 0) goto nomem;
        }
        if (b > 0 && touching_to_gates(v, plo, phi, rank_of, gv, G) != 0) goto nomem;
        for (uint32_t j = lo; j < hi; j++) {
          uint32_t r = rank_of[v->f[j].src];
          if (r != UINT32_MAX && gate_to_flow(gv, G[r], v, j, 0) != 0) goto nomem;
        }
      }
      plo = lo;
      phi = hi;
    }
  }
  free(rank_of);
  free(S);
  free(G);
  return 0;
nomem:
  if (err && errlen) snprintf(err, errlen, "traffic: out of memory");
fail:
  free(rank_of);
  free(S);
  free(G);
  return -1;
}

/* A uniform draw in [0, 1) from the top 53 bits of sim_rand. */
static double rand_unit(uint64_t *rng) { return (double)(sim_rand(rng) >> 11) * 0x1.0p-53; }

/*
 * Pattern poisson: flows of many sizes, the workload of the RDMA congestion-control papers'
 * flow-completion-time figures, generated as the HPCC authors' traffic generator does (Li et
 * al., "HPCC: High Precision Congestion Control", SIGCOMM 2019; alibaba-edu/
 * High-Precision-Congestion-Control, traffic_gen/traffic_gen.py): each source host starts flows
 * as a Poisson process, exponential gaps of mean (mean size) / (load x its line rate), each to a
 * random other host, its size drawn from a distribution. Here the hosts are the group's `src`
 * and the distribution is the discrete `sizes` (the generator interpolates a CDF file). A flow
 * is sent at line rate (pacing only by the fabric); `load` sets how often flows arrive.
 * Random numbers: one xorshift64* stream per source host, from the seed, group and host.
 */
static int poisson_flows(const lfc_scenario_t *sc, uint32_t gi, const sc_group_t *g,
                         const flow_t *proto, uint32_t hk, vec_t *v, char *err, size_t errlen) {
  double wsum = 0;
  for (uint32_t i = 0; i < g->nsizes; i++) wsum += g->size_weight[i];
  double line_bytes_per_cycle = (double)LFC_BLOCK_BYTES / hk; /* one block every hk cycles */
  double gap = sc_group_mean_size(g) / ((double)g->load_ppm / PPM * line_bytes_per_cycle);
  uint64_t end = proto->stop != SIM_NEVER ? proto->stop : sc_us_to_cycles(sc, sc->duration_us);
  uint32_t made = 0;
  for (uint32_t i = 0; i < g->nsrc; i++) {
    uint64_t rng = (sc->seed * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)(gi + 1u) << 32) ^ (i + 1u);
    double t = (double)proto->start;
    for (;;) {
      t += -log(1.0 - rand_unit(&rng)) * gap;
      if (t >= (double)end) break;
      if (++made > 2u * SC_MAX_POISSON_FLOWS) { /* the load check allows about half of it */
        if (err && errlen)
          snprintf(err, errlen, "%s: [traffic.%s] pattern poisson: more than %u flows; allowed: "
                   "a shorter run, a lower load or larger sizes", sc->file, g->name,
                   2u * SC_MAX_POISSON_FLOWS);
        return -1;
      }
      flow_t *f = add(v);
      if (!f) {
        if (err && errlen) snprintf(err, errlen, "traffic: out of memory");
        return -1;
      }
      *f = *proto;
      f->src = g->src[i];
      uint32_t j = (uint32_t)(sim_rand(&rng) % (g->nsrc - 1u)); /* another of the sources */
      f->dst = g->src[j >= i ? j + 1u : j];
      double u = rand_unit(&rng) * wsum, cum = 0;
      uint32_t k = 0;
      while (k + 1u < g->nsizes && u >= (cum += g->size_weight[k])) k++;
      f->bytes = g->size_bytes[k];
      f->start = (uint64_t)llround(t);
      f->interval_x1024 = line_x1024(sc, g->packet_bytes, hk); /* line rate */
      f->lead = sc->sw[0].wire_time;
    }
  }
  return 0;
}

/*
 * Every flow's destination is reachable from its source over the working cables (uniform: every
 * host). Otherwise the route tables have no entry for it and the run would end in "a packet
 * reached the wrong host": failed links that cut hosts apart are refused at their key instead.
 */
static int check_connected(const lfc_scenario_t *sc, const topo_t *t, const flow_t *f, uint32_t n,
                           char *err, size_t errlen) {
  uint32_t *comp = topo_components(t);
  if (comp == NULL) {
    if (err && errlen) snprintf(err, errlen, "traffic: out of memory");
    return -1;
  }
  uint32_t cut = UINT32_MAX; /* a host apart from host 0: uniform reaches none there */
  for (uint32_t h = 1; h < t->nhosts && cut == UINT32_MAX; h++)
    if (comp[t->nsw + h] != comp[t->nsw]) cut = h;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t a = t->nsw + f[i].src, b;
    if (f[i].dst != FLOW_ANY_DST)
      b = t->nsw + f[i].dst;
    else if (cut == UINT32_MAX)
      continue;
    else
      b = comp[a] == comp[t->nsw] ? t->nsw + cut : t->nsw;
    if (comp[a] == comp[b]) continue;
    char v[SC_MAX_FAILED * (2u * SC_NAME_LEN + 2u)] = "", na[48], nb[48];
    size_t used = 0;
    for (uint32_t j = 0; j < sc->nfailed && used < sizeof v; j++)
      used += (size_t)snprintf(v + used, sizeof v - used, "%s%s-%s", j ? ", " : "",
                               sc->failed[j].a, sc->failed[j].b);
    const sc_group_t *g = &sc->groups[f[i].group];
    sc_key_error(sc, sc->failed_line, "topology", "failed_links", v, err, errlen,
                 "%s cannot reach %s (pattern %s of [traffic%s%s]): no working path; allowed: "
                 "failed links that leave every source connected to its destinations",
                 topo_name(t, a, na, sizeof na), topo_name(t, b, nb, sizeof nb),
                 sc_pattern_name(g->pattern), strcmp(g->name, "main") ? "." : "",
                 strcmp(g->name, "main") ? g->name : "");
    free(comp);
    return -1;
  }
  free(comp);
  return 0;
}

int flows_build(const lfc_scenario_t *sc, const topo_t *t, flows_t *fl, char *err, size_t errlen) {
  memset(fl, 0, sizeof *fl);
  vec_t v = {0};
  gvec_t gates = {0};
  uint32_t hk = sc->host_div;
  for (uint32_t gi = 0; gi < sc->ngroups; gi++) {
    const sc_group_t *g = &sc->groups[gi];
    flow_t proto;
    memset(&proto, 0, sizeof proto);
    proto.group = gi;
    proto.cls = (uint8_t)g->cls;
    proto.nblk = (uint8_t)((g->packet_bytes + LFC_BLOCK_BYTES - 1u) / LFC_BLOCK_BYTES);
    proto.pkt_bytes = (uint16_t)g->packet_bytes;
    proto.ecn = g->ecn || g->dcqcn ? LFC_ECN_ECT0 : LFC_ECN_NOT_ECT; /* DCQCN needs ECT */
    proto.dcqcn = (uint8_t)g->dcqcn;
    proto.bytes = g->bytes;
    proto.start = sc_us_to_cycles(sc, g->start_us);
    proto.stop = g->stop_us > 0 ? sc_us_to_cycles(sc, g->stop_us) : SIM_NEVER;
    proto.on = sc_us_to_cycles(sc, g->on_us);
    proto.off = sc_us_to_cycles(sc, g->off_us);
    if (proto.off > 0 && proto.on == 0) proto.on = 1;
    proto.interval_x1024 = line_x1024(sc, g->packet_bytes, hk) * PPM / g->load_ppm;
    proto.lead = sc->sw[0].wire_time && g->load_ppm >= PPM;
    proto.rate_ppm = PPM;
    uint32_t N = g->nsrc;
    const uint32_t *H = g->src;
    switch (g->pattern) {
      case PAT_FLOW:
      case PAT_INCAST:
      case PAT_UNIFORM:
        for (uint32_t i = 0; i < N; i++) {
          flow_t *f = add(&v);
          if (!f) NOMEM();
          *f = proto;
          f->src = H[i];
          f->dst = g->pattern == PAT_UNIFORM ? FLOW_ANY_DST : g->dst;
        }
        break;
      case PAT_PERMUTATION: {
        uint32_t *perm = malloc((size_t)N * sizeof *perm);
        if (!perm) NOMEM();
        for (uint32_t i = 0; i < N; i++) perm[i] = i;
        uint64_t rng = sc->seed * 0x9E3779B97F4A7C15ull + gi + 1u;
        for (uint32_t i = N - 1; i > 0; i--) { /* Fisher-Yates */
          uint32_t j = (uint32_t)(sim_rand(&rng) % (i + 1u));
          uint32_t x = perm[i];
          perm[i] = perm[j];
          perm[j] = x;
        }
        for (uint32_t i = 0; i < N; i++) /* no host sends to itself */
          if (perm[i] == i) {
            uint32_t j = (i + 1u) % N, x = perm[i];
            perm[i] = perm[j];
            perm[j] = x;
          }
        for (uint32_t i = 0; i < N; i++) {
          flow_t *f = add(&v);
          if (!f) {
            free(perm);
            NOMEM();
          }
          *f = proto;
          f->src = H[i];
          f->dst = H[perm[i]];
        }
        free(perm);
        break;
      }
      case PAT_ALL_TO_ALL:
        for (uint32_t i = 0; i < N; i++)
          for (uint32_t j = 0; j < N; j++) {
            if (i == j) continue;
            flow_t *f = add(&v);
            if (!f) NOMEM();
            *f = proto;
            f->src = H[i];
            f->dst = H[(i + j) % N]; /* staggered: host i starts with i+1 */
          }
        break;
      case PAT_RING_ALLREDUCE:
      case PAT_TREE_ALLREDUCE:
      case PAT_SHARP: {
        coll_t c = {H, N, g->bytes, g->chunk_bytes};
        if (coll_flows(t, g->pattern, &c, &proto, &v, err, errlen) != 0) goto fail;
        break;
      }
      case PAT_DDP:
        if (ddp_flows(sc, t, g, &proto, &v, &gates, err, errlen) != 0) goto fail;
        break;
      case PAT_POISSON:
        if (poisson_flows(sc, gi, g, &proto, hk, &v, err, errlen) != 0) goto fail;
        break;
      default:
        if (err && errlen)
          snprintf(err, errlen, "%s: [traffic.%s] pattern = %s: internal error: no generator",
                   sc->file, g->name, sc_pattern_name(g->pattern)); /* every pattern has one */
        goto fail;
    }
  }
  fl->f = v.f;
  fl->n = v.n;
  fl->gate = gates.g;
  fl->ngates = gates.n;
  if (check_connected(sc, t, fl->f, fl->n, err, errlen) != 0) goto fail;
  fl->by_host = calloc(t->nendpoints, sizeof *fl->by_host);
  fl->nby_host = calloc(t->nendpoints, sizeof *fl->nby_host);
  if (!fl->by_host || !fl->nby_host) NOMEM();
  for (uint32_t i = 0; i < fl->n; i++) fl->nby_host[fl->f[i].src]++;
  for (uint32_t h = 0; h < t->nendpoints; h++) {
    fl->by_host[h] = calloc(fl->nby_host[h] + 1u, sizeof **fl->by_host);
    if (!fl->by_host[h]) NOMEM();
    fl->nby_host[h] = 0;
  }
  for (uint32_t i = 0; i < fl->n; i++) {
    flow_t *f = &fl->f[i];
    fl->by_host[f->src][fl->nby_host[f->src]++] = i;
    f->rng = sc->seed * 0xD1B54A32D192ED03ull + i + 1u;
    f->next_x1024 = f->start * X1024;
    f->first_tx = f->done_cycle = SIM_NEVER;
  }
  return 0;
fail:
  fl->f = v.f;
  fl->n = v.n;
  fl->gate = gates.g;
  fl->ngates = gates.n;
  flows_free(fl, t->nendpoints);
  return -1;
}

void flows_free(flows_t *fl, uint32_t nhosts) {
  for (uint32_t i = 0; i < fl->n; i++) {
    free(fl->f[i].succ);
    latsum_free(&fl->f[i].lat);
    free(fl->f[i].dc_cnp);
    for (uint32_t h = 0; h < FLOW_MAX_HOPS; h++) latsum_free(&fl->f[i].hlat[h]);
  }
  free(fl->f);
  for (uint32_t i = 0; i < fl->ngates; i++) {
    free(fl->gate[i].succ);
    free(fl->gate[i].delay);
  }
  free(fl->gate);
  if (fl->by_host)
    for (uint32_t h = 0; h < nhosts; h++) free(fl->by_host[h]);
  free(fl->by_host);
  free(fl->nby_host);
  memset(fl, 0, sizeof *fl);
}
