/*
 * tb_config.h - a named co-simulation configuration (tb/configs/<name>.ini).
 *
 * One file describes everything a run needs besides the seed and the cycle count: the switch
 * (SPEC §3, which also gives the RTL parameters of SPEC §13), the link partners (SPEC §12: one
 * lfc_nic per port behind a link of fixed delay each way), the traffic the partners offer, and
 * the misbehaviour injected in front of the switch's receivers. The sections and keys are listed
 * in tb/README.md and in the table of tb_config.c; every key has a default.
 */
#ifndef TB_CONFIG_H
#define TB_CONFIG_H

#include <stdint.h>

#include "lfc/nic.h"
#include "lfc/switch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The RTL supports 2..16 ports (SPEC §3) and the identity route only (SPEC §7.1). */
#define TB_MAX_PORTS 16u

typedef enum {
  TB_TRAFFIC_UNIFORM = 0, /* each node sends to a uniformly random port (itself included) */
  TB_TRAFFIC_INCAST,      /* every node but incast_dst sends to incast_dst (N:1) */
  TB_TRAFFIC_HOTSPOT,     /* uniform, but hotspot_pct % of packets go to incast_dst */
  TB_TRAFFIC_BURSTS,      /* uniform destinations, burst_pkts packets every burst_gap cycles */
  TB_TRAFFIC_PERMUTATION, /* node p sends to (p + 1) mod N */
  TB_TRAFFIC_MODES
} tb_traffic_mode_t;

typedef struct {
  tb_traffic_mode_t mode;
  uint32_t load_permille;   /* offered blocks per slot, 0..1000 (not for bursts) */
  uint32_t min_nblk, max_nblk; /* packet sizes uniform in [min, max] */
  uint32_t class_mask;      /* data classes used (uniform among the set bits) */
  uint32_t incast_dst;
  uint32_t hotspot_pct;
  uint32_t burst_pkts, burst_gap;
  uint32_t ecn_pct;         /* % of packets sent ECN-capable (ECT(0) or ECT(1)) */
  uint32_t vl15_permille;    /* IB: chance per free cycle of a 1-block VL15 packet (injected) */
  uint32_t stop_pct;        /* no new packets after this % of the run (the rest drains) */
  uint32_t pad_max;         /* pad of each packet uniform in [0, pad_max] (SPEC §2, §2.4) */
} tb_traffic_cfg_t;

typedef struct {
  /* Send without credit / while paused: 1-block packets injected between the partner's packets. */
  uint32_t no_credit_ports;    /* bit mask */
  uint32_t no_credit_permille; /* chance per free cycle */
  /* Garbage words (bad framing, bad lengths/classes/destinations, bad control words). */
  uint32_t garbage_ports;
  uint32_t garbage_permille;
  /* PFC storm: the partner on storm_port pauses storm_prios with storm_quanta every
     storm_period cycles during [storm_start, storm_start + storm_cycles). */
  int32_t storm_port;          /* -1: none */
  uint32_t storm_prios;
  uint32_t storm_start, storm_cycles, storm_period, storm_quanta;
  /* Overrun: multi-block packets (2..overrun_max_nblk blocks) sent regardless of credits (IB,
     more blocks than the FCCL allows) or pauses (PFC, on a paused priority when there is one).
     The partner's own words that arrive meanwhile wait in a queue in front of the switch. */
  uint32_t overrun_ports;
  uint32_t overrun_permille;
  uint32_t overrun_max_nblk;
  /* IB: FCPs for a VL that exists, with a stale FCTBS/FCCL (an earlier FCP of the partner,
     replayed) or a wild one (random 12-bit FCTBS or FCCL). */
  uint32_t fcp_ports;
  uint32_t fcp_permille;
  /* IB: FCPs whose FCCL puts the head packet of the switch's egress queue exactly at an edge of
     the send rule (SPEC §5.3): (FCCL - (FCTBS + n)) mod 4096 = 2048, 2049, 0 or 4095 in turn,
     sent while that head is held by the rule, so the edges are decided on deterministically. */
  uint32_t edge_fcp_ports;
  uint32_t edge_fcp_permille;
  /* PFC frames with a random enable vector (all 8 bits: priorities that do not exist, none,
     or all of them) and random pause times (0, 1, random, 65535). */
  uint32_t pfc_ports;
  uint32_t pfc_permille;
  /* One-block packets with mrg = 1, which SPEC §7.2 drops as MALFORMED (mrg needs nblk >= 2). */
  uint32_t bad_mrg_ports;
  uint32_t bad_mrg_permille;
} tb_misbehave_cfg_t;

typedef struct {
  char name[64];  /* basename of the file without .ini */
  char path[512];

  lfc_switch_cfg_t sw;                    /* SPEC §3; also the RTL parameters (SPEC §13) */
  uint32_t link_delay[TB_MAX_PORTS];      /* cycles each way, 1..1000 */
  lfc_nic_cfg_t nic[TB_MAX_PORTS];        /* link partner of port p (SPEC §12.2) */
  tb_traffic_cfg_t traffic;
  tb_misbehave_cfg_t mis;

  uint64_t cycles;          /* default run length (CYCLES= overrides) */
  uint64_t test_cycles;     /* run length in the short regression of `make test` */
  uint32_t dbg_per_cycle;   /* debug-port reads per cycle, 1..40 */
  int lossless;             /* 1: any CREDIT or HEADROOM drop, or a partner drop, is an error */
  uint32_t fc_streak_limit; /* a port that sends only flow-control words for this many slots in a
                               row while it holds packets is an error (livelock); 0: no check */
  char require[512];        /* coverage points this run must hit ([run] require: names, comma-
                               separated; resolved by tb_stim_init against tb_cov.c's names) */
  int require_line;         /* its line in the file, for the error message */
  int drained;              /* 1: at the end every accepted packet has left or was discarded */
} tb_cfg_t;

/*
 * Load and validate a configuration. Returns 0, or 2 after printing to stderr one line
 * "<file>:<line>: [section] key = value: <what is allowed>", or "<file>:<line>: <message>" for a
 * rule that involves several keys, on the line of the key it blames ("<file>: <message>" when
 * none of them is in the file, the defaults disagreeing).
 */
int tb_config_load(const char *path, tb_cfg_t *cfg);

/* Name of a traffic mode ("uniform", ...). */
const char *tb_traffic_mode_name(tb_traffic_mode_t mode);

/*
 * The RTL parameters of SPEC §13 as simulator flags, written into buf (space separated):
 * sim "verilator": -G<Param>=<value>; sim "icarus": -P<top>.<Param>=<value>. Returns 0, or -1
 * if buf is too small or sim is unknown.
 */
int tb_config_rtl_params(const tb_cfg_t *cfg, const char *sim, const char *top, char *buf,
                         size_t len);

/*
 * A digest of those parameters (32-bit FNV-1a of the Verilator form; never 0): a simulator is
 * built with its configuration's (tb-params id) and refuses a configuration with another
 * (dut_open_t.params_id), which it would otherwise run and report as RTL mismatches.
 */
uint32_t tb_config_params_id(const tb_cfg_t *cfg);

#ifdef __cplusplus
}
#endif

#endif /* TB_CONFIG_H */
