# lfc — build, test and run the C reference model of link-level flow control.
#
#   make            build/liblfc.a and build/liblfc.so
#   make help       every public target, one line each
#   make check      the everyday loop: the fast steps in CHECK_STEPS (under a minute once built)
#   make test       every test step in TEST_STEPS, each installing the packages it needs
#   make run        build and run the demonstration (cmodel/demo/)
#   make memcheck   the unit tests under valgrind
#   make bench      scripts/bench.sh
#   make golden     record golden vectors (scripts/golden.sh record)
#   make clean      remove $(BUILD)
#
# Sources are found by wildcard: a new cmodel/src/*.c joins the library, a new
# cmodel/tests/test_*.c becomes a test binary, any other cmodel/tests/*.c is a helper
# linked into every test binary. Nothing here needs editing to add a file.

BUILD ?= build

# `CC ?= gcc` alone would do nothing: make already defines CC (as "cc"). Use gcc unless
# the user chose a compiler on the command line or in the environment.
ifeq ($(origin CC),default)
CC = gcc
endif
AR ?= ar

CFLAGS   = -std=c11 -O2 -g -Wall -Wextra -Werror -Wshadow -fPIC
CPPFLAGS = -Icmodel/include
# -MMD writes a .d file of the headers each object includes; -MP adds an empty rule per
# header so that deleting a header does not break the build.
DEPFLAGS = -MMD -MP
LDFLAGS  =
LDLIBS   = -lm
CMOCKA_LIBS = -lcmocka

# The second build of the tests: AddressSanitizer and UndefinedBehaviorSanitizer, every
# finding fatal.
ASAN_FLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
ASAN_ENV   = ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
             UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

VALGRIND = valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect

# The groups of Debian packages in scripts/deps.sh. Each rule asks for the groups it needs
# (deps-minimal, deps-hdl, ...); `make deps` installs the groups in DEPS (default all).
DEPS_GROUPS = minimal hdl sim verify sweep packaging waves compare
DEPS ?= all
export DEPS

# Seconds one test binary may run before it counts as failed.
TEST_TIMEOUT ?= 600
export TEST_TIMEOUT

# Arguments for the demonstration: make run RUN_ARGS='...'
RUN_ARGS ?=

# Where test logs go. The summary at the end of `make test` adds up every cmocka log
# found under CMOCKA_LOG_DIR, so a later step that runs cmocka binaries writes there too.
CMOCKA_LOG_DIR = $(BUILD)/test-logs

# ---------------------------------------------------------------------------------------
# Sources and what is built from them
# ---------------------------------------------------------------------------------------

