/*
 * wire_roce.c - RoCEv2 frames (lfc/wire_roce.h, IBA vol. 1 Annex A17, docs/wire-formats.md §5).
 */
#include "lfc/wire_roce.h"

#include <string.h>

#include "lfc/crc.h"
#include "wire_internal.h"

#define TCI_PCP_SHIFT 13u
#define TCI_DEI_SHIFT 12u
#define DSCP_SHIFT 2u
#define DSCP_MAX 63u
#define PRIO_FROM_DSCP_SHIFT 3u /* class selector: the top 3 bits of the DSCP */
#define IPV4_VERSION 4u
#define IPV6_VERSION 6u
#define IPV4_IHL_WORDS 5u
#define IP_VERSION_SHIFT 4u
#define IPV4_TOS 1u
#define IPV4_TOTLEN 2u
#define IPV4_ID 4u
#define IPV4_FRAG 6u
#define IPV4_DF 0x4000u
#define IPV4_MF_OFFSET_MASK 0x3FFFu /* MF and the fragment offset */
#define IPV4_TTL 8u
#define IPV4_PROTO 9u
#define IPV4_CSUM 10u
#define IPV4_SRC 12u
#define IPV4_DST 16u
#define IPV6_VTF_TC_SHIFT 20u
#define IPV6_VTF_VER_SHIFT 28u
#define IPV6_PAYLEN 4u
#define IPV6_NEXT 6u
#define IPV6_HOPS 7u
#define IPV6_SRC 8u
#define IPV6_DST 24u
#define UDP_DPORT 2u
#define UDP_LEN 4u
#define UDP_CSUM 6u
#define IP_MAX_LEN 0xFFFFu
#define ONES16 0xFFFFu
#define ALL_ONES8 0xFFu
#define NIBBLE 0xFu
#define LRH_STANDIN_BYTES 8u /* ones in place of the LRH (Annex A17.3.3) */
#define TAG_BYTES 4u
#define DST_LOW16_FROM_END 2u /* the link word's dst: the address's last 2 bytes */

static size_t l2_bytes(bool has_vlan) {
  return LFC_ETH_HEADER_BYTES + (has_vlan ? LFC_ETH_VLAN_TAG_BYTES : 0u);
}
static size_t l3_bytes(bool ipv6) { return ipv6 ? LFC_IPV6_HEADER_BYTES : LFC_IPV4_HEADER_BYTES; }

/* Bytes before the Ethernet padding and FCS. */
static size_t unpadded(bool has_vlan, bool ipv6, size_t payload_len) {
  return l2_bytes(has_vlan) + l3_bytes(ipv6) + LFC_UDP_HEADER_BYTES + LFC_IB_BTH_BYTES +
         payload_len + wire_padcnt(payload_len) + LFC_IB_ICRC_BYTES;
}

size_t lfc_roce_frame_bytes(bool has_vlan, bool ipv6, size_t payload_len) {
  size_t n = unpadded(has_vlan, ipv6, payload_len);
  if (n < LFC_ETH_MIN_NOFCS) n = LFC_ETH_MIN_NOFCS;
  return n + LFC_ETH_FCS_BYTES;
}

/* RFC 1071 one's complement sum of len bytes, len even: every caller sums whole 16-bit words
 * (the IPv4 header, the IPv6 addresses, and the UDP datagram, whose BTH, padded payload and ICRC
 * are whole 32-bit words). */
static uint32_t sum16(uint32_t acc, const uint8_t *p, size_t len) {
  for (size_t i = 0; i + 1u < len; i += 2u) acc += wire_get16(p + i);
  return acc;
}
static uint16_t fold(uint32_t acc) {
  while (acc >> 16) acc = (acc & ONES16) + (acc >> 16);
  return (uint16_t)acc;
}

