/*
 * topology.c - line, ring, star, leaf-spine, 3-tier fat tree (Al-Fares et al., SIGCOMM 2008) and
 * rail-optimized fabrics as a graph of switches, hosts and cables.
 *
 * Cable delay: 5 ns per metre of cable, in cycles of one 64-byte block at the fastest link
 * (SPEC §1.2), at least 1 (SPEC §12.1). Speed divider of a port: fastest speed / its speed.
 */
#define _POSIX_C_SOURCE 200809L
#include "topology.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NS_PER_M 5.0

#define TERR(...)                                              \
  do {                                                         \
    if (err && errlen) snprintf(err, errlen, __VA_ARGS__);     \
    return 0;                                                  \
  } while (0)

int topo_has_ae(const lfc_scenario_t *sc) {
  for (uint32_t i = 0; i < sc->ngroups; i++)
    if (sc->groups[i].pattern == PAT_SHARP ||
        (sc->groups[i].pattern == PAT_DDP && sc->groups[i].collective == PAT_SHARP))
      return 1;
  return 0;
}

typedef struct {
  topo_t *t;
  const lfc_scenario_t *sc;
  uint32_t sw_delay, host_delay, sw_div, host_div;
  uint32_t next_host; /* hosts joined so far */
} builder_t;

static void connect(builder_t *b, uint32_t a, uint32_t pa, uint32_t c, uint32_t pc, int host) {
  topo_t *t = b->t;
  topo_link_t *l = &t->links[t->nlinks];
  l->a = a;
  l->pa = pa;
  l->b = c;
  l->pb = pc;
  l->delay = host ? b->host_delay : b->sw_delay;
  l->speed_div = host ? b->host_div : b->sw_div;
  l->failed = 0;
  t->port_link[(size_t)a * LFC_MAX_PORTS + pa] = (int32_t)t->nlinks;
  t->port_link[(size_t)c * LFC_MAX_PORTS + pc] = (int32_t)t->nlinks;
  t->nlinks++;
}

/* The next host, on port `port` of switch sw. */
static void host(builder_t *b, uint32_t sw, uint32_t port) {
  topo_t *t = b->t;
  uint32_t h = b->next_host++;
  t->host_sw[h] = sw;
  t->host_port[h] = port;
  connect(b, sw, port, t->nsw + h, 0, 1);
}

/* ---- The kinds of topology: one table of operations each (topo_ops_t) ---- */

/* The shape of a fabric of one kind, before any AE port (topo_has_ae) is added. */
typedef struct {
  uint32_t radix[SC_MAX_ROLES]; /* ports per switch of each role */
  uint32_t count[SC_MAX_ROLES]; /* switches of each role */
  uint64_t hosts;
} shape_t;

/*
 * What lfc-sim knows of one kind of topology, as BookSim's networks (one class per topology) do:
 * its roles, the check of its parameters, its shape, which cables its roles have, and how its
 * nodes are joined. Every function that depends on the kind goes through this table.
 */
typedef struct {
  const char *roles[SC_MAX_ROLES];
  uint32_t nroles;
  /* The parameters make a fabric: 0, or -1 with err. */
  int (*check)(const lfc_scenario_t *sc, char *err, size_t errlen);
  void (*shape)(const lfc_scenario_t *sc, shape_t *s);
  /* Whether the switches of `role` have cables to hosts, to other switches. */
  void (*cables)(const lfc_scenario_t *sc, uint32_t role, int *hosts, int *switches);
  /* Join the switches (ids by role, in order) and the hosts (host() numbers them). */
  void (*wire)(builder_t *b);
} topo_ops_t;

static int no_check(const lfc_scenario_t *sc, char *err, size_t errlen) {
  (void)sc, (void)err, (void)errlen;
  return 0;
}

/* Line and ring: `switches` switches in a row, each with hosts_per_switch hosts; port H goes
   left (i-1), port H+1 right (i+1); a ring joins the last to the first. */
/* At least `min` switches in a row: 0, or -1 with err naming the kind. */
static int row_check(const lfc_scenario_t *sc, uint32_t min, const char *kind, char *err,
                     size_t errlen) {
  if (sc->switches >= min) return 0;
  if (err && errlen)
    snprintf(err, errlen, "%s: [topology] switches = %u: a %s needs %u or more", sc->file,
             sc->switches, kind, min);
  return -1;
}

static int line_check(const lfc_scenario_t *sc, char *err, size_t errlen) {
  return row_check(sc, 1u, "line", err, errlen);
}

/* A ring of two would join the same two switches twice. */
static int ring_check(const lfc_scenario_t *sc, char *err, size_t errlen) {
  return row_check(sc, 3u, "ring", err, errlen);
}

