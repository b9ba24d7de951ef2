/*
 * lfc_trace.c - run a named configuration through the star testbed (lfc/star.h) and write the
 * switch's link words and events as text, one line per non-IDLE word or event:
 *
 *   <cycle> <port> rx <word>     the word port <port> received in <cycle>
 *   <cycle> <port> tx <word>     the word it sent
 *   <cycle> <port> ev <event>    an event of lfc_switch_events for that cycle
 *
 * <word> is lfc_word_format's text. Format and configurations: docs/golden-traces.md.
 * Used by scripts/golden.sh to record and check cmodel/tests/golden/<name>.trace.gz.
 *
 *   lfc_trace --list            the names, one per line
 *   lfc_trace NAME [CYCLES]     the trace of NAME on standard output
 *   lfc_trace --help | --version
 *
 * Installed as lfc-trace (scripts/install.mk).
 *
 * Exit status: 0 the trace was written and the star's scoreboard found no error; 1 the
 * scoreboard found an error (a finding); 2 bad arguments, or standard output could not be written
 * (a full device, a closed descriptor: every write, the final fflush and fclose are checked, and
 * a trace is stopped at the first failed write), with one line on standard error.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lfc/lfc.h"

#define TRACE_CYCLES 20000u /* each configuration's default length */
#define EXIT_FINDING 1  /* the scoreboard found an error */
#define EXIT_USAGE 2    /* bad arguments */
#define EXIT_RESOURCE 2 /* standard output could not be written */

typedef struct {
  const char *name;
  const char *what;
  void (*setup)(lfc_star_cfg_t *cfg);
} named_t;

/* IB, 4 ports, 2 VLs, uniform random traffic of every size. */
static void ib_4p_uniform(lfc_star_cfg_t *c) {
  lfc_star_cfg_default(c, LFC_MODE_IB, 4, 2);
  c->sw.vl_blocks[0] = c->sw.vl_blocks[1] = 128;
  c->sw.fcp_period = 256;
  c->nic.fcp_period = 256;
  c->link_delay = 3;
  c->traffic.load_permille = 500;
  c->traffic.seed = 11;
}

/* IB, 3:1 incast at full load: credits hold the senders back, nothing drops. */
static void ib_4p_incast(lfc_star_cfg_t *c) {
  lfc_star_cfg_default(c, LFC_MODE_IB, 4, 1);
  c->sw.vl_blocks[0] = 100;
  c->link_delay = 5;
  c->traffic.pattern = LFC_TRAFFIC_INCAST;
  c->traffic.incast_dst = 0;
  c->traffic.load_permille = 1000;
  c->traffic.seed = 12;
}

/* PFC, 3:1 incast on two lossless priorities: XOFF/XON, headroom per SPEC §11. */
static void pfc_4p_incast(lfc_star_cfg_t *c) {
  lfc_star_cfg_default(c, LFC_MODE_PFC, 4, 2);
  c->link_delay = 5;
  c->sw.reserve_blocks = 16;
  c->sw.shared_blocks = 512;
  c->sw.headroom_blocks = 2u * 65u - 1u + 2u * 5u + 2u;
  c->sw.xoff_th = 64;
  c->sw.xon_offset = 16;
  c->sw.refresh_cycles = 4000;
  c->sw.pause_quanta = 8000;
  c->traffic.pattern = LFC_TRAFFIC_INCAST;
  c->traffic.incast_dst = 0;
  c->traffic.load_permille = 1000;
  c->traffic.seed = 13;
}

/* PFC, dynamic thresholds, one lossy and one lossless priority, WRED/ECN marking. */
static void pfc_4p_dynamic_ecn(lfc_star_cfg_t *c) {
  lfc_star_cfg_default(c, LFC_MODE_PFC, 4, 2);
  c->link_delay = 4;
  c->sw.lossless_mask = 0x2;
  c->sw.dynamic_th = true;
  c->sw.alpha_log2 = -1;
  c->sw.reserve_blocks = 8;
  c->sw.shared_blocks = 600;
  c->sw.headroom_blocks = 2u * 65u - 1u + 2u * 4u + 2u;
  c->sw.ecn_mask = 0x3;
  c->sw.kmin = 16;
  c->sw.kmax = 160;
  c->sw.pmax = 6554; /* 10 % */
  c->traffic.pattern = LFC_TRAFFIC_HOTSPOT;
  c->traffic.hotspot_pct = 60;
  c->traffic.incast_dst = 1;
  c->traffic.load_permille = 900;
  c->traffic.ecn_capable_pct = 80;
  c->traffic.seed = 14;
}