/* The ICRC of the packet whose IP header starts at ip, icrc_at bytes before its ICRC. */
static uint32_t roce_icrc(const uint8_t *ip, bool ipv6, size_t icrc_at) {
  const size_t l3 = l3_bytes(ipv6);
  const size_t hdr = l3 + LFC_UDP_HEADER_BYTES + LFC_IB_BTH_BYTES;
  uint8_t masked[LFC_IPV6_HEADER_BYTES + LFC_UDP_HEADER_BYTES + LFC_IB_BTH_BYTES];
  memcpy(masked, ip, hdr);
  if (ipv6) {
    masked[0] |= NIBBLE; /* traffic class, high nibble */
    masked[1] = ALL_ONES8; /* traffic class low nibble, flow label */
    masked[2] = ALL_ONES8;
    masked[3] = ALL_ONES8;
    masked[IPV6_HOPS] = ALL_ONES8;
  } else {
    masked[IPV4_TOS] = ALL_ONES8;
    masked[IPV4_TTL] = ALL_ONES8;
    wire_put16(masked + IPV4_CSUM, ONES16);
  }
  wire_put16(masked + l3 + UDP_CSUM, ONES16);
  masked[l3 + LFC_UDP_HEADER_BYTES + LFC_IB_BTH_VARIANT_OFFSET] = ALL_ONES8;
  uint8_t ones[LRH_STANDIN_BYTES];
  memset(ones, ALL_ONES8, sizeof ones);
  uint32_t reg = lfc_crc32_update(LFC_CRC32_POLY, LFC_CRC32_INIT, ones, sizeof ones);
  reg = lfc_crc32_update(LFC_CRC32_POLY, reg, masked, hdr);
  reg = lfc_crc32_update(LFC_CRC32_POLY, reg, ip + hdr, icrc_at - hdr);
  return reg ^ LFC_CRC32_XOROUT;
}

static lfc_wire_status_t check_fields(const lfc_roce_pkt_t *p, lfc_wire_error_t *err) {
  if (p->has_vlan && (p->pcp > LFC_VLAN_PCP_MAX || p->dei > 1u || p->vid > LFC_VLAN_VID_MAX)) {
    return wire_fail(err, LFC_WIRE_BAD_FIELD, 0, "PCP %u (0..7), DEI %u (0..1), VID %u (0..4095)",
                     (unsigned)p->pcp, (unsigned)p->dei, (unsigned)p->vid);
  }
  if (p->dscp > DSCP_MAX || p->ecn > LFC_ECN_MASK) {
    return wire_fail(err, LFC_WIRE_BAD_FIELD, 0, "DSCP %u (0..63), ECN %u (0..3)",
                     (unsigned)p->dscp, (unsigned)p->ecn);
  }
  if (p->ipv6 && p->flow_label > LFC_IB_FLOW_LABEL_MASK) {
    return wire_fail(err, LFC_WIRE_BAD_FIELD, 0, "flow label 0x%x is 20 bits",
                     (unsigned)p->flow_label);
  }
  return wire_check_bth(&p->bth, err);
}

