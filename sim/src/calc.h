/*
 * calc.h - the buffer calculators of lfc-sim: PFC headroom (docs/SPEC.md §11) and IB credits
 * for line rate (SPEC §11, §5.3), in lfc's cycles and in physical units.
 *
 * Two layers:
 *   - the SPEC formulas in cycles and blocks (lfc_headroom_blocks, lfc_credit_blocks), for a
 *     simulator that already knows its link delays, reaction times and speed dividers;
 *   - the physical calculators (lfc_headroom_calc, lfc_credits_calc) that turn a speed in Gb/s,
 *     a cable length in metres and an MTU in bytes into those cycles and fill a struct with every
 *     term of the breakdown, so that the command line, the tests and the scenarios all use the
 *     same figure.
 * lfc_calc_main is the command line (`lfc-sim headroom ...`, `lfc-sim credits ...`).
 *
 * No function here allocates memory or keeps state. Errors are returned as one line of text in
 * the caller's buffer, never printed (only lfc_calc_main prints).
 */
#ifndef LFC_SIM_CALC_H
#define LFC_SIM_CALC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Signal propagation in cable, ns per metre: 0.67 c, the round figure for fibre and twinax
 * (Cisco Nexus 5000 PFC white paper: 4.76 ns/m twinax, 5.13 ns/m single-mode fibre;
 * ../shared/REFERENCES.md §B). */
#define LFC_CALC_CABLE_NS_PER_M 5u

/* Limits of the physical inputs (checked by both calculators). */
#define LFC_CALC_MIN_SPEED_MBPS 1u       /* 1 Mb/s */
#define LFC_CALC_MAX_SPEED_MBPS 3200000u /* 3.2 Tb/s: the top of lfc-sim's [link] speed_gbps */
#define LFC_CALC_MAX_CABLE_MM 10000000u  /* 10 km */
#define LFC_CALC_MIN_MTU_BYTES 64u       /* one block: the minimum Ethernet frame */
#define LFC_CALC_MAX_MTU_BYTES 16320u    /* 255 blocks: nblk is 8 bits (SPEC §2) */
#define LFC_CALC_MAX_QUANTA 65535u       /* a 16-bit pause time (802.1Qbb) */
#define LFC_CALC_MAX_CELL_BYTES 65536u

/*
 * SPEC §11: the smallest headroom_blocks with which a lossless PG never drops:
 *   2 * mtu_blocks - 1 + ceil((2 * delay + response + 2) / k)
 * delay: one-way link delay in cycles (SPEC §12.1); response: the peer's extra reaction time in
 * cycles (SPEC §12.2 response_cycles); k: the port's speed divider (1..16; 0 is taken as 1).
 */
uint64_t lfc_headroom_blocks(uint32_t mtu_blocks, uint64_t delay, uint64_t response, uint32_t k);

/*
 * SPEC §11, IB analogue: the vl_blocks (credits) a VL needs to run at line rate:
 *   ceil((2 * delay + 2) / k) + mtu_blocks
 * More than LFC_CREDIT_WINDOW (2048, SPEC §5.3) can never be used.
 */
uint64_t lfc_credit_blocks(uint32_t mtu_blocks, uint64_t delay, uint32_t k);

/*
 * The same for a VL of an lfc switch ingress, whose blocks stay charged while the packet is in
 * the switch and whose FCPs can wait behind a packet going the other way:
 *   ceil((2 * delay + 2 + latency + (cut_through ? 0 : mtu_blocks * k) + mtu_blocks * k) / k)
 *     + mtu_blocks
 * latency: the switch's pipeline latency in cycles (SPEC §7.3). A packet is freed when its first
 * block leaves (SPEC §5.4), which is `latency` cycles after its first block arrived with
 * cut-through, or after its last block arrived with store-and-forward (`mtu_blocks * k` later).
 * An FCP goes out only between packets (SPEC §5.2), so with traffic in the other direction it
 * can wait `mtu_blocks * k` cycles. lfc_credit_blocks (SPEC §11 as written) covers a receiver that
 * frees a packet as it arrives (an end node, SPEC §12.2); tests/test_calc.c shows the switch
 * needs this figure (docs/calculators.md).
 */
uint64_t lfc_credit_blocks_switch(uint32_t mtu_blocks, uint64_t delay, uint64_t latency,
                                  int cut_through, uint32_t k);

