/*
 * test_pcap_read.c - the pcap reader of lfc/pcap.h and the writer's directions: what the writer
 * writes reads back the same (frames, times, kinds, directions) for the three link types; files
 * written by hand in the other forms pcap-savefile(5) allows (microseconds, big-endian, ERF
 * extension headers) read right; every kind of bad file is refused with its reason; and the
 * reader that cannot get its memory says so (alloc.h's fault injector).
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../src/alloc.h"
#include "lfc/pcap.h"

static char dir[64];

/* The tests run in the temporary directory, so that a file the writer might create anywhere
 * but where it was told (a relative name) lands there and goes with it, not into the tree. */
static char home[4096];

static int setup(void **state) {
  (void)state;
  strcpy(dir, "/tmp/lfc_pcapr_XXXXXX");
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

static void path_of(char *p, size_t n, const char *name) { snprintf(p, n, "%s/%s", dir, name); }

static void put(const char *path, const uint8_t *b, size_t n) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(b, 1, n, f), n);
  assert_int_equal(fclose(f), 0);
}

static void le32(uint8_t *b, uint32_t v) {
  for (unsigned i = 0; i < 4; i++) b[i] = (uint8_t)(v >> (8u * i));
}
static void be32(uint8_t *b, uint32_t v) {
  for (unsigned i = 0; i < 4; i++) b[i] = (uint8_t)(v >> (8u * (3u - i)));
}

/* A file header (little-endian unless big) for magic and link type. */
static size_t file_header(uint8_t *b, uint32_t magic, uint32_t linktype, int big) {
  void (*w32)(uint8_t *, uint32_t) = big ? be32 : le32;
  memset(b, 0, 24);
  w32(b, magic);
  b[big ? 5 : 4] = 2; /* major 2 */
  b[big ? 7 : 6] = 4; /* minor 4 */
  w32(b + 16, 65535);
  w32(b + 20, linktype);
  return 24;
}

static size_t record(uint8_t *b, uint32_t sec, uint32_t frac, uint32_t incl, uint32_t orig,
                     int big) {
  void (*w32)(uint8_t *, uint32_t) = big ? be32 : le32;
  w32(b, sec);
  w32(b + 4, frac);
  w32(b + 8, incl);
  w32(b + 12, orig);
  return 16;
}

/* Open path and expect a refusal naming it with `reason`. */
static void refused_open(const char *path, const char *reason) {
  char err[512];
  assert_null(lfc_pcap_reader_open(path, err, sizeof err));
  printf("  %s\n", err);
  assert_non_null(strstr(err, path));
  assert_non_null(strstr(err, reason));
}

/* Open path (fine) and expect the first record to be refused with `reason`. */
static void refused_record(const char *path, const char *reason) {
  char err[512];
  lfc_pcap_reader_t *r = lfc_pcap_reader_open(path, err, sizeof err);
  assert_non_null(r);
  lfc_pcap_record_t rec;
  assert_int_equal(lfc_pcap_reader_next(r, &rec, err, sizeof err), -1);
  printf("  %s\n", err);
  assert_non_null(strstr(err, "record 1 at byte 24"));
  assert_non_null(strstr(err, reason));
  assert_int_equal(lfc_pcap_reader_next(r, &rec, err, sizeof err), -1); /* stays failed */
  lfc_pcap_reader_close(r);
}

