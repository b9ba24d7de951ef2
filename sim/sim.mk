# sim/sim.mk - lfc-sim, the fabric simulator (docs/sim.md). Included by the top Makefile.
#
#   make BUILD=... $(BUILD)/lfc-sim   the simulator
#   make test-sim                     scenario checks and the skip-ahead equivalence (< 3 min)
#   make study                        long scenarios -> docs/study/README.md
#   make bench-sim                    $(BUILD)/bench/sim.json (1024-host fat tree, 127:1 incast,
#                                     thread scaling, instructions per packet-hop) and a goals table
#   make test-sim-tsan                lfc-sim under ThreadSanitizer on 2 and 3 threads (< 1 min)

.PHONY: test-sim test-sim-tsan study bench-sim

SIM_SRCS = $(filter-out sim/src/calc.c,$(wildcard sim/src/*.c))
SIM_OBJS = $(patsubst sim/src/%.c,$(BUILD)/sim/obj/%.o,$(SIM_SRCS))
# The calculators (sim/src/calc.c; sim/calc.mk also builds them alone, as lfc-calc).
SIM_CALC_SRC = sim/src/calc.c
SIM_CALC_OBJ = $(BUILD)/sim/obj/calc.o
SIM_LIBS = -linih -lm -pthread

# lfc-sim is built for speed (docs/sim.md "Speed"): the simulator and the model's sources
# compiled together with link-time optimisation (the model's small per-port functions inline
# across files), at -O3, and without the model's assert()s. lfc-sim-check links the ordinary
# liblfc.a, assertions on (lfc_switch_advance checks the skip-ahead contract on every jump);
# test-sim runs both and requires the same digests.
SIM_FAST_FLAGS = -DNDEBUG -flto=auto -O3
SIM_FAST_OBJS = $(patsubst sim/src/%.c,$(BUILD)/sim/fast/sim/%.o,$(SIM_SRCS) $(SIM_CALC_SRC)) \
                $(patsubst cmodel/src/%.c,$(BUILD)/sim/fast/src/%.o,$(LIB_SRCS))

$(BUILD)/sim/obj/%.o: sim/src/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Isim/src $(CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(BUILD)/sim/fast/sim/%.o: sim/src/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Isim/src $(CFLAGS) $(SIM_FAST_FLAGS) $(DEPFLAGS) -c -o $@ $<

$(BUILD)/sim/fast/src/%.o: cmodel/src/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(SIM_FAST_FLAGS) $(DEPFLAGS) -c -o $@ $<

$(BUILD)/lfc-sim: $(SIM_FAST_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SIM_FAST_FLAGS) $(LDFLAGS) -o $@ $^ $(SIM_LIBS) $(LDLIBS)

# lfc-sim-tsan: simulator and model under ThreadSanitizer, for the threads (docs/sim.md
# "Threads"); -O1 keeps its reports readable.
SIM_TSAN_FLAGS = -fsanitize=thread -O1
SIM_TSAN_OBJS = $(patsubst sim/src/%.c,$(BUILD)/sim/tsan/sim/%.o,$(SIM_SRCS) $(SIM_CALC_SRC)) \
                $(patsubst cmodel/src/%.c,$(BUILD)/sim/tsan/src/%.o,$(LIB_SRCS))

$(BUILD)/sim/tsan/sim/%.o: sim/src/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Isim/src $(CFLAGS) $(SIM_TSAN_FLAGS) $(DEPFLAGS) -c -o $@ $<

$(BUILD)/sim/tsan/src/%.o: cmodel/src/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(SIM_TSAN_FLAGS) $(DEPFLAGS) -c -o $@ $<

$(BUILD)/lfc-sim-tsan: $(SIM_TSAN_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SIM_TSAN_FLAGS) $(LDFLAGS) -o $@ $^ $(SIM_LIBS) $(LDLIBS)

# test_crew and test_chan under ThreadSanitizer: the crew switching between together and alone
# (crew.h), which the short runs of test_sim_tsan.sh do not reach (an epoch is 512 cycles), and
# a channel's writer and reader at once over many chunks (chan.h).
$(BUILD)/sim/tsan/test_%: sim/tests/test_%.c $(BUILD)/sim/tsan/sim/%.o | deps-minimal
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Isim/src $(CFLAGS) $(SIM_TSAN_FLAGS) $(LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) \
	  -pthread $(LDLIBS)

$(BUILD)/lfc-sim-check: $(SIM_OBJS) $(SIM_CALC_OBJ) $(BUILD)/liblfc.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(SIM_LIBS) $(LDLIBS)

-include $(SIM_OBJS:.o=.d) $(SIM_CALC_OBJ:.o=.d) $(SIM_FAST_OBJS:.o=.d) $(SIM_TSAN_OBJS:.o=.d)
# The simulator reads its scenarios with libinih: install it before compiling.
$(SIM_OBJS) $(SIM_CALC_OBJ) $(SIM_FAST_OBJS) $(SIM_TSAN_OBJS): | deps-sim

TEST_STEPS += test-sim
test-sim: $(BUILD)/lfc-sim $(BUILD)/lfc-sim-check
	@echo "== lfc-sim: scenario outcomes, skip-ahead == step-every-cycle, bad input"
	@sim/tests/test_sim.sh $(BUILD)/lfc-sim $(BUILD)/sim-test $(BUILD)/lfc-sim-check

TEST_STEPS += test-sim-tsan
test-sim-tsan: $(BUILD)/lfc-sim-tsan $(BUILD)/sim/tsan/test_crew $(BUILD)/sim/tsan/test_chan
	@echo "== lfc-sim on 2 and 3 threads under ThreadSanitizer"
	@sim/tests/test_sim_tsan.sh $(BUILD)/lfc-sim-tsan $(BUILD)/sim-tsan
	@TSAN_OPTIONS="halt_on_error=1 exitcode=66" scripts/run-cmocka.sh run $(CMOCKA_LOG_DIR)/sim-tsan \
	  $(BUILD)/sim/tsan/test_crew $(BUILD)/sim/tsan/test_chan

# Random scenarios, each run five ways (sim/tests/sim_random.py): stepped and checked
# skip-ahead (the model's assertions on), fast, 2 and 3 threads, one digest and the same time
# series; bad arguments refused; four mutants that test-sim misses caught (under two minutes).
# SIM_RANDOM_SEED and SIM_RANDOM_CASES choose the scenarios.
.PHONY: test-sim-random soak-sim
TEST_STEPS += test-sim-random
test-sim-random: $(BUILD)/lfc-sim $(BUILD)/lfc-sim-check
	@echo "== lfc-sim: random scenarios, skip-ahead == stepping == 2 and 3 threads; mutants caught"
	@CC='$(CC)' CPPFLAGS='$(CPPFLAGS)' LDLIBS='$(LDLIBS)' \
	  sim/tests/test_sim_random.sh $(BUILD)/lfc-sim $(BUILD)/lfc-sim-check $(BUILD)/sim-random

# The same for SOAK_SIM_SECONDS (default 600) from SOAK_SIM_SEED (default: the time now, which it
# prints); a failing scenario is kept in $(BUILD)/soak-sim with the line to run it again.
SOAK_SIM_SECONDS ?= 600
SOAK_SIM_SEED ?= $(shell date +%s)
soak-sim: $(BUILD)/lfc-sim $(BUILD)/lfc-sim-check
	@python3 sim/tests/sim_random.py $(BUILD)/lfc-sim $(BUILD)/lfc-sim-check $(BUILD)/soak-sim \
	  --seed $(SOAK_SIM_SEED) --seconds $(SOAK_SIM_SECONDS)

study: $(BUILD)/lfc-sim
	@sim/tests/study.sh $(BUILD)/lfc-sim $(BUILD)/study docs/study

# Validation against theory and published results (sim/tests/validate.py): make validate writes
# docs/validation/README.md and its plots and exits 1 while a row is out of tolerance, unless the
# row is in VALIDATE_KNOWN_FAIL (default none). test-validate runs the same checks on shorter
# runs under $(BUILD) (a few seconds) with the documented known deviations, and checks that the
# comparisons reject a model one cycle off.
.PHONY: validate test-validate
VALIDATE_KNOWN_FAIL ?=
VALIDATE_KNOWN_FAIL_TEST ?=
validate: $(BUILD)/lfc-sim | deps-sim
	@VALIDATE_KNOWN_FAIL='$(VALIDATE_KNOWN_FAIL)' python3 sim/tests/validate.py $(BUILD)/lfc-sim $(BUILD)/validate docs/validation

TEST_STEPS += test-validate
test-validate: $(BUILD)/lfc-sim | deps-sim
	@echo "== lfc-sim against theory (short make validate; known deviations: $(VALIDATE_KNOWN_FAIL_TEST))"
	@rm -rf $(BUILD)/validate-test
	@VALIDATE_KNOWN_FAIL='$(VALIDATE_KNOWN_FAIL_TEST)' python3 sim/tests/validate.py $(BUILD)/lfc-sim $(BUILD)/validate-test/work $(BUILD)/validate-test --quick

# A benchmark, not a test (not in TEST_STEPS): some minutes on the shared machine. valgrind
# (deps-minimal) counts the instructions per packet-hop; BENCH_SIM_US, BENCH_SIM_CALLGRIND_US,
# BENCH_SIM_THREADS, BENCH_SIM_PAIRS and BENCH_SIM_BASELINE (today's code, built from git into
# $(BUILD)/bench/baseline) as in sim/tests/bench_sim.sh.
bench-sim: $(BUILD)/lfc-sim | deps-minimal deps-sim
	@mkdir -p $(BUILD)/bench
	@sim/tests/bench_sim.sh $(BUILD)/lfc-sim $(BUILD)/bench/sim.json

# lfc-sim beside ns-3 (docs/sim.md "Beside ns-3"): the bench's fat tree written for ns-3 with
# its stock parts (sim/tests/bench_ns3.cc), built against Debian's ns-3. Its headers are in
# /usr/include/ns3, on the compiler's own path; Debian 12's ns3-*.pc files give a broken -I, so
# pkg-config is not asked. A benchmark (some minutes), not a test.
NS3_LIBS = -lns3-point-to-point -lns3-network -lns3-core
$(BUILD)/bench_ns3: sim/tests/bench_ns3.cc | deps-compare
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 -O2 -Wall -Wextra -Werror -o $@ $< $(NS3_LIBS)

.PHONY: bench-sim-ns3 test-bench-ns3
bench-sim-ns3: $(BUILD)/lfc-sim $(BUILD)/bench_ns3 | deps-minimal deps-sim
	@mkdir -p $(BUILD)/bench
	@python3 sim/tests/bench_ns3.py $(BUILD)/lfc-sim $(BUILD)/bench_ns3 $(BUILD)/bench/sim_ns3.json

# The comparison on a k = 4 tree for a few microseconds (its JSON, its arithmetic), bad
# arguments refused, and an ns-3 fabric built to deliver to the wrong host refused (about 20 s).
TEST_STEPS += test-bench-ns3
test-bench-ns3: $(BUILD)/lfc-sim $(BUILD)/bench_ns3 | deps-minimal deps-sim
	@echo "== bench-sim-ns3: lfc-sim beside ns-3 on a small tree; a misrouting fabric refused"
	@CXX='$(CXX)' NS3_LIBS='$(NS3_LIBS)' \
	  python3 sim/tests/test_bench_ns3.py $(BUILD)/lfc-sim $(BUILD)/bench_ns3 $(BUILD)/bench-ns3-test

# bench-sim's report on made-up runs: the callgrind run's instructions by part, their sum
# checked against its total, its device steps, the table per packet-hop, a missing listing or
# step count refused, today's code beside this one; and today's code built from git as the
# bench builds it (about 10 s; skipped in a checkout without that commit).
TEST_STEPS += test-bench-sim-report
.PHONY: test-bench-sim-report
test-bench-sim-report:
	@echo "== bench-sim: the callgrind run by part and its steps, its table, missing ones refused"
	@python3 sim/tests/test_bench_sim_report.py $(BUILD)/bench-sim-report-test

# Scenarios and command lines that contradict themselves, refused at load with one line.
.PHONY: test-sim-load
TEST_STEPS += test-sim-load
test-sim-load: $(BUILD)/lfc-sim
	@echo "== lfc-sim: contradictory scenarios and command lines refused at load (exit 2)"
	@sim/tests/test_sim_load.sh $(BUILD)/lfc-sim $(BUILD)/sim-load-test

# Output files whole or not at all, no shell from a file name, memory bounded in simulated time
# (docs/sim.md "Output files", "Memory"); about 10 s.
TEST_STEPS += test-sim-outputs
.PHONY: test-sim-outputs
test-sim-outputs: $(BUILD)/lfc-sim $(BUILD)/lfc-sim-check
	@echo "== lfc-sim: output files (failed writes, names, long paths), bounded memory, size refusal"
	@sim/tests/test_sim_outputs.sh $(BUILD)/lfc-sim $(BUILD)/sim-test-outputs $(BUILD)/lfc-sim-check

# lfc-sim --pcap (docs/sim.md "Captures"): bad arguments refused in one line, results unchanged,
# and tshark decodes every frame of a short PFC and a short IB run as the model's counters in the
# JSON say (about 10 s).
TEST_STEPS += test-sim-pcap
.PHONY: test-sim-pcap
test-sim-pcap: deps-verify $(BUILD)/lfc-sim
	@echo "== lfc-sim --pcap: bad arguments, results unchanged, tshark decodes every frame"
	@sim/tests/test_sim_pcap.sh $(BUILD)/lfc-sim $(BUILD)/sim-test-pcap

# The report on stdout against the run's own --json: receivers, Jain's index, groups, the flow
# table and its --flows / --sort (about 2 s).
TEST_STEPS += test-sim-report
.PHONY: test-sim-report
test-sim-report: $(BUILD)/lfc-sim
	@echo "== lfc-sim: the report on stdout agrees with --json"
	@python3 sim/tests/test_sim_report.py $(BUILD)/lfc-sim $(BUILD)/sim-test-report

# Adaptive routing (docs/sim.md "Adaptive routing"): more delivered than per-flow ECMP on a
# k = 8 fat tree permutation, packets out of order only with it, the same digest on 1, 2 and 3
# threads and stepping every cycle, and with it off every digest as before it (about 3 s).
TEST_STEPS += test-sim-ar
.PHONY: test-sim-ar
test-sim-ar: $(BUILD)/lfc-sim $(BUILD)/lfc-sim-check
	@echo "== lfc-sim: adaptive routing against ECMP, out-of-order packets, threads, feature off"
	@python3 sim/tests/test_sim_ar.py $(BUILD)/lfc-sim $(BUILD)/lfc-sim-check $(BUILD)/sim-test-ar

# lfc-check on lfc-sim's own captures: every scenario clean with the options lfc-sim writes
# beside its files, the skew needed, the short headroom of pfc_headroom named (about 10 s).
TEST_STEPS += test-sim-lfc-check
.PHONY: test-sim-lfc-check
test-sim-lfc-check: $(BUILD)/lfc-sim $(BUILD)/tools/lfc_check # CHECK_BIN: check.mk is read later
	@echo "== lfc-sim --pcap then lfc-check: every scenario clean, misbehaviour named"
	@sim/tests/test_sim_lfc_check.sh $(BUILD)/lfc-sim $(BUILD)/tools/lfc_check $(BUILD)/sim-test-lfc-check

# The deadlock detector's wait-for graph is exact: no cycle on random deadlock-free fabrics under
# heavy congestion, the same cycles as before where routing does deadlock (about 30 s).
TEST_STEPS += test-sim-deadlock
.PHONY: test-sim-deadlock
test-sim-deadlock: $(BUILD)/lfc-sim
	@echo "== lfc-sim: exact deadlock detection (random deadlock-free fabrics, deliberate cycles)"
	@sim/tests/test_deadlock_exact.sh $(BUILD)/lfc-sim $(BUILD)/sim-test-deadlock

# The defaults that follow the scenario (docs/sim.md "Defaults that follow the scenario"): an
# idle path never pauses or stalls and runs at line rate, jumbo frames load, in-network
# aggregation takes its analytic time (about 10 s).
TEST_STEPS += test-sim-defaults
.PHONY: test-sim-defaults
test-sim-defaults: $(BUILD)/lfc-sim
	@echo "== lfc-sim: defaults that follow the scenario (idle paths, jumbo frames, INA fan-in)"
	@sim/tests/test_sim_defaults.sh $(BUILD)/lfc-sim $(BUILD)/sim-test-defaults

# DCQCN as deployed: N flows into one bottleneck share it fairly and keep it busy (< 10 s).
TEST_STEPS += test-sim-dcqcn
.PHONY: test-sim-dcqcn
test-sim-dcqcn: $(BUILD)/lfc-sim $(BUILD)/sim/test_dcqcn_rp $(BUILD)/sim/asan/test_dcqcn_rp
	@echo "== lfc-sim: DCQCN reaction point rules (cmocka, plain and ASan+UBSan)"
	@scripts/run-cmocka.sh run $(CMOCKA_LOG_DIR)/sim-dcqcn $(BUILD)/sim/test_dcqcn_rp
	@$(ASAN_ENV) scripts/run-cmocka.sh run $(CMOCKA_LOG_DIR)/sim-dcqcn-asan $(BUILD)/sim/asan/test_dcqcn_rp
	@echo "== lfc-sim: DCQCN utilisation and fairness (N flows into one bottleneck)"
	@sim/tests/test_dcqcn.sh $(BUILD)/lfc-sim $(BUILD)/sim-dcqcn

# dcqcn.c on its own: the test builds its configurations directly.
$(BUILD)/sim/test_dcqcn_rp: sim/tests/test_dcqcn_rp.c sim/src/dcqcn.c sim/src/dcqcn.h | deps-minimal
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Isim/src $(CFLAGS) $(LDFLAGS) -o $@ \
	  sim/tests/test_dcqcn_rp.c sim/src/dcqcn.c $(CMOCKA_LIBS) -lm $(LDLIBS)
$(BUILD)/sim/asan/test_dcqcn_rp: sim/tests/test_dcqcn_rp.c sim/src/dcqcn.c sim/src/dcqcn.h | deps-minimal
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Isim/src $(CFLAGS) $(ASAN_FLAGS) $(LDFLAGS) \
	  -o $@ sim/tests/test_dcqcn_rp.c sim/src/dcqcn.c $(CMOCKA_LIBS) -lm $(LDLIBS)

# Training steps with overlap (pattern ddp) and noisy neighbours (docs/sim.md): overlap hides
# communication, in-network aggregation beats ring, MFU = compute / step time, the neighbour
# raises the p99 step time, 1 thread == 2 threads, bad keys refused (about 5 s).
.PHONY: test-ddp
TEST_STEPS += test-ddp
test-ddp: $(BUILD)/lfc-sim | deps-sim
	@echo "== lfc-sim: training steps with overlap (ring, tree, in-network), noisy neighbours"
	@python3 sim/tests/test_ddp.py $(BUILD)/lfc-sim $(BUILD)/sim-test-ddp