static void line_shape(const lfc_scenario_t *sc, shape_t *s) {
  s->radix[0] = sc->hosts_per_switch + (sc->switches > 1 ? 2u : 0u);
  s->count[0] = sc->switches;
  s->hosts = (uint64_t)sc->switches * sc->hosts_per_switch;
}

static void line_cables(const lfc_scenario_t *sc, uint32_t role, int *hosts, int *switches) {
  (void)role;
  *hosts = sc->hosts_per_switch > 0;
  *switches = sc->switches > 1;
}

static void ring_cables(const lfc_scenario_t *sc, uint32_t role, int *hosts, int *switches) {
  (void)role;
  *hosts = sc->hosts_per_switch > 0;
  *switches = 1;
}

static void line_wire(builder_t *b) {
  uint32_t S = b->sc->switches, H = b->sc->hosts_per_switch;
  for (uint32_t i = 0; i < S; i++)
    for (uint32_t p = 0; p < H; p++) host(b, i, p);
  for (uint32_t i = 0; i + 1 < S; i++) connect(b, i, H + 1, i + 1, H, 0);
}

static void ring_wire(builder_t *b) {
  line_wire(b);
  uint32_t S = b->sc->switches, H = b->sc->hosts_per_switch;
  connect(b, S - 1, H + 1, 0, H, 0);
}

/* Star: one switch, hosts_per_switch hosts. */
static void star_shape(const lfc_scenario_t *sc, shape_t *s) {
  s->radix[0] = sc->hosts_per_switch;
  s->count[0] = 1;
  s->hosts = sc->hosts_per_switch;
}

static void star_cables(const lfc_scenario_t *sc, uint32_t role, int *hosts, int *switches) {
  (void)role;
  *hosts = sc->hosts_per_switch > 0;
  *switches = 0;
}

static void star_wire(builder_t *b) {
  for (uint32_t p = 0; p < b->sc->hosts_per_switch; p++) host(b, 0, p);
}

/* Two tiers and more (leaf-spine, fat tree, rail-optimized): hosts on the first role only. */
static void tier_cables(const lfc_scenario_t *sc, uint32_t role, int *hosts, int *switches) {
  (void)sc;
  *hosts = role == 0u;
  *switches = 1;
}

/* Leaf-spine: each leaf has hosts_per_leaf hosts and spine_links cables to each spine. */
static void leaf_spine_shape(const lfc_scenario_t *sc, shape_t *s) {
  s->radix[0] = sc->hosts_per_leaf + sc->spines * sc->spine_links;
  s->radix[1] = sc->leaves * sc->spine_links;
  s->count[0] = sc->leaves;
  s->count[1] = sc->spines;
  s->hosts = (uint64_t)sc->leaves * sc->hosts_per_leaf;
}

static void leaf_spine_wire(builder_t *b) {
  const lfc_scenario_t *sc = b->sc;
  uint32_t L = sc->leaves, P = sc->spines, H = sc->hosts_per_leaf, m = sc->spine_links;
  for (uint32_t l = 0; l < L; l++)
    for (uint32_t p = 0; p < H; p++) host(b, l, p);
  for (uint32_t l = 0; l < L; l++)
    for (uint32_t j = 0; j < P; j++)
      for (uint32_t i = 0; i < m; i++) connect(b, l, H + j * m + i, L + j, l * m + i, 0);
}

/* 3-tier fat tree of k-port switches (Al-Fares et al., SIGCOMM 2008): k pods of k/2 edge and
   k/2 aggregation switches, (k/2)^2 core switches, k^3/4 hosts. */
static void fat_tree_shape(const lfc_scenario_t *sc, shape_t *s) {
  s->radix[0] = s->radix[1] = s->radix[2] = sc->k;
  s->count[0] = s->count[1] = sc->k * sc->k / 2u;
  s->count[2] = sc->k * sc->k / 4u;
  s->hosts = (uint64_t)sc->k * sc->k * sc->k / 4u;
}

static void fat_tree_wire(builder_t *b) {
  uint32_t k = b->sc->k, h = k / 2u, E = k * h, A = k * h;
  for (uint32_t e = 0; e < E; e++)
    for (uint32_t p = 0; p < h; p++) host(b, e, p);
  for (uint32_t pod = 0; pod < k; pod++)
    for (uint32_t i = 0; i < h; i++)   /* edge i of the pod */
      for (uint32_t j = 0; j < h; j++) /* agg j of the pod */
        connect(b, pod * h + i, h + j, E + pod * h + j, i, 0);
  for (uint32_t pod = 0; pod < k; pod++)
    for (uint32_t j = 0; j < h; j++)
      for (uint32_t c = 0; c < h; c++) /* core j*h+c, port pod */
        connect(b, E + pod * h + j, h + c, E + A + j * h + c, pod, 0);
}

