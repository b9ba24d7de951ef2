/*
 * scenario.h - an lfc-sim scenario: what an INI file (docs/sim.md) describes, parsed and checked.
 *
 * lfc_scenario_load reads a file with libinih; lfc_scenario_load_mem the same from memory (the
 * fuzz target drives it with arbitrary bytes: it never crashes or hangs). Both return 0, or -1
 * with one line in err: "file:line: [section] key = value: what is wrong; allowed: ...". Every
 * check that needs no fabric is done here, including the switch parameters (through
 * lfc_switch_cfg_set and lfc_switch_cfg_check with the port count of the topology), and the
 * contradictions within the scenario (docs/sim.md "Load errors": sections for roles the topology
 * lacks, traffic that would send to itself or never, a stop before its start), so that a
 * scenario that loads can be built (the node count, every cable's delay, the model registers
 * [routing] adaptive reads). What needs the fabric (failed links, paths, class maps, whether
 * every flow's destination is reachable) is checked when it is built (sim_create), in the same
 * style. lfc_scenario_finish also resolves, once, every default that follows other keys (the
 * link fields below it fills): no other code decides them.
 *
 * Overrides: lfc_scenario_set applies one "section.key=value" as if it were the last line of
 * the file; call lfc_scenario_finish after the last override (the load functions call it).
 */
#ifndef LFC_SIM_SCENARIO_H
#define LFC_SIM_SCENARIO_H

#include <stddef.h>
#include <stdint.h>

#include "lfc/nic.h"
#include "lfc/switch.h"

#define SC_MAX_ROLES 3u      /* switch roles: leaf/edge, spine/agg, core */
#define SC_MAX_GROUPS 32u    /* [traffic.NAME] sections */
#define SC_MAX_SIZES 16u     /* pattern poisson: entries of `sizes` */
#define SC_MAX_POISSON_FLOWS 200000u /* pattern poisson: flows expected over the run, per group */
#define SC_MAX_DDP_ALLREDUCES 4096u /* pattern ddp: steps x buckets */
#define SC_MAX_PATHS 64u     /* [routing] path.N keys */
#define SC_MAX_PATH_NODES 16u
#define SC_MAX_FAILED 16u
#define SC_MAX_CLASSMAPS 64u
#define SC_MAX_THREADS 64u   /* [sim] threads, --threads */
#define SC_NAME_LEN 32u     /* names with their NUL: a [traffic.NAME] has at most 31 chars */
#define SC_LINE_SET UINT32_MAX /* a key's line when --set gave it (0: not given) */

typedef enum {
  TOPO_LINE = 0,
  TOPO_RING,
  TOPO_STAR,
  TOPO_LEAF_SPINE,
  TOPO_FAT_TREE,
  TOPO_RAIL,
  TOPO_KINDS
} sc_topo_kind_t;

typedef enum { ROUTE_SHORTEST = 0, ROUTE_UPDOWN, ROUTE_KINDS } sc_route_kind_t;

typedef enum {
  PAT_FLOW = 0,       /* one flow src -> dst */
  PAT_UNIFORM,        /* each source to a random other host per packet */
  PAT_PERMUTATION,    /* a seeded random permutation without fixed points */
  PAT_INCAST,         /* every source to dst (N:1) */
  PAT_ALL_TO_ALL,     /* every source to every other source */
  PAT_RING_ALLREDUCE, /* 2(N-1) dependent steps of bytes/N around a ring */
  PAT_TREE_ALLREDUCE, /* reduce up a binary tree, broadcast down */
  PAT_SHARP,          /* in-network aggregation: one step up to the switch, one down */
  PAT_DDP,            /* data-parallel training steps: buckets all-reduced during backward */
  PAT_POISSON,        /* flows of random sizes (`sizes`) arriving as a Poisson process */
  PAT_KINDS
} sc_pattern_t;

/* The keys of a [traffic] section whose line is kept, for the checks of lfc_scenario_finish. */
typedef enum {
  GK_SECTION = 0, /* the group's first key: the line of messages about keys not given */
  GK_PATTERN,
  GK_SRC,
  GK_DST,
  GK_CLASS,
  GK_BYTES,
  GK_PACKET_BYTES,
  GK_START,
  GK_STOP,
  GK_ON,
  GK_OFF,
  GK_COMPUTE,
  GK_COLLECTIVE, /* pattern ddp's keys: refused with another pattern */
  GK_STEPS,
  GK_BUCKETS,
  GK_BUCKET_BYTES,
  GK_FORWARD,
  GK_BACKWARD,
  GK_OVERLAP,
  GK_SIZES,      /* pattern poisson's flow sizes: refused with another pattern */
  GK_KEYS
} sc_gkey_t;