size_t lfc_roce_encode(const lfc_roce_pkt_t *p, uint8_t *out, size_t cap, lfc_wire_error_t *err) {
  if (check_fields(p, err) != LFC_WIRE_OK) return 0;
  const size_t l2 = l2_bytes(p->has_vlan);
  const size_t l3 = l3_bytes(p->ipv6);
  const size_t body = unpadded(p->has_vlan, p->ipv6, p->payload_len);
  const size_t udp_len = body - l2 - l3;
  if (body - l2 > IP_MAX_LEN) {
    wire_fail(err, LFC_WIRE_BAD_FIELD, 0, "payload of %zu bytes exceeds the IP length limit",
              p->payload_len);
    return 0;
  }
  const size_t total = lfc_roce_frame_bytes(p->has_vlan, p->ipv6, p->payload_len);
  if (cap < total) {
    wire_fail(err, LFC_WIRE_NO_ROOM, 0, "need %zu bytes, have %zu", total, cap);
    return 0;
  }
  memset(out, 0, total);
  memcpy(out, p->dst_mac, LFC_ETH_ADDR_BYTES);
  memcpy(out + LFC_ETH_ADDR_BYTES, p->src_mac, LFC_ETH_ADDR_BYTES);
  uint8_t *o = out + 2u * LFC_ETH_ADDR_BYTES;
  if (p->has_vlan) {
    wire_put16(o, LFC_ETH_TYPE_VLAN);
    wire_put16(o + LFC_ETH_TYPE_BYTES, (uint16_t)((unsigned)p->pcp << TCI_PCP_SHIFT |
                                                  (unsigned)p->dei << TCI_DEI_SHIFT | p->vid));
    o += LFC_ETH_VLAN_TAG_BYTES;
  }
  wire_put16(o, p->ipv6 ? LFC_ETH_TYPE_IPV6 : LFC_ETH_TYPE_IPV4);
  uint8_t *ip = out + l2;
  const uint8_t tos = (uint8_t)(p->dscp << DSCP_SHIFT | p->ecn);
  if (p->ipv6) {
    wire_put32(ip, (uint32_t)IPV6_VERSION << IPV6_VTF_VER_SHIFT |
                       (uint32_t)tos << IPV6_VTF_TC_SHIFT | p->flow_label);
    wire_put16(ip + IPV6_PAYLEN, (uint16_t)udp_len);
    ip[IPV6_NEXT] = LFC_IP_PROTO_UDP;
    ip[IPV6_HOPS] = p->ttl;
    memcpy(ip + IPV6_SRC, p->src_ip, LFC_IPV6_ADDR_BYTES);
    memcpy(ip + IPV6_DST, p->dst_ip, LFC_IPV6_ADDR_BYTES);
  } else {
    ip[0] = (uint8_t)(IPV4_VERSION << IP_VERSION_SHIFT | IPV4_IHL_WORDS);
    ip[IPV4_TOS] = tos;
    wire_put16(ip + IPV4_TOTLEN, (uint16_t)(l3 + udp_len));
    wire_put16(ip + IPV4_ID, p->ip_id);
    wire_put16(ip + IPV4_FRAG, IPV4_DF);
    ip[IPV4_TTL] = p->ttl;
    ip[IPV4_PROTO] = LFC_IP_PROTO_UDP;
    memcpy(ip + IPV4_SRC, p->src_ip, LFC_IPV4_ADDR_BYTES);
    memcpy(ip + IPV4_DST, p->dst_ip, LFC_IPV4_ADDR_BYTES);
    wire_put16(ip + IPV4_CSUM, (uint16_t)~fold(sum16(0, ip, l3)));
  }
  uint8_t *udp = ip + l3;
  wire_put16(udp, p->udp_src);
  wire_put16(udp + UDP_DPORT, LFC_ROCE_UDP_PORT);
  wire_put16(udp + UDP_LEN, (uint16_t)udp_len);
  uint8_t *bth = udp + LFC_UDP_HEADER_BYTES;
  lfc_ib_bth_t b = p->bth;
  b.padcnt = wire_padcnt(p->payload_len);
  wire_put_bth(bth, &b);
  if (p->payload_len > 0) memcpy(bth + LFC_IB_BTH_BYTES, p->payload, p->payload_len);
  const size_t icrc_at = l3 + udp_len - LFC_IB_ICRC_BYTES; /* from the IP header */
  wire_put32le(ip + icrc_at, roce_icrc(ip, p->ipv6, icrc_at));
  if (p->ipv6) {
    /* RFC 8200 §8.1: UDP over IPv6 carries a checksum; computed after the ICRC, which masks it. */
    uint32_t acc = sum16(0, ip + IPV6_SRC, 2u * LFC_IPV6_ADDR_BYTES);
    acc += (uint32_t)udp_len + LFC_IP_PROTO_UDP;
    acc = sum16(acc, udp, udp_len);
    uint16_t csum = (uint16_t)~fold(acc);
    if (csum == 0) csum = ONES16;
    wire_put16(udp + UDP_CSUM, csum);
  }
  wire_put_fcs(out, total - LFC_ETH_FCS_BYTES);
  wire_ok(err);
  return total;
}