/* PFC watchdog: slow receivers pause the switch long enough to trip it; action drop. */
static void pfc_4p_watchdog(lfc_star_cfg_t *c) {
  lfc_star_cfg_default(c, LFC_MODE_PFC, 4, 1);
  c->link_delay = 2;
  c->sw.wd_enable = true;
  c->sw.wd_detect = 1500;
  c->sw.wd_restore = 1000;
  c->sw.wd_action = LFC_WD_DROP;
  c->nic.rx_blocks = 256;
  c->nic.rx_xoff = 128;
  c->nic.rx_xon = 32;
  c->nic.drain_div = 48;
  c->nic.pause_quanta = 1000;
  c->nic.refresh_cycles = 600;
  c->traffic.load_permille = 600;
  c->traffic.seed = 15;
}

/* IB, 8 ports, 4 data VLs under high/low VL arbitration, and VL15 management packets. */
static void ib_8p_vl15_vlarb(lfc_star_cfg_t *c) {
  lfc_star_cfg_default(c, LFC_MODE_IB, 8, 4);
  for (uint32_t v = 0; v < 4; v++) c->sw.vl_blocks[v] = 96;
  c->sw.vl15_blocks = 16;
  c->sw.vlarb_high[0] = (lfc_vlarb_entry_t){.vl = 0, .weight = 8};
  c->sw.vlarb_high[1] = (lfc_vlarb_entry_t){.vl = 1, .weight = 4};
  c->sw.vlarb_high_len = 2;
  c->sw.vlarb_low[0] = (lfc_vlarb_entry_t){.vl = 2, .weight = 16};
  c->sw.vlarb_low[1] = (lfc_vlarb_entry_t){.vl = 3, .weight = 4};
  c->sw.vlarb_low[2] = (lfc_vlarb_entry_t){.vl = 1, .weight = 0};
  c->sw.vlarb_low_len = 3;
  c->sw.vlarb_high_limit = 2;
  c->link_delay = 3;
  c->traffic.class_mask = 0x800Fu; /* VLs 0..3 and VL15 */
  c->traffic.max_nblk = 16;
  c->traffic.load_permille = 400;
  c->traffic.seed = 16;
}

static const named_t NAMED[] = {
    {"ib_4p_uniform", "IB, 4 ports, 2 VLs, uniform traffic", ib_4p_uniform},
    {"ib_4p_incast", "IB, 4 ports, 3:1 incast at full load", ib_4p_incast},
    {"pfc_4p_incast", "PFC, 4 ports, 3:1 incast, 2 lossless priorities", pfc_4p_incast},
    {"pfc_4p_dynamic_ecn", "PFC, 4 ports, dynamic threshold, ECN marking, hotspot",
     pfc_4p_dynamic_ecn},
    {"pfc_4p_watchdog", "PFC, 4 ports, slow receivers trip the watchdog (drop)", pfc_4p_watchdog},
    {"ib_8p_vl15_vlarb", "IB, 8 ports, 4 VLs with VL arbitration, VL15", ib_8p_vl15_vlarb},
};
#define NNAMED (sizeof NAMED / sizeof NAMED[0])

static const char *event_name(uint8_t kind) {
  static const char *const names[LFC_EV_KINDS] = {
      [LFC_EV_DROP] = "DROP",
      [LFC_EV_ECN_MARK] = "ECN_MARK",
      [LFC_EV_XOFF] = "XOFF",
      [LFC_EV_XON] = "XON",
      [LFC_EV_WD_TRIP] = "WD_TRIP",
      [LFC_EV_WD_RESTORE] = "WD_RESTORE",
      [LFC_EV_RX_MALFORMED] = "RX_MALFORMED",
  };
  return kind < LFC_EV_KINDS ? names[kind] : "EVENT?";
}

