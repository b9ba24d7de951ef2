/*
 * partition.h - which lane (thread) steps which device (docs/sim.md "Threads").
 *
 * Only the speed depends on it: results are the same for any split (engine.c "Lanes").
 */
#ifndef LFC_SIM_PARTITION_H
#define LFC_SIM_PARTITION_H

#include <stdint.h>

#include "topology.h"

/*
 * Split the topology's nodes into nlanes (>= 1) runs of about equal weight (a node's ports:
 * the work of a step grows with them) that keep neighbours together: nodes are ordered by a
 * position, an endpoint's index or the mean position of the neighbours one level nearer the
 * endpoints (an edge switch sits by its hosts, an aggregation switch by its pod, a core
 * switch in the middle), and cut into contiguous runs. lane[node] gets 0..nlanes-1: a node
 * goes to the lane in whose share of the ports its middle falls, so each lane's ports are
 * within one node's ports (the most any node has) of total / nlanes. The same topology always
 * gives the same lanes. 0, or -1 if out of memory.
 */
int partition_nodes(const topo_t *t, uint32_t nlanes, uint32_t *lane);

#endif /* LFC_SIM_PARTITION_H */
