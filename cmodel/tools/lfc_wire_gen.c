/*
 * lfc_wire_gen.c - write a pcap of random wire frames made by the liblfc codecs, and beside it
 * the fields each frame must show in Wireshark, for the tshark cross-check
 * (scripts/test_wire_tshark.sh, docs/wire-formats.md §7).
 *
 *   lfc_wire_gen --eth|--ib-erf|--ib-247 [--seed S] [--count N] PCAP EXPECT
 *   lfc_wire_gen --model-pfc|--model-ib [--seed S] [--cycles N] [--link P [--response-cycles R]
 *                [--skip-frame K]] PCAP EXPECT
 *
 * --eth: PFC, PAUSE and RoCEv2 frames (IPv4 and IPv6, tagged and not) in LINKTYPE_ETHERNET;
 * --ib-erf / --ib-247: IB data packets (with and without GRH) and FCPs in LINKTYPE_ERF or
 * LINKTYPE_INFINIBAND. --ib-erf-fcp8: as --ib-erf, but each FCP record carries two zero bytes
 * after the 6-byte FCP, so that tshark 4.0 (whose link dissector reads 8 bytes) shows all of its
 * fields; the liblfc decoder ignores bytes after the sixth. After the N random frames come
 * deliberately broken ones (eth: a PFC frame with a bad FCS, a MAC Control frame with opcode
 * 0x0102; ib: an FCP with a bad LPCRC, a data packet with a bad VCRC). Every frame is decoded
 * again by liblfc before it is written.
 *
 * --model-pfc / --model-ib: the model's own traffic instead. A 4-port star testbed (lfc/star.h)
 * runs N cycles of incast with the traffic seed S; every word the switch sends, on every port,
 * is written as its frame (lfc_*_from_word) at its cycle: RoCEv2 and PFC in LINKTYPE_ETHERNET,
 * IB data packets and FCPs in ERF.
 * --link P: instead, both directions of the switch's port P, seen at the switch: side A is the
 * switch (its words, direction 0), side B the end node (the words the switch receives, at the
 * cycle they arrive, direction 1), marked as lfc/pcap.h says (ERF capture interface; Ethernet
 * source addresses lfc_pcap_side_mac(P, side)): a capture of one link for lfc-check. Options
 * for making broken captures from it: --response-cycles R, the node's reaction to a pause
 * (SPEC §12.2; 0 by default); --skip-frame K, leave frame K (from 1) out of the file.
 *
 * EXPECT has one line per frame: the frame number (from 1), then tab-separated `field=value`
 * pairs named as tshark names them (value decimal; for the `_ws.col.*` columns, text the column
 * must contain), and `decode=STATUS` (lfc_wire_status_name).
 * Timestamps are cycles at 100 Gb/s (lfc_pcap_cycle_ns): the model's, or for random frames one
 * cycle per 64-byte block of the frames before.
 *
 * Exit 0 written, 2 bad arguments or a failed write (one line on stderr naming the file).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lfc/crc.h"
#include "lfc/pcap.h"
#include "lfc/star.h"
#include "lfc/wire_ib_data.h"
#include "lfc/wire_ib_fcp.h"
#include "lfc/wire_pfc.h"
#include "lfc/wire_roce.h"

#define EXIT_BAD 2
#define LINK_GBPS 100u
#define MAX_FRAME 9100u
#define MAX_PAYLOAD 4096u
#define DEFAULT_COUNT 400u
#define DEFAULT_SEED 0x5EEDull
#define ERRLEN 256u
#define LINE 1024u

enum { MODE_ETH, MODE_IB_ERF, MODE_IB_247, MODE_MODEL_IB, MODE_MODEL_PFC };

/* The model runs (--model-ib, --model-pfc): a star testbed under incast (lfc/star.h). */
#define MODEL_PORTS 4u
#define MODEL_CLASSES 2u
#define MODEL_KMIN 8u   /* mark early, so that CE packets show (SPEC §9) */
#define MODEL_KMAX 64u
#define MODEL_PMAX 32768u
#define DEFAULT_CYCLES 5000u
#define MODEL_IB_MTU_BLOCKS 64u
#define MODEL_QPN_BASE 0x100u
/* tshark 4.0 reads 8 bytes of a link packet; an FCP is 6 (docs/wire-formats.md §7). */
#define FCP_TSHARK_PAD 2u
#define TSHARK_LNH_MASK 0x3u /* the bits tshark takes for LNH: FCTBS 1:0 */

