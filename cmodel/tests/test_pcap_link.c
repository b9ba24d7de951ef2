/*
 * test_pcap_link.c - a link's words as a pcap file (lfc/pcap_link.h, docs/wire-formats.md §6):
 * every word that is written comes back from its frame as the same word, its pad one the format
 * holds (docs/wire-formats.md §8; the codecs' decoders and lfc_*_to_word), in the direction it
 * was sent, at its time; IDLE and a packet's later blocks are not written; a one-block RoCEv2
 * packet is lengthened to two blocks and counted; words no frame carries are counted, not
 * written; the counts match the file.
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <cmocka.h>

#include "lfc/pcap.h"
#include "lfc/pcap_link.h"
#include "lfc/wire_ib_data.h"
#include "lfc/wire_ib_fcp.h"
#include "lfc/wire_pfc.h"
#include "lfc/wire_roce.h"

#define MAX_RECORDS 16
#define FILE_MAX 65536
#define SRC_ADDR 0x0102u

static char dir[64];

/* The tests run in the temporary directory, so that a file the writer might create anywhere
 * but where it was told (a relative name) lands there and goes with it, not into the tree. */
static char home[4096];

static int setup(void **state) {
  (void)state;
  strcpy(dir, "/tmp/lfc_pcap_link_XXXXXX");
  if (getcwd(home, sizeof home) == NULL || mkdtemp(dir) == NULL) return -1;
  return chdir(dir);
}

static int teardown(void **state) {
  (void)state;
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (chdir(home) != 0) return -1;
  return system(cmd) == 0 ? 0 : -1;
}

static uint32_t le32(const uint8_t *b) {
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

typedef struct {
  uint64_t ts_ns;
  const uint8_t *data; /* the frame (after the ERF header for ERF) */
  size_t len;
  uint8_t erf_type, erf_flags;
} rec_t;

static uint8_t file[FILE_MAX];

/* Read path into file[] and split it into records; returns how many, checks the link type. */
static size_t read_records(const char *path, uint32_t linktype, rec_t *r, size_t *bytes) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  const size_t n = fread(file, 1, sizeof file, f);
  fclose(f);
  *bytes = n;
  assert_true(n >= 24);
  assert_int_equal(le32(file + 20), linktype);
  size_t k = 0;
  for (size_t at = 24; at < n; k++) {
    assert_true(k < MAX_RECORDS);
    const size_t cap = le32(file + at + 8);
    r[k].ts_ns = (uint64_t)le32(file + at) * 1000000000ull + le32(file + at + 4);
    const uint8_t *d = file + at + 16;
    if (linktype == LFC_PCAP_LINKTYPE_ERF) {
      r[k].erf_type = d[8];
      r[k].erf_flags = d[9];
      d += LFC_ERF_HEADER_BYTES;
      r[k].len = cap - LFC_ERF_HEADER_BYTES;
    } else {
      r[k].len = cap;
    }
    r[k].data = d;
    at += 16 + cap;
  }
  return k;
}

static lfc_word_t data_word(uint8_t cls, uint8_t nblk, uint16_t dst, uint32_t tag, uint8_t ecn) {
  lfc_word_t w;
  memset(&w, 0, sizeof w);
  w.kind = LFC_DATA;
  w.sop = 1;
  w.eop = nblk == 1;
  w.cls = cls;
  w.nblk = nblk;
  w.dst = dst;
  w.tag = tag;
  w.ecn = ecn;
  return w;
}

