/*
 * dcqcn.h - DCQCN (Zhu et al., "Congestion Control for Large-Scale RDMA Deployments",
 * SIGCOMM 2015, §3) as deployed in Mellanox/NVIDIA NICs and modelled by the authors' ns-3
 * simulator (the HPCC simulator's rdma-hw.cc, "Mellanox's version of DCQCN", cc_mode 1):
 * the notification point (NP) at the receiving host and the reaction point (RP) at the sending
 * host of a RoCEv2 flow. The congestion point is the switch's ECN marking (SPEC §9).
 *
 * NP: a packet delivered with CE makes a CNP for its flow unless one was made less than
 * cnp_gap cycles before (the paper's N = 50 us; NVIDIA's min_time_between_cnps). CNPs are not
 * packets in the fabric: each reaches the RP cnp_delay cycles after the marked packet arrived
 * (the reverse path's latency, a scenario parameter).
 *
 * RP, per flow, with rates as fractions of the flow's line rate (R_C current, R_T target):
 *  - a CNP only sets two flags: "CNP for alpha" and "CNP for decrease". The first CNP of the
 *    flow also sets alpha = 1 and starts the alpha timer and the decrease checks, both periodic
 *    from that cycle (R_C and R_T stay at line rate: RateOnFirstCnp = 1);
 *  - every alpha_cycles: alpha = (1-g) alpha + g if the alpha flag is set, else (1-g) alpha;
 *    the flag clears;
 *  - every dec_cycles (the rate-decrease interval): if the decrease flag is set, R_T = R_C
 *    (only if clamp_target, or if a timer increase happened since the last decrease: otherwise
 *    the CNPs of one congestion episode would ratchet the target down), R_C = max(R_min,
 *    R_C (1 - alpha/2)); the flag clears, the stages and the byte counter restart and the
 *    increase timer restarts. So a flow's rate falls at most once per interval however many
 *    CNPs arrive;
 *  - every timer_cycles after a decrease, and every byte_counter bytes sent, an increase event.
 *    With t and b the timer and byte events since the decrease before this one (b = t when the
 *    byte counter is off): fast recovery while max(t, b) < f (R_C = (R_T + R_C)/2), hyper
 *    increase when min(t, b) > f (R_T += rhai), additive increase otherwise (R_T += rai), each
 *    then R_C = (R_T + R_C)/2, R_T at most line rate. With the byte counter off this is the
 *    reference's rule: f steps of fast recovery, one of additive increase, then hyper increase.
 *
 * Events of one cycle apply in the order CNP, alpha, decrease, increase (the reference delays
 * the decrease check by 1 ns so that it follows the alpha update of the same instant).
 *
 * Deviations from the paper and the reference (also in docs/sim.md "DCQCN"):
 *  - time is in cycles: the periods are rounded to whole cycles;
 *  - the reference has no byte counter; the paper's is kept (byte_counter, 0 = off) and joins
 *    the stage rule as in the paper (fast recovery while both stages are below F, hyper
 *    increase when both exceed it), with the reference's count-before-the-event convention;
 *  - hyper increase adds rhai per event (the reference), not i x rhai (the paper's QCN rule);
 *  - the paper applies each CNP at once (at most one per N from the NP); the reference and
 *    the NICs check every rate-decrease interval, which is what is modelled;
 *  - a rate change applies from the flow's next packet on: the gap to a packet already
 *    scheduled is not stretched or shrunk (the reference adjusts it);
 *  - the increase timer stops while R_C and R_T are both at line rate (nothing to recover;
 *    the stages it would count are reset by the next decrease before they are read).
 *
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
  uint64_t alpha_cycles, timer_cycles, dec_cycles, cnp_gap, cnp_delay;
  uint64_t byte_counter;         /* bytes, 0 = off */
  uint32_t f;
  int clamp_target;              /* 1: every decrease sets R_T = R_C */
  uint32_t queue_cap; /* CNPs that can be on their way at once: cnp_delay / cnp_gap + 2 */
} dcqcn_cfg_t;

/* From the scenario's [dcqcn] section, rates relative to the hosts' links (host_speed_gbps). */
void dcqcn_cfg(const lfc_scenario_t *sc, dcqcn_cfg_t *cfg);
/* Set up a flow's RP (at line rate, alpha 1). 0, or -1 out of memory. */
int dcqcn_init(const dcqcn_cfg_t *cfg, flow_t *f);
/* NP: the flow's packet arrived with CE at cycle t. */
void dcqcn_on_ce(const dcqcn_cfg_t *cfg, flow_t *f, uint64_t t);
/* RP: apply every CNP and timer at or before cycle t (t never decreases). */
void dcqcn_catch_up(const dcqcn_cfg_t *cfg, flow_t *f, uint64_t t);
/* RP: the flow sent `bytes` (after dcqcn_catch_up to the same cycle). */
void dcqcn_on_send(const dcqcn_cfg_t *cfg, flow_t *f, uint32_t bytes);

#endif /* LFC_SIM_DCQCN_H */
