/*
 * pcapout.c - lfc-sim --pcap: the links' words as pcap files (pcapout.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "pcapout.h"

#include <fnmatch.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "lfc/pcap.h"
#include "lfc/pcap_link.h"

#include "outfile.h"
#include "topology.h"

#define DIRS 2u
#define PCAP_EXT ".pcap"
#define NAME_MAX_LEN 160u /* "ae.spine12.64-..." and the like, with room to spare */
#define ITEM_ECHO 60      /* characters of a --pcap-links item echoed in a message */
#define MIB (1024.0 * 1024.0)
/* The bound of a file (pcap_plan): the largest record one block slot of a direction can make,
 * with its 16-byte record header. Ethernet: a one-block packet is written as a two-block RoCEv2
 * frame (lfc/pcap_link.h), 128 bytes; a PFC frame is 64. ERF: a one-block IB packet of at most
 * 64 bytes behind the 16-byte ERF header; an FCP is 6. */
#define PCAP_FILE_HEADER_BYTES 24u
#define PCAP_RECORD_HEADER_BYTES 16u
#define SLOT_BYTES_ETH (PCAP_RECORD_HEADER_BYTES + 2u * LFC_BLOCK_BYTES)
#define SLOT_BYTES_ERF (PCAP_RECORD_HEADER_BYTES + LFC_ERF_HEADER_BYTES + LFC_BLOCK_BYTES)
/* Memory of one open file: lfc_pcap_link_t (two frame buffers of 255 blocks) and the stdio
 * buffer of its FILE. */
#define WRITER_BYTES (2u * LFC_MAX_NBLK * LFC_BLOCK_BYTES + 8192u)
/* Files kept free for the run's other outputs (--json, --csv, the plots). */
#define FD_RESERVE 64u
/* Milli-Gb/s: a link speed that is not a whole number of Gb/s still gives exact times. */
#define MILLI 1000u

#define PERR(...)                                          \
  do {                                                     \
    if (err && errlen) snprintf(err, errlen, __VA_ARGS__); \
    goto fail;                                             \
  } while (0)

/* ---- the plan ---- */

/* Mark the working cables item selects in sel[]; how many it selected. */
static uint32_t select_item(const topo_t *t, const char *item, uint8_t *sel) {
  uint32_t hits = 0;
  int64_t node = topo_find(t, item);
  char name[NAME_MAX_LEN];
  for (uint32_t l = 0; l < t->nlinks; l++) {
    const topo_link_t *lk = &t->links[l];
    if (lk->failed) continue;
    int hit = node >= 0 ? (lk->a == (uint32_t)node || lk->b == (uint32_t)node)
                        : fnmatch(item, topo_link_name(t, l, name, sizeof name), 0) == 0;
    if (hit) {
      sel[l] = 1;
      hits++;
    }
  }
  return hits;
}

/* Block slots of one direction of cable l over `cycles` cycles: one every speed_div. */
static double slots(const topo_t *t, uint32_t l, uint64_t cycles) {
  double k = t->links[l].speed_div > 0 ? t->links[l].speed_div : 1.0;
  return ceil((double)cycles / k);
}