/*
 * SPEC §11 under line time (wire_time = 1, §2.4): a headroom figure h (lfc_headroom_blocks) plus
 * the idle gap slot the XOFF frame may wait (one block) and one block more per merged packet of
 * the peer, for packets of at least mtu_blocks >= 2 blocks:
 *   h + 1 + ceil(h / (mtu_blocks - 1))
 * An upper bound (reached only by padded short packets); h itself when mtu_blocks < 2, where no
 * packet merges. lfc-sim's defaults and its warnings both use it.
 */
uint64_t lfc_headroom_blocks_line(uint64_t h, uint32_t mtu_blocks);

/*
 * A credit loop c (lfc_credit_blocks, lfc_credit_blocks_switch) lengthened by an FCP hold-off
 * (SPEC §5.5, §11): the FCP returning a credit can be held fcp_holdoff cycles more, so
 *   c + ceil(fcp_holdoff / k)
 * An estimate, as SPEC §11 says; lfc-sim's defaults and its warnings both use it.
 */
uint64_t lfc_credit_blocks_holdoff(uint64_t c, uint32_t fcp_holdoff, uint32_t k);

/*
 * The blocks one flow at line rate keeps charged to an ingress PG (PFC) or VL (IB) of an lfc
 * switch on an idle path, as a strict upper bound: the occupancy stays below
 *   ceil(latency / k) + mtu_blocks + (cut_through ? 1 : mtu_blocks)
 * A packet of n <= mtu_blocks blocks is charged whole at its first block and freed when its first
 * block leaves (SPEC §6.3, §6.4, §5.4): it is held H <= latency + n * k cycles with
 * store-and-forward (its last block arrives (n - 1) * k after the first, and the egress slot
 * comes within k more) or latency + k with cut-through (SPEC §7.3). Packets of a flow at line
 * rate start at least n * k apart, so at most ceil(H / (n * k)) are held at once: fewer than
 * H / k + n blocks. k is the flow's pace, the speed divider of its host (SPEC §1.2), which no
 * link of an idle path may be slower than; latency in cycles (SPEC §3.1). lfc-sim's default
 * xoff_th is this figure with store-and-forward (docs/sim.md "Defaults that follow the
 * scenario"); tests/test_calc.c checks it against the model.
 */
uint64_t lfc_flow_hold_blocks(uint32_t mtu_blocks, uint64_t latency, int cut_through, uint32_t k);

/*
 * The IEEE 802.3 Annex 31B.3.7 pause_quanta a MAC may take to stop after a pause frame, for a
 * speed in Mb/s. Returns 0 for a speed in the table (*quanta its row); 1 for any other speed
 * above 0, derived from a row: the longer response time of the rows either side (past an end of
 * the table, the last row), as quanta at this speed rounded up, at most 65535; -1 for 0 Mb/s.
 * *row_mbps (if not NULL) is the row used. The table is taken from SONiC's headroom scripts,
 * not from the text of the standard (see calc.c).
 */
int lfc_calc_default_quanta(uint32_t speed_mbps, uint32_t *quanta, uint32_t *row_mbps);

/* Physical inputs of the headroom calculator. */
typedef struct {
  uint32_t speed_mbps;      /* link speed, Mb/s (100 Gb/s = 100000) */
  uint32_t cable_mm;        /* cable length, millimetres */
  uint32_t mtu_bytes;       /* largest frame, bytes */
  int response_given;       /* 0: response_quanta from lfc_calc_default_quanta */
  uint32_t response_quanta; /* peer response time in 512-bit quanta, if response_given */
  uint32_t cell_bytes;      /* buffer cell size for the cell count; 0 means 64 */
} lfc_headroom_in_t;

/*
 * The result, every term in blocks (= cycles at this port's speed: k = 1, SPEC §1.2). The five
 * terms add up to headroom_blocks.
 */
typedef struct {
  double cycle_ns;              /* one block time: 512 bits at the speed */
  double cable_ns;              /* one way */
  uint64_t delay_cycles;        /* D: one-way cable delay in cycles, rounded up, at least 1 */
  uint32_t mtu_blocks;          /* ceil(mtu_bytes / 64) */
  uint32_t response_quanta;     /* as given or the default */
  int response_default;         /* 1 if response_quanta is the Annex 31B default */
  uint32_t response_row_mbps;   /* the Annex 31B row it came from (== speed: its own row) */
  uint64_t response_cycles;     /* R = response_quanta (one quantum = one block time) */
  uint64_t our_mtu_blocks;      /* our frame in progress when XOFF is due: mtu_blocks */
  uint64_t peer_mtu_blocks;     /* the peer's last frame, after its first block: mtu_blocks-1 */
  uint64_t cable_blocks;        /* round trip: 2 * D */
  uint64_t response_blocks;     /* R */
  uint64_t reaction_blocks;     /* 2: XOFF registered, then the frame's slot (SPEC §11) */
  uint64_t headroom_blocks;     /* sum of the five terms = lfc_headroom_blocks(...) */
  uint64_t headroom_bytes;      /* headroom_blocks * 64 */
  uint32_t cell_bytes;          /* as used */
  uint64_t headroom_cells;      /* ceil(headroom_bytes / cell_bytes) */
} lfc_headroom_t;

