/*
 * topology.h - the fabric graph of a scenario: switches, hosts and the cables between them.
 *
 * Node ids: switches 0..nsw-1, then hosts nsw..nsw+nhosts-1 (host h is node nsw + h). Every
 * cable joins (a, pa) and (b, pb) and carries a word each way with the same delay (SPEC §12.1).
 * Port layouts per topology are in docs/sim.md.
 */
#ifndef LFC_SIM_TOPOLOGY_H
#define LFC_SIM_TOPOLOGY_H

#include <stdint.h>

#include "scenario.h"

/* Nodes (switches, hosts, aggregation engines) a fabric may have: refused at load above it. */
#define TOPO_MAX_NODES 200000u
/* End nodes (hosts, aggregation engines): each needs an address of the 16-bit dst (SPEC §2). */
#define TOPO_MAX_ENDPOINTS 65536u

typedef struct {
  uint32_t a, pa, b, pb;
  uint32_t delay;    /* cycles, each direction */
  uint32_t speed_div; /* SPEC §1.2, the same at both ends */
  uint8_t failed;
} topo_link_t;

typedef struct {
  uint32_t nsw, nhosts, nnodes;
  /* In-network aggregation (a [traffic] group with pattern sharp): every switch gets one more
     port, its last, joined to an aggregation engine (AE) node, nsw + nhosts + switch. AEs are
     end nodes like hosts (endpoint nhosts + switch) but not counted as hosts. */
  uint32_t nae, nendpoints; /* nendpoints = nhosts + nae */
  uint8_t *role;      /* per switch */
  uint32_t *index;    /* per switch: number within its role (leaf3 -> 3) */
  uint32_t *nports;   /* per node: ports (switch: its role's radix; host: 1) */
  int32_t *port_link; /* node * LFC_MAX_PORTS + port -> cable, or -1 */
  topo_link_t *links;
  uint32_t nlinks;
  uint32_t *host_sw, *host_port; /* per endpoint (host, then AE): its switch and port */
  const char *role_name[SC_MAX_ROLES];
} topo_t;

/*
 * The roles of the scenario's topology, their names and radix (ports per switch of that role),
 * without building it. Returns the number of roles, or 0 with err if the parameters make no
 * fabric (e.g. a ring of 2, more than TOPO_MAX_NODES nodes or TOPO_MAX_ENDPOINTS end nodes).
 */
uint32_t topo_roles(const lfc_scenario_t *sc, const char **names, uint32_t *radix, uint64_t *hosts,
                    char *err, size_t errlen);

/* The kinds of cable into a switch (topo_role_cables): what the peer is, its delay and speed. */
typedef enum { TOPO_PEER_HOST = 0, TOPO_PEER_SWITCH, TOPO_PEER_AE, TOPO_PEERS } topo_peer_t;

typedef struct {
  topo_peer_t peer;
  uint32_t delay;     /* cycles, each direction (as topo_build makes them) */
  uint32_t speed_div; /* SPEC §1.2 */
} topo_cable_t;

/*
 * The kinds of cable the switches of role `role` have, without building the fabric (for the
 * configuration defaults that follow the links, scenario.c): at most one of each peer kind, in
 * the order host, switch, AE. Returns how many (0 for a role without cables). The scenario's
 * link speeds must be checked (lfc_scenario_finish does it first).
 */
uint32_t topo_role_cables(const lfc_scenario_t *sc, uint32_t role, topo_cable_t out[TOPO_PEERS]);

/* True if the scenario has in-network aggregation (AE nodes, see topo_t). */
int topo_has_ae(const lfc_scenario_t *sc);

/* Build the graph, mark failed links. 0, or -1 with err. */
int topo_build(const lfc_scenario_t *sc, topo_t *t, char *err, size_t errlen);
void topo_free(topo_t *t);

/* The connected parts of the fabric over its working cables: a new array, per node the lowest
   node id of its part (two nodes can reach each other iff equal), or NULL (out of memory). */
uint32_t *topo_components(const topo_t *t);

/* "leaf3", "h12": node id, or -1. */
int64_t topo_find(const topo_t *t, const char *name);
/* Name of a node into buf. */
const char *topo_name(const topo_t *t, uint32_t node, char *buf, size_t len);
/* Name of cable l after its two ends, side A (a, pa) then side B (b, pb): "A.PORT-B.PORT", e.g.
   "sw0.3-h3.0", "leaf1.8-spine0.1" (docs/sim.md "Captures"). Side A is the switch of a host's or
   an aggregation engine's cable, the lower tier's switch of a leaf-spine or fat-tree cable, and
   on a line or ring the switch whose port H + 1 it is. */
const char *topo_link_name(const topo_t *t, uint32_t l, char *buf, size_t len);
/* The node at the other end of (node, port), or -1 if unconnected or failed. */
int64_t topo_peer(const topo_t *t, uint32_t node, uint32_t port, uint32_t *peer_port);

#endif /* LFC_SIM_TOPOLOGY_H */
