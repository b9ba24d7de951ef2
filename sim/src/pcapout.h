/*
 * pcapout.h - lfc-sim --pcap DIR: the words of the fabric's links as pcap files, one per cable
 * with both directions (docs/sim.md "Captures", docs/wire-formats.md §6).
 *
 * The engine keeps, per captured direction, the words the receiver's tracker does not predict
 * (sim_tap_t: first blocks, FCP and PFC words; IDLE and a packet's later blocks are not frames
 * of their own); at every sample and at the end pcapout writes them in time order through
 * lfc/pcap_link.h. Nothing here is read by the simulation: a run's results are the same with and
 * without --pcap.
 *
 * A cable's file is DIR/NAME.pcap, NAME as topo_link_name gives it ("sw0.3-h3.0"). Both
 * directions are seen at side A's end of the cable: what A sends at the cycle it leaves, what
 * B sends at the cycle it arrives (B's cycle + the cable's delay). Every word sent during the
 * run is written, also one B sent in its last `delay` cycles (then its time is after the end).
 * Time = cycle x 512 bits / the fastest link's speed (lfc_pcap_cycle_ns): a link of speed_div k
 * carries a block every k cycles, so this is its own block count at its own speed.
 */
#ifndef LFC_SIM_PCAPOUT_H
#define LFC_SIM_PCAPOUT_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "scenario.h"

/* Beside the files: per file, the lfc-check options for it (docs/sim.md "Captures"). */
#define PCAP_CHECK_ARGS "lfc-check.args"
/* --pcap-max-mb without a value: the files of a run are refused above this bound (MiB). */
#define PCAP_DEFAULT_MAX_MB 1024u
/* The largest --pcap-max-mb: 1 PiB, as --max-memory-mb. */
#define PCAP_MAX_MAX_MB (1ull << 30)

/* The cables to capture, chosen before the fabric is built, and what their files may take. */
typedef struct {
  uint32_t *links;    /* cable indices of the topology, in its order */
  uint32_t n;
  uint64_t max_bytes; /* the bound of the files: every block slot of both directions used */
  uint64_t mem_bytes; /* memory: the writers and the words kept between two samples */
  uint64_t limit_mb;  /* --pcap-max-mb or PCAP_DEFAULT_MAX_MB */
} pcap_plan_t;

/*
 * Choose the cables: `links` NULL for all working cables, else a comma-separated list of items,
 * each a node's name (its cables) or a pattern (fnmatch(3): *, ?, [...]) over the cables' names.
 * Then the bound of the files against max_mb (0: PCAP_DEFAULT_MAX_MB) and the files this process
 * may open (RLIMIT_NOFILE). 0, or -1 with one line in err: an item that names no node and
 * matches no working cable, a bound above the limit (with the bound), too many files.
 */
int pcap_plan(const lfc_scenario_t *sc, const char *links, uint64_t max_mb, pcap_plan_t *pl,
              char *err, size_t errlen);
void pcap_plan_free(pcap_plan_t *pl);

typedef struct pcapout pcapout_t;

/* What the files hold (lfc_pcap_link_stats summed). */
typedef struct {
  uint64_t files, records, bytes, lengthened, unwritable;
} pcapout_stats_t;

/*
 * Open DIR/NAME.pcap for every planned cable (under temporary names until pcapout_close) and
 * give the engine its taps (sim_tap). After sim_create, before sim_run. NULL with err (a file
 * that cannot be created, out of memory); nothing is left behind then.
 */
pcapout_t *pcapout_open(const pcap_plan_t *pl, const char *dir, sim_t *sim, char *err,
                        size_t errlen);

/*
 * Write the words seen at side A before cycle `before` (at a sample: every step before it is
 * done, none after), in time order. 0, or -1 with err (a failed write: then only abort).
 */
int pcapout_flush(pcapout_t *po, uint64_t before, char *err, size_t errlen);

/* Write the rest, write DIR/lfc-check.args, close every file and rename it into place; frees po
 * and the engine's taps (sim_untap). 0, or -1 with err: then no file is left, the ones renamed
 * already are removed. st, if not NULL, gets the totals. */
int pcapout_close(pcapout_t *po, pcapout_stats_t *st, char *err, size_t errlen);

/* Give up: every temporary file removed; frees po and the engine's taps (sim_untap). NULL is
 * allowed. */
void pcapout_abort(pcapout_t *po);

#endif /* LFC_SIM_PCAPOUT_H */