typedef struct {
  char name[SC_NAME_LEN];
  uint32_t line[GK_KEYS]; /* where each key was given: a file line, SC_LINE_SET or 0 */
  sc_pattern_t pattern;
  uint32_t *src;        /* host list */
  uint32_t nsrc;
  uint32_t dst;         /* flow, incast */
  uint32_t cls;
  uint64_t bytes;       /* per flow (collectives: the whole vector); 0 = until stop */
  uint32_t packet_bytes;
  uint32_t load_ppm;    /* offered load per flow, parts per million of line rate */
  double start_us, stop_us; /* stop 0 = end of run */
  double on_us, off_us; /* on/off bursts; off 0 = always on */
  int ecn;              /* send ECT(0) */
  int dcqcn;            /* DCQCN reaction point on these flows */
  uint32_t chunk_bytes; /* sharp: the vector is reduced in chunks of this size, pipelined */
  double compute_us;    /* > 0: a training step's compute time, for the group's MFU */
  /* pattern ddp (docs/sim.md "Training steps with overlap"): `steps` steps of forward_us, then
     backward_us during which `buckets` buckets of bucket_bytes are released evenly, each
     all-reduced by `collective` (ring, tree or sharp) once released; overlap 0: all at the
     end of backward */
  sc_pattern_t collective;
  uint32_t steps, buckets;
  uint64_t bucket_bytes;
  double forward_us, backward_us;
  int overlap;
  /* pattern poisson (docs/sim.md "Flows of many sizes"): each source starts flows as a Poisson
     process of mean rate load x line rate / mean size, each to a random other source, its size
     drawn from `sizes` (size_bytes[i] with probability size_weight[i] / the weights' sum) */
  uint32_t nsizes;
  uint64_t size_bytes[SC_MAX_SIZES];
  double size_weight[SC_MAX_SIZES];
} sc_group_t;

/* Pattern poisson: the mean of a group's `sizes`, bytes. */
double sc_group_mean_size(const sc_group_t *g);

typedef struct {
  char nodes[SC_MAX_PATH_NODES][SC_NAME_LEN]; /* host, switch..., host */
  uint32_t n;
  uint32_t line;
} sc_path_t;

typedef struct {
  char a[SC_NAME_LEN], b[SC_NAME_LEN];
} sc_failed_t;

/* [classmap] from-to = c0, c1, ...: a packet of class i sent from `from` arrives at `to` in
   class map[i] (docs/sim.md "Class maps"; like InfiniBand's SL-to-VL tables). */
typedef struct {
  char from[SC_NAME_LEN], to[SC_NAME_LEN];
  uint8_t map[LFC_MAX_CLASSES];
  uint32_t n;    /* classes listed */
  uint32_t line;
} sc_classmap_t;

typedef struct {
  char file[256];
  /* [sim] */
  double duration_us;
  uint64_t seed;
  int step_all;          /* 1: step every device every cycle (the reference for skip-ahead) */
  uint32_t threads;      /* skip-ahead threads, 1..SC_MAX_THREADS: results do not depend on it */
  double sample_us;      /* time series and deadlock checks */
  double deadlock_us;    /* a wait-for cycle persisting this long is a deadlock */
  int stop_on_deadlock;
  /* [topology] */
  sc_topo_kind_t topo;
  uint32_t switches, hosts_per_switch;   /* line, ring, star (switches = 1) */
  uint32_t leaves, spines, hosts_per_leaf, spine_links; /* leaf-spine */
  uint32_t k;                                  /* fat tree */
  uint32_t rails, servers;                     /* rail-optimized: spines above the rails */
  sc_failed_t failed[SC_MAX_FAILED];
  uint32_t nfailed;
  uint32_t failed_line; /* of failed_links: a line, SC_LINE_SET or 0 */
  /* [link] */
  double speed_gbps, cable_m;
  /* the keys that follow the switches' links where not given, as given: 0 (host_cable_m: < 0)
     = not given; only the parser and lfc_scenario_finish read them */
  struct {
    double host_speed_gbps, host_cable_m, ae_speed_gbps;
  } given;
  /* Resolved by lfc_scenario_finish, the one place that decides these defaults: every other
     reader takes them from here. */
  double host_speed_gbps; /* the hosts' links: given, or speed_gbps */
  double host_cable_m;    /* given, or cable_m */
  double ae_speed_gbps;   /* aggregation engines' ports (topology.h): given, or 8 x speed_gbps;
                             0 when the scenario has none */
  double fastest_gbps;    /* the fastest of those links: one 64-byte block a cycle (SPEC §1.2) */
  double cycle_ns;        /* nanoseconds per cycle at fastest_gbps */
  uint32_t sw_div, host_div, ae_div; /* speed dividers (SPEC §1.2): fastest / each link's speed
                                        (ae_div 1 without aggregation engines) */
  uint64_t end_cycle;     /* duration_us in cycles, rounded, at least 1 */
  uint64_t sample_cycles; /* sample_us in cycles, rounded up, at least 1 */
  /* [switch] [ib] [pfc] and per role [switch.ROLE] ...: resolved configurations */
  lfc_switch_cfg_t sw[SC_MAX_ROLES];
  double latency_ns[SC_MAX_ROLES]; /* 0 = keep the cycles of sw.latency */
  uint32_t radix[SC_MAX_ROLES];
  const char *role_name[SC_MAX_ROLES]; /* topology.c's names of the roles */
  uint32_t nroles;
  /* [host] */
  lfc_nic_cfg_t nic;
  /* where given: a line, SC_LINE_SET or 0 (warnings.c; rx_xoff and rx_xon follow the scenario
     where not given) */
  uint32_t rx_blocks_line, rx_xoff_line, rx_xon_line;
  double response_ns;
  double response_jitter_ns; /* [host]: a pause applies response_ns + 0..this late (SPEC §12.2) */
  double drain_gbps; /* 0 = instant */
  /* DCQCN (Zhu et al., SIGCOMM 2015) parameters, [dcqcn] (dcqcn.h) */
  double dcqcn_g, dcqcn_rai_gbps, dcqcn_rhai_gbps, dcqcn_timer_us, dcqcn_alpha_us;
  double dcqcn_cnp_us, dcqcn_cnp_delay_us, dcqcn_min_gbps, dcqcn_decrease_us;
  uint32_t dcqcn_byte_counter_kb, dcqcn_f;
  int dcqcn_clamp_target;
  /* [classmap] */
  sc_classmap_t classmaps[SC_MAX_CLASSMAPS];
  uint32_t nclassmaps;
  /* [routing] */
  sc_route_kind_t route;
  uint32_t ecmp_ways;
  int adaptive; /* per-packet choice among the ecmp addresses at each switch (docs/sim.md) */
  sc_path_t paths[SC_MAX_PATHS];
  uint32_t npaths;
  /* [traffic*] */
  sc_group_t groups[SC_MAX_GROUPS];
  uint32_t ngroups;
  /* Raw switch entries, re-applied when an override changes mode/classes or topology. */
  struct sc_entry *entries;
  size_t nentries, capentries;
} lfc_scenario_t;

