# python/python.mk - the lfc Python package (python/lfc: liblfc through ctypes: the cycle model,
# lfc-sim runs and sweeps, the checkers, scoreboard and pcap reader; cocotb helpers) and its
# cocotb example. Included by the top Makefile. See python/README.md, docs/sim.md "From
# Python", docs/verify-your-rtl.md "Python and cocotb".
#
#   make test-python
#       the package's unit tests (python/tests, plain unittest) with the system's python3 on
#       build/liblfc.so and build/lfc-sim, a few seconds; the tests that need pandas are skipped
#   make test-python-sim
#       the same tests in $(BUILD)/venv with pandas: lfc.sim's DataFrames, lfc.sweep, and the
#       worked example of docs/sim.md "From Python"
#   make python-venv
#       cocotb's environment ($(BUILD)/venv, tb/cocotb/cocotb.mk) with the package installed in
#       it by pip from a copy of python/, and pandas (python/requirements-sim.txt)
#   make cocotb-example [EXAMPLE_SIM=icarus|verilator] [EXAMPLE_IGNORE_PAUSE=0|1]
#       docs/examples/pfc_tx: the made-up device pfc_tx_stub.v under cocotb, its line checked by
#       lfc.cocotb.LinkMonitor; exit 0 when the test passed (IgnorePause=1 must fail)
#   make test-cocotb-example
#       on Icarus and on Verilator: the stub passes, the stub with IgnorePause=1 fails with its
#       pfc-reaction line

EXAMPLE_SIM          ?= icarus
EXAMPLE_IGNORE_PAUSE ?= 0
PYTHON_PKG_SRC        = python/pyproject.toml python/README.md $(wildcard python/lfc/*.py)
PYTHON_SIM_STAMP      = $(COCOTB_VENV)/.sim-requirements-installed

.PHONY: test-python test-python-sim python-venv cocotb-example test-cocotb-example
TEST_STEPS += test-python test-python-sim test-cocotb-example

PYTHON_TEST_ENV = LFC_LIB=$(abspath $(BUILD)/liblfc.so) LFC_SIM=$(abspath $(BUILD)/lfc-sim) \
                  PYTHONPATH=$(abspath python)

test-python: deps-minimal deps-sim $(BUILD)/liblfc.so $(BUILD)/lfc-sim
	@echo "== lfc Python package: python/tests (without pandas)"
	@$(PYTHON_TEST_ENV) $(PYTHON3) -m unittest discover -s python/tests \
	  > $(BUILD)/test-python.log 2>&1 || { cat $(BUILD)/test-python.log; exit 1; }
	@tail -n 3 $(BUILD)/test-python.log

# The venv's python has pandas: nothing is skipped (a skip here would hide a test).
test-python-sim: $(PYTHON_SIM_STAMP) $(BUILD)/liblfc.so $(BUILD)/lfc-sim
	@echo "== lfc Python package: python/tests with pandas ($(COCOTB_VENV)), docs/sim.md's example"
	@$(PYTHON_TEST_ENV) $(COCOTB_VENV)/bin/python -m unittest discover -s python/tests \
	  > $(BUILD)/test-python-sim.log 2>&1 || { cat $(BUILD)/test-python-sim.log; exit 1; }
	@if grep -q 'skipped=' $(BUILD)/test-python-sim.log; then \
	  cat $(BUILD)/test-python-sim.log; echo "test-python-sim: tests were skipped"; exit 1; fi
	@tail -n 3 $(BUILD)/test-python-sim.log

# pip builds in the source directory (build/, *.egg-info): install from a copy under $(BUILD).
$(PYTHON_PKG_STAMP): $(COCOTB_STAMP) $(PYTHON_PKG_SRC)
	@echo "== lfc Python package into $(COCOTB_VENV) (pip install python/)"
	@rm -rf $(BUILD)/python-pkg && mkdir -p $(BUILD)/python-pkg
	@cp -r python/pyproject.toml python/README.md python/lfc $(BUILD)/python-pkg/
	@$(COCOTB_VENV)/bin/pip install --disable-pip-version-check -q --force-reinstall --no-deps \
	  $(BUILD)/python-pkg
	@touch $@

# lfc[sim]'s pandas and numpy (python/requirements-sim.txt), from PyPI, into the same venv;
# removed with it when cocotb's pin changes (the stamp is inside it).
$(PYTHON_SIM_STAMP): $(COCOTB_STAMP) python/requirements-sim.txt
	@echo "== lfc[sim]: pandas into $(COCOTB_VENV) ($$(grep -v '^#' python/requirements-sim.txt | tr '\n' ' '))"
	@$(COCOTB_VENV)/bin/pip install --disable-pip-version-check -q -r python/requirements-sim.txt
	@touch $@

python-venv: $(PYTHON_PKG_STAMP) $(PYTHON_SIM_STAMP)

EXAMPLE_RUN_ENV = BUILD=$(BUILD) VENV=$(COCOTB_VENV) LFC_LIB=$(BUILD)/liblfc.so

cocotb-example: $(PYTHON_PKG_STAMP) $(BUILD)/liblfc.so | deps-hdl deps-packaging
	@echo "== cocotb example: pfc_tx_stub on $(EXAMPLE_SIM), IgnorePause=$(EXAMPLE_IGNORE_PAUSE)"
	@$(EXAMPLE_RUN_ENV) docs/examples/pfc_tx/run_cocotb.sh run $(EXAMPLE_SIM) \
	  $(EXAMPLE_IGNORE_PAUSE)

test-cocotb-example: $(PYTHON_PKG_STAMP) $(BUILD)/liblfc.so | deps-hdl deps-packaging
	@echo "== cocotb example: pfc_tx_stub passes, with IgnorePause=1 fails (Icarus, Verilator)"
	@$(EXAMPLE_RUN_ENV) docs/examples/pfc_tx/run_cocotb.sh test icarus verilator
