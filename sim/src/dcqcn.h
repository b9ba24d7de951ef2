/*
 * dcqcn.h - DCQCN (Zhu et al., "Congestion Control for Large-Scale RDMA Deployments",
 * SIGCOMM 2015, §3): the notification point (NP) at the receiving host and the reaction point
 * (RP) at the sending host of a RoCEv2 flow. The congestion point is the switch's ECN marking
 * (SPEC §9).
 *
 * NP: a packet delivered with CE makes a CNP for its flow unless one was made less than
 * cnp_gap cycles before. CNPs are not packets in the fabric: each reaches the RP cnp_delay
 * cycles after the marked packet arrived (the reverse path's latency, a scenario parameter).
 *
 * RP, per flow, with rates as fractions of the flow's line rate:
 *  - on a CNP: target = current; current *= 1 - alpha/2; alpha = (1-g) alpha + g; the timer,
 *    the byte counter and both stage counts restart;
 *  - every alpha_cycles without a CNP: alpha *= 1 - g;
 *  - every timer_cycles, and every byte_counter bytes sent, since the last CNP: the timer or
 *    byte stage counts up and the rate rises: while both stages are below f, fast recovery
 *    (current = (target + current) / 2); once both exceed f, hyper increase (target += rhai);
 *    otherwise additive increase (target += rai); then current = (target + current) / 2.
 * The state is a function of time, brought up to a cycle by dcqcn_catch_up; it is read only
 * when the flow sends, so skip-ahead and stepping every cycle see the same rates.
 */
#ifndef LFC_SIM_DCQCN_H
#define LFC_SIM_DCQCN_H

#include <stdint.h>

#include "scenario.h"
#include "traffic.h"

typedef struct {
  double g, rai, rhai, min_rate; /* rates: fractions of line rate */
  uint64_t alpha_cycles, timer_cycles, cnp_gap, cnp_delay;
  uint64_t byte_counter;
  uint32_t f;
  uint32_t queue_cap; /* CNPs that can be on their way at once: cnp_delay / cnp_gap + 2 */
} dcqcn_cfg_t;

/* From the scenario's [dcqcn] section; line_gbps is the hosts' link speed. */
void dcqcn_cfg(const lfc_scenario_t *sc, double line_gbps, dcqcn_cfg_t *cfg);
/* Set up a flow's RP (at line rate, alpha 1). 0, or -1 out of memory. */
int dcqcn_init(const dcqcn_cfg_t *cfg, flow_t *f);
/* NP: the flow's packet arrived with CE at cycle t. */
void dcqcn_on_ce(const dcqcn_cfg_t *cfg, flow_t *f, uint64_t t);
/* RP: apply every CNP and timer at or before cycle t (t never decreases). */
void dcqcn_catch_up(const dcqcn_cfg_t *cfg, flow_t *f, uint64_t t);
/* RP: the flow sent `bytes` (after dcqcn_catch_up to the same cycle). */
void dcqcn_on_send(const dcqcn_cfg_t *cfg, flow_t *f, uint32_t bytes);

#endif /* LFC_SIM_DCQCN_H */
