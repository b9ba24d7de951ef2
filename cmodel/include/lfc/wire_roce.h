/*
 * lfc/wire_roce.h - RoCEv2 packets: Ethernet (optionally 802.1Q-tagged), IPv4 or IPv6, UDP to
 * port 4791, the IB BTH, payload, ICRC and FCS (IBA vol. 1 Annex A17; docs/wire-formats.md §5).
 *
 *   Ethernet (14, or 18 with the tag): DA, SA, [0x8100, PCP 15:13, DEI 12, VID 11:0],
 *            EtherType 0x0800 (IPv4) or 0x86DD (IPv6)
 *   IPv4 (20): version 4, IHL 5, DSCP 7:2 + ECN 1:0, total length, identification, DF,
 *            TTL, protocol 17, header checksum (RFC 791), source, destination
 *   IPv6 (40): version 6, traffic class (DSCP + ECN), flow label, payload length, next header
 *            17, hop limit, source, destination
 *   UDP (8):  source port, destination port 4791, length, checksum (0 over IPv4, RFC 768
 *            checksum over IPv6)
 *   BTH (12), payload, PadCnt zero bytes, ICRC (4, least significant byte first)
 *   zero padding to the 60-byte Ethernet minimum, FCS (4)
 *
 * The ICRC is the CRC-32 of 8 bytes of ones (standing for the LRH RoCEv2 does not have), the IP
 * header with its variant fields set to ones (IPv4: DSCP/ECN, TTL, checksum; IPv6: traffic
 * class, flow label, hop limit), the UDP header with its checksum set to ones, the BTH with byte 4
 * set to ones, and the payload with its pad (IBA Annex A17.3.3; Linux rxe_icrc.c).
 */
#ifndef LFC_WIRE_ROCE_H
#define LFC_WIRE_ROCE_H

#include "lfc/export.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lfc/types.h"
#include "lfc/wire.h"
#include "lfc/wire_ib_data.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LFC_ROCE_UDP_PORT 4791u /* IANA, IBA Annex A17.2.1 */
#define LFC_ETH_TYPE_IPV4 0x0800u
#define LFC_ETH_TYPE_IPV6 0x86DDu
#define LFC_IPV4_HEADER_BYTES 20u
#define LFC_IPV6_HEADER_BYTES 40u
#define LFC_IPV6_ADDR_BYTES 16u
#define LFC_IPV4_ADDR_BYTES 4u
#define LFC_UDP_HEADER_BYTES 8u
#define LFC_IP_PROTO_UDP 17u
#define LFC_VLAN_PCP_MAX 7u
#define LFC_VLAN_VID_MAX 0xFFFu
#define LFC_DSCP_COUNT 64u
#define LFC_ECN_MASK 0x3u

/*
 * One RoCEv2 packet. IP addresses are in src_ip/dst_ip: the first 4 bytes for IPv4, all 16 for
 * IPv6. The encoder computes the lengths, checksums, PadCnt, ICRC and FCS; the decoder fills
 * them in as read. payload points at payload_len bytes (without pad) owned by the caller.
 */
typedef struct {
  uint8_t dst_mac[LFC_ETH_ADDR_BYTES];
  uint8_t src_mac[LFC_ETH_ADDR_BYTES];
  bool has_vlan;
  uint8_t pcp;  /* 3 bits */
  uint8_t dei;  /* 1 bit */
  uint16_t vid; /* 12 bits */
  bool ipv6;
  uint8_t dscp; /* 6 bits */
  uint8_t ecn;  /* 2 bits (RFC 3168) */
  uint8_t ttl;  /* IPv4 TTL or IPv6 hop limit */
  uint16_t ip_id;      /* IPv4 identification */
  uint32_t flow_label; /* IPv6, 20 bits */
  uint8_t src_ip[LFC_IPV6_ADDR_BYTES];
  uint8_t dst_ip[LFC_IPV6_ADDR_BYTES];
  uint16_t udp_src;
  lfc_ib_bth_t bth;
  const uint8_t *payload;
  size_t payload_len;
  uint32_t icrc; /* decode only */
} lfc_roce_pkt_t;

/* Bytes of the encoded frame, FCS included, for these options and payload length. */
LFC_API size_t lfc_roce_frame_bytes(bool has_vlan, bool ipv6, size_t payload_len);

/* Encode p into out[0..cap); returns the frame length with FCS, or 0 (*err says why). */
LFC_API size_t lfc_roce_encode(const lfc_roce_pkt_t *p, uint8_t *out, size_t cap, lfc_wire_error_t *err);

/*
 * Decode the frame in[0..len) (FCS included) into *p. Checks in order: minimum length, FCS,
 * EtherType (after an optional 802.1Q tag), IP version, header length, protocol, the IPv4
 * header checksum, the IP length against the frame, UDP destination port 4791 and length, TVer,
 * PadCnt, ICRC. p->payload points into in.
 */
LFC_API lfc_wire_status_t lfc_roce_decode(const uint8_t *in, size_t len, lfc_roce_pkt_t *p,
                                  lfc_wire_error_t *err);

/* Where a RoCEv2 packet's class (SPEC §2 cls) comes from. */
typedef enum {
  LFC_ROCE_PRIO_PCP = 0, /* the 802.1Q tag's PCP: untagged packets are refused */
  LFC_ROCE_PRIO_DSCP = 1 /* the IP DSCP, through dscp_to_prio */
} lfc_roce_prio_source_t;

/* The class map between RoCEv2 packets and link words. */
typedef struct {
  lfc_roce_prio_source_t source;
  uint8_t dscp_to_prio[LFC_DSCP_COUNT]; /* each 0..7 */
  uint8_t prio_to_dscp[LFC_PFC_MAX_PRIOS]; /* each 0..63 */
} lfc_roce_map_t;

/* The default map: priority = DSCP >> 3 (the class selector), DSCP = priority << 3. */
LFC_API void lfc_roce_map_default(lfc_roce_map_t *m, lfc_roce_prio_source_t source);

/*
 * The SPEC §2 link word of the first block of p: kind DATA, sop 1, eop when one block, cls =
 * the priority (map), nblk = ceil(frame bytes with FCS / 64), dst = the low 16 bits of the
 * destination IP address, tag = the first 4 payload bytes (big-endian; 0 when shorter), ecn =
 * the IP ECN field. LFC_WIRE_BAD_FIELD when the map wants PCP and p has no tag, the map gives a
 * priority over 7, or nblk > 255.
 */
LFC_API lfc_wire_status_t lfc_roce_to_word(const lfc_roce_pkt_t *p, const lfc_roce_map_t *m,
                                   lfc_word_t *w, lfc_wire_error_t *err);

/*
 * The packet of a DATA link word: everything from tmpl (not NULL), then PCP (if tagged) = cls,
 * DSCP = prio_to_dscp[cls], ECN = ecn, the low 16 bits of the destination IP = dst, and a
 * payload of tag (big-endian) then zeros in payload_buf[0..cap), of the length that makes the
 * frame exactly nblk blocks. LFC_WIRE_BAD_FIELD when w is not DATA, cls > 7, or nblk is too
 * small to carry a 4-byte payload; LFC_WIRE_NO_ROOM when cap is too small.
 */
LFC_API lfc_wire_status_t lfc_roce_from_word(const lfc_word_t *w, const lfc_roce_map_t *m,
                                     const lfc_roce_pkt_t *tmpl, lfc_roce_pkt_t *p,
                                     uint8_t *payload_buf, size_t cap, lfc_wire_error_t *err);

#ifdef __cplusplus
}
#endif

#endif /* LFC_WIRE_ROCE_H */