int pcap_plan(const lfc_scenario_t *sc, const char *links, uint64_t max_mb, pcap_plan_t *pl,
              char *err, size_t errlen) {
  memset(pl, 0, sizeof *pl);
  topo_t t;
  memset(&t, 0, sizeof t);
  uint8_t *sel = NULL;
  char *list = NULL;
  if (topo_build(sc, &t, err, errlen) != 0) return -1;
  sel = calloc(t.nlinks + 1u, 1);
  if (sel == NULL) PERR("lfc-sim: --pcap: out of memory");
  if (links == NULL) {
    for (uint32_t l = 0; l < t.nlinks; l++) sel[l] = !t.links[l].failed;
  } else {
    list = strdup(links);
    if (list == NULL) PERR("lfc-sim: --pcap-links: out of memory");
    char *save = NULL;
    const char *example = "";
    char name[NAME_MAX_LEN] = "";
    for (uint32_t l = 0; l < t.nlinks && example[0] == '\0'; l++)
      if (!t.links[l].failed) example = topo_link_name(&t, l, name, sizeof name);
    int items = 0;
    for (char *it = strtok_r(list, ",", &save); it != NULL; it = strtok_r(NULL, ",", &save)) {
      while (*it == ' ') it++;
      for (size_t e = strlen(it); e > 0 && it[e - 1] == ' '; e--) it[e - 1] = '\0';
      if (*it == '\0') continue;
      items++;
      if (select_item(&t, it, sel) == 0)
        PERR("lfc-sim: --pcap-links %.*s%s: no node of that name and no working cable's name "
             "matches it; allowed: node names (sw0, h3) and patterns over cable names "
             "A.PORT-B.PORT (e.g. %s, sw0.*) (docs/sim.md \"Captures\")",
             ITEM_ECHO, it, strlen(it) > ITEM_ECHO ? "..." : "", example);
    }
    if (items == 0)
      PERR("lfc-sim: --pcap-links '%.*s': no item; allowed: a comma-separated list of node "
           "names and patterns over cable names (docs/sim.md \"Captures\")", ITEM_ECHO, links);
  }
  uint32_t n = 0;
  for (uint32_t l = 0; l < t.nlinks; l++) n += sel[l];
  if (n == 0) PERR("lfc-sim: %s: --pcap: the fabric has no working cable", sc->file);
  pl->links = malloc(n * sizeof *pl->links);
  if (pl->links == NULL) PERR("lfc-sim: --pcap: out of memory");
  const uint64_t end = sc->end_cycle;
  const uint64_t between = sc->sample_cycles < end ? sc->sample_cycles : end;
  const int eth = sc->sw[0].mode == LFC_MODE_PFC;
  double bytes = 0, mem = 0;
  for (uint32_t l = 0; l < t.nlinks; l++) {
    if (!sel[l]) continue;
    pl->links[pl->n++] = l;
    bytes += PCAP_FILE_HEADER_BYTES +
             (double)DIRS * slots(&t, l, end) * (eth ? SLOT_BYTES_ETH : SLOT_BYTES_ERF);
    /* the words of two samples apart, and B's still on the cable; the arrays grow by doubling */
    mem += WRITER_BYTES + (double)DIRS * 2.0 *
                              (slots(&t, l, between) + t.links[l].delay + 1.0) *
                              (double)sizeof(sim_tapword_t);
  }
  pl->max_bytes = bytes < 1.8e19 ? (uint64_t)bytes : UINT64_MAX;
  pl->mem_bytes = mem < 1.8e19 ? (uint64_t)mem : UINT64_MAX;
  pl->limit_mb = max_mb > 0 ? max_mb : PCAP_DEFAULT_MAX_MB;
  if (bytes / MIB > (double)pl->limit_mb)
    PERR("lfc-sim: %s: --pcap: %u cables for %.10g us: up to %.0f MiB of pcap files (every block "
         "slot used both ways), above the limit of %llu MiB (%s); fewer cables with "
         "--pcap-links, a shorter run, or a higher --pcap-max-mb",
         sc->file, pl->n, sc->duration_us, bytes / MIB, (unsigned long long)pl->limit_mb,
         max_mb > 0 ? "--pcap-max-mb" : "the default of --pcap-max-mb");
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
      (rl.rlim_cur <= FD_RESERVE || pl->n > rl.rlim_cur - FD_RESERVE))
    PERR("lfc-sim: %s: --pcap: %u cables, one open file each, above the %llu this process may "
         "open besides its other outputs (ulimit -n %llu, less %u); fewer cables with "
         "--pcap-links, or a higher ulimit -n",
         sc->file, pl->n,
         (unsigned long long)(rl.rlim_cur > FD_RESERVE ? rl.rlim_cur - FD_RESERVE : 0),
         (unsigned long long)rl.rlim_cur, FD_RESERVE);
  free(list);
  free(sel);
  topo_free(&t);
  return 0;
fail:
  free(list);
  free(sel);
  topo_free(&t);
  pcap_plan_free(pl);
  return -1;
}

void pcap_plan_free(pcap_plan_t *pl) {
  free(pl->links);
  memset(pl, 0, sizeof *pl);
}

/* ---- the files ---- */

typedef struct {
  lfc_pcap_link_t *w;
  char *path;          /* DIR/NAME.pcap */
  uint32_t a, pa;      /* side A's node and port: B's words are seen as A takes them */
  uint32_t delay;      /* cycles, each way */
  uint32_t speed_div;  /* SPEC §1.2: a block every speed_div cycles */
} cap_t;

struct pcapout {
  sim_t *sim;
  cap_t *cap;
  uint32_t n;
  sim_tap_t *taps; /* two per cable, in cap order */
  uint32_t gbps_milli;
  uint32_t gbps; /* the fastest speed when a whole number of Gb/s, else 0 */
  char *args_path; /* DIR/lfc-check.args */
};

