/*
 * routing.h - per-switch route tables (SPEC §7.1: route[dst] = egress port).
 *
 * ECMP without changing the SPEC: host h has `ways` addresses, dst = h * ways + choice. A flow
 * picks its choice by hashing (src, dst, flow id); each switch deals the choices out to its n
 * equal-cost next hops in an order of its own (a hash of (switch, choice)), ways / n to each, give
 * or take one (routing.c "ECMP"). Explicit paths ([routing] path) then
 * overwrite the entries of their destination on the switches they name.
 */
#ifndef LFC_SIM_ROUTING_H
#define LFC_SIM_ROUTING_H

#include <stdint.h>

#include "scenario.h"
#include "topology.h"

/* A route table entry: an egress port, in a byte (lfc_switch_cfg_t.route). */
typedef uint8_t route_port_t;
_Static_assert(LFC_MAX_PORTS <= UINT8_MAX + 1, "a route_port_t holds every port");

typedef struct {
  route_port_t **table; /* per switch, len entries; switches with equal tables share one */
  uint8_t *shared;       /* per switch: 1 if its table is an earlier switch's (routes_free) */
  uint32_t len;          /* nhosts * ways */
  uint32_t ways;
  uint8_t *reach;        /* per (switch, host): 1 if the switch has a path to the host */
} routes_t;

int routes_build(const lfc_scenario_t *sc, const topo_t *t, routes_t *r, char *err, size_t errlen);
/* The addresses per endpoint: [routing] ecmp, fewer where nendpoints of them would not fit a
   16-bit dst (SPEC §2); at least 1 (a scenario that loads has at most TOPO_MAX_ENDPOINTS). */
uint32_t routes_ways(const lfc_scenario_t *sc, uint32_t nendpoints);
void routes_free(routes_t *r, uint32_t nsw);

/* Deterministic 32-bit mixing (the finaliser of MurmurHash3, public domain). */
static inline uint32_t sim_mix32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x85ebca6bu;
  x ^= x >> 13;
  x *= 0xc2b2ae35u;
  x ^= x >> 16;
  return x;
}

#endif /* LFC_SIM_ROUTING_H */
