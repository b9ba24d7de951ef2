# tb/fuzz/fuzz.mk - differential fuzzing, C-model mutants and the soak (issue #5 §2, §4, §5).
# Included by the top Makefile. See docs/fuzzing.md.
#
#   make fuzz-cosim [FUZZ_SECONDS=300] [TBFUZZ_MODES="ib pfc"]
#       libFuzzer drives the Verilated RTL and the C model with the same words (tb/fuzz/
#       fuzz_cosim.c) for FUZZ_SECONDS in all, split between the modes; stops at the first
#       difference (MISMATCH line, the input saved under $(TBFUZZ_BUILD)/crashes/)
#   make fuzz-model [FUZZ_SECONDS=...]
#       the C model alone under ASan + UBSan, checking SPEC invariants (tb/fuzz/fuzz_model.c)
#   make fuzz-replay [FUZZ_INPUT=file]
#       every input of tb/fuzz/corpus/ and tb/fuzz/regress/ (or FUZZ_INPUT) through both targets
#       once; `make test` runs it as test-fuzz
#   make fuzz-selftest [SELFTEST_SECONDS=120] [SELFTEST_ONLY=rtl|model]
#       hand-made RTL and model mutants (tb/fuzz/selftest.sh): the fuzz targets must find each
#   make mutants-c [MUTANTS_MAX=n MUTANTS_SEED=s MUTANT_TIMEOUT=s MUTANTS_ARGS=--golden]
#       scripts/mutants-c.py: mutants of cmodel/src/*.c against the cmocka suite (UBSan, LSan),
#       reviewed equivalents in tb/fuzz/mutants-c-equivalent.txt; MUTANTS_ARGS may add --asan,
#       --only FILE:LINE[:COL],... or --rerun $(BUILD)/mutants/c-summary.json (docs/fuzzing.md §3);
#       fails below MUTANTS_MIN_SCORE (95) % of the non-equivalent mutants killed
#   make test-mutants-c-changed [MUTANTS_BASE=auto|REV MUTANTS_CHANGED_MAX=8]
#       in `make test`: a few mutants of the lines of cmodel/src changed since MUTANTS_BASE (auto:
#       a branch's merge base with main, on main the parent of the last commit that changed
#       cmodel/src); fails if one survives. mutants-c-selftest: it fails on an untested line
#   make soak HOURS=h [SOAK_CONFIGS=...]
#       tb/scripts/soak.sh: random co-simulation (Verilator) of every configuration until the time
#       is up; `make test` runs one minute of it as test-soak

TBFUZZ_BUILD    = $(BUILD)/tbfuzz
FUZZ_SECONDS ?= 60
TBFUZZ_MODES   ?= ib pfc
TBFUZZ_CC      ?= clang-14
TBFUZZ_CXX     ?= clang++-14
TBFUZZ_INPUT ?= $(FUZZ_INPUT)
# The version string the library wants (scripts/install.mk defines LFC_VERSION_CPPFLAGS from the
# file VERSION).
TBFUZZ_VERSION  = $(LFC_VERSION_CPPFLAGS)
TBFUZZ_CFLAGS   = -std=c11 -O1 -g -Wall -Wextra -Werror -Icmodel/include -Itb/common -Itb/fuzz \
                $(TBFUZZ_VERSION)
# Coverage instrumentation only (the co-simulation target: fast); the model-only target adds the
# sanitizers, every finding fatal.
TBFUZZ_COV      = -fsanitize=fuzzer-no-link
TBFUZZ_SAN      = -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all \
                -fno-omit-frame-pointer