static void po_free(pcapout_t *po) {
  if (po->taps != NULL)
    for (uint32_t i = 0; i < DIRS * po->n; i++) free(po->taps[i].v);
  if (po->cap != NULL)
    for (uint32_t i = 0; i < po->n; i++) free(po->cap[i].path);
  free(po->taps);
  free(po->cap);
  free(po->args_path);
  sim_untap(po->sim);
  free(po);
}

pcapout_t *pcapout_open(const pcap_plan_t *pl, const char *dir, sim_t *sim, char *err,
                        size_t errlen) {
  pcapout_t *po = calloc(1, sizeof *po);
  if (po == NULL) {
    if (err && errlen) snprintf(err, errlen, "out of memory");
    return NULL;
  }
  po->sim = sim;
  const double fastest = sim_scenario(sim)->fastest_gbps;
  po->gbps_milli = (uint32_t)llround(fastest * MILLI);
  po->gbps = fastest == floor(fastest) ? (uint32_t)fastest : 0u;
  po->cap = calloc(pl->n, sizeof *po->cap);
  po->taps = calloc((size_t)DIRS * pl->n, sizeof *po->taps);
  po->args_path = path_join(dir, PCAP_CHECK_ARGS);
  if (po->cap == NULL || po->taps == NULL || po->args_path == NULL) {
    if (err && errlen) snprintf(err, errlen, "out of memory");
    po_free(po);
    return NULL;
  }
  const topo_t *t = sim_topo(sim);
  const lfc_mode_t mode = sim_scenario(sim)->sw[0].mode;
  char name[NAME_MAX_LEN + 8];
  for (uint32_t i = 0; i < pl->n; i++) {
    const uint32_t l = pl->links[i];
    const topo_link_t *lk = &t->links[l];
    cap_t *c = &po->cap[i];
    c->a = lk->a;
    c->pa = lk->pa;
    c->delay = lk->delay;
    c->speed_div = lk->speed_div;
    if (sim_tap(sim, lk->b, lk->pb, &po->taps[DIRS * i]) != 0 ||
        sim_tap(sim, lk->a, lk->pa, &po->taps[DIRS * i + 1u]) != 0) {
      if (err && errlen) snprintf(err, errlen, "out of memory");
      pcapout_abort(po);
      return NULL;
    }
    topo_link_name(t, l, name, sizeof name - sizeof PCAP_EXT + 1u);
    strcat(name, PCAP_EXT); /* room kept above */
    c->path = path_join(dir, name);
    po->n = i + 1u;
    const lfc_pcap_link_cfg_t cfg = {mode, l};
    c->w = c->path != NULL ? lfc_pcap_link_open(c->path, &cfg, err, errlen) : NULL;
    if (c->path == NULL && err && errlen) snprintf(err, errlen, "%s: out of memory", dir);
    if (c->w == NULL) {
      pcapout_abort(po);
      return NULL;
    }
  }
  return po;
}

/* Nanoseconds of the start of cycle c (pcapout.h). */
static uint64_t ns_of(const pcapout_t *po, uint64_t c) {
  if (po->gbps > 0) return lfc_pcap_cycle_ns(c, po->gbps);
  return c * LFC_QUANTUM_BITS * MILLI / po->gbps_milli;
}

/* Write cable i's words seen before `before`, in (time, direction) order, and keep the rest. */
static int flush_cable(pcapout_t *po, uint32_t i, uint64_t before, char *err, size_t errlen) {
  const cap_t *c = &po->cap[i];
  sim_tap_t *tp[DIRS] = {&po->taps[DIRS * i], &po->taps[DIRS * i + 1u]};
  const uint64_t shift[DIRS] = {0, c->delay}; /* B's words are seen at A a delay later */
  const sim_t *s = po->sim;
  uint32_t k[DIRS] = {0, 0};
  for (;;) {
    uint32_t d = DIRS;
    uint64_t best = before;
    for (uint32_t x = 0; x < DIRS; x++)
      if (k[x] < tp[x]->n && tp[x]->v[k[x]].t + shift[x] < best) {
        best = tp[x]->v[k[x]].t + shift[x];
        d = x;
      }
    if (d == DIRS) break;
    /* One numbering of the classes for the whole file, side A's: B's words as A takes them
       (a class map on the cable, [classmap], is applied at the receiving end) */
    lfc_word_t w_a = tp[d]->v[k[d]].w;
    if (d == 1u) sim_word_received(s, c->a, c->pa, &w_a);
    const lfc_word_t *w = &w_a;
    const uint16_t src = sim_tag_source(s, w->tag); /* the packet's source */
    if (lfc_pcap_link_word(c->w, ns_of(po, best), d, w, src, err, errlen) != 0) return -1;
    k[d]++;
  }
  for (uint32_t x = 0; x < DIRS; x++) {
    memmove(tp[x]->v, tp[x]->v + k[x], (size_t)(tp[x]->n - k[x]) * sizeof *tp[x]->v);
    tp[x]->n -= k[x];
  }
  return 0;
}