static void test_pcap_link_pfc_mode(void **state) {
  (void)state;
  char path[128], err[256];
  snprintf(path, sizeof path, "%s/pfc.pcap", dir);
  const lfc_pcap_link_cfg_t cfg = {LFC_MODE_PFC, 7};
  lfc_pcap_link_t *l = lfc_pcap_link_open(path, &cfg, err, sizeof err);
  assert_non_null(l);
  lfc_word_t idle, pfc, cont, fcp;
  memset(&idle, 0, sizeof idle);
  memset(&pfc, 0, sizeof pfc);
  pfc.kind = LFC_PFC;
  pfc.pfc_en = 0x05;
  pfc.pfc_time[0] = 0xFFFF;
  pfc.pfc_time[2] = 0;
  lfc_word_t d3 = data_word(3, 3, 0x0A0B, 0xDEADBEEF, LFC_ECN_CE);
  d3.pad = 30; /* a frame of 3 x 64 - 30 = 162 bytes exactly (docs/wire-formats.md §8) */
  cont = d3;
  cont.sop = 0;
  const lfc_word_t d1 = data_word(1, 1, 0x0001, 0x11223344, LFC_ECN_ECT0);
  memset(&fcp, 0, sizeof fcp);
  fcp.kind = LFC_FCP;
  lfc_word_t bad = d3;
  bad.cls = 8; /* no PCP for it */
  const lfc_word_t d2 = data_word(0, 2, 0x0002, 2, LFC_ECN_NOT_ECT); /* two blocks as it is */
  const lfc_word_t d0 = data_word(0, 0, 0x0002, 3, LFC_ECN_NOT_ECT); /* no length: refused */
  assert_int_equal(lfc_pcap_link_word(l, 5, 0, &idle, 0, err, sizeof err), 0);
  assert_int_equal(lfc_pcap_link_word(l, 10, 0, &d3, SRC_ADDR, err, sizeof err), 0);
  assert_int_equal(lfc_pcap_link_word(l, 15, 0, &cont, SRC_ADDR, err, sizeof err), 0);
  assert_int_equal(lfc_pcap_link_word(l, 20, 1, &pfc, 0, err, sizeof err), 0);
  assert_int_equal(lfc_pcap_link_word(l, 30, 1, &d1, SRC_ADDR, err, sizeof err), 0);
  assert_int_equal(lfc_pcap_link_word(l, 40, 0, &d3, SRC_ADDR, err, sizeof err), 0);
  assert_int_equal(lfc_pcap_link_word(l, 50, 0, &fcp, 0, err, sizeof err), 0);
  assert_int_equal(lfc_pcap_link_word(l, 60, 0, &bad, 0, err, sizeof err), 0);
  assert_int_equal(lfc_pcap_link_word(l, 70, 2, &d3, 0, err, sizeof err), -1);
  assert_non_null(strstr(err, "direction 2"));
  char tiny[1] = {'x'}; /* room for the terminator only; none at all */
  assert_int_equal(lfc_pcap_link_word(l, 70, 2, &d3, 0, tiny, sizeof tiny), -1);
  assert_int_equal(tiny[0], '\0');
  assert_int_equal(lfc_pcap_link_word(l, 70, 2, &d3, 0, NULL, 16), -1);
  assert_int_equal(lfc_pcap_link_word(l, 80, 1, &d2, SRC_ADDR, err, sizeof err), 0);
  assert_int_equal(lfc_pcap_link_word(l, 90, 1, &d0, SRC_ADDR, err, sizeof err), 0);
  const lfc_pcap_link_stats_t st = *lfc_pcap_link_stats(l);
  assert_int_equal(st.records, 5);
  assert_int_equal(st.data[0], 2);
  assert_int_equal(st.data[1], 2);
  assert_int_equal(st.pfc[1], 1);
  assert_int_equal(st.pfc[0], 0);
  assert_int_equal(st.lengthened, 1); /* d1 only */
  assert_int_equal(st.unwritable, 3); /* the FCP, the class 8 packet, the nblk 0 one */
  assert_int_equal(lfc_pcap_link_close(l, err, sizeof err), 0);

  rec_t r[MAX_RECORDS];
  size_t bytes;
  assert_int_equal(read_records(path, LFC_PCAP_LINKTYPE_ETHERNET, r, &bytes), 5);
  assert_int_equal(r[4].len, 2 * 64 - 2); /* d2, pad 0: two blocks, its payload in 4-byte words */
  assert_int_equal(r[0].len, 3 * 64 - 30);  /* d3: as long as its pad says */
  assert_int_equal(r[2].len, 70); /* d1 lengthened: 14 + 4 + 20 + 8 + 12 + 4 + 4 and the tag */
  assert_int_equal(bytes, st.bytes);
  lfc_roce_map_t map;
  lfc_roce_map_default(&map, LFC_ROCE_PRIO_PCP);
  const uint64_t ts[4] = {10, 20, 30, 40};
  const uint32_t side[4] = {0, 1, 1, 0};
  for (int i = 0; i < 4; i++) {
    assert_int_equal(r[i].ts_ns, ts[i]);
    uint8_t want_src[6], want_dst[6];
    lfc_pcap_side_mac(7, side[i], want_src);
    lfc_pcap_side_mac(7, side[i] ^ 1u, want_dst);
    assert_memory_equal(r[i].data + LFC_ETH_ADDR_BYTES, want_src, 6);
    assert_int_equal(lfc_pcap_mac_side(r[i].data + LFC_ETH_ADDR_BYTES), (int)side[i]);
    lfc_word_t back;
    memset(&back, 0, sizeof back);
    if (i == 1) {
      lfc_pfc_frame_t f;
      assert_int_equal(lfc_pfc_decode(r[i].data, r[i].len, &f, NULL), LFC_WIRE_OK);
      lfc_pfc_to_word(&f, &back);
      assert_true(lfc_word_equal(&back, &pfc));
      continue;
    }
    assert_memory_equal(r[i].data, want_dst, 6);
    lfc_roce_pkt_t p;
    assert_int_equal(lfc_roce_decode(r[i].data, r[i].len, &p, NULL), LFC_WIRE_OK);
    assert_int_equal(lfc_roce_to_word(&p, &map, &back, NULL), LFC_WIRE_OK);
    assert_true(p.has_vlan);
    assert_int_equal(p.vid, 0);
    assert_int_equal(p.dscp, back.cls << 3);
    assert_int_equal(p.src_ip[2] << 8 | p.src_ip[3], SRC_ADDR);
    assert_int_equal(p.bth.opcode, 0x04);
    assert_int_equal(p.bth.pkey, 0xFFFF);
    assert_int_equal(p.bth.dqpn, LFC_PCAP_LINK_QPN);
    /* everything lfc does not set is 0 */
    assert_int_equal(p.bth.se | p.bth.m | p.bth.tver | p.bth.becn | p.bth.ackreq | p.dei, 0);
    assert_int_equal(p.ttl, 64);
    assert_int_equal(p.src_ip[0], 10);
    assert_int_equal(p.src_ip[1], 0);
    assert_int_equal(p.dst_ip[0], 10);
    assert_int_equal(p.dst_ip[1], 0);
    assert_int_equal(p.udp_src, 0xC000 | SRC_ADDR);
    assert_false(p.ipv6);
    if (i == 2) {
      lfc_word_t want = d1;
      want.nblk = 2; /* lengthened, to the shortest frame: 70 bytes */
      want.eop = 0;
      want.pad = 2 * 64 - 70;
      assert_true(lfc_word_equal(&back, &want));
      assert_int_equal(p.bth.psn, 0); /* the first data packet of direction 1 */
    } else {
      assert_true(lfc_word_equal(&back, &d3));
      assert_int_equal(p.bth.psn, i == 0 ? 0 : 1);
    }
  }
}