lfc_wire_status_t lfc_roce_decode(const uint8_t *in, size_t len, lfc_roce_pkt_t *p,
                                  lfc_wire_error_t *err) {
  if (len < LFC_ETH_MIN_FRAME) {
    return wire_fail(err, LFC_WIRE_SHORT, len, "%zu bytes, an Ethernet frame is at least %u",
                     len, LFC_ETH_MIN_FRAME);
  }
  lfc_wire_status_t st = wire_check_fcs(in, len, err);
  if (st != LFC_WIRE_OK) return st;
  const size_t end = len - LFC_ETH_FCS_BYTES; /* the last byte before the FCS */
  memset(p, 0, sizeof *p);
  memcpy(p->dst_mac, in, LFC_ETH_ADDR_BYTES);
  memcpy(p->src_mac, in + LFC_ETH_ADDR_BYTES, LFC_ETH_ADDR_BYTES);
  size_t at = 2u * LFC_ETH_ADDR_BYTES;
  uint16_t type = wire_get16(in + at);
  if (type == LFC_ETH_TYPE_VLAN) {
    const uint16_t tci = wire_get16(in + at + LFC_ETH_TYPE_BYTES);
    p->has_vlan = true;
    p->pcp = (uint8_t)(tci >> TCI_PCP_SHIFT);
    p->dei = (uint8_t)(tci >> TCI_DEI_SHIFT & 1u);
    p->vid = (uint16_t)(tci & LFC_VLAN_VID_MAX);
    at += LFC_ETH_VLAN_TAG_BYTES;
    type = wire_get16(in + at);
  }
  if (type != LFC_ETH_TYPE_IPV4 && type != LFC_ETH_TYPE_IPV6) {
    return wire_fail(err, LFC_WIRE_BAD_ETHERTYPE, at,
                     "EtherType 0x%04x, RoCEv2 needs 0x0800 (IPv4) or 0x86dd (IPv6)",
                     (unsigned)type);
  }
  p->ipv6 = type == LFC_ETH_TYPE_IPV6;
  at += LFC_ETH_TYPE_BYTES;
  const uint8_t *ip = in + at;
  const size_t l3 = l3_bytes(p->ipv6);
  const size_t min_rest = l3 + LFC_UDP_HEADER_BYTES + LFC_IB_BTH_BYTES + LFC_IB_ICRC_BYTES;
  if (end - at < min_rest) {
    return wire_fail(err, LFC_WIRE_SHORT, len,
                     "%zu bytes after the Ethernet header, RoCEv2 needs at least %zu", end - at,
                     min_rest);
  }
  const unsigned version = ip[0] >> IP_VERSION_SHIFT;
  size_t ip_len; /* IP header and payload */
  uint8_t proto;
  uint8_t tos;
  if (p->ipv6) {
    if (version != IPV6_VERSION) {
      return wire_fail(err, LFC_WIRE_BAD_VERSION, at, "IP version %u after EtherType 0x86dd",
                       version);
    }
    const uint32_t vtf = wire_get32(ip);
    tos = (uint8_t)(vtf >> IPV6_VTF_TC_SHIFT);
    p->flow_label = vtf & LFC_IB_FLOW_LABEL_MASK;
    ip_len = l3 + wire_get16(ip + IPV6_PAYLEN);
    proto = ip[IPV6_NEXT];
    p->ttl = ip[IPV6_HOPS];
    memcpy(p->src_ip, ip + IPV6_SRC, LFC_IPV6_ADDR_BYTES);
    memcpy(p->dst_ip, ip + IPV6_DST, LFC_IPV6_ADDR_BYTES);
  } else {
    if (version != IPV4_VERSION) {
      return wire_fail(err, LFC_WIRE_BAD_VERSION, at, "IP version %u after EtherType 0x0800",
                       version);
    }
    if ((ip[0] & NIBBLE) != IPV4_IHL_WORDS) {
      return wire_fail(err, LFC_WIRE_BAD_LENGTH, at, "IPv4 IHL %u: options are not supported",
                       (unsigned)(ip[0] & NIBBLE));
    }
    if (fold(sum16(0, ip, l3)) != ONES16) {
      return wire_fail(err, LFC_WIRE_BAD_CHECKSUM, at + IPV4_CSUM,
                       "IPv4 header checksum 0x%04x, computed 0x%04x",
                       (unsigned)wire_get16(ip + IPV4_CSUM),
                       (unsigned)(uint16_t)~fold(sum16(0, ip, l3) - wire_get16(ip + IPV4_CSUM)));
    }
    if (wire_get16(ip + IPV4_FRAG) & IPV4_MF_OFFSET_MASK) {
      return wire_fail(err, LFC_WIRE_RESERVED, at + IPV4_FRAG,
                       "IPv4 fragment: RoCEv2 packets are never fragmented");
    }
    tos = ip[IPV4_TOS];
    ip_len = wire_get16(ip + IPV4_TOTLEN);
    p->ip_id = wire_get16(ip + IPV4_ID);
    proto = ip[IPV4_PROTO];
    p->ttl = ip[IPV4_TTL];
    memcpy(p->src_ip, ip + IPV4_SRC, LFC_IPV4_ADDR_BYTES);
    memcpy(p->dst_ip, ip + IPV4_DST, LFC_IPV4_ADDR_BYTES);
  }
  p->dscp = (uint8_t)(tos >> DSCP_SHIFT);
  p->ecn = (uint8_t)(tos & LFC_ECN_MASK);
  if (proto != LFC_IP_PROTO_UDP) {
    return wire_fail(err, LFC_WIRE_BAD_PROTOCOL, at, "IP protocol %u, RoCEv2 is UDP (17)",
                     (unsigned)proto);
  }
  if (ip_len < min_rest || ip_len > end - at) {
    return wire_fail(err, LFC_WIRE_BAD_LENGTH, at,
                     "IP length %zu, the frame has room for %zu..%zu", ip_len, min_rest,
                     end - at);
  }
  const uint8_t *udp = ip + l3;
  const uint16_t dport = wire_get16(udp + UDP_DPORT);
  if (dport != LFC_ROCE_UDP_PORT) {
    return wire_fail(err, LFC_WIRE_BAD_PORT, at + l3 + UDP_DPORT,
                     "UDP destination port %u, RoCEv2 is 4791", (unsigned)dport);
  }
  const size_t udp_len = wire_get16(udp + UDP_LEN);
  if (udp_len != ip_len - l3) {
    return wire_fail(err, LFC_WIRE_BAD_LENGTH, at + l3 + UDP_LEN,
                     "UDP length %zu, the IP packet carries %zu", udp_len, ip_len - l3);
  }
  p->udp_src = wire_get16(udp);
  const uint8_t *bth = udp + LFC_UDP_HEADER_BYTES;
  wire_get_bth(bth, &p->bth);
  if (p->bth.tver != 0) {
    return wire_fail(err, LFC_WIRE_BAD_VERSION, (size_t)(bth - in) + 1u,
                     "BTH TVer %u, only 0 is defined", (unsigned)p->bth.tver);
  }
  const size_t icrc_at = ip_len - LFC_IB_ICRC_BYTES; /* from the IP header */
  const size_t padded = icrc_at - l3 - LFC_UDP_HEADER_BYTES - LFC_IB_BTH_BYTES;
  if (p->bth.padcnt > padded) {
    return wire_fail(err, LFC_WIRE_BAD_LENGTH, (size_t)(bth - in) + 1u,
                     "PadCnt %u, payload has %zu bytes", (unsigned)p->bth.padcnt, padded);
  }
  p->payload = bth + LFC_IB_BTH_BYTES;
  p->payload_len = padded - p->bth.padcnt;
  p->icrc = wire_get32le(ip + icrc_at);
  const uint32_t icrc = roce_icrc(ip, p->ipv6, icrc_at);
  if (icrc != p->icrc) {
    return wire_fail(err, LFC_WIRE_BAD_ICRC, at + icrc_at, "ICRC 0x%08x, computed 0x%08x",
                     (unsigned)p->icrc, (unsigned)icrc);
  }
  return wire_ok(err);
}