/* Writes the non-IDLE words of one cycle; false when a write failed. */
static bool print_words(FILE *f, uint64_t cycle, const lfc_word_t *w, uint32_t n,
                        const char *dir) {
  char buf[160];
  for (uint32_t p = 0; p < n; p++)
    if (w[p].kind != LFC_IDLE &&
        fprintf(f, "%" PRIu64 " %u %s %s\n", cycle, p, dir,
                lfc_word_format(&w[p], buf, sizeof buf)) < 0)
      return false;
  return true;
}

/* Writes the events of one cycle; false when a write failed. */
static bool print_events(FILE *f, uint64_t cycle, const lfc_event_t *ev, size_t nev) {
  for (size_t i = 0; i < nev; i++) {
    if (fprintf(f, "%" PRIu64 " %u ev %s cls=%u", cycle, ev[i].port, event_name(ev[i].kind),
                ev[i].cls) < 0)
      return false;
    if (ev[i].kind == LFC_EV_DROP &&
        fprintf(f, " cause=%s tag=0x%08x", lfc_drop_cause_name((lfc_drop_cause_t)ev[i].cause),
                (unsigned)ev[i].tag) < 0)
      return false;
    if (fputc('\n', f) == EOF) return false;
  }
  return true;
}

/* Flushes and closes standard output; on failure one line naming it and EXIT_RESOURCE, else rc.
 * A write to a full device or a closed descriptor often fails only here, when the buffer is
 * flushed, so every exit path that wrote to stdout goes through this. write_err is the errno of
 * an earlier failed write (0 if none): the flush after it may succeed with nothing left to say. */
static int close_stdout(int rc, int write_err) {
  int failed = ferror(stdout) || write_err != 0;
  int err = write_err;
  if (fflush(stdout) != 0) {
    failed = 1;
    if (err == 0) err = errno;
  }
  if (fclose(stdout) != 0) {
    failed = 1;
    if (err == 0) err = errno;
  }
  if (!failed) return rc;
  fprintf(stderr, "lfc_trace: cannot write standard output: %s\n",
          err != 0 ? strerror(err) : "write error");
  return EXIT_RESOURCE;
}

/* Writes the trace of nm to f. Returns 0, EXIT_FINDING (scoreboard error) or EXIT_RESOURCE (a
 * write failed; its errno in *write_err, for close_stdout to name). */
static int trace(const named_t *nm, uint64_t cycles, FILE *f, int *write_err) {
  lfc_star_cfg_t cfg;
  nm->setup(&cfg);
  char err[256];
  lfc_star_t *star = lfc_star_create(&cfg, err, sizeof err);
  if (star == NULL) {
    /* A built-in configuration the model refuses: a bug of this file, not of the input. */
    fprintf(stderr, "lfc_trace: %s: %s\n", nm->name, err);
    return EXIT_FINDING;
  }
  bool ok = fprintf(f, "# lfc golden trace %s: %s; %" PRIu64 " cycles, seed %" PRIu64 "\n",
                    nm->name, nm->what, cycles, cfg.traffic.seed) >= 0;
  lfc_switch_t *sw = lfc_star_switch(star);
  uint32_t ports = cfg.sw.ports;
  /* ferror too: a failed flush of the buffer inside an fprintf that itself reports success
   * still sets the stream's error flag. Stop at the first failure, not 10^9 cycles later. */
  for (uint64_t t = 0; ok && t < cycles; t++) {
    lfc_star_step(star);
    const lfc_word_t *in, *out;
    lfc_star_last_words(star, &in, &out);
    const lfc_event_t *ev;
    size_t nev = lfc_switch_events(sw, &ev);
    ok = print_words(f, t, in, ports, "rx") && print_words(f, t, out, ports, "tx") &&
         print_events(f, t, ev, nev) && !ferror(f);
  }
  const lfc_score_t *s = lfc_star_score(star);
  ok = ok && fprintf(f,
                     "# end: created %" PRIu64 " delivered %" PRIu64 " dropped %" PRIu64
                     " scoreboard errors %" PRIu64 "\n",
                     s->created, s->delivered, s->dropped, s->errors) >= 0;
  if (!ok) {
    *write_err = errno != 0 ? errno : EIO;
    lfc_star_destroy(star);
    /* close_stdout names the error; the trace is incomplete, the scoreboard's word moot. */
    return EXIT_RESOURCE;
  }
  int rc = s->errors == 0 ? 0 : EXIT_FINDING;
  if (rc != 0) fprintf(stderr, "lfc_trace: %s: scoreboard: %s\n", nm->name, lfc_star_error(star));
  lfc_star_destroy(star);
  return rc;
}