static void test_round_trip_ethernet(void **state) {
  (void)state;
  char path[128], err[256];
  path_of(path, sizeof path, "eth.pcap");
  lfc_pcap_t *w = lfc_pcap_open(path, LFC_PCAP_LINKTYPE_ETHERNET, err, sizeof err);
  assert_non_null(w);
  uint8_t a[64] = {0}, b[100] = {0}, x[70] = {0};
  lfc_pcap_side_mac(3, 0, a + 6);
  lfc_pcap_side_mac(3, 1, b + 6);
  a[20] = 0xA1;
  b[99] = 0xB2;
  x[6] = 0x00; /* a foreign source address */
  x[11] = 0x77;
  assert_int_equal(lfc_pcap_write_dir(w, 5, LFC_PCAP_ETH, 0, a, sizeof a, err, sizeof err), 0);
  assert_int_equal(
      lfc_pcap_write_dir(w, 1000000007ull, LFC_PCAP_ETH, 1, b, sizeof b, err, sizeof err), 0);
  assert_int_equal(lfc_pcap_write(w, 2000000000ull, LFC_PCAP_ETH, x, sizeof x, err, sizeof err), 0);
  assert_int_equal(lfc_pcap_write_dir(w, 2000000001ull, LFC_PCAP_ETH, 1, b, 12, err, sizeof err),
                   0);
  /* The address says side A: the file would contradict itself as direction 1. */
  assert_int_equal(lfc_pcap_write_dir(w, 3, LFC_PCAP_ETH, 1, a, sizeof a, err, sizeof err), -1);
  assert_non_null(strstr(err, "side A's address written as direction 1"));
  assert_int_equal(lfc_pcap_write_dir(w, 3, LFC_PCAP_ETH, 2, a, sizeof a, err, sizeof err), -1);
  /* A frame of just the two addresses is judged by its source too. */
  assert_int_equal(lfc_pcap_write_dir(w, 3, LFC_PCAP_ETH, 1, a, 12, err, sizeof err), -1);
  assert_int_equal(lfc_pcap_close(w, err, sizeof err), 0);

  lfc_pcap_reader_t *r = lfc_pcap_reader_open(path, err, sizeof err);
  assert_non_null(r);
  assert_int_equal(lfc_pcap_reader_linktype(r), 1);
  lfc_pcap_record_t rec;
  assert_int_equal(lfc_pcap_reader_next(r, &rec, err, sizeof err), 1);
  assert_int_equal(rec.index, 1);
  assert_int_equal(rec.offset, 24);
  assert_int_equal(rec.ts_ns, 5);
  assert_int_equal(rec.kind, LFC_PCAP_ETH);
  assert_int_equal(rec.dir, 0);
  assert_int_equal(rec.len, sizeof a);
  assert_memory_equal(rec.data, a, sizeof a);
  assert_int_equal(lfc_pcap_reader_next(r, &rec, err, sizeof err), 1);
  assert_int_equal(rec.ts_ns, 1000000007ull);
  assert_int_equal(rec.dir, 1);
  assert_memory_equal(rec.data, b, sizeof b);
  assert_int_equal(lfc_pcap_reader_next(r, &rec, err, sizeof err), 1);
  assert_int_equal(rec.dir, -1); /* not lfc's convention: the reader cannot tell */
  assert_int_equal(rec.index, 3);
  assert_int_equal(lfc_pcap_reader_next(r, &rec, err, sizeof err), 1);
  assert_int_equal(rec.len, 12); /* just the addresses: the source still says the side */
  assert_int_equal(rec.dir, 1);
  assert_int_equal(lfc_pcap_reader_next(r, &rec, err, sizeof err), 0);
  assert_int_equal(lfc_pcap_reader_next(r, &rec, err, sizeof err), 0);
  lfc_pcap_reader_close(r);

  uint8_t mac[6];
  lfc_pcap_side_mac(0x1234, 1, mac);
  const uint8_t want[6] = {0x02, 0x4C, 0x46, 0x12, 0x34, 0x01};
  assert_memory_equal(mac, want, 6);
  assert_int_equal(lfc_pcap_mac_side(mac), 1);
  mac[5] = 2;
  assert_int_equal(lfc_pcap_mac_side(mac), -1);
  /* Each of the three first bytes must be the convention's. */
  for (unsigned i = 0; i < 3; i++) {
    lfc_pcap_side_mac(7, 0, mac);
    mac[i] ^= 0x10;
    assert_int_equal(lfc_pcap_mac_side(mac), -1);
  }
}

