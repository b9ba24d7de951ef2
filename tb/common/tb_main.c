/*
 * tb_main.c - the lockstep co-simulation of the RTL (through dut.h) against the C model: the
 * arguments and the run.
 *
 * The run: read the configuration, create the C side (model, link partners, links, scoreboard,
 * stimulus), bind and reset the RTL, then cycle by cycle (tb_check.c, which says what a cycle
 * does and compares): the C side's half of cycle t, the RTL's, the comparison, the scoreboard,
 * the clock. The first difference is printed as one `MISMATCH ...` line with its context and
 * ends the run with exit 1. After the last cycle every register of every port and class is
 * compared once more, the scoreboard's end checks run, and the totals and the PASS line are
 * printed.
 *
 * The loop below is the plain one. By default the same cycles run faster through the speed
 * seam, tb_fast.c (the C side on a thread of its own; the ports packed for the simulator's
 * thread): the same checks on the same values, the same output line for line; +threads=1 and an
 * adapter without the packed interface leave the plain path.
 *
 * +compare=0 runs none of this: the RTL's own words feed the partners and nothing compares it
 * with the model (tb_free.c), for RTL that is not meant to be cycle-equal to it.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tb_lockstep.h"

/* ---- arguments ---- */

static const char *arg_value(const char *a, const char *key) {
  size_t n = strlen(key);
  if (a[0] == '+')
    a += 1;
  else if (a[0] == '-' && a[1] == '-')
    a += 2;
  else
    return NULL;
  if (strncmp(a, key, n) != 0 || a[n] != '=') return NULL;
  return a + n + 1;
}

/* A decimal number: digits only. strtoull alone would take "-5" as 2^64 - 5 (a run of
 * +cycles=-5 went on for hours), skip leading blanks, read "010" as octal and saturate on
 * overflow. */
static int parse_u64(const char *s, uint64_t *v) {
  char *end;
  if (!s || *s < '0' || *s > '9') return -1;
  errno = 0;
  unsigned long long x = strtoull(s, &end, 10);
  if (*end || errno == ERANGE) return -1;
  *v = x;
  return 0;
}

/* The test's arguments (and +coverage_dat=, which tb/verilator/dut_verilator.cpp reads), for the
   one line that refuses any other. */
#define TB_ARG_NAMES                                                                          \
  "+config=, +seed=, +cycles=, +waves=, +waves_from=, +waves_path=, +cov=, +result=, +sim=, " \
  "+make=, +dump=, +model_only=, +dbg_per_cycle=, +threads=, +pcap=, +compare=, "          \
  "+coverage_dat="

/* An argument in the test's own namespace: '+' or '--', then a name of lower-case letters,
   digits and '_' ending at '=' or at the end. The simulators' own arguments are not: Verilator's
   are +verilator+name+value, vvp's (after the design file) -name. */
static int is_tb_arg(const char *a) {
  if (a[0] == '+')
    a += 1;
  else if (a[0] == '-' && a[1] == '-')
    a += 2;
  else
    return 0;
  const char *n = a;
  while ((*a >= 'a' && *a <= 'z') || (*a >= '0' && *a <= '9') || *a == '_') a++;
  return a > n && (*a == '=' || *a == '\0');
}