/* BTH opcodes Wireshark dissects without further headers (IBA Table 38). */
#define RC_SEND_ONLY 0x04u
#define RC_RDMA_WRITE_MIDDLE 0x07u
#define PKEY_DEFAULT 0xFFFFu
#define UDP_EPHEMERAL_BASE 49152u /* RFC 6335 dynamic ports */
#define UDP_EPHEMERAL_COUNT 16384u
#define UNICAST_MASK 0xFEu        /* clear the group bit of a MAC address */

typedef struct {
  lfc_pcap_t *pcap;
  FILE *expect;
  const char *expect_path;
  char *expect_tmp;
  uint64_t cycle;
  bool model;   /* the caller sets cycle: the model's */
  bool fcp_pad; /* --ib-erf-fcp8: FCP records carry FCP_TSHARK_PAD zero bytes after the FCP */
  uint32_t dir;  /* --link: the direction of the frame being written */
  uint64_t skip; /* --skip-frame: this frame (from 1) is not written; 0 = none */
  unsigned n;
  char line[LINE];
  size_t used;
} out_t;

static uint64_t rng;
static uint64_t next(void) {
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return rng * 0x2545F4914F6CDD1DULL;
}
static uint32_t below(uint32_t n) { return (uint32_t)((next() >> 32) % n); }