static void test_round_trip_erf(void **state) {
  (void)state;
  char path[128], err[256];
  path_of(path, sizeof path, "ib.pcap");
  lfc_pcap_t *w = lfc_pcap_open(path, LFC_PCAP_LINKTYPE_ERF, err, sizeof err);
  assert_non_null(w);
  const uint8_t fcp[6] = {1, 2, 3, 4, 5, 6};
  uint8_t pkt[300]; /* over 255 bytes: the ERF lengths' high bytes are not 0 */
  for (unsigned i = 0; i < sizeof pkt; i++) pkt[i] = (uint8_t)i;
  assert_int_equal(lfc_pcap_write_dir(w, 10, LFC_PCAP_IB_LINK, 1, fcp, 6, err, sizeof err), 0);
  assert_int_equal(lfc_pcap_write_dir(w, 20, LFC_PCAP_IB_DATA, 0, pkt, 300, err, sizeof err), 0);
  assert_int_equal(lfc_pcap_close(w, err, sizeof err), 0);
  lfc_pcap_reader_t *r = lfc_pcap_reader_open(path, err, sizeof err);
  assert_non_null(r);
  assert_int_equal(lfc_pcap_reader_linktype(r), 197);
  lfc_pcap_record_t rec;
  assert_int_equal(lfc_pcap_reader_next(r, &rec, err, sizeof err), 1);
  assert_int_equal(rec.kind, LFC_PCAP_IB_LINK);
  assert_int_equal(rec.dir, 1);
  assert_int_equal(rec.iface, 1);
  assert_int_equal(rec.ts_ns, 10);
  assert_int_equal(rec.len, 6);
  assert_memory_equal(rec.data, fcp, 6);
  assert_int_equal(lfc_pcap_reader_next(r, &rec, err, sizeof err), 1);
  assert_int_equal(rec.kind, LFC_PCAP_IB_DATA);
  assert_int_equal(rec.dir, 0);
  assert_int_equal(rec.len, 300);
  assert_memory_equal(rec.data, pkt, 300);
  assert_int_equal(rec.offset, 24 + 16 + 16 + 6);
  assert_int_equal(lfc_pcap_reader_next(r, &rec, err, sizeof err), 0);
  lfc_pcap_reader_close(r);
}

static void test_round_trip_247(void **state) {
  (void)state;
  char path[128], err[256];
  path_of(path, sizeof path, "ib247.pcap");
  lfc_pcap_t *w = lfc_pcap_open(path, LFC_PCAP_LINKTYPE_INFINIBAND, err, sizeof err);
  assert_non_null(w);
  const uint8_t fcp8[8] = {1, 2, 3, 4, 5, 6, 0, 0};
  uint8_t pkt[26] = {0};
  assert_int_equal(lfc_pcap_write(w, 1, LFC_PCAP_IB_LINK, fcp8, 8, err, sizeof err), 0);
  assert_int_equal(lfc_pcap_write(w, 2, LFC_PCAP_IB_DATA, pkt, 26, err, sizeof err), 0);
  assert_int_equal(lfc_pcap_write_dir(w, 3, LFC_PCAP_IB_DATA, 1, pkt, 26, err, sizeof err), -1);
  assert_non_null(strstr(err, "cannot record direction 1"));
  assert_int_equal(lfc_pcap_close(w, err, sizeof err), 0);
  lfc_pcap_reader_t *r = lfc_pcap_reader_open(path, err, sizeof err);
  assert_non_null(r);
  lfc_pcap_record_t rec;
  assert_int_equal(lfc_pcap_reader_next(r, &rec, err, sizeof err), 1);
  assert_int_equal(rec.kind, LFC_PCAP_IB_LINK); /* 8 bytes or less: a link packet */
  assert_int_equal(rec.dir, -1);
  assert_int_equal(lfc_pcap_reader_next(r, &rec, err, sizeof err), 1);
  assert_int_equal(rec.kind, LFC_PCAP_IB_DATA);
  lfc_pcap_reader_close(r);
}