int pcapout_flush(pcapout_t *po, uint64_t before, char *err, size_t errlen) {
  for (uint32_t i = 0; i < po->n; i++)
    if (flush_cable(po, i, before, err, errlen) != 0) return -1;
  return 0;
}

/*
 * DIR/lfc-check.args: per file, the lfc-check options that fit where and how it was taken, so
 * that `lfc-check OPTIONS DIR/FILE` judges the model's own traffic (docs/sim.md "Captures"):
 * the mode; the link's own speed (its reaction budget, IEEE 802.3 Annex 31B); and, both
 * directions being seen at side A, a skew of 0 for A's data (a pause from B is seen as it
 * arrives) and of the round trip for B's (a pause from A is seen as it leaves, B's data as it
 * arrives): 2 x the cable's delay, rounded down as the times are (the checker gives every
 * comparison one unit, docs/verify-your-rtl.md §3.2; a skew rounded up would move the end of a
 * pause past a frame B starts the cycle its pause runs out).
 */
static int write_check_args(const pcapout_t *po, outfile_t *o, char *err, size_t errlen) {
  if (outfile_open(o, po->args_path, err, errlen) != 0) return -1;
  const char *mode = sim_scenario(po->sim)->sw[0].mode == LFC_MODE_IB ? "ib" : "pfc";
  for (uint32_t i = 0; i < po->n; i++) {
    const cap_t *c = &po->cap[i];
    const char *slash = strrchr(c->path, '/');
    const uint64_t mbps = (uint64_t)po->gbps_milli / c->speed_div; /* Gb/s x 1000 = Mb/s */
    fprintf(o->f, "%s --mode %s --speed-gbps %" PRIu64 ".%03" PRIu64 " --skew-ns 0,%" PRIu64 "\n",
            slash != NULL ? slash + 1 : c->path, mode, mbps / MILLI, mbps % MILLI,
            ns_of(po, 2u * (uint64_t)c->delay));
  }
  if (outfile_sync(o, err, errlen) != 0) {
    outfile_discard(o);
    return -1;
  }
  return 0;
}

int pcapout_close(pcapout_t *po, pcapout_stats_t *st, char *err, size_t errlen) {
  outfile_t args = {0};
  if (pcapout_flush(po, UINT64_MAX, err, errlen) != 0 ||
      write_check_args(po, &args, err, errlen) != 0) {
    pcapout_abort(po);
    return -1;
  }
  pcapout_stats_t sum = {0};
  for (uint32_t i = 0; i < po->n; i++) {
    const lfc_pcap_link_stats_t *ls = lfc_pcap_link_stats(po->cap[i].w);
    sum.files++;
    sum.records += ls->records;
    sum.bytes += ls->bytes;
    sum.lengthened += ls->lengthened;
    sum.unwritable += ls->unwritable;
    lfc_pcap_link_t *w = po->cap[i].w;
    po->cap[i].w = NULL;
    if (lfc_pcap_link_close(w, err, errlen) != 0) {
      for (uint32_t j = 0; j < i; j++) unlink(po->cap[j].path); /* all the files or none */
      outfile_discard(&args);
      pcapout_abort(po);
      return -1;
    }
  }
  if (outfile_close(&args, err, errlen) != 0) {
    for (uint32_t j = 0; j < po->n; j++) unlink(po->cap[j].path);
    pcapout_abort(po);
    return -1;
  }
  if (st != NULL) *st = sum;
  po_free(po);
  return 0;
}

void pcapout_abort(pcapout_t *po) {
  if (po == NULL) return;
  for (uint32_t i = 0; i < po->n; i++) lfc_pcap_link_abort(po->cap[i].w);
  po_free(po);
}
