# tb/cocotb/cocotb.mk - cocotb tests of the RTL with the C model as the scoreboard (the lfc
# package's lfc.flat, pip-installed into the venv from python/). Included by the top Makefile.
# See docs/cocotb.md.
#
#   make cocotb [COCOTB_SIM=icarus|verilator] [COCOTB_CONFIGS="ib_basic pfc_basic"]
#               [COCOTB_SEED=n] [COCOTB_CYCLES=n] [COCOTB_RTL_DIR=rtl]
#       the lockstep test on each configuration of tb/configs; last line
#       "cocotb: N passed, M failed"
#   make cocotb-mutants
#       the same test on mutated copies of the RTL (tb/cocotb/run.sh): each must fail
#   make cocotb-venv
#       only the Python environment: $(BUILD)/venv with tb/cocotb/requirements.txt (the lfc
#       package is installed into it by python/python.mk, make python-venv)
#   make test-cocotb
#       cocotb + cocotb-mutants on Icarus, short runs, when python3 with venv and pip exists

COCOTB_SIM     ?= icarus
COCOTB_CONFIGS ?= ib_basic pfc_basic
COCOTB_SEED    ?= 1
# Icarus runs the switch at 100-300 cycles/s through cocotb: a thousand cycles is ten seconds.
COCOTB_CYCLES  ?= 1000
COCOTB_RTL_DIR ?= rtl
COCOTB_VENV     = $(BUILD)/venv
COCOTB_STAMP    = $(COCOTB_VENV)/.requirements-installed
# The lfc package pip-installed into the venv (its rule is in python/python.mk, included later:
# the name is set here because prerequisites are expanded when a rule is read).
PYTHON_PKG_STAMP = $(COCOTB_VENV)/.lfc-package-installed
PYTHON3        ?= python3

.PHONY: cocotb cocotb-mutants cocotb-venv test-cocotb
TEST_STEPS += test-cocotb

# The virtual environment, rebuilt when the pinned versions change. pip only, from PyPI.
$(COCOTB_STAMP): tb/cocotb/requirements.txt | deps-packaging
	@echo "== cocotb: Python environment $(COCOTB_VENV) ($$(grep -v '^#' $< | tr '\n' ' '))"
	@rm -rf $(COCOTB_VENV)
	@$(PYTHON3) -m venv $(COCOTB_VENV)
	@$(COCOTB_VENV)/bin/pip install --disable-pip-version-check -q -r $<
	@touch $@

cocotb-venv: $(COCOTB_STAMP)

COCOTB_RUN_ENV = BUILD=$(BUILD) VENV=$(COCOTB_VENV) LFC_LIB=$(BUILD)/liblfc.so \
                 TB_PARAMS=$(TB_PARAMS) SIM=$(COCOTB_SIM) SEED=$(COCOTB_SEED) \
                 CYCLES=$(COCOTB_CYCLES) RTL_DIR=$(COCOTB_RTL_DIR)

cocotb: $(PYTHON_PKG_STAMP) $(BUILD)/liblfc.so $(TB_PARAMS) | deps-hdl deps-packaging
	@echo "== cocotb on $(COCOTB_SIM): $(COCOTB_CONFIGS), seed $(COCOTB_SEED), $(COCOTB_CYCLES) cycles"
	@$(COCOTB_RUN_ENV) tb/cocotb/run.sh run $(COCOTB_CONFIGS)

cocotb-mutants: $(PYTHON_PKG_STAMP) $(BUILD)/liblfc.so $(TB_PARAMS) | deps-hdl deps-packaging
	@echo "== cocotb on mutated RTL ($(COCOTB_SIM)): each mutant must be caught"
	@$(COCOTB_RUN_ENV) tb/cocotb/run.sh mutants

# In `make test` (deps-packaging installs python3-venv, so nothing is skipped). The library and
# tb-params are built here, by the make that runs the other steps, so that the recursive make
# finds them up to date instead of building them a second time in parallel.
test-cocotb: deps-hdl deps-packaging all $(TB_PARAMS)
	@$(MAKE) --no-print-directory cocotb cocotb-mutants COCOTB_SIM=icarus