/* Microsecond timestamps, big-endian, written by hand; an ERF record with an extension header. */
static void test_other_forms(void **state) {
  (void)state;
  char path[128], err[256];
  uint8_t b[256];
  size_t n = file_header(b, 0xA1B2C3D4u, 1, 1);
  n += record(b + n, 3, 250000, 4, 4, 1);
  memcpy(b + n, "abcd", 4);
  n += 4;
  path_of(path, sizeof path, "us-be.pcap");
  put(path, b, n);
  lfc_pcap_reader_t *r = lfc_pcap_reader_open(path, err, sizeof err);
  assert_non_null(r);
  lfc_pcap_record_t rec;
  assert_int_equal(lfc_pcap_reader_resolution_ns(r), 1000); /* a microsecond file */
  assert_int_equal(lfc_pcap_reader_next(r, &rec, err, sizeof err), 1);
  assert_int_equal(rec.ts_ns, 3250000000ull);
  assert_int_equal(rec.len, 4);
  assert_memory_equal(rec.data, "abcd", 4);
  lfc_pcap_reader_close(r);

  n = file_header(b, 0xA1B23C4Du, 197, 0);
  const size_t rec_at = n;
  n += 16;
  uint8_t *e = b + n;
  memset(e, 0, 16 + 8 + 6);
  e[8] = 0x80 | 25; /* InfiniBand link, an extension header follows */
  e[9] = 0x04 | 3;  /* interface 3 */
  e[10] = 0;
  e[11] = 16 + 8 + 6;
  e[15] = 6;
  e[16] = 0x05; /* the extension header, no further one */
  memcpy(e + 24, "FCPFCP", 6);
  n += 16 + 8 + 6;
  record(b + rec_at, 0, 7, 30, 30, 0);
  path_of(path, sizeof path, "erf-ext.pcap");
  put(path, b, n);
  r = lfc_pcap_reader_open(path, err, sizeof err);
  assert_non_null(r);
  assert_int_equal(lfc_pcap_reader_resolution_ns(r), 1); /* a nanosecond file */
  assert_int_equal(lfc_pcap_reader_next(r, &rec, err, sizeof err), 1);
  assert_int_equal(rec.kind, LFC_PCAP_IB_LINK);
  assert_int_equal(rec.iface, 3);
  assert_int_equal(rec.dir, -1); /* interface 3 is not a direction */
  assert_int_equal(rec.len, 6);
  assert_memory_equal(rec.data, "FCPFCP", 6);
  lfc_pcap_reader_close(r);
}

