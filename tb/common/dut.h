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
} dut_open_t;

/* Bind to the simulator's model. Returns 0, or -1 with a message in err. */
int dut_open(const dut_open_t *args, char *err, size_t errlen);

/* Flush waves and release the model. */
void dut_close(void);

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

/* The test: parses its arguments (+key=value or --key=value), runs, returns the exit status
   (0 pass, 1 mismatch, 2 bad configuration or arguments, 3 the simulator could not be bound). */
int tb_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif /* TB_DUT_H */