static int parse_args(int argc, char **argv, args_t *a) {
  memset(a, 0, sizeof *a);
  a->seed = 1;
  a->threads = 2;
  a->compare = 1;
  for (int i = 1; i < argc; i++) {
    const char *v;
    uint64_t x;
    if ((v = arg_value(argv[i], "config"))) a->config = v;
    else if ((v = arg_value(argv[i], "seed"))) {
      if (parse_u64(v, &x) || x > UINT32_MAX) goto bad;
      a->seed = (uint32_t)x;
    } else if ((v = arg_value(argv[i], "cycles"))) {
      if (parse_u64(v, &x) || x == 0) goto bad;
      a->cycles = x;
    } else if ((v = arg_value(argv[i], "waves"))) {
      a->waves = *v ? v : NULL;
    } else if ((v = arg_value(argv[i], "waves_from"))) {
      if (parse_u64(v, &a->waves_from)) goto bad;
    } else if ((v = arg_value(argv[i], "waves_path"))) a->waves_path = v;
    else if ((v = arg_value(argv[i], "cov"))) a->cov = v;
    else if ((v = arg_value(argv[i], "result"))) a->result = v;
    else if ((v = arg_value(argv[i], "sim"))) a->sim = v;
    else if ((v = arg_value(argv[i], "make"))) a->make_extra = v;
    else if ((v = arg_value(argv[i], "pcap"))) {
      if (!*v) goto bad;
      a->pcap = v;
    }
    else if ((v = arg_value(argv[i], "dump"))) {
      if (parse_u64(v, &x) || x > 1) goto bad;
      a->dump = (int)x;
    } else if ((v = arg_value(argv[i], "model_only"))) {
      if (parse_u64(v, &x) || x > 1) goto bad;
      a->model_only = (int)x;
    } else if ((v = arg_value(argv[i], "compare"))) {
      if (parse_u64(v, &x) || x > 1) goto bad;
      a->compare = (int)x;
    }
    else if ((v = arg_value(argv[i], "dbg_per_cycle"))) {
      if (parse_u64(v, &x) || x == 0 || x > DBG_MAX) goto bad;
      a->dbg_per_cycle = (uint32_t)x;
    } else if ((v = arg_value(argv[i], "threads"))) {
      if (parse_u64(v, &x) || x < 1 || x > 2) goto bad;
      a->threads = (uint32_t)x;
    } else if (arg_value(argv[i], "coverage_dat")) {
      /* the Verilator adapter's: where its coverage build writes its counts */
    }
    /* Anything else belongs to the simulator (+verilator+seed+N, vvp's -none, ...), unless it
       is spelt like one of ours (+name or +name=value, --name=value) and is not one of them: a
       misspelt +sed=3 would otherwise run with the default seed and pass. */
    else if (is_tb_arg(argv[i])) {
      fprintf(stderr, "cosim: unknown argument '%s' (allowed: %s)\n", argv[i], TB_ARG_NAMES);
      return -1;
    }
    continue;
  bad:
    fprintf(stderr, "cosim: bad argument '%s' (decimal numbers: +seed: 0..%" PRIu32 ", +cycles: "
                    "1.., +waves_from: 0.., +dbg_per_cycle: 1..%u, +threads: 1 or 2, +dump, "
                    "+model_only and +compare: 0 or 1, +pcap: a directory)\n",
            argv[i], UINT32_MAX, DBG_MAX);
    return -1;
  }
  if (a->model_only && !a->compare) {
    fprintf(stderr, "cosim: +model_only=1 runs no RTL and +compare=0 no model: one of them\n");
    return -1;
  }
  if (!a->config) {
    fprintf(stderr, "cosim: usage: +config=tb/configs/NAME.ini [+seed=N] [+cycles=N] "
                    "[+waves=FILE [+waves_from=CYCLE]] [+cov=FILE.json] [+result=FILE]\n");
    return -1;
  }
  return 0;
}

/* ---- the end of a run ---- */

static int result_fill(FILE *f, const void *arg) {
  return fprintf(f, "%d\n", *(const int *)arg) < 0 ? -1 : 0;
}

/* The end of every run: the log (standard output) and +result= must be written whole, or the
   run fails as a resource refusal (status 2) even if it passed: a log cut short by a full disk
   would hide its mismatch lines, and a missing result is read as a crash. */
static int finish(const args_t *a, int rc) {
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "cosim: cannot write the log (standard output): %s\n", strerror(errno));
    if (rc == 0) rc = 2;
  }
  if (a && a->result && tb_write_file(a->result, result_fill, &rc)) {
    fprintf(stderr, "cosim: cannot write %s: %s\n", a->result, strerror(errno));
    if (rc == 0) rc = 2;
  }
  return rc;
}

/* +compare=0 (tb_free.c): the RTL, bound and reset, runs with the stimulus and the partners
   and is not compared with the model; then the files, the coverage of the stimulus and the
   result line. Returns the exit status; closes the RTL and the C side. */
static int free_main(const args_t *a, tb_t *tb, tb_pcap_t *pcap, dbg_sel_t *sel,
                     dbg_sel_t *all) {
  char err[512];
  const double t0 = tb_clock_s(CLOCK_MONOTONIC), c0 = tb_clock_s(CLOCK_PROCESS_CPUTIME_ID);
  uint64_t t = 0;
  int rc = tb_free_run(tb, pcap, &t);
  const double dt = tb_clock_s(CLOCK_MONOTONIC) - t0;
  const double dc = tb_clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
  if (pcap && tb_pcap_close(pcap, tb, 0, err, sizeof err)) {
    fprintf(stderr, "cosim: +pcap: %s\n", err);
    if (rc == 0) rc = 2;
  }
  if (a->cov) {
    /* Only the stimulus's points: the others are counted from the model's state. */
    if (tb_cov_write(tb, a->cov)) {
      fprintf(stderr, "cosim: cannot write %s: %s\n", a->cov, strerror(errno));
      if (rc == 0) rc = 2;
    }
  }
  if (rc == 0)
    printf("PASS sim=%s config=%s seed=%u cycles=%" PRIu64 " packets=%" PRIu64
           " cycles_per_second=%.0f cpu_cycles_per_second=%.0f compare=0 (the RTL drove the "
           "partners and was not compared with the model)\n",
           tb->sim, tb->cfg.name, tb->seed, t, tb->score.delivered, dt > 0 ? (double)t / dt : 0.0,
           dc > 0 ? (double)t / dc : 0.0);
  if (dut_close_checked(err, sizeof err)) {
    fprintf(stderr, "cosim: %s\n", err);
    if (rc == 0) rc = 2;
  }
  tb_cside_close(tb);
  free(sel);
  free(all);
  return rc;
}