int lfc_scenario_load(const char *path, lfc_scenario_t *sc, char *err, size_t errlen);
int lfc_scenario_load_mem(const char *text, size_t len, const char *name, lfc_scenario_t *sc,
                          char *err, size_t errlen);
/* One "section.key=value" override (command line --set). Returns 0 or -1 with err. */
int lfc_scenario_set(lfc_scenario_t *sc, const char *assignment, char *err, size_t errlen);
/* Resolve and check everything (switch configurations with the topology's radix). */
int lfc_scenario_finish(lfc_scenario_t *sc, char *err, size_t errlen);
void lfc_scenario_free(lfc_scenario_t *sc);

/*
 * A message in the style of every load error, "file:line: [section] key = value: <fmt>", about a
 * key kept with its line (sc_group_t.line, failed_line): line SC_LINE_SET names "--set" instead
 * of file:line, line 0 the file alone; value NULL leaves out " = value". For the checks that need
 * the fabric (topology.c, traffic.c), so that their messages read like the parser's.
 */
void sc_key_error(const lfc_scenario_t *sc, uint32_t line, const char *section, const char *key,
                  const char *value, char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));

/* The same as a warning, "file:line: warning: [section] key = value: <fmt>", into msg (for
 * warnings.c: the load goes on). */
void sc_key_warning(const lfc_scenario_t *sc, uint32_t line, const char *section,
                    const char *key, const char *value, char *msg, size_t len, const char *fmt,
                    ...) __attribute__((format(printf, 8, 9)));

/*
 * Where role `role`'s switch key `key` of section `base` ("switch", "ib", "pfc") was given: 1
 * with its line (SC_LINE_SET: --set), section and value, the last given of [base] and
 * [base.ROLE]; 0 if the key was not given (its value is the SPEC §3 default or one that follows
 * the scenario, docs/sim.md "Defaults that follow the scenario"). For warnings.c.
 */
int sc_switch_key(const lfc_scenario_t *sc, uint32_t role, const char *base, const char *key,
                  uint32_t *line, const char **section, const char **value);

/* Names for messages and JSON. */
const char *sc_topo_name(sc_topo_kind_t t);
const char *sc_pattern_name(sc_pattern_t p);
/* Pattern ddp's collective: "ring", "tree" or "sharp". */
const char *sc_collective_name(sc_pattern_t p);
/* A group's compute per training step, µs: forward_us + backward_us (ddp), else compute_us. */
double sc_group_compute_us(const sc_group_t *g);
/* Cycles for a time at sc->cycle_ns (resolved: after lfc_scenario_finish), rounded up, at
   least 1 where a delay must be >= 1. */
uint64_t sc_ns_to_cycles(const lfc_scenario_t *sc, double ns);
/* Cycles for a time of the traffic (a group's start_us, stop_us, on_us, off_us), rounded to
   the nearest: the cycle the flows make of it (traffic.c) and the reports count from. */
uint64_t sc_us_to_cycles(const lfc_scenario_t *sc, double us);

#endif /* LFC_SIM_SCENARIO_H */
