# sim/calc.mk - the calculators (sim/src/calc.c), scripts/sweep and the scenario-parser fuzzer.
# Included by the top-level Makefile; every rule honours BUILD.
#
#   make test-calc         cmocka tests of the calculators (plain and ASan+UBSan) and the
#                          command-line test; in TEST_STEPS (about 5 s once built)
#   make test-sweep        scripts/sweep on GNU parallel with a stand-in command; in TEST_STEPS
#                          (5-20 s)
#   make test-sweep-slurm  scripts/sweep as a Slurm job array on a single-node Slurm that the
#                          test starts and stops (munged, slurmctld, slurmd; needs root);
#                          about 15 s; in TEST_STEPS
#   make fuzz-scenario     libFuzzer on the scenario parser for FUZZ_SECONDS (sim/fuzz/README.md;
#                          `make fuzz` runs it with every other fuzz target, tb/fuzz/fuzz.mk)
#   make test-fuzz-regress replays sim/fuzz/regress/ and the seed scenarios; in TEST_STEPS
#
# $(BUILD)/calc/lfc-calc is the calculators on their own (`lfc-calc headroom ...`), for tests
# that should not wait for lfc-sim; lfc-sim dispatches `lfc-sim headroom|credits` to the same
# lfc_calc_main.

.PHONY: test-calc test-sweep test-sweep-slurm fuzz test-fuzz-regress

CALC_DIR      = $(BUILD)/calc
CALC_CPPFLAGS = $(CPPFLAGS) -Isim/src
CALC_SRCS     = sim/src/calc.c
CALC_HDRS     = sim/src/calc.h

$(CALC_DIR)/lfc-calc: $(CALC_SRCS) $(CALC_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CALC_CPPFLAGS) $(CFLAGS) -DLFC_CALC_STANDALONE $(LDFLAGS) -o $@ $(CALC_SRCS) $(LDLIBS)

$(CALC_DIR)/test_calc: sim/tests/test_calc.c $(CALC_SRCS) $(CALC_HDRS) $(BUILD)/liblfc.a | deps
	@mkdir -p $(@D)
	$(CC) $(CALC_CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ sim/tests/test_calc.c $(CALC_SRCS) \
	  $(BUILD)/liblfc.a $(CMOCKA_LIBS) $(LDLIBS)

$(CALC_DIR)/asan/test_calc: sim/tests/test_calc.c $(CALC_SRCS) $(CALC_HDRS) \
                            $(BUILD)/asan/liblfc.a | deps
	@mkdir -p $(@D)
	$(CC) $(CALC_CPPFLAGS) $(CFLAGS) $(ASAN_FLAGS) $(LDFLAGS) -o $@ sim/tests/test_calc.c \
	  $(CALC_SRCS) $(BUILD)/asan/liblfc.a $(CMOCKA_LIBS) $(LDLIBS)

# The command-line test runs on lfc-calc and, once sim/sim.mk builds it, on lfc-sim itself.
CALC_CLI_BINS = $(CALC_DIR)/lfc-calc $(if $(wildcard sim/src/main.c),$(BUILD)/lfc-sim)

TEST_STEPS += test-calc
test-calc: deps $(CALC_DIR)/test_calc $(CALC_DIR)/asan/test_calc $(CALC_CLI_BINS)
	@echo "== calculators: cmocka (plain, ASan+UBSan) and the command line"
	@scripts/run-cmocka.sh run $(CMOCKA_LOG_DIR)/calc $(CALC_DIR)/test_calc
	@$(ASAN_ENV) scripts/run-cmocka.sh run $(CMOCKA_LOG_DIR)/calc-asan $(CALC_DIR)/asan/test_calc
	@for bin in $(CALC_CLI_BINS); do sim/tests/test_calc_cli.sh $$bin || exit 1; done

# ---------------------------------------------------------------------------------------
# scripts/sweep (docs/sweep.md)
# ---------------------------------------------------------------------------------------

# With lfc-sim (once sim/sim.mk builds it) also a two-point sweep of a real scenario.
SWEEP_TEST_SIM = $(if $(wildcard sim/src/main.c),$(BUILD)/lfc-sim)

TEST_STEPS += test-sweep
test-sweep: deps $(SWEEP_TEST_SIM)
	@echo "== scripts/sweep: GNU parallel path with a stand-in command$(if $(SWEEP_TEST_SIM), and lfc-sim)"
	@sim/tests/test_calc_sweep.sh $(BUILD)/sweep-test $(SWEEP_TEST_SIM)

# Starts its own munged, slurmctld and slurmd on localhost (needs root), submits a job array,
# and stops them again.
TEST_STEPS += test-sweep-slurm
test-sweep-slurm: deps
	@echo "== scripts/sweep: Slurm job array on a single-node Slurm"
	@sim/tests/test_calc_sweep_slurm.sh $(BUILD)/sweep-slurm-test

# ---------------------------------------------------------------------------------------
# make fuzz (sim/fuzz/README.md)
# ---------------------------------------------------------------------------------------

-include sim/fuzz/fuzz.mk