LIB_SRCS         = $(wildcard cmodel/src/*.c)
TEST_SRCS        = $(wildcard cmodel/tests/test_*.c)
TEST_HELPER_SRCS = $(filter-out $(TEST_SRCS),$(wildcard cmodel/tests/*.c))
DEMO_SRCS        = $(wildcard cmodel/demo/*.c)

# cmodel/DIR/NAME.c -> OBJDIR/DIR/NAME.o, so that src/, tests/ and demo/ can reuse names.
objs = $(patsubst cmodel/%.c,$(1)/%.o,$(2))

LIB_OBJS          = $(call objs,$(BUILD)/obj,$(LIB_SRCS))
TEST_HELPER_OBJS  = $(call objs,$(BUILD)/obj,$(TEST_HELPER_SRCS))
TEST_OBJS         = $(call objs,$(BUILD)/obj,$(TEST_SRCS))
DEMO_OBJS         = $(call objs,$(BUILD)/obj,$(DEMO_SRCS))
TEST_BINS         = $(patsubst cmodel/tests/%.c,$(BUILD)/tests/%,$(TEST_SRCS))

ASAN_LIB_OBJS         = $(call objs,$(BUILD)/asan/obj,$(LIB_SRCS))
ASAN_TEST_HELPER_OBJS = $(call objs,$(BUILD)/asan/obj,$(TEST_HELPER_SRCS))
ASAN_TEST_OBJS        = $(call objs,$(BUILD)/asan/obj,$(TEST_SRCS))
ASAN_TEST_BINS        = $(patsubst cmodel/tests/%.c,$(BUILD)/asan/tests/%,$(TEST_SRCS))
# The long property tests (random traffic, many seeds, jumbo frames) take 19 of the sanitizer
# runs' 23 CPU seconds: make check runs them plain only (test-unit) and make test under ASan
# too (test-asan-slow). Every name must be a test of cmodel/tests: a rename that left one here
# would move nothing and silently slow make check down, so make stops instead.
ASAN_SLOW_TESTS       = test_switch_property test_check_pfc test_switch_skip_ahead
$(foreach t,$(ASAN_SLOW_TESTS),$(if $(wildcard cmodel/tests/$(t).c),,\
  $(error ASAN_SLOW_TESTS names $(t), but there is no cmodel/tests/$(t).c)))
ASAN_SLOW_BINS        = $(filter $(addprefix $(BUILD)/asan/tests/,$(ASAN_SLOW_TESTS)), \
                                 $(ASAN_TEST_BINS))
ASAN_QUICK_BINS       = $(filter-out $(ASAN_SLOW_BINS),$(ASAN_TEST_BINS))

ALL_OBJS = $(LIB_OBJS) $(TEST_HELPER_OBJS) $(TEST_OBJS) $(DEMO_OBJS) \
           $(ASAN_LIB_OBJS) $(ASAN_TEST_HELPER_OBJS) $(ASAN_TEST_OBJS)

# The steps of `make test`, in the order they are listed (they may run in parallel with
# -j). Later parts of the project append to this, e.g. `TEST_STEPS += test-cosim` (and
# declare the new step .PHONY), anywhere in this file or a file it includes.
TEST_STEPS = test-unit test-asan test-asan-slow test-golden

# ---------------------------------------------------------------------------------------
# Make itself
# ---------------------------------------------------------------------------------------

# No built-in implicit rules: every file is built by a rule written below.
MAKEFLAGS += --no-builtin-rules
# With -j, keep each target's output together instead of interleaving test logs.
MAKEFLAGS += --output-sync=target
.SUFFIXES:
# A recipe that fails leaves no half-written target behind.
.DELETE_ON_ERROR:
# `make -j2 clean all` would otherwise decide that `all` is up to date while `clean` is
# deleting it. With clean among the goals, run the goals one after another, in order.
ifneq ($(filter clean,$(MAKECMDGOALS)),)
.NOTPARALLEL:
endif

.PHONY: all deps $(addprefix deps-,$(DEPS_GROUPS)) help test-help check test test-deps \
        test-no-tracker-refs test-unit test-asan test-asan-slow test-golden memcheck run bench \
        golden clean

# ---------------------------------------------------------------------------------------
# The library
# ---------------------------------------------------------------------------------------

# Default target: the model as a static library (linked into tests and the demo) and a
# shared one (loaded by simulators and scripts).
all: $(BUILD)/liblfc.a $(BUILD)/liblfc.so

# Recreate the archive from scratch, so that an object whose source was deleted leaves.
$(BUILD)/liblfc.a: $(LIB_OBJS)
	@test -n "$^" || { echo "no library sources in cmodel/src/*.c" >&2; exit 1; }
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/liblfc.so: $(LIB_OBJS)
	@test -n "$^" || { echo "no library sources in cmodel/src/*.c" >&2; exit 1; }
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -o $@ $^ $(LDLIBS)

# The sanitizer build has its own objects and library, never mixed with the plain ones.
$(BUILD)/asan/liblfc.a: $(ASAN_LIB_OBJS)
	@test -n "$^" || { echo "no library sources in cmodel/src/*.c" >&2; exit 1; }
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

# ---------------------------------------------------------------------------------------
# Compiling: one rule for the plain build, one for the sanitizer build
# ---------------------------------------------------------------------------------------

# The library's own objects hide every symbol not marked LFC_API (lfc/export.h), so that
# liblfc.so exports the public API only (scripts/test_abi.sh checks it). Tests, demo and tools
# link the static library, where hidden symbols still link.
LIB_CFLAGS = -fvisibility=hidden
$(LIB_OBJS) $(ASAN_LIB_OBJS): CFLAGS += $(LIB_CFLAGS)

$(BUILD)/obj/%.o: cmodel/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(BUILD)/asan/obj/%.o: cmodel/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(ASAN_FLAGS) $(DEPFLAGS) -c -o $@ $<

# Tests include <cmocka.h>: install the C model's packages before compiling them. Order-only,
# so an up-to-date deps run rebuilds nothing.
$(TEST_OBJS) $(TEST_HELPER_OBJS) $(ASAN_TEST_OBJS) $(ASAN_TEST_HELPER_OBJS) $(DEMO_OBJS): \
  | deps-minimal

# Header dependencies recorded by -MMD on earlier builds.
-include $(ALL_OBJS:.o=.d)

# ---------------------------------------------------------------------------------------
# Linking the test binaries and the demo
# ---------------------------------------------------------------------------------------

# One binary per cmodel/tests/test_*.c, with every helper and the static library.
$(TEST_BINS): $(BUILD)/tests/%: $(BUILD)/obj/tests/%.o $(TEST_HELPER_OBJS) $(BUILD)/liblfc.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(LDLIBS)

$(ASAN_TEST_BINS): $(BUILD)/asan/tests/%: $(BUILD)/asan/obj/tests/%.o $(ASAN_TEST_HELPER_OBJS) \
                   $(BUILD)/asan/liblfc.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(ASAN_FLAGS) $(LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(LDLIBS)

$(BUILD)/lfc-demo: $(DEMO_OBJS) $(BUILD)/liblfc.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# ---------------------------------------------------------------------------------------
# Packages
# ---------------------------------------------------------------------------------------

# A fresh machine has none of the project's packages: install what is missing, or print
# the command that would (scripts/deps.sh names the packages of each group). `make deps`
# installs every group (or those in DEPS); each rule below asks only for its own groups, so
# that e.g. `make test-unit` needs cmocka but not Verilator or Slurm.
deps:
	@scripts/deps.sh $(DEPS)

$(addprefix deps-,$(DEPS_GROUPS)): deps-%:
	@scripts/deps.sh $*

# scripts/deps.sh's exit statuses and groups, with stand-ins for dpkg-query and apt-get
# (nothing is installed); then the groups each target asks for (make -n), e.g. test-unit only
# minimal: a few seconds.
TEST_STEPS += test-deps
test-deps:
	@echo "== scripts/deps.sh: groups, exit 0 / 2 with stand-in package tools"
	@scripts/test_deps.sh $(BUILD)/deps-test
	@echo "== the package groups of each target: scripts/test_deps_targets.sh"
	@scripts/test_deps_targets.sh $(BUILD)/deps-targets-test

# No code or documentation cites an issue tracker by number (CHANGELOG.md may): a grep.
TEST_STEPS += test-no-tracker-refs
test-no-tracker-refs:
	@scripts/test_no_tracker_refs.sh $(BUILD)

# No merge conflict markers left in a tracked file: a git grep.
TEST_STEPS += test-no-conflict-markers
.PHONY: test-no-conflict-markers
test-no-conflict-markers:
	@scripts/test_no_conflict_markers.sh

# ---------------------------------------------------------------------------------------
# Test steps (see TEST_STEPS; `make test` is the last rule of this file)
# ---------------------------------------------------------------------------------------

# Every cmocka test binary, plain -O2 -g build. All run even if one fails.
test-unit: deps-minimal $(TEST_BINS)
	@echo "== cmocka unit tests ($(words $(TEST_BINS)) binaries)"
	@scripts/run-cmocka.sh run $(CMOCKA_LOG_DIR)/unit $(TEST_BINS)

# The same tests built with ASan+UBSan: catches out-of-bounds, use-after-free, leaks,
# signed overflow and bad shifts that the plain build lets pass. All but the long property
# tests, which test-asan-slow runs (make test runs both).
test-asan: deps-minimal $(ASAN_QUICK_BINS)
	@echo "== cmocka unit tests under ASan+UBSan ($(words $(ASAN_QUICK_BINS)) binaries;" \
	  "test-asan-slow runs $(words $(ASAN_SLOW_BINS)) more)"
	@$(ASAN_ENV) scripts/run-cmocka.sh run $(CMOCKA_LOG_DIR)/asan $(ASAN_QUICK_BINS)

test-asan-slow: deps-minimal $(ASAN_SLOW_BINS)
	@echo "== the long property tests under ASan+UBSan ($(words $(ASAN_SLOW_BINS)) binaries)"
	@$(ASAN_ENV) scripts/run-cmocka.sh run $(CMOCKA_LOG_DIR)/asan-slow $(ASAN_SLOW_BINS)

# Replay the recorded golden vectors against the model (scripts/golden.sh builds lfc_trace).
test-golden: deps-minimal all
	@echo "== golden vectors: scripts/golden.sh check"
	@BUILD=$(BUILD) bash scripts/golden.sh check

# liblfc.so exports the functions of cmodel/include/lfc/*.h and nothing else (LFC_API,
# -fvisibility=hidden): an internal function can be renamed without an ABI change. The users
# outside cmodel/ (ABI_USERS) call only those. First, the checks must catch a broken library.
ABI_USERS = python/lfc tb/cocotb tb/common tb/dpi tb/vpi tb/verilator tb/tools sim/src \
            sim/tests sim/fuzz cmodel/tools cmodel/demo cmodel/bench docs/examples \
            docs/mechanisms/src scripts
.PHONY: test-abi
TEST_STEPS += test-abi
test-abi: deps-minimal $(BUILD)/liblfc.so $(BUILD)/liblfc.a
	@echo "== liblfc.so exports exactly the public API: scripts/test_abi.sh"
	@CC=$(CC) scripts/test_abi_selftest.sh $(BUILD)/obj/src $(BUILD)/liblfc.a $(BUILD)/abi-selftest
	@CC=$(CC) scripts/test_abi.sh $(BUILD)/liblfc.so $(BUILD)/abi-test
	@scripts/test_abi_users.sh $(BUILD)/liblfc.so $(BUILD)/liblfc.a $(ABI_USERS)

# The unit tests under valgrind: a second opinion on memory errors and leaks, on the
# binaries as optimised for release. Any valgrind finding fails the target.
memcheck: deps-minimal $(TEST_BINS)
	@echo "== cmocka unit tests under valgrind ($(words $(TEST_BINS)) binaries)"
	@TEST_WRAPPER="$(VALGRIND)" scripts/run-cmocka.sh run $(BUILD)/memcheck-logs $(TEST_BINS)
	@scripts/run-cmocka.sh summary $(BUILD)/memcheck-logs

# ---------------------------------------------------------------------------------------
# Running things
# ---------------------------------------------------------------------------------------

# The demonstration: packages, build, run. GTKWave too (deps-waves): the README's next step after
# the demonstration opens a co-simulation's waves with it.
run: deps-minimal deps-waves $(BUILD)/lfc-demo
	$(BUILD)/lfc-demo $(RUN_ARGS)

# Benchmarks live in scripts/bench.sh, which chooses its own build and configurations: the
# model under valgrind (minimal), the co-simulation (hdl) and lfc-sim (sim).
bench: deps-minimal deps-hdl deps-sim all
	@BUILD=$(BUILD) bash scripts/bench.sh

# Re-record the golden vectors from the current model (review the diff before committing).
golden: deps-minimal all
	@BUILD=$(BUILD) bash scripts/golden.sh record

clean:
	@case "$(BUILD)" in ""|/|.|..) echo "refusing to remove BUILD='$(BUILD)'" >&2; exit 1;; esac
	rm -rf $(BUILD)

# ---------------------------------------------------------------------------------------
# make help: every public target, one line each (the lines starting with "## " below).
# A part file may keep its own "## " lines beside its rules. test-help fails when a .PHONY
# target of any part is not listed, so a new target gets its line here when it is added.
# Targets whose names begin with a word and "_" (tb_regress_clear) are internal, not listed.
# ---------------------------------------------------------------------------------------
## lfc targets (BUILD=dir builds elsewhere; -j2 in parallel). README.md has more on each.
##
## Everyday
##   make                     build/liblfc.a and build/liblfc.so (same as make all)
##   make all                 the library, static and shared
##   make check               the everyday loop, under a minute once built: CHECK_STEPS
##   make test                every test step in TEST_STEPS (long; what CI runs)
##   make run                 build and run the demonstration (RUN_ARGS='...')
##   make help                this list
##   make clean               remove $(BUILD)
##
## Packages (scripts/deps.sh; each target asks only for the groups it needs)
##   make deps                install the groups in DEPS (default all)
##   make deps-minimal        the C model: cmocka, valgrind, pkg-config, zstd, gzip, python3
##   make deps-hdl            Verilator, Icarus, Yosys, ccache, libinih
##   make deps-sim            lfc-sim: libinih, gnuplot, Graphviz, python3
##   make deps-verify         lcov, clang-14 with libFuzzer, LeakSanitizer
##   make deps-sweep          GNU parallel, Slurm, munge
##   make deps-packaging      help2man, groff, Python venv and pip, libpython
##   make deps-waves          GTKWave, the waveform viewer (make run installs it)
##   make deps-compare        ns-3 (libns3-dev) and g++, for make bench-sim-ns3
##
## The C model
##   make test-unit           cmocka unit and property tests
##   make test-asan           the same under ASan+UBSan, except the long property tests
##   make test-asan-slow      the long property tests under ASan+UBSan (ASAN_SLOW_TESTS)
##   make memcheck            the unit tests under valgrind
##   make test-golden         replay the golden traces (scripts/golden.sh check)
##   make test-abi            liblfc.so exports the public API's functions and nothing else
##   make test-layers         cmodel/src's files use only those above them (docs/cmodel-layers.md)
##   make golden              re-record the golden traces (review the diff)
##   make test-trace-write    lfc_trace on a full or closed standard output: exit 2
##   make test-golden-write   golden.sh record keeps the old traces when a write fails
##   make bench               model, co-simulation and simulator speed: build/bench/*.json
##   make mutants-c           mutants of cmodel/src/*.c against the cmocka tests (>= 95 % killed)
##   make test-mutants-c-changed  mutants of the lines of cmodel/src changed last: none may survive
##   make mutants-c-selftest  the changed-lines check fails on a commit adding an untested line
##   make fuzz-model          libFuzzer on the model alone, SPEC invariants checked
##   make test-wire-tshark    tshark decodes every PFC, RoCEv2 and IB frame the codecs write
##   make fuzz-wire           libFuzzer on the wire-format decoders (FUZZ_SECONDS)
##   make test-fuzz-wire      the wire decoders' seeds and a short fixed-seed fuzz run
##   make test-lfc-check      lfc-check on model captures: clean 0, broken 1 with the line, bad 2
##
## RTL and co-simulation (tb/README.md)
##   make gen-tables          write the C and Verilog generated from tables/ (docs/tables.md)
##   make test-tables         generated files up to date, every copy agrees, broken copies caught
##   make lint                Verilator -Wall and Icarus on every RTL_LINT_CONFIGS
##   make lint-<config>       lint one configuration
##   make synth               Yosys cells and flip-flops per module (minutes)
##   make synth-<config>      synthesise one configuration
##   make cosim               one co-simulation: SIM= CONFIG= [SEED= CYCLES= WAVES= PCAP= COMPARE=0]
##   make cosim-build         build the simulators of CONFIGS for SIMS
##   make cosim-clean         remove the co-simulation builds and results
##   make regress             every configuration x SEEDS seeds x both simulators: JUnit XML
##   make test-cosim          the co-simulation regression of make test
##   make test-cosim-args     wrong values for cosim, regress, soak and mutants are refused
##   make test-cosim-pcap     PCAP=1's files: tshark decodes every frame as the model counted it
##   make test-cosim-seam     the speed seam (threads, packed ports) changes no line of a run's log
##   make test-vip-variants   RTL variants, no model: well-behaved pass lfc-check, broken are caught
##   make coverage            Verilator line and toggle coverage as lcov HTML
##   make mutants             Yosys mutate mutants of the RTL against the regression
##   make mutants-list        the choice of mutants only: explained.txt entries still name their lines
##   make mutants-smoke       hand-made RTL mutants that must be caught
##   make test-mutants-report report.py's verdicts on made-up results
##   make test-mutants-pick   pick.py's sample of mutants on made-up lists
##   make formal              k-induction proofs of the lossless invariants (Yosys)
##   make formal-quick        the quick proofs only
##   make test-formal         the quick proofs, as a step of make test
##   make fuzz-build          build the differential and the model fuzz targets
##   make fuzz-cosim          libFuzzer on RTL against model (FUZZ_SECONDS)
##   make fuzz-replay         replay the fuzz corpus and regressions (FUZZ_INPUT=file)
##   make test-fuzz           fuzz-replay, as a step of make test
##   make fuzz-selftest       hand-made mutants the fuzz targets must find
##   make fuzz-all            what make fuzz runs: every FUZZ_TARGETS entry, one after another
##   make fuzz-parse-int      libFuzzer on lfc_parse_int against a reference reader
##   make fuzz-cfg-set        libFuzzer on lfc_switch_cfg_set (the switch's keys)
##   make fuzz-flat-cfg       libFuzzer on the flat API's configuration text
##   make fuzz-tb-config      libFuzzer on the co-simulation configuration reader
##   make fuzz-tb-args        libFuzzer on the co-simulation's plusargs
##   make fuzz-trace-args     libFuzzer on lfc-trace's command line
##   make fuzz-demo-args      libFuzzer on lfc-demo's command line
##   make fuzz-check-pcap     libFuzzer on the pcap reader and the protocol checkers it feeds
##   make fuzz-check-text     libFuzzer on the checkers' settings text (lfc_check_create_text)
##   make fuzz-check-args     libFuzzer on lfc-check's command line, captures and report
##   make soak                random co-simulation for HOURS
##   make test-soak           one minute of soak
##   make cocotb              the cocotb test with the model as scoreboard
##   make cocotb-mutants      the cocotb test on mutated RTL: each must fail
##   make cocotb-venv         only cocotb's Python environment
##   make test-cocotb         cocotb and cocotb-mutants on Icarus, short runs
##   make dpi                 the SystemVerilog DPI-C checker under Verilator
##   make dpi-build           build the DPI-C testbench only
##   make dpi-mutants         the DPI-C checker on mutated RTL: each must stop
##   make test-dpi            make dpi, as a step of make test
##   make dpi-check-example   lfc_check_pkg.sv: pfc_tx_stub checked through DPI-C (DPI_CHECK_IGNORE_PAUSE=0|1)
##   make test-dpi-check      that example on Verilator: as written it passes, IgnorePause=1 fails
##
## Python and cocotb (docs/verify-your-rtl.md)
##   make test-python         the lfc Python package's unit tests (python/tests), without pandas
##   make test-python-sim     the same in build/venv with pandas: lfc.sim tables, sweeps, docs/sim.md
##   make python-venv         build/venv: cocotb, pandas and the lfc package pip-installed
##   make cocotb-example      pfc_tx_stub under cocotb, checked by lfc (EXAMPLE_SIM=, EXAMPLE_IGNORE_PAUSE=)
##   make test-cocotb-example that example on Icarus and Verilator: as written passes, IgnorePause=1 fails
##
## lfc-sim, the fabric simulator (docs/sim.md)
##   make test-sim            every scenario: skip-ahead == stepping, claims, bad input
##   make test-sim-quick      a few scenarios of test-sim (part of make check)
##   make test-sim-tsan       lfc-sim on 2 and 3 threads under ThreadSanitizer
##   make test-sim-random     random scenarios: skip-ahead == stepping == threads; mutants caught
##   make soak-sim            the same for SOAK_SIM_SECONDS from SOAK_SIM_SEED
##   make study               the IB vs RoCEv2 study: docs/study/README.md
##   make validate            lfc-sim against theory and published results: docs/validation/README.md
##   make test-validate       a short make validate under build/ (known deviations listed)
##   make bench-sim           simulator speed: build/bench/sim.json
##   make bench-sim-ns3       lfc-sim beside ns-3 on the same fat tree: build/bench/sim_ns3.json
##   make test-calc           the headroom and credits calculators
##   make test-sweep          scripts/sweep on GNU parallel
##   make test-sweep-slurm    scripts/sweep as a Slurm job array (needs root)
##   make test-sweep-input    scripts/sweep refuses bad input with one line
##   make plot-latency-load   latency against offered load, PFC and IB, saturation marked: build/plots/
##   make plot-fct-slowdown   FCT slowdown by flow size (median, p99), PFC and IB: build/plots/
##   make test-plot-sweep     both plots from short sweeps, the numbers behind them checked
##   make test-sim-load       contradictory scenarios and command lines refused at load
##   make test-sim-outputs    output files whole or none, no shell, bounded memory
##   make test-sim-dcqcn      DCQCN rules (cmocka) and N flows sharing one bottleneck fairly
##   make test-sim-deadlock   no deadlock reported on fabrics that cannot deadlock; real ones found
##   make test-sim-unit       cmocka unit tests of topology, routing, partition, deadlock detection, latency series and percentiles, the threads' crew
##   make test-sim-defaults   defaults that follow the scenario: idle paths, jumbo frames, INA; warnings
##   make test-sim-pcap       --pcap: bad arguments, results unchanged, tshark decodes every frame
##   make test-sim-lfc-check  lfc-check on every scenario's captures: clean; misbehaviour named
##   make test-sim-report     the stdout report (receivers, fairness, groups, flows) = --json
##   make test-bench-sim-report  bench-sim's callgrind run by part and its steps, its table
##   make test-bench-ns3      bench-sim-ns3 on a small tree; a misrouting ns-3 fabric refused
##   make test-sim-ar         adaptive routing vs ECMP: throughput, out of order, threads, off = as before
##   make test-ddp            training steps with overlap (ring/tree/INA MFU), noisy neighbours
##   make fuzz                every libFuzzer target for FUZZ_SECONDS each
##   make fuzz-sim-scenario   libFuzzer on the scenario parser (FUZZ_SECONDS)
##   make fuzz-sim-cli        libFuzzer on lfc-sim's and the calculators' command lines
##   make test-fuzz-regress   replay the scenario parser's crash inputs and seeds
##   make test-fuzz-regress-cli  replay the command-line fuzz seeds, then a short fixed run
##   make doc-figures         regenerate docs/mechanisms/figures/*.png
##   make doc-figures-progs   build the programs behind those figures
##   make test-doc-figures    check the facts the docs/mechanisms pages state
##
## Install and packaging
##   make install             PREFIX=... [DESTDIR=...]: library, headers, programs, man pages
##   make uninstall           remove what install wrote
##   make man                 the man pages, in build/dist/man/
##   make test-no-conflict-markers  no merge conflict markers left in a tracked file
##   make test-man            a man page per public function, each with a description
##   make test-install        install, build against it with pkg-config, uninstall
##   make fusesoc-venv        FuseSoC from PyPI in build/venv-fusesoc
##   make fusesoc-sim         lfc.core's co-simulation target under FuseSoC
##   make fusesoc-cosim-c     the C side of lfc.core's co-simulation target
##   make test-fusesoc        lfc.core parsed by FuseSoC, its lint target run
##
## Checks of the tree itself
##   make test-deps           scripts/deps.sh's groups and exit statuses; each target's groups
##   make test-help           every .PHONY target listed here, every *.mk included, check in test
##   make test-no-tracker-refs  no issue-tracker numbers in code or docs
##   make test-script-args    the scripts refuse bad arguments with one line, exit 2

help:
	@sed -n 's/^## \{0,1\}//p' $(MAKEFILE_LIST)

# Every .PHONY target of the Makefile and its parts has a line in make help (and every line
# names a target that exists); every part makefile (*.mk) of the tree is included.
TEST_STEPS += test-help
test-help:
	@scripts/test_help.sh

# ---------------------------------------------------------------------------------------
# Parts of the project that keep their rules beside their sources (see each file's header).
# Each may append to TEST_STEPS. Plain include: a part file that is renamed or missing stops
# make with its name, instead of silently dropping its test steps.
# ---------------------------------------------------------------------------------------
include rtl/rtl.mk
include tb/tb.mk
include cmodel/bench/bench.mk
include tb/mutants/mutants.mk
include tb/formal/formal.mk
include tb/fuzz/fuzz.mk
include tb/cocotb/cocotb.mk
include tb/dpi/dpi.mk
include tb/dpi/dpi_check.mk
include python/python.mk
include sim/sim.mk
include sim/calc.mk
include sim/plots.mk
include sim/unit.mk
include scripts/install.mk
include docs/docs.mk
# The tables of tables/: generated C and Verilog, checked copies (scripts/tables.mk).
include scripts/tables.mk
# The wire formats: the tshark cross-check and the decoders' fuzzer (cmodel/tools/wire.mk appends
# test-wire-tshark and test-fuzz-wire to TEST_STEPS).
include cmodel/tools/wire.mk
# lfc-check, the protocol checkers over captures (cmodel/tools/check.mk appends test-lfc-check).
include cmodel/tools/check.mk
# The files of cmodel/src and which may use which (cmodel/layers.mk appends test-layers).
include cmodel/layers.mk

# ---------------------------------------------------------------------------------------
# make check: the everyday loop
# ---------------------------------------------------------------------------------------

# The steps of make test that take seconds, and a few scenarios of lfc-sim: under a minute on a
# quiet two-core machine once built (README.md, "Test tiers"). The slow steps (co-simulation,
# formal, fuzzing, sweeps on Slurm, install and packaging) are left to make test.
CHECK_STEPS = test-deps test-help test-no-tracker-refs test-script-args test-mutants-report \
              test-mutants-pick test-unit test-golden test-sim-quick test-calc test-asan \
              test-sim-unit test-no-conflict-markers
CHECK_STEPS += test-abi test-lfc-check test-python test-layers test-tables

# A few scenarios of test-sim (which runs them all): skip-ahead == stepping == 2 threads, and
# a claim of each kind (sim/tests/test_sim_quick.sh). In TEST_STEPS too, as every step of make
# check is (scripts/test_help.sh checks it): a second or two.
.PHONY: test-sim-quick
TEST_STEPS += test-sim-quick
test-sim-quick: deps-minimal deps-sim $(BUILD)/lfc-sim $(BUILD)/lfc-sim-check
	@echo "== lfc-sim: a few scenarios, skip-ahead == step-every-cycle == 2 threads, claims"
	@sim/tests/test_sim_quick.sh $(BUILD)/lfc-sim $(BUILD)/lfc-sim-check $(BUILD)/sim-quick

# The steps, then the cmocka tests they ran added up, as make test does.
check: $(CHECK_STEPS)
	@scripts/run-cmocka.sh summary $(CMOCKA_LOG_DIR)/unit $(CMOCKA_LOG_DIR)/asan \
	  $(CMOCKA_LOG_DIR)/calc $(CMOCKA_LOG_DIR)/calc-asan $(CMOCKA_LOG_DIR)/sim-unit \
	  $(CMOCKA_LOG_DIR)/sim-unit-asan

# ---------------------------------------------------------------------------------------
# make test
# ---------------------------------------------------------------------------------------

# All test steps, then one closing line adding up every cmocka test that ran:
# "cmocka: N passed, 0 failed". Fails if any step failed or no test ran.
# $$(TEST_STEPS) is expanded after the whole Makefile (and anything it includes) is read,
# so a `TEST_STEPS += ...` below this rule counts too.
.SECONDEXPANSION:
test: deps $$(TEST_STEPS)
	@scripts/run-cmocka.sh summary $(CMOCKA_LOG_DIR)/*

