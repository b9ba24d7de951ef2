/*
 * lfc/types.h - the link word, the units and the enumerations shared by every block.
 *
 * One cycle moves one 64-byte block (docs/SPEC.md §1). Every port exchanges one link word per
 * cycle in each direction (SPEC §2). All types here are plain data: copy them freely.
 */
#ifndef LFC_TYPES_H
#define LFC_TYPES_H

#include "lfc/export.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Units (SPEC §1.1). */
#define LFC_BLOCK_BYTES 64u   /* one cycle, one IB credit */
/* Line time of an Ethernet frame beyond its bytes (SPEC §2.4): 802.3 preamble 7 + SFD 1 +
 * minimum inter-frame gap 12 bytes. */
#define LFC_ETH_LINE_OVERHEAD_BYTES 20u
#define LFC_QUANTUM_BITS 512u /* one PFC pause quantum = one block time */

/* Sizes of the model (SPEC §3). The RTL supports a subset (2..16 ports). */
#define LFC_MAX_PORTS 64u
#define LFC_MAX_CLASSES 16u   /* array size: data classes 0..14 and VL15 at index 15 */
#define LFC_IB_MAX_VLS 15u    /* data VLs 0..14 */
#define LFC_PFC_MAX_PRIOS 8u  /* 802.1Qbb priorities 0..7 */
#define LFC_VL15 15u          /* IB management VL: not flow-controlled (IBA C7-18) */
#define LFC_MAX_NBLK 255u     /* nblk is an 8-bit field */
#define LFC_VLARB_MAX_ENTRIES 64u

/* IB credit arithmetic (SPEC §5.1, §5.3): 12-bit counters, half-space send rule. */
#define LFC_CREDIT_BITS 12u
#define LFC_CREDIT_MOD (1u << LFC_CREDIT_BITS)
#define LFC_CREDIT_MASK (LFC_CREDIT_MOD - 1u)
#define LFC_CREDIT_WINDOW (LFC_CREDIT_MOD / 2u) /* 2048: most blocks outstanding per VL */

/* ECN codepoints (RFC 3168 §5). */
#define LFC_ECN_NOT_ECT 0u
#define LFC_ECN_ECT1 1u
#define LFC_ECN_ECT0 2u
#define LFC_ECN_CE 3u

/* Link word kinds (SPEC §2). */
typedef enum {
  LFC_IDLE = 0,
  LFC_DATA = 1,
  LFC_FCP = 2, /* IB flow-control packet */
  LFC_PFC = 3  /* 802.1Qbb priority flow control frame */
} lfc_kind_t;

/* FCP opcodes (IBA §7.9.4; Wireshark packet-infiniband.c). */
#define LFC_FCP_OP_NORMAL 0u
#define LFC_FCP_OP_INIT 1u

typedef enum { LFC_MODE_IB = 0, LFC_MODE_PFC = 1 } lfc_mode_t;

/* Drop causes (SPEC §10). Every dropped packet is counted under exactly one. */
typedef enum {
  LFC_DROP_HEADROOM = 0, /* lossless PG: headroom full (SPEC §6.4) */
  LFC_DROP_SHARED,       /* lossy PG: shared pool or threshold (SPEC §6.4) */
  LFC_DROP_WATCHDOG,     /* egress queue in the watchdog's drop state (SPEC §6.8) */
  LFC_DROP_CREDIT,       /* IB: peer sent beyond the credit it was given (SPEC §5.4) */
  LFC_DROP_VL15,         /* IB: VL15 buffer full (SPEC §5.4) */
  LFC_DROP_MALFORMED,    /* bad length, class or destination (SPEC §7.2) */
  LFC_DROP_CAUSES
} lfc_drop_cause_t;

/* Name of a drop cause ("headroom", "shared", ...), for reports. */
LFC_API const char *lfc_drop_cause_name(lfc_drop_cause_t cause);

/*
 * The link word (SPEC §2). Only the fields of its kind are meaningful; the model writes all
 * other fields as zero, so two words can be compared with lfc_word_equal().
 */
typedef struct {
  uint8_t kind; /* lfc_kind_t */
  /* DATA */
  uint8_t sop;
  uint8_t eop;
  uint8_t cls;  /* 4 bits */
  uint8_t nblk; /* packet length in blocks, on every block */
  uint8_t ecn;  /* 2 bits */
  uint8_t pad;  /* 6 bits: bytes of the last block not in the packet (SPEC §2, §2.4) */
  uint8_t mrg;  /* 1 bit: the packet takes nblk - 1 slots (SPEC §2.1, §2.4) */
  uint16_t dst;
  uint32_t tag;
  /* FCP */
  uint8_t fc_op; /* 4 bits */
  uint8_t fc_vl; /* 4 bits */
  uint16_t fc_fctbs; /* 12 bits */
  uint16_t fc_fccl;  /* 12 bits */
  /* PFC */
  uint8_t pfc_en;
  uint16_t pfc_time[LFC_PFC_MAX_PRIOS];
} lfc_word_t;

/* True when a and b are the same word (all fields). */
LFC_API bool lfc_word_equal(const lfc_word_t *a, const lfc_word_t *b);

/*
 * Format w as one line of text ("DATA sop cls=1 nblk=65 dst=3 tag=0x00000007 ecn=2", "FCP vl=0
 * fctbs=12 fccl=2060", "PFC en=0x08 t3=65535", "IDLE") into buf (always NUL-terminated).
 * Returns buf.
 */
LFC_API char *lfc_word_format(const lfc_word_t *w, char *buf, size_t len);

/* A packet handed to an end node to send (SPEC §12.2). */
typedef struct {
  uint8_t cls;
  uint8_t nblk;
  uint8_t ecn;
  uint8_t pad; /* 0..63: 64 x nblk - length in bytes (SPEC §2, docs/packet-sizes.md) */
  uint16_t dst;
  uint32_t tag;
} lfc_pkt_t;

#ifdef __cplusplus
}
#endif

#endif /* LFC_TYPES_H */