static void test_pcap_link_ib_mode(void **state) {
  (void)state;
  char path[128], err[256];
  snprintf(path, sizeof path, "%s/ib.pcap", dir);
  const lfc_pcap_link_cfg_t cfg = {LFC_MODE_IB, 3};
  lfc_pcap_link_t *l = lfc_pcap_link_open(path, &cfg, err, sizeof err);
  assert_non_null(l);
  lfc_word_t fcp, pfc;
  memset(&fcp, 0, sizeof fcp);
  fcp.kind = LFC_FCP;
  fcp.fc_op = LFC_FCP_OP_NORMAL;
  fcp.fc_vl = 2;
  fcp.fc_fctbs = 4095;
  fcp.fc_fccl = 17;
  memset(&pfc, 0, sizeof pfc);
  pfc.kind = LFC_PFC;
  lfc_word_t d1 = data_word(2, 1, 0x0203, 0xCAFEF00D, LFC_ECN_CE);
  d1.pad = 22; /* a 42-byte packet: LRH, BTH, a 16-byte payload, ICRC, VCRC */
  const lfc_word_t big = data_word(0, 129, 0x0001, 1, 0); /* over the PktLen limit */
  assert_int_equal(lfc_pcap_link_word(l, 100, 1, &fcp, 0, err, sizeof err), 0);
  assert_int_equal(lfc_pcap_link_word(l, 200, 0, &d1, SRC_ADDR, err, sizeof err), 0);
  assert_int_equal(lfc_pcap_link_word(l, 300, 0, &pfc, 0, err, sizeof err), 0);
  assert_int_equal(lfc_pcap_link_word(l, 400, 1, &big, 0, err, sizeof err), 0);
  const lfc_pcap_link_stats_t st = *lfc_pcap_link_stats(l);
  assert_int_equal(st.records, 2);
  assert_int_equal(st.fcp[1], 1);
  assert_int_equal(st.data[0], 1);
  assert_int_equal(st.unwritable, 2);
  assert_int_equal(st.lengthened, 0);
  assert_int_equal(lfc_pcap_link_close(l, err, sizeof err), 0);

  rec_t r[MAX_RECORDS];
  size_t bytes;
  assert_int_equal(read_records(path, LFC_PCAP_LINKTYPE_ERF, r, &bytes), 2);
  assert_int_equal(bytes, st.bytes);
  assert_int_equal(r[0].ts_ns, 100);
  assert_int_equal(r[0].erf_type, LFC_ERF_TYPE_INFINIBAND_LINK);
  assert_int_equal(r[0].erf_flags & LFC_ERF_FLAG_IFACE_MASK, 1);
  assert_int_equal(r[0].len, LFC_IB_FCP_BYTES);
  lfc_ib_fcp_t f;
  assert_int_equal(lfc_ib_fcp_decode(r[0].data, r[0].len, &f, NULL), LFC_WIRE_OK);
  lfc_word_t back;
  memset(&back, 0, sizeof back);
  lfc_ib_fcp_to_word(&f, &back);
  assert_true(lfc_word_equal(&back, &fcp));
  assert_int_equal(r[1].erf_type, LFC_ERF_TYPE_INFINIBAND);
  assert_int_equal(r[1].erf_flags & LFC_ERF_FLAG_IFACE_MASK, 0);
  lfc_ib_pkt_t p;
  assert_int_equal(r[1].len, 64 - 22);
  assert_int_equal(lfc_ib_pkt_decode(r[1].data, r[1].len, &p, NULL), LFC_WIRE_OK);
  memset(&back, 0, sizeof back);
  assert_int_equal(lfc_ib_pkt_to_word(&p, &back, NULL), LFC_WIRE_OK);
  assert_true(lfc_word_equal(&back, &d1));
  assert_int_equal(p.slid, SRC_ADDR);
  assert_int_equal(p.sl, 2);
  assert_int_equal(p.bth.dqpn, LFC_PCAP_LINK_QPN);
  assert_int_equal(p.bth.opcode, 0x04);
  assert_int_equal(p.bth.pkey, 0xFFFF);
  assert_int_equal(p.bth.psn, 0);
  assert_int_equal(p.bth.se | p.bth.m | p.bth.tver | p.bth.becn | p.bth.ackreq, 0);
  assert_false(p.has_grh);
}