/* Rail-optimized: `servers` servers of `rails` NICs, NIC r of each on rail (leaf) r; spines
   above the rails. */
static void rail_shape(const lfc_scenario_t *sc, shape_t *s) {
  s->radix[0] = sc->servers + sc->spines;
  s->radix[1] = sc->rails;
  s->count[0] = sc->rails;
  s->count[1] = sc->spines;
  s->hosts = (uint64_t)sc->servers * sc->rails;
}

static void rail_wire(builder_t *b) {
  uint32_t R = b->sc->rails, S = b->sc->servers, P = b->sc->spines;
  for (uint32_t sv = 0; sv < S; sv++) /* host sv*R + r: NIC r of server sv, on rail r */
    for (uint32_t r = 0; r < R; r++) host(b, r, sv);
  for (uint32_t r = 0; r < R; r++)
    for (uint32_t j = 0; j < P; j++) connect(b, r, S + j, R + j, r, 0);
}

static const topo_ops_t OPS[TOPO_KINDS] = {
    [TOPO_LINE] = {{"sw"}, 1, line_check, line_shape, line_cables, line_wire},
    [TOPO_RING] = {{"sw"}, 1, ring_check, line_shape, ring_cables, ring_wire},
    [TOPO_STAR] = {{"sw"}, 1, no_check, star_shape, star_cables, star_wire},
    [TOPO_LEAF_SPINE] = {{"leaf", "spine"}, 2, no_check, leaf_spine_shape, tier_cables,
                         leaf_spine_wire},
    [TOPO_FAT_TREE] = {{"edge", "agg", "core"}, 3, no_check, fat_tree_shape, tier_cables,
                       fat_tree_wire},
    [TOPO_RAIL] = {{"leaf", "spine"}, 2, no_check, rail_shape, tier_cables, rail_wire},
};

/* The kind's table, or NULL for a kind lfc-sim does not have. */
static const topo_ops_t *ops_of(const lfc_scenario_t *sc) {
  return sc->topo < TOPO_KINDS ? &OPS[sc->topo] : NULL;
}

/* The roles, their shape with the AE port, checked: the number of roles, or 0 with err. */
static uint32_t shape_of(const lfc_scenario_t *sc, const topo_ops_t *ops, shape_t *s, char *err,
                         size_t errlen) {
  const char *f = sc->file;
  memset(s, 0, sizeof *s);
  if (ops == NULL) TERR("%s: [topology] kind: unknown", f);
  if (ops->check(sc, err, errlen) != 0) return 0;
  ops->shape(sc, s);
  for (uint32_t r = 0; r < ops->nroles; r++) {
    s->radix[r] += topo_has_ae(sc) ? 1u : 0u; /* the aggregation engine's port */
    if (s->radix[r] < 2u || s->radix[r] > LFC_MAX_PORTS)
      TERR("%s: [topology] kind = %s: a %s switch would have %u ports; allowed: 2..%u", f,
           sc_topo_name(sc->topo), ops->roles[r], s->radix[r], LFC_MAX_PORTS);
  }
  if (s->hosts < 1u || s->hosts > 65535u)
    TERR("%s: [topology] kind = %s: %llu hosts; allowed: 1..65535", f, sc_topo_name(sc->topo),
         (unsigned long long)s->hosts);
  uint64_t nsw = 0;
  for (uint32_t r = 0; r < ops->nroles; r++) nsw += s->count[r];
  uint64_t nae = topo_has_ae(sc) ? nsw : 0u; /* an AE per switch */
  if (s->hosts + nae > TOPO_MAX_ENDPOINTS)
    TERR("%s: [topology] kind = %s: %llu hosts and %llu aggregation engines (pattern sharp, an "
         "engine per switch); allowed: up to %u end nodes, the addresses of a 16-bit dst (SPEC "
         "§2)", f, sc_topo_name(sc->topo), (unsigned long long)s->hosts, (unsigned long long)nae,
         TOPO_MAX_ENDPOINTS);
  uint64_t nodes = nsw + s->hosts + nae;
  if (nodes > TOPO_MAX_NODES)
    TERR("%s: [topology]: %llu nodes; allowed up to %u", f, (unsigned long long)nodes,
         TOPO_MAX_NODES);
  return ops->nroles;
}