void lfc_roce_map_default(lfc_roce_map_t *m, lfc_roce_prio_source_t source) {
  m->source = source;
  for (unsigned d = 0; d < LFC_DSCP_COUNT; d++) {
    m->dscp_to_prio[d] = (uint8_t)(d >> PRIO_FROM_DSCP_SHIFT);
  }
  for (unsigned i = 0; i < LFC_PFC_MAX_PRIOS; i++) {
    m->prio_to_dscp[i] = (uint8_t)(i << PRIO_FROM_DSCP_SHIFT);
  }
}

static size_t addr_len(bool ipv6) { return ipv6 ? LFC_IPV6_ADDR_BYTES : LFC_IPV4_ADDR_BYTES; }

lfc_wire_status_t lfc_roce_to_word(const lfc_roce_pkt_t *p, const lfc_roce_map_t *m,
                                   lfc_word_t *w, lfc_wire_error_t *err) {
  uint8_t cls;
  if (m->source == LFC_ROCE_PRIO_PCP) {
    if (!p->has_vlan) {
      return wire_fail(err, LFC_WIRE_BAD_FIELD, 2u * LFC_ETH_ADDR_BYTES,
                       "untagged frame: no PCP to take the priority from");
    }
    cls = p->pcp;
  } else {
    cls = m->dscp_to_prio[p->dscp & DSCP_MAX];
    if (cls >= LFC_PFC_MAX_PRIOS) {
      return wire_fail(err, LFC_WIRE_BAD_FIELD, 0, "dscp_to_prio[%u] = %u, priorities are 0..7",
                       (unsigned)p->dscp, (unsigned)cls);
    }
  }
  return wire_data_word(lfc_roce_frame_bytes(p->has_vlan, p->ipv6, p->payload_len), cls,
                        wire_get16(p->dst_ip + addr_len(p->ipv6) - DST_LOW16_FROM_END), p->ecn,
                        p->payload, p->payload_len, w, err);
}

