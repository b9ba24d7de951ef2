/*
 * dut.h - the device under test as the co-simulation sees it: the ports of `lfc_switch`
 * (docs/SPEC.md §13) and a clock.
 *
 * Two adapters implement it and hold no test logic: tb/verilator/dut_verilator.cpp (a Verilated
 * model, called directly) and tb/vpi/cosim_vpi.c (Icarus through VPI; every call that needs
 * simulated time to pass suspends the test until the simulator gets there). The test itself
 * (tb_main in tb/common/tb_main.c) is the same for both.
 *
 * A cycle, as tb_main drives it: dut_set_rx for every port and dut_set_dbg, dut_settle, then read
 * the outputs of this cycle (dut_get_tx, dut_get_stat, dut_get_dbg; more dut_set_dbg +
 * dut_settle + dut_get_dbg may follow, the state does not change), then dut_clock: one rising
 * edge, S(t) -> S(t+1) (SPEC §1.3).
 *
 * An adapter may carry out the edge later, at the next dut_settle, before that settle's inputs
 * take effect (Icarus schedules it; the untraced Verilator build evaluates it in the same eval()
 * as the next inputs): outputs are read only after a dut_settle. All calls come from one thread
 * (tb_main's; its own C side may run on another thread, which never calls these).
 */
#ifndef TB_DUT_H
#define TB_DUT_H

#include <stddef.h>
#include <stdint.h>

#include "lfc/types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DUT_MAX_PORTS 16u

/* The stat_* outputs of one cycle (SPEC §13), unpacked per port. Bit c of a 16-bit field is
   class c. */
typedef struct {
  uint8_t drop[DUT_MAX_PORTS];       /* stat_drop_o */
  uint8_t drop_cause[DUT_MAX_PORTS]; /* stat_drop_cause_o (3 bits) */
  uint16_t wd_drop[DUT_MAX_PORTS];   /* stat_wd_drop_o */
  uint8_t ecn_mark[DUT_MAX_PORTS];   /* stat_ecn_mark_o */
  uint16_t xoff[DUT_MAX_PORTS];      /* stat_xoff_o */
  uint16_t xon[DUT_MAX_PORTS];       /* stat_xon_o */
  uint16_t wd_trip[DUT_MAX_PORTS];   /* stat_wd_trip_o */
  uint16_t wd_restore[DUT_MAX_PORTS]; /* stat_wd_restore_o */
  uint8_t rx_malformed[DUT_MAX_PORTS]; /* stat_rx_malformed_o */
} dut_stat_t;

typedef struct {
  unsigned ports;       /* must equal the RTL's Ports; dut_open checks the port widths */
  const char *waves;    /* waves file (FST for Verilator, VCD for Icarus), or NULL for none */
  uint64_t waves_from;  /* first cycle to trace */
  uint32_t params_id;   /* the configuration's tb_config_params_id (tb_config.h) */
} dut_open_t;

/*
 * Bind to the simulator's model. Returns 0; -2 with a message in err if the model was built for
 * another configuration (other ports, or other parameters: the params_id it was built with, when
 * its build recorded one); -3 with a message naming the file if the waves cannot be written;
 * -1 with a message if it cannot be bound.
 */
int dut_open(const dut_open_t *args, char *err, size_t errlen);

/* Flush waves and release the model. */
void dut_close(void);

/* dut_close, then check the files the adapter wrote (waves, Verilator's coverage counts):
   returns 0, or -1 with a message naming the file in err if one could not be written whole. */
int dut_close_checked(char *err, size_t errlen);

/* Short name of the simulator ("verilator", "icarus"). */
const char *dut_sim_name(void);

/* Hold rst_ni low for a few clocks with all inputs IDLE, then release it: the next cycle is
   cycle 0 of the SPEC. */
void dut_reset(void);

/* Inputs of the current cycle. */
void dut_set_rx(unsigned port, const lfc_word_t *w);
void dut_set_dbg(unsigned reg, unsigned port, unsigned cls);

/* Let the combinational logic settle after inputs changed. */
void dut_settle(void);

/* Outputs of the current cycle (valid after dut_settle). */
void dut_get_tx(unsigned port, lfc_word_t *w);
void dut_get_stat(dut_stat_t *s);
uint32_t dut_get_dbg(void);

/*
 * Unknown bits: 1 if an output read since the last call had x or z bits (4-state simulators
 * only; they read as 0 through the functions above), with the signal and the port of the first
 * such bit in name/port; the flag is cleared. Always 0 for Verilator.
 */