uint32_t topo_roles(const lfc_scenario_t *sc, const char **names, uint32_t *radix, uint64_t *hosts,
                    char *err, size_t errlen) {
  const topo_ops_t *ops = ops_of(sc);
  shape_t s;
  uint32_t n = shape_of(sc, ops, &s, err, errlen);
  for (uint32_t r = 0; r < n; r++) {
    names[r] = ops->roles[r];
    radix[r] = s.radix[r];
  }
  *hosts = s.hosts;
  return n;
}

/* The delay of a cable of `metres`: 5 ns/m in cycles, rounded up, at least 1 (SPEC §12.1). */
static uint32_t cable_delay(const lfc_scenario_t *sc, double metres) {
  return (uint32_t)sc_ns_to_cycles(sc, metres * NS_PER_M);
}

/* The AE's cable: inside the switch, one cycle (topo_build). */
#define AE_DELAY 1u

uint32_t topo_role_cables(const lfc_scenario_t *sc, uint32_t role, topo_cable_t out[TOPO_PEERS]) {
  int hosts = 0, switches = 0;
  const topo_ops_t *ops = ops_of(sc);
  if (ops != NULL) ops->cables(sc, role, &hosts, &switches);
  uint32_t n = 0;
  if (hosts)
    out[n++] = (topo_cable_t){TOPO_PEER_HOST, cable_delay(sc, sc->host_cable_m), sc->host_div};
  if (switches)
    out[n++] = (topo_cable_t){TOPO_PEER_SWITCH, cable_delay(sc, sc->cable_m), sc->sw_div};
  if (topo_has_ae(sc)) out[n++] = (topo_cable_t){TOPO_PEER_AE, AE_DELAY, sc->ae_div};
  return n;
}

int topo_build(const lfc_scenario_t *sc, topo_t *t, char *err, size_t errlen) {
  memset(t, 0, sizeof *t);
  const topo_ops_t *ops = ops_of(sc);
  shape_t shape;
  uint32_t nroles = shape_of(sc, ops, &shape, err, errlen);
  if (nroles == 0) return -1;
  uint32_t nsw = 0;
  for (uint32_t r = 0; r < nroles; r++) nsw += shape.count[r];
  t->nsw = nsw;
  t->nhosts = (uint32_t)shape.hosts;
  t->nae = topo_has_ae(sc) ? nsw : 0u;
  t->nendpoints = t->nhosts + t->nae;
  t->nnodes = nsw + t->nendpoints; /* <= TOPO_MAX_NODES (shape_of) */
  for (uint32_t r = 0; r < nroles; r++) t->role_name[r] = ops->roles[r];
  t->role = calloc(nsw, 1);
  t->index = calloc(nsw, sizeof *t->index);
  t->nports = calloc(t->nnodes, sizeof *t->nports);
  t->port_link = malloc((size_t)t->nnodes * LFC_MAX_PORTS * sizeof *t->port_link);
  size_t maxlinks = (size_t)t->nnodes * LFC_MAX_PORTS / 2u + 1u;
  t->links = calloc(maxlinks, sizeof *t->links);
  t->host_sw = calloc(t->nendpoints, sizeof *t->host_sw);
  t->host_port = calloc(t->nendpoints, sizeof *t->host_port);
  if (!t->role || !t->index || !t->nports || !t->port_link || !t->links || !t->host_sw ||
      !t->host_port) {
    if (err && errlen) snprintf(err, errlen, "topology: out of memory");
    topo_free(t);
    return -1;
  }
  for (size_t i = 0; i < (size_t)t->nnodes * LFC_MAX_PORTS; i++) t->port_link[i] = -1;
  uint32_t s = 0;
  for (uint32_t r = 0; r < nroles; r++)
    for (uint32_t i = 0; i < shape.count[r]; i++, s++) {
      t->role[s] = (uint8_t)r;
      t->index[s] = i;
      t->nports[s] = shape.radix[r];
    }
  for (uint32_t h = 0; h < t->nendpoints; h++) t->nports[nsw + h] = 1;

  builder_t b = {t, sc, cable_delay(sc, sc->cable_m), cable_delay(sc, sc->host_cable_m),
                 sc->sw_div, sc->host_div, 0};
  ops->wire(&b);
  for (uint32_t sw = 0; sw < t->nae; sw++) { /* AE inside the switch: one cycle away */
    uint32_t e = t->nhosts + sw, port = t->nports[sw] - 1u;
    t->host_sw[e] = sw;
    t->host_port[e] = port;
    uint32_t hd = b.host_delay, hdiv = b.host_div;
    b.host_delay = AE_DELAY;
    b.host_div = sc->ae_div;
    connect(&b, sw, port, nsw + e, 0, 1);
    b.host_delay = hd;
    b.host_div = hdiv;
  }
  for (uint32_t i = 0; i < sc->nfailed; i++) {
    int64_t a = topo_find(t, sc->failed[i].a), c = topo_find(t, sc->failed[i].b);
    int found = 0;
    for (uint32_t l = 0; l < t->nlinks && a >= 0 && c >= 0; l++) {
      topo_link_t *lk = &t->links[l];
      if (!lk->failed && ((lk->a == a && lk->b == c) || (lk->a == c && lk->b == a))) {
        lk->failed = 1;
        found = 1;
        break;
      }
    }
    if (!found) {
      char v[2 * SC_NAME_LEN + 1];
      snprintf(v, sizeof v, "%s-%s", sc->failed[i].a, sc->failed[i].b);
      sc_key_error(sc, sc->failed_line, "topology", "failed_links", v, err, errlen,
                   "no such cable; allowed: two adjacent nodes (e.g. leaf0-spine1), a pair "
                   "at most as often as cables join them");
      topo_free(t);
      return -1;
    }
  }
  return 0;
}