lfc_wire_status_t lfc_roce_from_word(const lfc_word_t *w, const lfc_roce_map_t *m,
                                     const lfc_roce_pkt_t *tmpl, lfc_roce_pkt_t *p,
                                     uint8_t *payload_buf, size_t cap, lfc_wire_error_t *err) {
  if (w->kind != LFC_DATA || w->cls >= LFC_PFC_MAX_PRIOS) {
    return wire_fail(err, LFC_WIRE_BAD_FIELD, 0,
                     "link word kind %u cls %u: RoCEv2 needs DATA (1) with cls 0..7",
                     (unsigned)w->kind, (unsigned)w->cls);
  }
  const size_t over = unpadded(tmpl->has_vlan, tmpl->ipv6, 0) + LFC_ETH_FCS_BYTES;
  const size_t target = (size_t)w->nblk * LFC_BLOCK_BYTES;
  if (target < over + TAG_BYTES) {
    return wire_fail(err, LFC_WIRE_BAD_FIELD, 0,
                     "nblk %u: a RoCEv2 frame carrying the 4-byte tag needs %zu bytes",
                     (unsigned)w->nblk, over + TAG_BYTES);
  }
  if (wire_check_pad(w, err) != LFC_WIRE_OK) return LFC_WIRE_BAD_FIELD;
  const size_t payload_len = wire_payload_len(w, over);
  if (cap < payload_len) {
    return wire_fail(err, LFC_WIRE_NO_ROOM, 0, "payload needs %zu bytes, have %zu", payload_len,
                     cap);
  }
  *p = *tmpl;
  if (p->has_vlan) p->pcp = w->cls;
  p->dscp = m->prio_to_dscp[w->cls];
  p->ecn = w->ecn;
  wire_put16(p->dst_ip + addr_len(p->ipv6) - DST_LOW16_FROM_END, w->dst);
  memset(payload_buf, 0, payload_len);
  wire_put32(payload_buf, w->tag);
  p->payload = payload_buf;
  p->payload_len = payload_len;
  return wire_ok(err);
}