static uint32_t be32(const uint8_t *b) {
  return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static void field(out_t *o, const char *name, unsigned long long v) {
  const int k = snprintf(o->line + o->used, LINE - o->used, "\t%s=%llu", name, v);
  if (k > 0 && (size_t)k < LINE - o->used) o->used += (size_t)k;
}

static void fail_exit(out_t *o, const char *msg) {
  fprintf(stderr, "lfc_wire_gen: %s\n", msg);
  lfc_pcap_abort(o->pcap);
  if (o->expect != NULL) fclose(o->expect);
  if (o->expect_tmp != NULL) remove(o->expect_tmp);
  exit(EXIT_BAD);
}

/* Write one record and its expectation line (started by begin()). */
/* A field tshark shows as text: the shown text must contain it. */
static void text(out_t *o, const char *name, const char *v) {
  const int k = snprintf(o->line + o->used, LINE - o->used, "\t%s=%s", name, v);
  if (k > 0 && (size_t)k < LINE - o->used) o->used += (size_t)k;
}

static void emit(out_t *o, lfc_pcap_rec_t kind, const uint8_t *f, size_t len,
                 lfc_wire_status_t decoded) {
  char err[ERRLEN];
  field(o, "frame.len", len);
  const int k = snprintf(o->line + o->used, LINE - o->used, "\tdecode=%s\n",
                         lfc_wire_status_name(decoded));
  if (k < 0 || (size_t)k >= LINE - o->used) fail_exit(o, "expectation line too long");
  if (o->n == o->skip) { /* left out on purpose: a capture that misses a frame */
    if (!o->model) o->cycle += (len + LFC_BLOCK_BYTES - 1u) / LFC_BLOCK_BYTES;
    return;
  }
  if (lfc_pcap_write_dir(o->pcap, lfc_pcap_cycle_ns(o->cycle, LINK_GBPS), kind, o->dir, f, len,
                         err, sizeof err) != 0) {
    fail_exit(o, err);
  }
  if (fputs(o->line, o->expect) == EOF) {
    snprintf(err, sizeof err, "%s: cannot write: %s", o->expect_path, strerror(errno));
    fail_exit(o, err);
  }
  if (!o->model) o->cycle += (len + LFC_BLOCK_BYTES - 1u) / LFC_BLOCK_BYTES;
}

static void begin(out_t *o) {
  o->n++;
  o->used = (size_t)snprintf(o->line, LINE, "%u", o->n);
}

static void check(out_t *o, lfc_wire_status_t got, lfc_wire_status_t want, const char *what) {
  if (got != want) {
    char msg[ERRLEN];
    snprintf(msg, sizeof msg, "frame %u (%s): liblfc decodes it as %s, expected %s", o->n, what,
             lfc_wire_status_name(got), lfc_wire_status_name(want));
    fail_exit(o, msg);
  }
}

static void write_pfc(out_t *o, const lfc_pfc_frame_t *fp, bool corrupt_fcs,
                      uint16_t force_opcode);

static void gen_pfc(out_t *o, bool corrupt_fcs, uint16_t force_opcode) {
  lfc_pfc_frame_t f;
  memset(&f, 0, sizeof f);
  for (unsigned i = 0; i < LFC_ETH_ADDR_BYTES; i++) f.src[i] = (uint8_t)below(256);
  f.src[0] &= UNICAST_MASK;
  f.opcode = below(4) == 0 ? LFC_MAC_CTRL_OP_PAUSE : LFC_MAC_CTRL_OP_PFC;
  if (f.opcode == LFC_MAC_CTRL_OP_PFC) {
    f.class_enable = (uint8_t)below(256);
    for (unsigned i = 0; i < LFC_PFC_MAX_PRIOS; i++) {
      f.time[i] = below(4) == 0 ? 0 : (uint16_t)below(65536);
    }
  } else {
    f.time[0] = (uint16_t)below(65536);
  }
  write_pfc(o, &f, corrupt_fcs, force_opcode);
}

/* Encode f, list its fields, break it if asked, check liblfc's decode, write it. */
static void write_pfc(out_t *o, const lfc_pfc_frame_t *fp, bool corrupt_fcs,
                      uint16_t force_opcode) {
  const lfc_pfc_frame_t f = *fp;
  uint8_t b[LFC_PFC_FRAME_BYTES];
  const size_t len = lfc_pfc_encode(&f, b, sizeof b, NULL);
  lfc_wire_status_t want = LFC_WIRE_OK;
  begin(o);
  if (force_opcode != 0) {
    b[LFC_MAC_CTRL_OPCODE_OFFSET] = (uint8_t)(force_opcode >> 8);
    b[LFC_MAC_CTRL_OPCODE_OFFSET + 1u] = (uint8_t)force_opcode;
    const uint32_t c = lfc_crc32(b, LFC_ETH_MIN_NOFCS);
    for (unsigned i = 0; i < LFC_ETH_FCS_BYTES; i++) {
      b[LFC_ETH_MIN_NOFCS + i] = (uint8_t)(c >> (8 * i));
    }
    field(o, "macc.opcode", force_opcode);
    want = LFC_WIRE_BAD_OPCODE;
  } else {
    field(o, "macc.opcode", f.opcode);
    if (f.opcode == LFC_MAC_CTRL_OP_PFC) {
      field(o, "macc.cbfc.enbv", f.class_enable);
      char name[40];
      for (unsigned i = 0; i < LFC_PFC_MAX_PRIOS; i++) {
        snprintf(name, sizeof name, "macc.cbfc.pause_time.c%u", i);
        field(o, name, f.time[i]);
      }
    } else {
      field(o, "macc.pause_time", f.time[0]);
    }
  }
  if (corrupt_fcs) {
    b[LFC_ETH_MIN_NOFCS] ^= 0x01;
    want = LFC_WIRE_BAD_FCS;
  }
  field(o, "eth.fcs.status", corrupt_fcs ? 0u : 1u); /* Wireshark: 0 bad, 1 good */
  lfc_pfc_frame_t g;
  check(o, lfc_pfc_decode(b, len, &g, NULL), want, "PFC");
  emit(o, LFC_PCAP_ETH, b, len, want);
}

static void write_roce(out_t *o, const lfc_roce_pkt_t *pp);

static void gen_roce(out_t *o) {
  static uint8_t payload[MAX_PAYLOAD];
  lfc_roce_pkt_t p;
  memset(&p, 0, sizeof p);
  for (unsigned i = 0; i < LFC_ETH_ADDR_BYTES; i++) {
    p.dst_mac[i] = (uint8_t)below(256);
    p.src_mac[i] = (uint8_t)below(256);
  }
  p.dst_mac[0] &= UNICAST_MASK;
  p.src_mac[0] &= UNICAST_MASK;
  p.has_vlan = below(2);
  if (p.has_vlan) {
    p.pcp = (uint8_t)below(8);
    p.vid = (uint16_t)(1u + below(4094));
  }
  p.ipv6 = below(2);
  p.dscp = (uint8_t)below(64);
  p.ecn = (uint8_t)below(4);
  p.ttl = (uint8_t)(1u + below(255));
  p.ip_id = (uint16_t)below(65536);
  p.flow_label = below(1u << 20);
  if (p.ipv6) {
    p.src_ip[0] = 0xfd; /* unique local, so no dissector takes it for special */
    p.dst_ip[0] = 0xfd;
    for (unsigned i = 1; i < LFC_IPV6_ADDR_BYTES; i++) {
      p.src_ip[i] = (uint8_t)below(256);
      p.dst_ip[i] = (uint8_t)below(256);
    }
  } else {
    p.src_ip[0] = 10;
    p.dst_ip[0] = 10;
    for (unsigned i = 1; i < LFC_IPV4_ADDR_BYTES; i++) {
      p.src_ip[i] = (uint8_t)below(256);
      p.dst_ip[i] = (uint8_t)below(256);
    }
  }
  p.udp_src = (uint16_t)(UDP_EPHEMERAL_BASE + below(UDP_EPHEMERAL_COUNT));
  /* RC SEND only or RDMA WRITE middle: opcodes whose header Wireshark knows (no RETH/AETH). */
  p.bth.opcode = below(2) ? RC_SEND_ONLY : RC_RDMA_WRITE_MIDDLE;
  p.bth.pkey = PKEY_DEFAULT;
  p.bth.dqpn = below(1u << 24);
  p.bth.psn = below(1u << 24);
  p.bth.ackreq = (uint8_t)below(2);
  p.payload_len = below(1024);
  for (size_t i = 0; i < p.payload_len; i++) payload[i] = (uint8_t)below(256);
  p.payload = payload;
  write_roce(o, &p);
}

static void write_roce(out_t *o, const lfc_roce_pkt_t *pp) {
  static uint8_t b[MAX_FRAME];
  const lfc_roce_pkt_t p = *pp;
  lfc_wire_error_t err;
  const size_t len = lfc_roce_encode(&p, b, sizeof b, &err);
  if (len == 0) fail_exit(o, err.text);
  begin(o);
  if (p.has_vlan) field(o, "vlan.priority", p.pcp);
  field(o, p.ipv6 ? "ipv6.tclass.dscp" : "ip.dsfield.dscp", p.dscp);
  field(o, p.ipv6 ? "ipv6.tclass.ecn" : "ip.dsfield.ecn", p.ecn);
  field(o, "udp.dstport", LFC_ROCE_UDP_PORT);
  field(o, "infiniband.bth.opcode", p.bth.opcode);
  field(o, "infiniband.bth.destqp", p.bth.dqpn);
  field(o, "infiniband.bth.psn", p.bth.psn);
  /* Wireshark shows the ICRC bytes read big-endian and does not verify them (§7). */
  const size_t pad =
      (LFC_IB_WORD_BYTES - p.payload_len % LFC_IB_WORD_BYTES) % LFC_IB_WORD_BYTES;
  const size_t icrc_at = LFC_ETH_HEADER_BYTES + (p.has_vlan ? LFC_ETH_VLAN_TAG_BYTES : 0u) +
                         (p.ipv6 ? LFC_IPV6_HEADER_BYTES : LFC_IPV4_HEADER_BYTES) +
                         LFC_UDP_HEADER_BYTES + LFC_IB_BTH_BYTES + p.payload_len + pad;
  field(o, "infiniband.invariant.crc", be32(b + icrc_at));
  field(o, "eth.fcs.status", 1);
  lfc_roce_pkt_t q;
  check(o, lfc_roce_decode(b, len, &q, NULL), LFC_WIRE_OK, "RoCEv2");
  emit(o, LFC_PCAP_ETH, b, len, LFC_WIRE_OK);
}

static void write_ib_data(out_t *o, const lfc_ib_pkt_t *pp, bool corrupt_vcrc);

static void gen_ib_data(out_t *o, bool corrupt_vcrc) {
  static uint8_t payload[MAX_PAYLOAD];
  lfc_ib_pkt_t p;
  memset(&p, 0, sizeof p);
  p.vl = (uint8_t)below(15);
  p.sl = (uint8_t)below(16);
  p.dlid = (uint16_t)(1u + below(0xBFFF));
  p.slid = (uint16_t)(1u + below(0xBFFF));
  p.has_grh = below(2);
  if (p.has_grh) {
    p.grh.tclass = (uint8_t)below(256);
    p.grh.flow_label = below(1u << 20);
    p.grh.hoplmt = (uint8_t)below(256);
    for (unsigned i = 0; i < LFC_IB_GID_BYTES; i++) {
      p.grh.sgid[i] = (uint8_t)below(256);
      p.grh.dgid[i] = (uint8_t)below(256);
    }
    p.grh.sgid[0] = p.grh.dgid[0] = 0xFE; /* link-local prefix fe80:: */
    p.grh.sgid[1] = p.grh.dgid[1] = 0x80;
  }
  p.bth.opcode = below(2) ? RC_SEND_ONLY : RC_RDMA_WRITE_MIDDLE;
  p.bth.pkey = PKEY_DEFAULT;
  p.bth.dqpn = 2u + below((1u << 24) - 2u); /* not QP0/QP1, which carry MADs */
  p.bth.psn = below(1u << 24);
  p.payload_len = below(2048);
  for (size_t i = 0; i < p.payload_len; i++) payload[i] = (uint8_t)below(256);
  p.payload = payload;
  write_ib_data(o, &p, corrupt_vcrc);
}

static void write_ib_data(out_t *o, const lfc_ib_pkt_t *pp, bool corrupt_vcrc) {
  static uint8_t b[MAX_FRAME];
  const lfc_ib_pkt_t p = *pp;
  lfc_wire_error_t err;
  const size_t len = lfc_ib_pkt_encode(&p, b, sizeof b, &err);
  if (len == 0) fail_exit(o, err.text);
  begin(o);
  field(o, "infiniband.lrh.vl", p.vl);
  field(o, "infiniband.lrh.sl", p.sl);
  field(o, "infiniband.lrh.lnh", p.has_grh ? LFC_IB_LNH_GLOBAL : LFC_IB_LNH_LOCAL);
  field(o, "infiniband.lrh.dlid", p.dlid);
  field(o, "infiniband.lrh.slid", p.slid);
  field(o, "infiniband.lrh.pktlen", (len - LFC_IB_VCRC_BYTES) / LFC_IB_WORD_BYTES);
  field(o, "infiniband.bth.opcode", p.bth.opcode);
  field(o, "infiniband.bth.destqp", p.bth.dqpn);
  field(o, "infiniband.bth.psn", p.bth.psn);
  lfc_wire_status_t want = LFC_WIRE_OK;
  if (corrupt_vcrc) {
    b[len - 1u] ^= 0x80;
    want = LFC_WIRE_BAD_VCRC;
  }
  /* Wireshark shows ICRC and VCRC read big-endian and does not verify them (§7). */
  const size_t icrc_at = len - LFC_IB_VCRC_BYTES - LFC_IB_ICRC_BYTES;
  field(o, "infiniband.invariant.crc", be32(b + icrc_at));
  field(o, "infiniband.variant.crc", (unsigned)b[len - 2u] << 8 | b[len - 1u]);
  lfc_ib_pkt_t q;
  check(o, lfc_ib_pkt_decode(b, len, &q, NULL), want, "IB data");
  emit(o, LFC_PCAP_IB_DATA, b, len, want);
}

static void write_fcp(out_t *o, const lfc_ib_fcp_t *pp, bool corrupt_crc);

static void gen_fcp(out_t *o, bool corrupt_crc) {
  lfc_ib_fcp_t p = {.op = (uint8_t)below(2),
                    .vl = (uint8_t)below(15),
                    .fctbs = (uint16_t)below(4096),
                    .fccl = (uint16_t)below(4096)};
  write_fcp(o, &p, corrupt_crc);
}

static void write_fcp(out_t *o, const lfc_ib_fcp_t *pp, bool corrupt_crc) {
  const lfc_ib_fcp_t p = *pp;
  uint8_t b[LFC_IB_FCP_BYTES + FCP_TSHARK_PAD] = {0};
  lfc_ib_fcp_encode(&p, b, LFC_IB_FCP_BYTES, NULL);
  begin(o);
  /* tshark 4.0's link dissector also runs its data-packet address code over the link packet
   * (docs/wire-formats.md §7): DLID from bytes 2..3, SLID from bytes 6..7, and FCTBS bits 1:0
   * taken for LNH. With 8 bytes and that "LNH" below 2 it shows every field. */
  const bool all_shown = o->fcp_pad && (p.fctbs & TSHARK_LNH_MASK) < LFC_IB_LNH_LOCAL;
  if (all_shown) {
    field(o, "infiniband_link.op", p.op);
    field(o, "infiniband_link.fctbs", p.fctbs);
    field(o, "infiniband_link.vl", p.vl);
    field(o, "infiniband_link.fccl", p.fccl);
  } else {
    /* Otherwise it throws before it adds any field; it does show the Op, as the Info text, and
     * bytes 2..3 (VL and FCCL) as the destination "LID". FCTBS and LPCRC are then checked by
     * liblfc's decoder only. */
    text(o, "_ws.col.Info",
         p.op == LFC_FCP_OP_INIT ? "Flow Control Init" : "Normal Flow Control");
    char lid[32];
    snprintf(lid, sizeof lid, "LID: %u", (unsigned)p.vl << LFC_IB_FCP_HI_SHIFT | p.fccl);
    text(o, "_ws.col.Destination", lid);
  }
  lfc_wire_status_t want = LFC_WIRE_OK;
  if (corrupt_crc) {
    b[LFC_IB_FCP_CRC_OFFSET] ^= 0x01;
    want = LFC_WIRE_BAD_LPCRC;
  }
  if (all_shown) {
    /* tshark reads the LPCRC big-endian. */
    field(o, "infiniband_link.lpcrc",
          (unsigned)b[LFC_IB_FCP_CRC_OFFSET] << 8 | b[LFC_IB_FCP_CRC_OFFSET + 1u]);
  }
  lfc_ib_fcp_t q;
  check(o, lfc_ib_fcp_decode(b, sizeof b, &q, NULL), want, "FCP");
  emit(o, LFC_PCAP_IB_LINK, b, o->fcp_pad ? sizeof b : LFC_IB_FCP_BYTES, want);
}

/*
 * Run the model and write every word the switch sends (all ports) as its frame, at the cycle it
 * was sent: data packets once, at their first block. PFC mode keeps packets to 2 blocks or more,
 * since a 64-byte RoCEv2 frame cannot carry the 4-byte tag (docs/wire-formats.md §8).
 */
/* One word as its frame: the switch's (side A) or, with from_node, the node's (side B) on port;
 * mac_link >= 0 gives the sources lfc_pcap_side_mac(mac_link, side). */
static void write_word(out_t *o, bool ib, const lfc_word_t *w, unsigned port, bool from_node,
                       int mac_link, uint32_t *psn, const lfc_roce_map_t *map);

static void run_model(out_t *o, bool ib, uint64_t seed, unsigned cycles, int link,
                      unsigned response) {
  lfc_star_cfg_t cfg;
  lfc_star_cfg_default(&cfg, ib ? LFC_MODE_IB : LFC_MODE_PFC, MODEL_PORTS, MODEL_CLASSES);
  cfg.traffic.pattern = LFC_TRAFFIC_INCAST;
  cfg.traffic.load_permille = 1000u;
  cfg.traffic.seed = seed;
  if (!ib) {
    cfg.traffic.min_nblk = 2u;
    cfg.traffic.ecn_capable_pct = 80u;
    cfg.sw.ecn_mask = (1u << MODEL_CLASSES) - 1u;
    cfg.sw.kmin = MODEL_KMIN;
    cfg.sw.kmax = MODEL_KMAX;
    cfg.sw.pmax = MODEL_PMAX;
  }
  cfg.nic.response_cycles = response;
  if (link >= 0 && ib) {
    /* One link for lfc-check: packets within the IB MTU of 4096 payload bytes, which a packet
     * of 64 blocks without GRH holds (docs/packet-sizes.md); at 65 blocks the payload that
     * lfc_ib_pkt_from_word gives it would be 4132 bytes. */
    cfg.traffic.max_nblk = MODEL_IB_MTU_BLOCKS;
  }
  char err[ERRLEN];
  lfc_star_t *star = lfc_star_create(&cfg, err, sizeof err);
  if (star == NULL) fail_exit(o, err);
  lfc_roce_map_t map;
  lfc_roce_map_default(&map, LFC_ROCE_PRIO_PCP);
  uint32_t psn[MODEL_PORTS] = {0};
  o->model = true;
  for (unsigned c = 0; c < cycles; c++) {
    o->cycle = lfc_star_cycle(star);
    lfc_star_step(star);
    const lfc_word_t *in, *out;
    lfc_star_last_words(star, &in, &out);
    if (link >= 0) {
      /* One link, both directions, at the switch: what it sends, then what it receives. */
      o->dir = LFC_PCAP_DIR_AB;
      write_word(o, ib, &out[link], (unsigned)link, false, link, psn, &map);
      o->dir = LFC_PCAP_DIR_BA;
      write_word(o, ib, &in[link], (unsigned)link, true, link, psn, &map);
      continue;
    }
    for (unsigned port = 0; port < MODEL_PORTS; port++) {
      write_word(o, ib, &out[port], port, false, -1, psn, &map);
    }
  }
  lfc_star_destroy(star);
}

static void write_word(out_t *o, bool ib, const lfc_word_t *w, unsigned port, bool from_node,
                       int mac_link, uint32_t *psn, const lfc_roce_map_t *map) {
  static uint8_t payload[LFC_MAX_NBLK * LFC_BLOCK_BYTES];
  const unsigned side = from_node ? 1u : 0u;
  lfc_wire_error_t werr;
  lfc_wire_status_t st = LFC_WIRE_OK;
  if (w->kind == LFC_FCP) {
    lfc_ib_fcp_t p;
    st = lfc_ib_fcp_from_word(w, &p, &werr);
    if (st == LFC_WIRE_OK) write_fcp(o, &p, false);
  } else if (w->kind == LFC_PFC) {
    lfc_pfc_frame_t f;
    uint8_t src[LFC_ETH_ADDR_BYTES] = {0x02, 0, 0, 0, 0, (uint8_t)(port + 1u)};
    if (mac_link >= 0) lfc_pcap_side_mac((uint32_t)mac_link, side, src);
    st = lfc_pfc_from_word(w, src, &f, &werr);
    if (st == LFC_WIRE_OK) write_pfc(o, &f, false, 0);
  } else if (w->kind == LFC_DATA && w->sop && ib) {
    lfc_ib_pkt_t tmpl, p;
    memset(&tmpl, 0, sizeof tmpl);
    tmpl.slid = (uint16_t)(port + 1u);
    tmpl.bth.opcode = RC_SEND_ONLY;
    tmpl.bth.pkey = PKEY_DEFAULT;
    tmpl.bth.dqpn = MODEL_QPN_BASE + port;
    tmpl.bth.psn = psn[port]++ & LFC_IB_QPN_MASK;
    st = lfc_ib_pkt_from_word(w, &tmpl, &p, payload, sizeof payload, &werr);
    if (st == LFC_WIRE_OK) write_ib_data(o, &p, false);
  } else if (w->kind == LFC_DATA && w->sop) {
    lfc_roce_pkt_t tmpl, p;
    memset(&tmpl, 0, sizeof tmpl);
    tmpl.dst_mac[0] = 0x02;
    tmpl.dst_mac[5] = (uint8_t)(w->dst + 1u);
    tmpl.src_mac[0] = 0x02;
    tmpl.src_mac[4] = 0x01; /* the switch */
    tmpl.src_mac[5] = (uint8_t)(port + 1u);
    if (mac_link >= 0) {
      lfc_pcap_side_mac((uint32_t)mac_link, side, tmpl.src_mac);
      lfc_pcap_side_mac((uint32_t)mac_link, side ^ 1u, tmpl.dst_mac);
    }
    tmpl.has_vlan = true;
    tmpl.vid = 1;
    tmpl.ttl = 64;
    tmpl.src_ip[0] = 10;
    tmpl.src_ip[3] = (uint8_t)(port + 1u);
    tmpl.dst_ip[0] = 10;
    tmpl.udp_src = (uint16_t)(UDP_EPHEMERAL_BASE + port);
    tmpl.bth.opcode = RC_SEND_ONLY;
    tmpl.bth.pkey = PKEY_DEFAULT;
    tmpl.bth.dqpn = MODEL_QPN_BASE + port;
    tmpl.bth.psn = psn[port]++ & LFC_IB_QPN_MASK;
    st = lfc_roce_from_word(w, map, &tmpl, &p, payload, sizeof payload, &werr);
    if (st == LFC_WIRE_OK) write_roce(o, &p);
  }
  if (st != LFC_WIRE_OK) {
    char msg[ERRLEN + 64];
    snprintf(msg, sizeof msg, "cycle %llu port %u: %s", (unsigned long long)o->cycle, port,
             werr.text);
    fail_exit(o, msg);
  }
}

static void usage_exit(const char *what) {
  fprintf(stderr,
          "lfc_wire_gen: %s; usage: lfc_wire_gen --eth|--ib-erf|--ib-erf-fcp8|--ib-247 "
          "[--seed S] "
          "[--count N] PCAP EXPECT, or --model-ib|--model-pfc [--seed S] [--cycles N] "
          "[--link P [--response-cycles R] [--skip-frame K]] PCAP EXPECT\n",
          what);
  exit(EXIT_BAD);
}

static unsigned long long number(const char *flag, const char *s, unsigned long long max) {
  char *end;
  errno = 0;
  const unsigned long long v = strtoull(s, &end, 0);
  if (errno != 0 || end == s || *end != '\0' || s[0] == '-' || v > max) {
    fprintf(stderr, "lfc_wire_gen: %s '%s': a whole number 0..%llu\n", flag, s, max);
    exit(EXIT_BAD);
  }
  return v;
}

int main(int argc, char **argv) {
  int mode = -1;
  uint64_t seed = DEFAULT_SEED;
  unsigned count = DEFAULT_COUNT;
  unsigned cycles = DEFAULT_CYCLES;
  bool fcp_pad = false;
  int link = -1;
  unsigned response = 0;
  uint64_t skip = 0;
  const char *paths[2] = {NULL, NULL};
  unsigned npaths = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--eth") == 0) {
      mode = MODE_ETH;
    } else if (strcmp(argv[i], "--ib-erf") == 0) {
      mode = MODE_IB_ERF;
    } else if (strcmp(argv[i], "--ib-erf-fcp8") == 0) {
      mode = MODE_IB_ERF;
      fcp_pad = true;
    } else if (strcmp(argv[i], "--ib-247") == 0) {
      mode = MODE_IB_247;
    } else if (strcmp(argv[i], "--model-ib") == 0) {
      mode = MODE_MODEL_IB;
    } else if (strcmp(argv[i], "--model-pfc") == 0) {
      mode = MODE_MODEL_PFC;
    } else if (strcmp(argv[i], "--cycles") == 0 && i + 1 < argc) {
      cycles = (unsigned)number("--cycles", argv[++i], 10000000u);
    } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
      seed = number("--seed", argv[++i], UINT64_MAX);
    } else if (strcmp(argv[i], "--link") == 0 && i + 1 < argc) {
      link = (int)number("--link", argv[++i], MODEL_PORTS - 1u);
    } else if (strcmp(argv[i], "--response-cycles") == 0 && i + 1 < argc) {
      response = (unsigned)number("--response-cycles", argv[++i], 65535u);
    } else if (strcmp(argv[i], "--skip-frame") == 0 && i + 1 < argc) {
      skip = number("--skip-frame", argv[++i], UINT64_MAX);
    } else if (strcmp(argv[i], "--count") == 0 && i + 1 < argc) {
      count = (unsigned)number("--count", argv[++i], 1000000u);
    } else if (argv[i][0] == '-') {
      usage_exit("unknown option or missing value");
    } else if (npaths < 2) {
      paths[npaths++] = argv[i];
    } else {
      usage_exit("too many arguments");
    }
  }
  if (mode < 0 || npaths != 2) usage_exit("need a mode and two paths");
  if ((link >= 0 || response != 0 || skip != 0) && mode != MODE_MODEL_IB &&
      mode != MODE_MODEL_PFC) {
    usage_exit("--link, --response-cycles and --skip-frame go with --model-ib or --model-pfc");
  }
  rng = seed != 0 ? seed : DEFAULT_SEED; /* xorshift never leaves 0 */
  out_t o;
  memset(&o, 0, sizeof o);
  o.fcp_pad = fcp_pad;
  o.skip = skip;
  char err[ERRLEN];
  const uint32_t lt = (mode == MODE_ETH || mode == MODE_MODEL_PFC) ? LFC_PCAP_LINKTYPE_ETHERNET
                      : mode == MODE_IB_247                        ? LFC_PCAP_LINKTYPE_INFINIBAND
                                                                   : LFC_PCAP_LINKTYPE_ERF;
  o.expect_path = paths[1];
  o.expect_tmp = malloc(strlen(paths[1]) + 8);
  if (o.expect_tmp == NULL) fail_exit(&o, "out of memory");
  sprintf(o.expect_tmp, "%s.tmp", paths[1]);
  o.expect = fopen(o.expect_tmp, "w");
  if (o.expect == NULL) {
    snprintf(err, sizeof err, "%s: cannot create: %s", o.expect_tmp, strerror(errno));
    free(o.expect_tmp);
    o.expect_tmp = NULL;
    fail_exit(&o, err);
  }
  o.pcap = lfc_pcap_open(paths[0], lt, err, sizeof err);
  if (o.pcap == NULL) fail_exit(&o, err);
  if (mode == MODE_MODEL_IB || mode == MODE_MODEL_PFC) {
    run_model(&o, mode == MODE_MODEL_IB, rng, cycles, link, response);
    count = 0;
  }
  for (unsigned i = 0; i < count; i++) {
    if (mode == MODE_ETH) {
      if (below(2)) {
        gen_pfc(&o, false, 0);
      } else {
        gen_roce(&o);
      }
    } else if (below(2)) {
      gen_ib_data(&o, false);
    } else {
      gen_fcp(&o, false);
    }
  }
  if (mode == MODE_ETH) {
    gen_pfc(&o, true, 0);
    gen_pfc(&o, false, 0x0102);
  } else if (mode == MODE_IB_ERF || mode == MODE_IB_247) {
    gen_fcp(&o, true);
    gen_ib_data(&o, true);
  }
  lfc_pcap_t *pc = o.pcap;
  o.pcap = NULL;
  if (lfc_pcap_close(pc, err, sizeof err) != 0) fail_exit(&o, err);
  FILE *e = o.expect;
  o.expect = NULL;
  if (fflush(e) != 0 || ferror(e) || fclose(e) != 0) {
    snprintf(err, sizeof err, "%s: cannot write: %s", o.expect_path, strerror(errno));
    fail_exit(&o, err);
  }
  if (rename(o.expect_tmp, o.expect_path) != 0) {
    snprintf(err, sizeof err, "%s: cannot rename into place: %s", o.expect_path, strerror(errno));
    fail_exit(&o, err);
  }
  free(o.expect_tmp);
  if (printf("lfc_wire_gen: %u frames, seed 0x%" PRIx64 ", %s and %s\n", o.n, seed, paths[0],
             paths[1]) < 0 ||
      fflush(stdout) != 0) {
    fprintf(stderr, "lfc_wire_gen: standard output: cannot write: %s\n", strerror(errno));
    return EXIT_BAD;
  }
  return 0;
}
