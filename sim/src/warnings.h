/*
 * warnings.h - lfc-sim's warnings at load (docs/sim.md "Warnings"): a receive buffer below what
 * the calculators (calc.h) say its cable needs. Not errors: a scenario may want a short buffer
 * (to show drops, or a deadlock sooner); the run goes on and its exit status is unchanged.
 *
 * For every working cable into a receiver, with the receiver's configuration:
 *  - PFC, a switch port with a lossless priority: headroom_blocks below the headroom
 *    calculator's figure for the cable (lfc_headroom_blocks: SPEC §11, R the sender's reaction
 *    time: the hosts' response_ns for a host or aggregation engine, 0 for an lfc switch);
 *  - IB, a switch port: a data VL's vl_blocks below the credit loop of the cable
 *    (lfc_credit_blocks_switch), the credits it needs to run at line rate;
 *  - an end node with a limited receive buffer ([host] rx_blocks > 0): PFC, its headroom
 *    rx_blocks - rx_xoff below lfc_headroom_blocks with R = 0 (the sender is a switch); IB,
 *    rx_blocks below the end node's credit loop (lfc_credit_blocks).
 * Cables alike (same receiver role or end node, same figure) make one warning, which names the
 * first such cable and how many more there are. Each is one line in the style of the load
 * errors, "file:line: warning: [section] key = value: ...", at the line of the key (the file
 * alone for a value not given).
 */
#ifndef LFC_SIM_WARNINGS_H
#define LFC_SIM_WARNINGS_H

#include <stdint.h>

#include "scenario.h"
#include "topology.h"

/* Called with each warning, one line without its newline. */
typedef void (*sim_warn_fn)(void *ctx, const char *line);

/* The warnings of a loaded scenario over its built topology; returns how many there were. */
uint32_t sim_warnings(const lfc_scenario_t *sc, const topo_t *t, sim_warn_fn fn, void *ctx);

#endif /* LFC_SIM_WARNINGS_H */