TBFUZZ_MODEL_SRCS = $(wildcard cmodel/src/*.c)
TBFUZZ_COV_OBJS   = $(patsubst cmodel/src/%.c,$(TBFUZZ_BUILD)/cov/model/%.o,$(TBFUZZ_MODEL_SRCS)) \
                  $(TBFUZZ_BUILD)/cov/tb_config.o $(TBFUZZ_BUILD)/cov/dut_pack.o \
                  $(TBFUZZ_BUILD)/cov/fuzz_input.o
TBFUZZ_SAN_OBJS   = $(patsubst cmodel/src/%.c,$(TBFUZZ_BUILD)/san/model/%.o,$(TBFUZZ_MODEL_SRCS)) \
                  $(TBFUZZ_BUILD)/san/fuzz_input.o
TBFUZZ_HDRS       = $(wildcard cmodel/include/lfc/*.h cmodel/src/*.h tb/fuzz/*.h) tb/common/dut.h \
                  tb/common/tb_config.h

# Objects made by pattern rules only: keep them (make would delete them as intermediate).
.SECONDARY: $(TBFUZZ_COV_OBJS) $(TBFUZZ_SAN_OBJS) \
            $(foreach m,$(TBFUZZ_MODES),$(TBFUZZ_BUILD)/cov/fuzz_cosim_$(m).o)

.PHONY: fuzz-build fuzz-cosim fuzz-model fuzz-replay fuzz-selftest test-fuzz mutants-c soak test-soak
TEST_STEPS += test-fuzz test-soak

$(TBFUZZ_BUILD)/cov/model/%.o: cmodel/src/%.c $(TBFUZZ_HDRS) | deps
	@mkdir -p $(@D)
	$(TBFUZZ_CC) $(TBFUZZ_CFLAGS) $(TBFUZZ_COV) -c -o $@ $<
$(TBFUZZ_BUILD)/cov/tb_config.o $(TBFUZZ_BUILD)/cov/dut_pack.o: \
    $(TBFUZZ_BUILD)/cov/%.o: tb/common/%.c $(TBFUZZ_HDRS) | deps
	@mkdir -p $(@D)
	$(TBFUZZ_CC) $(TBFUZZ_CFLAGS) $(TBFUZZ_COV) -c -o $@ $<
$(TBFUZZ_BUILD)/cov/%.o: tb/fuzz/%.c $(TBFUZZ_HDRS) | deps
	@mkdir -p $(@D)
	$(TBFUZZ_CC) $(TBFUZZ_CFLAGS) $(TBFUZZ_COV) -c -o $@ $<
$(TBFUZZ_BUILD)/san/model/%.o: cmodel/src/%.c $(TBFUZZ_HDRS) | deps
	@mkdir -p $(@D)
	$(TBFUZZ_CC) $(TBFUZZ_CFLAGS) $(TBFUZZ_SAN) -c -o $@ $<
$(TBFUZZ_BUILD)/san/%.o: tb/fuzz/%.c $(TBFUZZ_HDRS) | deps
	@mkdir -p $(@D)
	$(TBFUZZ_CC) $(TBFUZZ_CFLAGS) $(TBFUZZ_SAN) -c -o $@ $<

# The harness, once per mode: it names the configuration the RTL was elaborated for.
$(TBFUZZ_BUILD)/cov/fuzz_cosim_%.o: tb/fuzz/fuzz_cosim.c tb/fuzz/fuzz_%.ini $(TBFUZZ_HDRS) | deps
	@mkdir -p $(@D)
	$(TBFUZZ_CC) $(TBFUZZ_CFLAGS) $(TBFUZZ_COV) -DFUZZ_CONFIG='"$(CURDIR)/tb/fuzz/fuzz_$*.ini"' \
	  -c -o $@ $<

# The RTL, Verilated with the mode's parameters and compiled by clang++ with coverage
# instrumentation, so that libFuzzer is steered by the RTL's branches as well as the model's.
# The co-simulation's shim is linked as it is; its main() is renamed out of libFuzzer's way.
$(TBFUZZ_BUILD)/cosim-%/fuzz-cosim: tb/fuzz/fuzz_%.ini $(TB_PARAMS) $(TB_RTL_SRCS) $(TB_RTL_HDRS) \
    tb/verilator/dut_verilator.cpp $(TBFUZZ_COV_OBJS) $(TBFUZZ_BUILD)/cov/fuzz_cosim_%.o
	@mkdir -p $(@D)
	@rm -f $@
	@params="$$($(TB_PARAMS) verilator $<)" && ports="$$($(TB_PARAMS) ports $<)" && \
	  echo "== verilator + clang++ build of the fuzz target ($*, $$ports ports)" && \
	  $(VERILATOR) --cc --exe --build -O2 -Wno-fatal -j $(VERILATOR_JOBS) \
	    --top-module lfc_switch -I$(TB_RTL_DIR) -Mdir $(@D) -o fuzz-cosim $$params \
	    -MAKEFLAGS "CXX=$(TBFUZZ_CXX) LINK=$(TBFUZZ_CXX) OPT_FAST=-O1 OPT_SLOW=-O0 OPT_GLOBAL=-O1" \
	    -CFLAGS "$(TBFUZZ_COV) -DTB_PORTS=$$ports -Dmain=dut_verilator_main \
	      -I$(CURDIR)/tb/common -I$(CURDIR)/cmodel/include" \
	    $(abspath $(TB_RTL_SRCS) tb/verilator/dut_verilator.cpp) \
	    $(abspath $(TBFUZZ_COV_OBJS) $(TBFUZZ_BUILD)/cov/fuzz_cosim_$*.o) \
	    -LDFLAGS "-fsanitize=fuzzer -linih -lm" \
	    > $(@D)/build.log 2>&1 || { cat $(@D)/build.log; exit 1; }

$(TBFUZZ_BUILD)/fuzz-model: $(TBFUZZ_BUILD)/san/fuzz_model.o $(TBFUZZ_SAN_OBJS)
	@mkdir -p $(@D)
	$(TBFUZZ_CC) -fsanitize=fuzzer,address,undefined -o $@ $^ -lm

TBFUZZ_COSIM_BINS = $(foreach m,$(TBFUZZ_MODES),$(TBFUZZ_BUILD)/cosim-$(m)/fuzz-cosim)
fuzz-build: $(TBFUZZ_COSIM_BINS) $(TBFUZZ_BUILD)/fuzz-model

# libFuzzer writes what it finds to its first corpus directory (in $(TBFUZZ_BUILD)), reads the
# committed seeds from the second, and a difference to crashes/ (the run fails).
TBFUZZ_RUN_ENV = TBFUZZ_BUILD=$(TBFUZZ_BUILD) FUZZ_SECONDS=$(FUZZ_SECONDS)
fuzz-cosim: $(TBFUZZ_COSIM_BINS)
	@$(TBFUZZ_RUN_ENV) tb/fuzz/run.sh cosim $(TBFUZZ_MODES)

fuzz-model: $(TBFUZZ_BUILD)/fuzz-model
	@$(TBFUZZ_RUN_ENV) tb/fuzz/run.sh model $(TBFUZZ_MODES)

# Replay: the committed seeds and every regression input, once each, through both targets.
fuzz-replay test-fuzz: $(TBFUZZ_COSIM_BINS) $(TBFUZZ_BUILD)/fuzz-model
	@$(TBFUZZ_RUN_ENV) TBFUZZ_INPUT="$(TBFUZZ_INPUT)" tb/fuzz/run.sh replay $(TBFUZZ_MODES)

# The checkers must catch a broken RTL / model: hand-made mutants, each must end in a MISMATCH
# (fuzz-cosim) or an INVARIANT line (fuzz-model).
fuzz-selftest: $(TB_PARAMS)
	@TBFUZZ_BUILD=$(TBFUZZ_BUILD) MAKE="$(MAKE)" TBFUZZ_CC=$(TBFUZZ_CC) \
	  TBFUZZ_SAN="$(TBFUZZ_SAN)" tb/fuzz/selftest.sh

# ---- C-model mutants (§4) ----

MUTANTS_MAX     ?= 120
MUTANTS_SEED    ?= 1
MUTANT_TIMEOUT  ?= 120
MUTANTS_ARGS    ?= --golden
MUTANTS_MIN_SCORE ?= 95
mutants-c: deps
	@nice -n 10 python3 scripts/mutants-c.py --build $(BUILD) --max $(MUTANTS_MAX) \
	  --seed $(MUTANTS_SEED) --timeout $(MUTANT_TIMEOUT) --jobs $(or $(JOBS),2) \
	  --min-score $(MUTANTS_MIN_SCORE) $(MUTANTS_ARGS)

# The quick check of `make test`: the new or changed lines of the model must not have a surviving
# mutant among a few drawn from them (docs/fuzzing.md §3, "Changed lines"). Its own work
# directory ($(BUILD)/mutants-c-changed), so that it can run beside a `make mutants-c`.
MUTANTS_BASE        ?= auto
MUTANTS_CHANGED_MAX ?= 8
.PHONY: test-mutants-c-changed mutants-c-selftest
TEST_STEPS += test-mutants-c-changed
test-mutants-c-changed: deps
	@echo "== mutants of the changed lines of cmodel/src (scripts/mutants-c.py --changed)"
	@nice -n 10 python3 scripts/mutants-c.py --build $(BUILD) --changed $(MUTANTS_BASE) \
	  --max $(MUTANTS_CHANGED_MAX) --timeout $(MUTANT_TIMEOUT) --jobs $(or $(JOBS),2) --golden

# The check above must fail on a commit that adds an untested line (a scratch clone).
mutants-c-selftest: deps
	@BUILD=$(BUILD) scripts/mutants-c-selftest.sh

# ---- soak (§5) ----

HOURS        ?= 1
SOAK_CONFIGS ?= $(TB_CONFIGS)
SOAK_SECONDS ?=
soak: all $(TB_PARAMS)
	@$(TB_RUN_ENV) HOURS=$(HOURS) SECONDS_LIMIT="$(SOAK_SECONDS)" CONFIGS="$(SOAK_CONFIGS)" \
	  OUT=$(BUILD)/soak tb/scripts/soak.sh

# One minute, every configuration, in `make test`: after test-cosim there (both build the same
# simulators; two makes building one directory at once would clobber it).
test-soak: deps all $(TB_PARAMS) | $(if $(filter test,$(MAKECMDGOALS)),test-cosim)
	@$(TB_RUN_ENV) HOURS=0 SECONDS_LIMIT=60 CONFIGS="$(TB_CONFIGS)" OUT=$(BUILD)/test-soak \
	  tb/scripts/soak.sh
