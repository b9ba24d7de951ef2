/*
 * sim_unit.h - what the white-box unit tests of lfc-sim (test_topology.c, test_routing.c,
 * test_partition.c, test_deadlock.c) share: a scenario read from INI text, as a file would be
 * read (lfc_scenario_load_mem), and the fabric it describes (topo_build), or a failed test naming
 * the parser's or the builder's message. Include after <cmocka.h>.
 */
#ifndef LFC_SIM_TESTS_SIM_UNIT_H
#define LFC_SIM_TESTS_SIM_UNIT_H

#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "topology.h"

#define UNIT_ERR_LEN 512u

/* A scenario and its fabric; unit_fabric_free releases both. */
typedef struct {
  lfc_scenario_t *sc; /* about 48 KB: on the heap */
  topo_t t;
} unit_fabric_t;

/* The scenario of `ini` (a whole INI file as text), loaded and finished. */
static inline lfc_scenario_t *unit_scenario(const char *ini) {
  lfc_scenario_t *sc = calloc(1, sizeof *sc);
  char err[UNIT_ERR_LEN] = "";
  assert_non_null(sc);
  if (lfc_scenario_load_mem(ini, strlen(ini), "unit.ini", sc, err, sizeof err) != 0)
    fail_msg("scenario refused: %s\n%s", err, ini);
  return sc;
}

static inline void unit_scenario_free(lfc_scenario_t *sc) {
  lfc_scenario_free(sc);
  free(sc);
}

/* The fabric of `ini`; fails the test if the scenario or the fabric is refused. */
static inline unit_fabric_t unit_fabric(const char *ini) {
  unit_fabric_t f;
  char err[UNIT_ERR_LEN] = "";
  f.sc = unit_scenario(ini);
  if (topo_build(f.sc, &f.t, err, sizeof err) != 0) fail_msg("topo_build: %s\n%s", err, ini);
  return f;
}

static inline void unit_fabric_free(unit_fabric_t *f) {
  topo_free(&f->t);
  unit_scenario_free(f->sc);
  f->sc = NULL;
}

/* The cable on port `port` of `node`, or NULL (a port without a cable). */
static inline const topo_link_t *unit_cable(const topo_t *t, uint32_t node, uint32_t port) {
  int32_t l = t->port_link[(size_t)node * LFC_MAX_PORTS + port];
  return l < 0 ? NULL : &t->links[l];
}

#endif /* LFC_SIM_TESTS_SIM_UNIT_H */