static void test_pcap_link_refusals(void **state) {
  (void)state;
  char path[128], err[256];
  snprintf(path, sizeof path, "%s/x.pcap", dir);
  lfc_pcap_link_cfg_t cfg = {(lfc_mode_t)2, 0};
  assert_null(lfc_pcap_link_open(path, &cfg, err, sizeof err));
  assert_non_null(strstr(err, "mode 2"));
  char tiny[1] = {'x'};
  assert_null(lfc_pcap_link_open(path, &cfg, tiny, sizeof tiny));
  assert_int_equal(tiny[0], '\0');
  assert_null(lfc_pcap_link_open(path, &cfg, NULL, 16));
  cfg.mode = LFC_MODE_IB;
  char missing[160];
  snprintf(missing, sizeof missing, "%s/no/such/x.pcap", dir);
  assert_null(lfc_pcap_link_open(missing, &cfg, err, sizeof err));
  assert_non_null(strstr(err, missing));
  /* abort: nothing left behind */
  lfc_pcap_link_t *l = lfc_pcap_link_open(path, &cfg, err, sizeof err);
  assert_non_null(l);
  lfc_pcap_link_abort(l);
  lfc_pcap_link_abort(NULL);
  FILE *f = fopen(path, "rb");
  assert_null(f);
}

/* A full disk, made with a file-size limit (SIGXFSZ ignored, so writes fail with EFBIG): a
 * frame longer than the stdio buffer reaches the disk at once, and the word's write fails with
 * -1 and the reason; the writer can then be aborted and leaves nothing. */
static void test_pcap_link_full_disk(void **state) {
  (void)state;
  enum { LIMIT = 4096 };
  struct rlimit old;
  assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
  if (old.rlim_cur != RLIM_INFINITY && old.rlim_cur < LIMIT) skip();
  void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);
  char path[128], err[256];
  snprintf(path, sizeof path, "%s/full.pcap", dir);
  const lfc_pcap_link_cfg_t cfg = {LFC_MODE_IB, 0};
  lfc_pcap_link_t *l = lfc_pcap_link_open(path, &cfg, err, sizeof err);
  assert_non_null(l);
  const lfc_word_t big = data_word(0, 128, 1, 1, 0); /* 8 KB, the largest IB packet */
  const struct rlimit small = {LIMIT, old.rlim_max};
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
  int rc = 0;
  for (int i = 0; i < 4 && rc == 0; i++) rc = lfc_pcap_link_word(l, 0, 0, &big, 0, err, sizeof err);
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
  signal(SIGXFSZ, old_handler);
  assert_int_equal(rc, -1);
  assert_non_null(strstr(err, "cannot write"));
  assert_int_equal(lfc_pcap_link_stats(l)->records, 0);
  lfc_pcap_link_abort(l);
  FILE *f = fopen(path, "rb");
  assert_null(f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_pcap_link_pfc_mode, setup, teardown),
      cmocka_unit_test_setup_teardown(test_pcap_link_ib_mode, setup, teardown),
      cmocka_unit_test_setup_teardown(test_pcap_link_refusals, setup, teardown),
      cmocka_unit_test_setup_teardown(test_pcap_link_full_disk, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
