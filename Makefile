# lfc — build, test and run the C reference model of link-level flow control.
#
#   make            build/liblfc.a and build/liblfc.so
#   make test       install missing Debian packages, then every test step in TEST_STEPS
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

# Which Debian packages scripts/deps.sh makes sure of: minimal (C model only) or all.
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

ALL_OBJS = $(LIB_OBJS) $(TEST_HELPER_OBJS) $(TEST_OBJS) $(DEMO_OBJS) \
           $(ASAN_LIB_OBJS) $(ASAN_TEST_HELPER_OBJS) $(ASAN_TEST_OBJS)

# The steps of `make test`, in the order they are listed (they may run in parallel with
# -j). Later parts of the project append to this, e.g. `TEST_STEPS += test-cosim` (and
# declare the new step .PHONY), anywhere in this file or a file it includes.
TEST_STEPS = test-unit test-asan test-golden

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

.PHONY: all deps test test-unit test-asan test-golden memcheck run bench golden clean

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

$(BUILD)/obj/%.o: cmodel/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(BUILD)/asan/obj/%.o: cmodel/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(ASAN_FLAGS) $(DEPFLAGS) -c -o $@ $<

# Tests include <cmocka.h> and the demo may use other packages: install the packages
# before compiling them. Order-only, so an up-to-date deps run rebuilds nothing.
$(TEST_OBJS) $(TEST_HELPER_OBJS) $(ASAN_TEST_OBJS) $(ASAN_TEST_HELPER_OBJS) $(DEMO_OBJS): | deps

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
# the command that would (DEPS=minimal|all).
deps:
	@scripts/deps.sh

# ---------------------------------------------------------------------------------------
# Test steps (see TEST_STEPS; `make test` is the last rule of this file)
# ---------------------------------------------------------------------------------------

# Every cmocka test binary, plain -O2 -g build. All run even if one fails.
test-unit: deps $(TEST_BINS)
	@echo "== cmocka unit tests ($(words $(TEST_BINS)) binaries)"
	@scripts/run-cmocka.sh run $(CMOCKA_LOG_DIR)/unit $(TEST_BINS)

# The same tests built with ASan+UBSan: catches out-of-bounds, use-after-free, leaks,
# signed overflow and bad shifts that the plain build lets pass.
test-asan: deps $(ASAN_TEST_BINS)
	@echo "== cmocka unit tests under ASan+UBSan ($(words $(ASAN_TEST_BINS)) binaries)"
	@$(ASAN_ENV) scripts/run-cmocka.sh run $(CMOCKA_LOG_DIR)/asan $(ASAN_TEST_BINS)

# Replay the recorded golden vectors against the model, once scripts/golden.sh exists.
test-golden: deps all
	@if [ -f scripts/golden.sh ]; then \
	  echo "== golden vectors: scripts/golden.sh check"; \
	  bash scripts/golden.sh check; \
	else \
	  echo "== golden vectors: skipped (no scripts/golden.sh yet)"; \
	fi

# The unit tests under valgrind: a second opinion on memory errors and leaks, on the
# binaries as optimised for release. Any valgrind finding fails the target.
memcheck: deps $(TEST_BINS)
	@echo "== cmocka unit tests under valgrind ($(words $(TEST_BINS)) binaries)"
	@TEST_WRAPPER="$(VALGRIND)" scripts/run-cmocka.sh run $(BUILD)/memcheck-logs $(TEST_BINS)
	@scripts/run-cmocka.sh summary $(BUILD)/memcheck-logs

# ---------------------------------------------------------------------------------------
# Running things
# ---------------------------------------------------------------------------------------

# The demonstration: packages, build, run.
ifneq ($(wildcard cmodel/demo/lfc_demo.c),)
run: deps $(BUILD)/lfc-demo
	$(BUILD)/lfc-demo $(RUN_ARGS)
else
run:
	@echo "make run: cmodel/demo/lfc_demo.c does not exist yet; there is no demo to run" >&2
	@exit 1
endif

# Benchmarks live in scripts/bench.sh, which chooses its own build and configurations.
bench: deps all
	@if [ -f scripts/bench.sh ]; then bash scripts/bench.sh; \
	else echo "make bench: scripts/bench.sh does not exist yet" >&2; exit 1; fi

# Re-record the golden vectors from the current model (review the diff before committing).
golden: deps all
	@if [ -f scripts/golden.sh ]; then bash scripts/golden.sh record; \
	else echo "make golden: scripts/golden.sh does not exist yet" >&2; exit 1; fi

clean:
	@case "$(BUILD)" in ""|/|.|..) echo "refusing to remove BUILD='$(BUILD)'" >&2; exit 1;; esac
	rm -rf $(BUILD)

# ---------------------------------------------------------------------------------------
# Parts of the project that keep their rules beside their sources (RTL: lint, synth;
# tb: co-simulation, regression). Each may append to TEST_STEPS.
# ---------------------------------------------------------------------------------------
-include rtl/rtl.mk
-include tb/tb.mk
-include cmodel/bench/bench.mk
# Each of these keeps the rules of one part beside its sources (see the file's header).
-include tb/mutants/mutants.mk
-include tb/formal/formal.mk
-include tb/fuzz/fuzz.mk
-include tb/cocotb/cocotb.mk
-include tb/dpi/dpi.mk
-include sim/sim.mk
-include sim/calc.mk
-include scripts/install.mk
-include docs/docs.mk

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

# The wire formats: the tshark cross-check and the decoders' fuzzer (cmodel/tools/wire.mk appends
# test-wire-tshark and test-fuzz-wire to TEST_STEPS).
-include cmodel/tools/wire.mk