static void usage(FILE *f) {
  fprintf(f,
          "Usage: lfc-trace NAME [CYCLES]\n"
          "  or:  lfc-trace --list | --help | --version\n"
          "\n"
          "Run the named configuration NAME of the lfc switch in the star testbed (one switch,\n"
          "one end node per port) for CYCLES cycles (1..10^9, default %u) and write every\n"
          "non-IDLE link word and every switch event to standard output, one per line:\n"
          "'<cycle> <port> rx|tx <word>' and '<cycle> <port> ev <event>'. The format is the one\n"
          "of the golden traces (docs/golden-traces.md).\n"
          "\n"
          "  --list      print the configuration names, one per line, and exit\n"
          "  --help      print this help and exit\n"
          "  --version   print the version of lfc and exit\n"
          "\n"
          "Configurations:\n",
          TRACE_CYCLES);
  for (size_t i = 0; i < NNAMED; i++) fprintf(f, "  %-20s %s\n", NAMED[i].name, NAMED[i].what);
  fprintf(f,
          "\n"
          "Exit status: 0 when the scoreboard found no error, 1 when it did, 2 for bad\n"
          "arguments or when standard output cannot be written.\n");
}

/* The command line. Returns -1 with *nm and *cycles set when a trace is to be written;
   otherwise 0 after --help, --version or --list (printed, stdout not yet checked), EXIT_USAGE after
   one line on stderr saying what is wrong. A function of its own so that
   tb/fuzz/fuzz_trace_args.c can fuzz it. */
static int parse_args(int argc, char **argv, const named_t **nm, uint64_t *cycles) {
  if (argc == 2 && strcmp(argv[1], "--help") == 0) {
    usage(stdout);
    return 0;
  }
  if (argc == 2 && strcmp(argv[1], "--version") == 0) {
    printf("lfc-trace (lfc) %s\n", lfc_version());
    return 0;
  }
  if (argc == 2 && strcmp(argv[1], "--list") == 0) {
    for (size_t i = 0; i < NNAMED; i++) printf("%s\n", NAMED[i].name);
    return 0;
  }
  if (argc < 2 || argc > 3 || argv[1][0] == '-') {
    fprintf(stderr,
            "usage: %s --list | --help | --version | NAME [CYCLES]"
            "   (CYCLES 1..10^9, default %u)\n",
            argv[0], TRACE_CYCLES);
    return EXIT_USAGE;
  }
  *cycles = TRACE_CYCLES;
  if (argc == 3) {
    char *end = NULL;
    unsigned long long v = strtoull(argv[2], &end, 10);
    if (argv[2][0] < '0' || argv[2][0] > '9' || *end != '\0' || v < 1u || v > 1000000000u) {
      fprintf(stderr, "lfc_trace: CYCLES '%s' is not allowed: give a whole number 1..10^9\n",
              argv[2]);
      return EXIT_USAGE;
    }
    *cycles = v;
  }
  for (size_t i = 0; i < NNAMED; i++)
    if (strcmp(argv[1], NAMED[i].name) == 0) {
      *nm = &NAMED[i];
      return -1;
    }
  fprintf(stderr, "lfc_trace: no configuration named '%s'; known:", argv[1]);
  for (size_t i = 0; i < NNAMED; i++) fprintf(stderr, " %s", NAMED[i].name);
  fprintf(stderr, "\n");
  return EXIT_USAGE;
}

int main(int argc, char **argv) {
  const named_t *nm = NULL;
  uint64_t cycles = 0;
  int rc = parse_args(argc, argv, &nm, &cycles);
  if (rc > 0) return rc;
  /* --help, --version and --list printed (rc 0), or a trace to write: either way standard
     output is checked and closed here, so a full or closed one exits EXIT_RESOURCE. */
  int write_err = 0;
  if (rc < 0) rc = trace(nm, cycles, stdout, &write_err);
  return close_stdout(rc, write_err);
}
