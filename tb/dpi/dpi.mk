# tb/dpi/dpi.mk - the SystemVerilog DPI-C checker under Verilator. Included by the top Makefile.
# See docs/dpi.md.
#
#   make dpi [DPI_CYCLES=n] [DPI_SEED=n]
#       build tb/dpi/lfc_dpi_tb.sv (two switches, IB and PFC, each checked against the C model
#       through DPI-C by a bound lfc_dpi_checker) and run it; last line "PASS dpi ..."
#   make dpi-mutants
#       the same on mutated copies of the RTL: each must stop with a MISMATCH $error
#   make test-dpi
#       `make dpi`, as a step of make test

DPI_CYCLES  ?= 5000
DPI_SEED    ?= 1
DPI_RTL_DIR ?= rtl
DPI_BUILD   ?= $(BUILD)/dpi
DPI_SV      = tb/dpi/lfc_dpi_pkg.sv tb/dpi/lfc_dpi_checker.sv tb/dpi/lfc_dpi_stim.sv \
              tb/dpi/lfc_dpi_env.sv tb/dpi/lfc_dpi_bind.sv tb/dpi/lfc_dpi_tb.sv
DPI_RTL     = $(sort $(wildcard $(DPI_RTL_DIR)/*.v))
DPI_OBJ     = $(BUILD)/dpi-obj/lfc_dpi.o
DPI_SIM     = $(DPI_BUILD)/obj/Vlfc_dpi_tb
VERILATOR  ?= verilator
# svdpi.h, from the Verilator installation.
DPI_SVDPI_DIR = $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)/include/vltstd
# C++ of the Verilated model at -O1 as tb/tb.mk (builds faster, runs as fast); --binary gives
# the main() and the timing the testbench's clock needs. Warnings of tb/dpi are not fatal: the
# RTL's own lint is `make lint`.
DPI_VERILATOR_FLAGS = --binary -j 2 -Wno-fatal -Wno-lint -Wno-style --top-module lfc_dpi_tb \
                      -MAKEFLAGS "OPT_FAST=-O1 OPT_SLOW=-O0 OPT_GLOBAL=-O1"

.PHONY: dpi dpi-build dpi-mutants test-dpi
TEST_STEPS += test-dpi

# The DPI-C wrapper: C11 built with gcc, as the rest of the model (STYLE.md: Verilator would
# compile a .c as C++).
$(DPI_OBJ): tb/dpi/lfc_dpi.c cmodel/include/lfc/flat.h | deps-hdl
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -I$(DPI_SVDPI_DIR) -c -o $@ $<

# Verilator skips its own work when nothing changed but does not relink for new objects:
# remove the executable so that a changed model costs a link.
$(DPI_SIM): $(DPI_SV) $(DPI_RTL) $(wildcard $(DPI_RTL_DIR)/*.vh) $(DPI_OBJ) $(BUILD)/liblfc.a
	@mkdir -p $(@D)
	@rm -f $@
	@echo "== verilator build of the DPI-C checker testbench (RTL $(DPI_RTL_DIR))"
	@$(VERILATOR) $(DPI_VERILATOR_FLAGS) -Mdir $(@D) -o Vlfc_dpi_tb -I$(DPI_RTL_DIR) \
	  $(abspath $(DPI_SV) $(DPI_RTL) $(DPI_OBJ) $(BUILD)/liblfc.a) -LDFLAGS -lm \
	  > $(@D)/build.log 2>&1 || { cat $(@D)/build.log; exit 1; }

dpi-build: $(DPI_SIM)

dpi: $(DPI_SIM)
	@echo "== DPI-C checker: lfc_dpi_tb, $(DPI_CYCLES) cycles, seed $(DPI_SEED)"
	@$(DPI_SIM) +cycles=$(DPI_CYCLES) +verilator+seed+$(DPI_SEED) > $(DPI_BUILD)/log.txt 2>&1; \
	  rc=$$?; grep -E '^(lfc_dpi_checker|PASS|  the switch)|MISMATCH|%Error|%Fatal' $(DPI_BUILD)/log.txt \
	    | head -n 20; \
	  if [ $$rc -ne 0 ] || ! grep -q '^PASS dpi' $(DPI_BUILD)/log.txt; then \
	    echo "dpi: FAILED (exit $$rc, log $(DPI_BUILD)/log.txt)"; exit 1; fi

dpi-mutants: all
	@BUILD=$(BUILD) MAKE="$(MAKE)" DPI_CYCLES=$(DPI_CYCLES) tb/dpi/mutants.sh

test-dpi: deps-hdl all
	@$(MAKE) --no-print-directory dpi