int dut_get_xz(char *name, size_t len, unsigned *port);

/* One rising clock edge; the current cycle number advances by one. */
void dut_clock(void);

/*
 * The packed interface (optional; tb_fast.c uses it when dut_packed() is not NULL): each port's
 * input word and outputs of a cycle as 32-bit words in one fixed layout, so that the C side's
 * thread packs what it drives and expects, and the simulator's thread moves whole words and
 * compares a cycle's outputs with one memcmp (tb/README.md, "The speed seam"). Port p's words
 * start at word p * DUT_RX_WORDS of the inputs and p * DUT_OUT_WORDS of the outputs; bit b of a
 * word is 1 << b; unused bits are 0. The tx word (words 0-7 of an output) has the layout of the input:
 *   word 0: kind [1:0], sop [2], eop [3], cls [7:4], nblk [15:8], dst [31:16]
 *   word 1: tag
 *   word 2: fc_fctbs [11:0], fc_fccl [23:12], pfc_en [31:24]
 *   word 3: ecn [1:0], fc_op [5:2], fc_vl [9:6], pad [15:10], mrg [16]
 *   words 4-7: pfc_time[2i] [15:0], pfc_time[2i+1] [31:16] (word 4 + i)
 * then the stat_* pulses of the port (SPEC §13):
 *   word 8: drop [0], drop_cause [3:1] (0 unless drop), ecn_mark [4], rx_malformed [5],
 *           wd_drop [31:16]
 *   word 9: xoff [15:0], xon [31:16]
 *   word 10: wd_trip [15:0], wd_restore [31:16]
 * drop_cause is masked with drop because the check ignores it without a drop (tb_check.c); a
 * port's bits are the ports' fields of SPEC §13 at the same widths (tb/verilator/cosim_top.sh
 * lays out the Verilated model's ports this way).
 */
#define DUT_RX_WORDS 8u   /* 32-bit words of one port's input word */
#define DUT_TX_WORDS 8u   /* ... of its output word */
#define DUT_OUT_WORDS 11u /* ... of its output word and its stat_* pulses */

typedef struct {
  /* Inputs of the current cycle: ports * DUT_RX_WORDS words (read during the call only). */
  void (*set_rx)(const uint32_t *words);
  /* Outputs of the current cycle (valid after dut_settle, until the next dut_settle or
     dut_clock): ports * DUT_OUT_WORDS words owned by the adapter. */
  const uint32_t *(*get_out)(void);
} dut_packed_t;

/* The adapter's packed interface, or NULL if it has none (then only the calls above). */
const dut_packed_t *dut_packed(void);

/* Layout helpers (tb/common/dut_pack.c), for the test and for adapters. dut_pack_word writes
   DUT_RX_WORDS words and returns 1 if every field fits its width (else the words hold the
   fields masked to their widths, as the RTL's ports would); dut_pack_stat writes port p's three
   stat words (DUT_OUT_WORDS - DUT_TX_WORDS) and returns 1 likewise. The unpack functions are
   their inverses (dut_unpack_word zeroes the whole word, padding included; dut_unpack_stat
   writes only port p's entries). */
int dut_pack_word(const lfc_word_t *w, uint32_t *words);
void dut_unpack_word(const uint32_t *words, lfc_word_t *w);
int dut_pack_stat(const dut_stat_t *s, unsigned p, uint32_t *words);
void dut_unpack_stat(const uint32_t *words, unsigned p, dut_stat_t *s);

/* The fields of a link word in the order the comparison walks them to name the first that
   differs: the RTL's tx ports (SPEC §13), the eight pause times one by one. */
#define DUT_WORD_FIELDS 23u
extern const char *const dut_word_field_name[DUT_WORD_FIELDS]; /* "tx_kind_o", ... */
uint64_t dut_word_field(const lfc_word_t *w, unsigned i);      /* field i of w, i < 23 */

/* Check the layout helpers: every field round-trips through pack and unpack, and no two fields
   share a bit. Returns 0, or -1 if not (tb_main then stops: the bytewise comparison would miss
   a difference). */
int dut_pack_check(void);

/* The test: parses its arguments (+key=value or --key=value), runs, returns the exit status
   (0 pass, 1 mismatch, 2 bad configuration or arguments, 3 the simulator could not be bound). */
int tb_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif /* TB_DUT_H */
