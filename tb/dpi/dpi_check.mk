# tb/dpi/dpi_check.mk - liblfc's link checkers in SystemVerilog through DPI-C (tb/dpi/
# lfc_check_pkg.sv, lfc_check_link_mon.sv, lfc_check_dpi.c) and their example under Verilator.
# Included by the top Makefile. See docs/verify-your-rtl.md, "SystemVerilog (DPI-C)".
#
#   make dpi-check-example [DPI_CHECK_IGNORE_PAUSE=0|1]
#       build and run docs/examples/pfc_tx/pfc_tx_stub_tb.sv (the made-up device pfc_tx_stub.v,
#       its line checked by lfc_check_link_mon); exit 0 with "PASS ..." as written, non-zero
#       with the checker's $error line when IgnorePause=1
#   make test-dpi-check
#       both: the stub passes, the stub with IgnorePause=1 stops with a pfc-reaction $error

DPI_CHECK_IGNORE_PAUSE ?= 0
DPI_CHECK_BUILD = $(BUILD)/dpi-check
DPI_CHECK_SV    = tb/dpi/lfc_check_pkg.sv tb/dpi/lfc_check_link_mon.sv \
                  docs/examples/pfc_tx/pfc_tx_stub.v docs/examples/pfc_tx/pfc_tx_stub_tb.sv
DPI_CHECK_OBJ   = $(BUILD)/dpi-obj/lfc_check_dpi.o
DPI_CHECK_FLAGS = --binary -j 2 -Wno-fatal -Wno-lint -Wno-style --top-module pfc_tx_stub_tb \
                  -MAKEFLAGS "OPT_FAST=-O1 OPT_SLOW=-O0 OPT_GLOBAL=-O1"

.PHONY: dpi-check-example test-dpi-check
TEST_STEPS += test-dpi-check

# gcc, not Verilator's C++ (STYLE.md): the C glue of the package.
$(DPI_CHECK_OBJ): tb/dpi/lfc_check_dpi.c cmodel/include/lfc/check.h | deps-hdl
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# One simulator per value of IgnorePause (a define of the testbench).
$(DPI_CHECK_BUILD)/ignore%/Vpfc_tx_stub_tb: $(DPI_CHECK_SV) $(DPI_CHECK_OBJ) $(BUILD)/liblfc.a
	@mkdir -p $(@D)
	@rm -f $@
	@echo "== verilator build of pfc_tx_stub_tb (IgnorePause=$*)"
	@$(VERILATOR) $(DPI_CHECK_FLAGS) $(if $(filter 1,$*),+define+IGNORE_PAUSE) -Mdir $(@D) \
	  -o Vpfc_tx_stub_tb $(abspath $(DPI_CHECK_SV) $(DPI_CHECK_OBJ) $(BUILD)/liblfc.a) \
	  -LDFLAGS -lm > $(@D)/build.log 2>&1 || { cat $(@D)/build.log; exit 1; }

dpi-check-example: $(DPI_CHECK_BUILD)/ignore$(DPI_CHECK_IGNORE_PAUSE)/Vpfc_tx_stub_tb | deps-hdl
	@echo "== DPI-C checker example: pfc_tx_stub_tb, IgnorePause=$(DPI_CHECK_IGNORE_PAUSE)"
	@$< > $(<D)/log.txt 2>&1; rc=$$?; \
	  grep -E 'pfc_tx_stub_tb|%Error|%Fatal|PASS' $(<D)/log.txt | head -n 5; \
	  echo "exit $$rc (log $(<D)/log.txt)"; exit $$rc

test-dpi-check: $(DPI_CHECK_BUILD)/ignore0/Vpfc_tx_stub_tb $(DPI_CHECK_BUILD)/ignore1/Vpfc_tx_stub_tb
	@echo "== DPI-C checker: pfc_tx_stub passes, with IgnorePause=1 stops with its \$$error"
	@d=$(DPI_CHECK_BUILD); \
	  $$d/ignore0/Vpfc_tx_stub_tb > $$d/ignore0/log.txt 2>&1 && grep -q '^PASS pfc_tx_stub_tb' \
	    $$d/ignore0/log.txt || { echo "FAIL: the stub as written (log $$d/ignore0/log.txt)"; \
	    tail -n 5 $$d/ignore0/log.txt; exit 1; }; \
	  grep '^pfc_tx_stub_tb\|^PASS' $$d/ignore0/log.txt; \
	  if $$d/ignore1/Vpfc_tx_stub_tb > $$d/ignore1/log.txt 2>&1; then \
	    echo "FAIL: IgnorePause=1 ran to the end (log $$d/ignore1/log.txt)"; exit 1; fi; \
	  grep -m1 '%Error.*class=pfc-reaction' $$d/ignore1/log.txt || { \
	    echo "FAIL: IgnorePause=1 stopped without a pfc-reaction line (log $$d/ignore1/log.txt)"; \
	    tail -n 5 $$d/ignore1/log.txt; exit 1; }; \
	  echo "dpi-check: the stub passes; IgnorePause=1 caught"
