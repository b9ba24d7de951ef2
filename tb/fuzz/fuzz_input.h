/*
 * fuzz_input.h - fuzz bytes -> the words the link partners send, one per port per cycle.
 *
 * Shared by both fuzz targets (fuzz_cosim.c: Verilated RTL against the C model; fuzz_model.c:
 * the C model alone under ASan/UBSan). The decoder is a small state machine per port that makes
 * well-formed packets cheap to reach (one byte starts a packet, its continuation blocks follow by
 * themselves) and rule-breaking words just as cheap (stray blocks, a new sop inside a packet, bad
 * lengths, classes and destinations, FCPs with any op/VL/FCTBS/FCCL, PFC frames with any enable
 * vector and times, control words inside a packet). Every field is masked to the width of its
 * RTL port (SPEC §13), so the C model and the RTL see the same value.
 *
 * Byte layout, per cycle, for port 0, 1, ... in turn; the run ends when the bytes do:
 *   inside a packet (blocks remain):  b < 0xF0: the next block;  b >= 0xF0: a glitch word read
 *                                     as "between packets" below (the packet is abandoned)
 *   between packets:  b < 0x80: IDLE
 *                     0x80..0xBF: a packet, 1 more byte x: nblk 1..8 (x & 7), class x >> 3 & 3,
 *                                 dst (b & 0x3F) mod (ports + 1) (ports: a bad destination),
 *                                 ecn from b >> 4 & 3
 *                     0xC0..0xDF: a flow-control word in the mode's format, 4 more bytes
 *                     0xE0..0xEF: a flow-control word in the other mode's format, 4 more bytes
 *                     0xF0..0xFF: a raw word, 6 more bytes, any field value
 * When the bytes are used up, FUZZ_DRAIN_CYCLES of IDLE follow (so that a lock-up shows), and
 * the run ends. Tags are made by the decoder, not read: unique per (port, packet), so that drop
 * events can be matched to packets without ambiguity.
 */
#ifndef TB_FUZZ_INPUT_H
#define TB_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "lfc/switch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The longest run one input makes, in cycles: bounds the time per execution. */
#define FUZZ_MAX_CYCLES 4000u
/* IDLE cycles after the last byte: time for the switch to drain what it holds. */
#define FUZZ_DRAIN_CYCLES 600u

typedef struct {
  const uint8_t *data;
  size_t size, pos;
  unsigned ports;
  lfc_mode_t mode;
  unsigned classes;
  /* per port: the packet being sent */
  lfc_word_t cur[LFC_MAX_PORTS];
  unsigned rem[LFC_MAX_PORTS];
  uint32_t seq[LFC_MAX_PORTS];
  unsigned cycle, drain_left;
} fuzz_in_t;

void fuzz_in_init(fuzz_in_t *f, const uint8_t *data, size_t size, const lfc_switch_cfg_t *cfg);

/* The words of the next cycle into in[0..ports-1]. Returns 1 while the bytes last, 2 in the
   drain cycles after them, 0 at the end. */
int fuzz_in_next(fuzz_in_t *f, lfc_word_t *in);

#ifdef __cplusplus
}
#endif

#endif /* TB_FUZZ_INPUT_H */