static void test_bad_files(void **state) {
  (void)state;
  char path[128];
  uint8_t b[256];
  memset(b, 0, sizeof b);

  path_of(path, sizeof path, "missing.pcap");
  refused_open(path, "cannot open");

  path_of(path, sizeof path, "empty.pcap");
  put(path, b, 0);
  refused_open(path, "truncated: 0 bytes, a pcap file header is 24");

  path_of(path, sizeof path, "short.pcap");
  file_header(b, 0xA1B23C4Du, 1, 0);
  put(path, b, 20);
  refused_open(path, "truncated: 20 bytes");

  path_of(path, sizeof path, "magic.pcap");
  file_header(b, 0x12345678u, 1, 0);
  put(path, b, 24);
  refused_open(path, "bad magic 0x12345678: not a pcap file");

  path_of(path, sizeof path, "ng.pcapng");
  le32(b, 0x0A0D0D0Au);
  put(path, b, 24);
  refused_open(path, "a pcapng file");

  path_of(path, sizeof path, "version.pcap");
  file_header(b, 0xA1B23C4Du, 1, 0);
  b[4] = 3;
  put(path, b, 24);
  refused_open(path, "pcap version 3.4, allowed 2.x");

  path_of(path, sizeof path, "linktype.pcap");
  file_header(b, 0xA1B23C4Du, 105, 0);
  put(path, b, 24);
  refused_open(path, "link type 105, allowed 1 (Ethernet), 197 (ERF), 247 (InfiniBand)");

  size_t n = file_header(b, 0xA1B23C4Du, 1, 0);
  path_of(path, sizeof path, "rec-header.pcap");
  put(path, b, n + 10);
  refused_record(path, "truncated: a record header is 16 bytes, the file has 10");

  record(b + n, 0, 0, 60, 60, 0);
  path_of(path, sizeof path, "rec-data.pcap");
  put(path, b, n + 16 + 20);
  refused_record(path, "truncated: 60 bytes announced, the file has 20");

  record(b + n, 0, 0, 60, 1514, 0);
  path_of(path, sizeof path, "snap.pcap");
  put(path, b, n + 16 + 60);
  refused_record(path, "60 of 1514 bytes captured (snap length)");

  record(b + n, 0, 0, 60, 40, 0);
  path_of(path, sizeof path, "incl.pcap");
  put(path, b, n + 16 + 60);
  refused_record(path, "captured length 60 exceeds the original length 40");

  record(b + n, 0, 0, 300000, 300000, 0);
  path_of(path, sizeof path, "huge.pcap");
  put(path, b, n + 16);
  refused_record(path, "captured length 300000 exceeds 262144");

  record(b + n, 0, 1000000000u, 4, 4, 0);
  path_of(path, sizeof path, "frac.pcap");
  put(path, b, n + 16 + 4);
  refused_record(path, "timestamp fraction 1000000000 is not below 1000000000");

  /* ERF records */
  n = file_header(b, 0xA1B23C4Du, 197, 0);
  record(b + n, 0, 0, 10, 10, 0);
  path_of(path, sizeof path, "erf-short.pcap");
  put(path, b, n + 16 + 10);
  refused_record(path, "an ERF record of 10 bytes, its header is 16");

  uint8_t *e = b + n + 16;
  memset(e, 0, 32);
  e[8] = 2; /* ERF Ethernet */
  e[11] = 26;
  e[15] = 10;
  record(b + n, 0, 0, 26, 26, 0);
  path_of(path, sizeof path, "erf-type.pcap");
  put(path, b, n + 16 + 26);
  refused_record(path, "ERF type 2, allowed 21 (InfiniBand) and 25 (InfiniBand link)");

  e[8] = 21;
  e[11] = 40; /* rlen past the record */
  path_of(path, sizeof path, "erf-rlen.pcap");
  put(path, b, n + 16 + 26);
  refused_record(path, "ERF rlen 40");

  e[11] = 26;
  e[15] = 20; /* wlen beyond what is there */
  path_of(path, sizeof path, "erf-wlen.pcap");
  put(path, b, n + 16 + 26);
  refused_record(path, "ERF wlen 20 but 10 bytes captured");

  e[15] = 10;
  e[8] = 0x80 | 21; /* an extension header that is not there */
  record(b + n, 0, 0, 20, 20, 0);
  path_of(path, sizeof path, "erf-ext.pcap");
  put(path, b, n + 16 + 20);
  refused_record(path, "ERF extension headers run past the record");
}

/* Each allocation of lfc_pcap_reader_open failing in turn: NULL and "PATH: out of memory" (with
 * err NULL too); past the last one the file opens. */
static void test_reader_out_of_memory(void **state) {
  (void)state;
  char path[128], err[256];
  path_of(path, sizeof path, "oom.pcap");
  uint8_t b[24];
  put(path, b, file_header(b, 0xA1B23C4Du, LFC_PCAP_LINKTYPE_ETHERNET, 0));
  char want[192];
  snprintf(want, sizeof want, "%s: out of memory", path);
  unsigned n;
  for (n = 1;; n++) {
    lfc_alloc_fail_nth(n);
    strcpy(err, "untouched");
    lfc_pcap_reader_t *r = lfc_pcap_reader_open(path, err, sizeof err);
    const int failed = lfc_alloc_failed();
    lfc_alloc_fail_nth(0);
    if (!failed) {
      assert_non_null(r);
      lfc_pcap_reader_close(r);
      break;
    }
    assert_null(r);
    assert_string_equal(err, want);
    lfc_alloc_fail_nth(n);
    assert_null(lfc_pcap_reader_open(path, NULL, 0));
    lfc_alloc_fail_nth(0);
  }
  assert_true(n > 1); /* it allocates, and each allocation was made to fail once */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_round_trip_ethernet), cmocka_unit_test(test_round_trip_erf),
      cmocka_unit_test(test_round_trip_247),      cmocka_unit_test(test_other_forms),
      cmocka_unit_test(test_bad_files),           cmocka_unit_test(test_reader_out_of_memory),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