void topo_free(topo_t *t) {
  free(t->role);
  free(t->index);
  free(t->nports);
  free(t->port_link);
  free(t->links);
  free(t->host_sw);
  free(t->host_port);
  memset(t, 0, sizeof *t);
}

int64_t topo_find(const topo_t *t, const char *name) {
  char *end;
  if (name[0] == 'h' && name[1] >= '0' && name[1] <= '9') {
    unsigned long h = strtoul(name + 1, &end, 10);
    return *end == '\0' && h < t->nhosts ? (int64_t)(t->nsw + h) : -1;
  }
  for (uint32_t s = 0; s < t->nsw; s++) {
    const char *rn = t->role_name[t->role[s]];
    size_t l = strlen(rn);
    if (strncmp(name, rn, l) != 0 || name[l] < '0' || name[l] > '9') continue;
    unsigned long i = strtoul(name + l, &end, 10);
    if (*end == '\0' && i == t->index[s]) return s;
  }
  return -1;
}

const char *topo_name(const topo_t *t, uint32_t node, char *buf, size_t len) {
  if (node >= t->nsw + t->nhosts) {
    uint32_t sw = node - t->nsw - t->nhosts;
    snprintf(buf, len, "ae.%s%u", t->role_name[t->role[sw]], t->index[sw]);
  } else if (node >= t->nsw)
    snprintf(buf, len, "h%u", node - t->nsw);
  else
    snprintf(buf, len, "%s%u", t->role_name[t->role[node]], t->index[node]);
  return buf;
}

const char *topo_link_name(const topo_t *t, uint32_t l, char *buf, size_t len) {
  char a[64], b[64];
  const topo_link_t *lk = &t->links[l];
  snprintf(buf, len, "%s.%u-%s.%u", topo_name(t, lk->a, a, sizeof a), lk->pa,
           topo_name(t, lk->b, b, sizeof b), lk->pb);
  return buf;
}

int64_t topo_peer(const topo_t *t, uint32_t node, uint32_t port, uint32_t *peer_port) {
  int32_t l = t->port_link[(size_t)node * LFC_MAX_PORTS + port];
  if (l < 0 || t->links[l].failed) return -1;
  const topo_link_t *lk = &t->links[l];
  if (lk->a == node && lk->pa == port) {
    *peer_port = lk->pb;
    return lk->b;
  }
  *peer_port = lk->pa;
  return lk->a;
}

uint32_t *topo_components(const topo_t *t) {
  uint32_t *comp = malloc((size_t)t->nnodes * sizeof *comp);
  uint32_t *queue = malloc((size_t)t->nnodes * sizeof *queue);
  if (comp == NULL || queue == NULL) {
    free(comp);
    free(queue);
    return NULL;
  }
  for (uint32_t v = 0; v < t->nnodes; v++) comp[v] = UINT32_MAX;
  for (uint32_t root = 0; root < t->nnodes; root++) {
    if (comp[root] != UINT32_MAX) continue;
    uint32_t head = 0, tail = 0;
    comp[root] = root;
    queue[tail++] = root;
    while (head < tail) {
      uint32_t v = queue[head++];
      for (uint32_t p = 0; p < t->nports[v]; p++) {
        uint32_t pp;
        int64_t n = topo_peer(t, v, p, &pp);
        if (n < 0 || comp[n] != UINT32_MAX) continue;
        comp[n] = root;
        queue[tail++] = (uint32_t)n;
      }
    }
  }
  free(queue);
  return comp;
}