/*
 * Fills *out from *in. Returns 0, or -1 with one line in err naming the bad field, its value and
 * the range allowed (a speed with no default response time and none given is an error too).
 */
int lfc_headroom_calc(const lfc_headroom_in_t *in, lfc_headroom_t *out, char *err, size_t errlen);

/* Physical inputs of the credit calculator. */
typedef struct {
  uint32_t speed_mbps;
  uint32_t cable_mm;
  uint32_t mtu_bytes;  /* 0 means LFC_CALC_IB_MTU_BYTES */
  uint32_t latency_ps; /* switch pipeline latency, picoseconds; rounded up to cycles, >= 1 */
  int cut_through;     /* the switch forwards cut-through (SPEC §7.3) */
} lfc_credits_in_t;

#define LFC_CALC_MAX_LATENCY_PS 100000000u /* 100 us */

/* Default IB packet: a 4096-byte payload with its headers is 65 blocks (docs/packet-sizes.md). */
#define LFC_CALC_IB_MTU_BYTES 4160u

typedef struct {
  double cycle_ns;
  double cable_ns;
  uint64_t delay_cycles;   /* D */
  uint32_t mtu_blocks;
  uint64_t rtt_blocks;     /* 2 * D + 2: a credit's round trip (SPEC §11) */
  uint64_t need_blocks;    /* rtt_blocks + mtu_blocks = lfc_credit_blocks(...): an end node */
  uint64_t need_bytes;     /* need_blocks * 64 */
  uint64_t latency_cycles; /* the switch's pipeline latency, rounded up, >= 1 */
  uint64_t saf_blocks;     /* store-and-forward: mtu_blocks; cut-through: 0 */
  uint64_t fcp_wait_blocks; /* an FCP behind a packet going the other way: mtu_blocks */
  uint64_t need_switch_blocks; /* need + latency + saf + fcp_wait = lfc_credit_blocks_switch */
  uint64_t need_switch_bytes;
  uint32_t window_blocks;  /* 2048 (SPEC §5.3) */
  int window_limits;       /* need_blocks > window_blocks */
  int window_limits_switch; /* need_switch_blocks > window_blocks */
  double max_rate_pct;     /* upper bound on throughput: min(100, 100 * window / rtt) */
} lfc_credits_t;

int lfc_credits_calc(const lfc_credits_in_t *in, lfc_credits_t *out, char *err, size_t errlen);

/* A calculator's command line, parsed (lfc_calc_parse). */
typedef enum { LFC_CALC_HEADROOM = 0, LFC_CALC_CREDITS } lfc_calc_kind_t;

typedef struct {
  lfc_calc_kind_t kind;
  int help;                   /* --help or -h: nothing else is filled in */
  lfc_headroom_in_t headroom; /* kind LFC_CALC_HEADROOM */
  lfc_credits_in_t credits;   /* kind LFC_CALC_CREDITS */
} lfc_calc_args_t;

/*
 * Parses a calculator's command line without printing: argv[0] is "headroom" or "credits", the
 * rest its options (see --help). Whole numbers are read by lfc_parse_int, like every integer of
 * lfc-sim; speeds, lengths and times as decimals with up to 3 places. Returns 0 (a->help set for
 * --help), or -1 with one line in err naming the option, what is wrong and what is allowed. The
 * inputs are range-checked here; lfc_headroom_calc and lfc_credits_calc check what depends on
 * more than one of them (e.g. a speed with no default response time).
 */
int lfc_calc_parse(int argc, char **argv, lfc_calc_args_t *a, char *err, size_t errlen);

/*
 * The command line: argv[0] is "headroom" or "credits", the rest its options (see --help).
 * Prints the result on stdout; a bad or missing option gives one line on stderr. Returns the
 * exit status: 0, or 2 for bad usage.
 */
int lfc_calc_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif /* LFC_SIM_CALC_H */