int tb_main(int argc, char **argv) {
  args_t a;
  if (parse_args(argc, argv, &a)) return finish(NULL, 2);
  static tb_t tbs; /* large; one per process */
  tb_t *tb = &tbs;
  memset(tb, 0, sizeof *tb);
  if (tb_config_load(a.config, &tb->cfg)) return finish(&a, 2);
  tb->seed = a.seed;
  tb->cycles = a.cycles ? a.cycles : tb->cfg.cycles;
  tb->sim = a.sim ? a.sim : dut_sim_name();
  uint32_t K = a.dbg_per_cycle ? a.dbg_per_cycle : tb->cfg.dbg_per_cycle;
  unsigned ports = tb->cfg.sw.ports;
  char err[512];
  ctx_t x = {&a, tb};

  if (!a.compare && tb_free_check_cfg(&tb->cfg)) return finish(&a, 2);
  int orc = tb_cside_open(tb);
  if (orc) return finish(&a, orc);

  size_t nsel = 0, nall = 0;
  dbg_sel_t *sel = dut_dbg_list(&tb->cfg.sw, 0, 1, &nsel);
  dbg_sel_t *all = dut_dbg_list(&tb->cfg.sw, 1, 0, &nall);
  if (!sel || !all || nsel == 0) return finish(&a, 3);
  static cside_t cs; /* large */
  cs = (cside_t){.tb = tb, .ports = ports, .K = K, .sel = sel, .nsel = nsel};

  /* +model_only=1: the same stimulus, model, scoreboard and coverage without the RTL (the
     C side's share of the lockstep's time, for make bench); nothing is compared. */
  const int rtl_on = !a.model_only;
  dut_open_t oa = {ports, a.waves, a.waves_from, tb_config_params_id(&tb->cfg)};
  int bound = rtl_on ? dut_open(&oa, err, sizeof err) : 0;
  if (bound != 0) {
    fprintf(stderr, "cosim: %s: %s\n", tb->sim, err);
    /* -2: built for another configuration; -3: the waves file cannot be written */
    return finish(&a, bound == -2 || bound == -3 ? 2 : 3);
  }
  if (rtl_on) dut_reset();
  cs.pk = dut_packed(); /* the C side packs for it; +model_only=1 too, as its share */
  if (cs.pk && dut_pack_check()) {
    fprintf(stderr, "cosim: internal error: tb/common/dut_pack.c loses or mixes fields of the "
                    "packed layout (dut.h)\n");
    return finish(&a, 4);
  }
  tb_pcap_t *pcap = NULL;
  if (a.pcap) {
    pcap = tb_pcap_open(tb, a.pcap, err, sizeof err);
    if (!pcap) {
      fprintf(stderr, "cosim: +pcap: %s\n", err);
      char cerr[512];
      if (rtl_on) (void)dut_close_checked(cerr, sizeof cerr);
      return finish(&a, 2);
    }
  }

  if (!a.compare) return finish(&a, free_main(&a, tb, pcap, sel, all));

  int rc = 0;
  double t0 = tb_clock_s(CLOCK_MONOTONIC), c0 = tb_clock_s(CLOCK_PROCESS_CPUTIME_ID);
  uint64_t t = 0;
  static actual_t act; /* the RTL's values of the cycle being checked */

  /* The speed seam (tb_fast.c): the C side on a thread of its own, unless asked not to or the
     thread cannot be created; then the plain loop below, on this thread. */
  int threaded = 0;
  double sim_cpu_s = 0, cside_cpu_s = 0; /* each thread's CPU time */
  if (rtl_on && a.threads == 2)
    threaded = tb_fast_run(&x, &cs, pcap, &act, &t, &rc, &sim_cpu_s, &cside_cpu_s);
  if (!threaded) {
    /* The plain loop: the C side's half of cycle t, the RTL's, compared (tb_check.c), the clock. */
    static expect_t e; /* large */
    for (t = 0; t < tb->cycles; t++) {
      tb_cside_pre(&cs, t, &e);
      if (rtl_on) tb_rtl_cycle(&cs, &e, &act);
      rc = tb_cycle_finish(&x, &cs, &e, rtl_on ? &act : NULL);
      if (rc) break;
      if (pcap) tb_pcap_cycle(pcap, t, e.in, e.out);
      if (rtl_on) dut_clock();
    }
  }
  double dt = tb_clock_s(CLOCK_MONOTONIC) - t0, dc = tb_clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
  tb->cycle = t;

  /* Every register of every port and class, in the final state. */
  if (rc == 0 && rtl_on) rc = tb_final_sweep(&x, all, nall, t);
  if (a.dump) {
    printf("final state (model), non-zero registers:");
    for (size_t i = 0; i < nall; i++) {
      const dbg_sel_t *sl = &all[i];
      uint64_t v = lfc_switch_reg(tb->sw, sl->reg, sl->port, sl->cls);
      if (v) printf(" %s[p%u,c%u]=%" PRIu64, lfc_reg_info(sl->reg)->name, sl->port, sl->cls, v);
    }
    printf("\n");
  }
  if (rc == 0) {
    tb_err_t e;
    if (tb_score_end(tb, &e)) {
      tb_report(&x, t, e.port, e.signal, e.expected, e.actual);
      tb_report_tail(&x, t);
      rc = 1;
    }
  }

  tb_cov_end(tb);
  if (rc == 0) {
    tb_err_t e;
    if (tb_stim_end(tb, &e)) {
      tb_report(&x, t, e.port, e.signal, e.expected, e.actual);
      tb_report_tail(&x, t);
      rc = 1;
    }
  }
  const tb_score_t *s = &tb->score;
  uint64_t inside = s->accepted - s->delivered - s->discarded;
  tb_score_print(s);
  if (s->discarded) printf(" (of them discarded from queues=%" PRIu64 ")", s->discarded);
  printf(" still-in-switch=%" PRIu64 " model-holds=%" PRIu64 "\n", inside,
         lfc_switch_held(tb->sw, NULL));
  printf("switch sent: %" PRIu64 " data blocks, %" PRIu64 " FCPs, %" PRIu64 " PFC frames\n",
         tb->tx_words[LFC_DATA], tb->tx_words[LFC_FCP], tb->tx_words[LFC_PFC]);
  if (rtl_on)
    printf("registers: %zu (register, port, class) selections, %u read per cycle through the debug "
           "port: each compared every %zu cycles, and all %zu once more after the last cycle\n",
           nsel, K, (nsel + K - 1) / K, nall);
  if (pcap) {
    tb_pcap_t *p = pcap;
    pcap = NULL;
    if (tb_pcap_close(p, tb, 1, err, sizeof err)) {
      fprintf(stderr, "cosim: +pcap: %s\n", err);
      if (rc == 0) rc = 2;
    }
  }
  unsigned hit = 0;
  for (unsigned i = 0; i < COV_COUNT; i++) hit += tb->cov[i] > 0;
  if (a.cov) {
    if (tb_cov_write(tb, a.cov)) {
      /* The regression sums the files: a run without one would pass with its points unseen. */
      fprintf(stderr, "cosim: cannot write %s: %s\n", a.cov, strerror(errno));
      if (rc == 0) rc = 2;
    } else {
      printf("coverage: %u of %u points hit, %s\n", hit, (unsigned)COV_COUNT, a.cov);
    }
  }
  /* Two threads: the busier one sets the pace when each has a core of its own, which a loaded
     machine does not give them (cycles_per_second then shows less). */
  if (rc == 0 && threaded) {
    double busy = sim_cpu_s > cside_cpu_s ? sim_cpu_s : cside_cpu_s;
    printf("threads: 2, CPU seconds: simulator %.3f, C side %.3f; on two free cores %.0f "
           "cycles/s\n", sim_cpu_s, cside_cpu_s, busy > 0 ? (double)t / busy : 0.0);
  }
  /* cycles_per_second: wall clock; cpu_cycles_per_second: this process's CPU time (the
     steadier figure on a shared machine). */
  if (rc == 0)
    printf("PASS sim=%s config=%s seed=%u cycles=%" PRIu64 " packets=%" PRIu64
           " cycles_per_second=%.0f cpu_cycles_per_second=%.0f%s\n",
           tb->sim, tb->cfg.name, tb->seed, t, s->delivered, dt > 0 ? (double)t / dt : 0.0,
           dc > 0 ? (double)t / dc : 0.0, rtl_on ? "" : " model_only=1 (no RTL, nothing compared)");

  if (rtl_on && dut_close_checked(err, sizeof err)) {
    fprintf(stderr, "cosim: %s\n", err);
    if (rc == 0) rc = 2;
  }
  tb_cside_close(tb);
  free(sel);
  free(all);
  return finish(&a, rc);
}
