# tb/fuzz/fuzz.mk - differential fuzzing, C-model mutants and the soak (docs/fuzzing.md).
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
#       once, and the parser targets' seeds and regressions; `make test` runs it as test-fuzz,
#       followed by every target of FUZZ_TARGETS for FUZZ_BRIEF_SECONDS (default 3)
#   make fuzz [FUZZ_SECONDS=60] [FUZZ_TARGETS="fuzz-tb-config ..."]
#       every fuzz target of the project, one after the other, FUZZ_SECONDS each (the targets are
#       the make targets listed in FUZZ_TARGETS, which each part appends to); fails if any
#       target found something, each naming its input file
#   make fuzz-parse-int, fuzz-cfg-set, fuzz-tb-config, fuzz-flat-cfg, fuzz-trace-args,
#   fuzz-demo-args, fuzz-tb-args, fuzz-check-pcap, fuzz-check-text, fuzz-check-args
#   [FUZZ_SECONDS=60]
#       one parser or command line (tb/fuzz/fuzz_<name>.c) under ASan + UBSan, with its
#       properties (docs/fuzzing.md §5)
#   make fuzz-selftest [SELFTEST_SECONDS=120] [SELFTEST_ONLY=rtl|model|parser]
#       hand-made RTL, model and parser mutants (tb/fuzz/selftest.sh): the fuzz targets must
#       find each (a parser mutant within FUZZ_BRIEF_SECONDS)
#   make mutants-c [MUTANTS_MAX=n MUTANTS_SEED=s MUTANT_TIMEOUT=s MUTANTS_ARGS='--golden --asan']
#       scripts/mutants-c.py: mutants of cmodel/src/*.c against the cmocka suite (UBSan, LSan;
#       survivors again under ASan), reviewed equivalents in tb/fuzz/mutants-c-equivalent.txt;
#       MUTANTS_ARGS may add --only FILE:LINE[:COL],... or --rerun
#       $(BUILD)/mutants/c-summary.json (docs/fuzzing.md §3);
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
                  $(TBFUZZ_BUILD)/cov/dut_expect.o $(TBFUZZ_BUILD)/cov/fuzz_input.o
TBFUZZ_SAN_OBJS   = $(patsubst cmodel/src/%.c,$(TBFUZZ_BUILD)/san/model/%.o,$(TBFUZZ_MODEL_SRCS)) \
                  $(TBFUZZ_BUILD)/san/fuzz_input.o
TBFUZZ_HDRS       = $(wildcard cmodel/include/lfc/*.h cmodel/src/*.h tb/fuzz/*.h) tb/common/dut.h \
                  tb/common/dut_expect.h tb/common/tb_config.h

# Objects made by pattern rules only: keep them (make would delete them as intermediate).
.SECONDARY: $(TBFUZZ_COV_OBJS) $(TBFUZZ_SAN_OBJS) \
            $(foreach m,$(TBFUZZ_MODES),$(TBFUZZ_BUILD)/cov/fuzz_cosim_$(m).o)

.PHONY: fuzz-build fuzz-cosim fuzz-model fuzz-replay fuzz-selftest test-fuzz mutants-c soak test-soak
TEST_STEPS += test-fuzz test-soak

$(TBFUZZ_BUILD)/cov/model/%.o: cmodel/src/%.c $(TBFUZZ_HDRS) | deps-verify
	@mkdir -p $(@D)
	$(TBFUZZ_CC) $(TBFUZZ_CFLAGS) $(TBFUZZ_COV) -c -o $@ $<
$(TBFUZZ_BUILD)/cov/tb_config.o $(TBFUZZ_BUILD)/cov/dut_pack.o $(TBFUZZ_BUILD)/cov/dut_expect.o: \
    $(TBFUZZ_BUILD)/cov/%.o: tb/common/%.c $(TBFUZZ_HDRS) | deps-verify
	@mkdir -p $(@D)
	$(TBFUZZ_CC) $(TBFUZZ_CFLAGS) $(TBFUZZ_COV) -c -o $@ $<
$(TBFUZZ_BUILD)/cov/%.o: tb/fuzz/%.c $(TBFUZZ_HDRS) | deps-verify
	@mkdir -p $(@D)
	$(TBFUZZ_CC) $(TBFUZZ_CFLAGS) $(TBFUZZ_COV) -c -o $@ $<
$(TBFUZZ_BUILD)/san/model/%.o: cmodel/src/%.c $(TBFUZZ_HDRS) | deps-verify
	@mkdir -p $(@D)
	$(TBFUZZ_CC) $(TBFUZZ_CFLAGS) $(TBFUZZ_SAN) -c -o $@ $<
$(TBFUZZ_BUILD)/san/%.o: tb/fuzz/%.c $(TBFUZZ_HDRS) | deps-verify
	@mkdir -p $(@D)
	$(TBFUZZ_CC) $(TBFUZZ_CFLAGS) $(TBFUZZ_SAN) -c -o $@ $<

# The harness, once per mode: it names the configuration the RTL was elaborated for.
$(TBFUZZ_BUILD)/cov/fuzz_cosim_%.o: tb/fuzz/fuzz_cosim.c tb/fuzz/fuzz_%.ini $(TBFUZZ_HDRS) | deps-verify
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
TBFUZZ_RUN_ENV = TBFUZZ_BUILD=$(TBFUZZ_BUILD) FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_SEED=$(FUZZ_SEED)
fuzz-cosim: $(TBFUZZ_COSIM_BINS)
	@$(TBFUZZ_RUN_ENV) tb/fuzz/run.sh cosim $(TBFUZZ_MODES)

fuzz-model: $(TBFUZZ_BUILD)/fuzz-model
	@$(TBFUZZ_RUN_ENV) tb/fuzz/run.sh model $(TBFUZZ_MODES)

# The parser targets (their rules are made below); named here because a prerequisite list is
# expanded when make reads it.
TBFUZZ_PARSERS        = parse_int cfg_set tb_config flat_cfg trace_args demo_args tb_args \
                        check_pcap check_text check_args
TBFUZZ_PARSER_BINS    = $(patsubst %,$(TBFUZZ_BUILD)/fuzz_%,$(TBFUZZ_PARSERS))

# Replay: the committed seeds and every regression input, once each, through both targets, and
# the parser targets' seeds and regressions through theirs.
fuzz-replay: $(TBFUZZ_COSIM_BINS) $(TBFUZZ_BUILD)/fuzz-model $(TBFUZZ_PARSER_BINS)
	@$(TBFUZZ_RUN_ENV) TBFUZZ_INPUT="$(TBFUZZ_INPUT)" tb/fuzz/run.sh replay $(TBFUZZ_MODES)
	@$(TBFUZZ_RUN_ENV) TBFUZZ_INPUT="$(TBFUZZ_INPUT)" tb/fuzz/run.sh parser-replay $(TBFUZZ_PARSERS)

# In `make test`: the replay, then every fuzz target briefly. After test-fuzz-regress there
# (sim/fuzz/fuzz.mk), which builds the scenario target that the brief run of fuzz-sim-scenario uses:
# two makes building one object at once would clobber it.
test-fuzz: $(TBFUZZ_COSIM_BINS) $(TBFUZZ_BUILD)/fuzz-model $(TBFUZZ_PARSER_BINS) \
    | $(if $(filter test,$(MAKECMDGOALS)),test-fuzz-regress)
	@$(TBFUZZ_RUN_ENV) tb/fuzz/run.sh replay $(TBFUZZ_MODES)
	@$(TBFUZZ_RUN_ENV) tb/fuzz/run.sh parser-replay $(TBFUZZ_PARSERS)
	@$(MAKE) --no-print-directory fuzz-all FUZZ_SECONDS=$(FUZZ_BRIEF_SECONDS) FUZZ_SEED=1

# The checkers must catch a broken RTL / model / parser: hand-made mutants, each must end in a
# MISMATCH (fuzz-cosim), an INVARIANT line (fuzz-model) or any finding of a parser target within
# the brief run of `make test` (FUZZ_BRIEF_SECONDS).
fuzz-selftest: $(TB_PARAMS)
	@TBFUZZ_BUILD=$(TBFUZZ_BUILD) MAKE="$(MAKE)" TBFUZZ_CC=$(TBFUZZ_CC) \
	  TBFUZZ_SAN="$(TBFUZZ_SAN)" SELFTEST_PARSER_SECONDS=$(FUZZ_BRIEF_SECONDS) tb/fuzz/selftest.sh

# ---- C-model mutants (docs/fuzzing.md §3) ----

MUTANTS_MAX     ?= 120
MUTANTS_SEED    ?= 1
MUTANT_TIMEOUT  ?= 120
MUTANTS_ARGS    ?= --golden --asan
MUTANTS_MIN_SCORE ?= 95
mutants-c: deps-minimal deps-verify
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
test-mutants-c-changed: deps-minimal deps-verify
	@echo "== mutants of the changed lines of cmodel/src (scripts/mutants-c.py --changed)"
	@nice -n 10 python3 scripts/mutants-c.py --build $(BUILD) --changed $(MUTANTS_BASE) \
	  --max $(MUTANTS_CHANGED_MAX) --timeout $(MUTANT_TIMEOUT) --jobs $(or $(JOBS),2) --golden

# The check above must fail on a commit that adds an untested line (a scratch clone).
mutants-c-selftest: deps-minimal deps-verify
	@BUILD=$(BUILD) scripts/mutants-c-selftest.sh

# ---- soak (docs/fuzzing.md §4) ----

HOURS        ?= 1
SOAK_CONFIGS ?= $(TB_CONFIGS)
SOAK_SECONDS ?=
soak: all $(TB_PARAMS)
	@$(TB_RUN_ENV) HOURS=$(HOURS) SECONDS_LIMIT="$(SOAK_SECONDS)" CONFIGS="$(SOAK_CONFIGS)" \
	  OUT=$(BUILD)/soak tb/scripts/soak.sh

# One minute, every configuration, in `make test`: after test-cosim there (both build the same
# simulators; two makes building one directory at once would clobber it).
test-soak: deps-hdl all $(TB_PARAMS) | $(if $(filter test,$(MAKECMDGOALS)),test-cosim)
	@$(TB_RUN_ENV) HOURS=0 SECONDS_LIMIT=60 CONFIGS="$(TB_CONFIGS)" OUT=$(BUILD)/test-soak \
	  tb/scripts/soak.sh

# ---- parsers and command lines (docs/fuzzing.md §5) ----

# Each parser of text the project reads, and each command line, has a target of its own here
# (the scenario parser's is in sim/fuzz/): tb/fuzz/fuzz_<name>.c, built with ASan + UBSan, its
# committed seeds in tb/fuzz/corpus/<name>/, its regression inputs in tb/fuzz/regress/<name>/,
# its dictionary (if any) tb/fuzz/<name>.dict. The binary is $(TBFUZZ_BUILD)/fuzz_<name>.
TBFUZZ_SAN_MODEL_OBJS = $(patsubst cmodel/src/%.c,$(TBFUZZ_BUILD)/san/model/%.o,\
                          $(TBFUZZ_MODEL_SRCS))
TBFUZZ_SAN_TB         = $(patsubst %,$(TBFUZZ_BUILD)/san/tb/%.o,$(1))
# Seconds per target of the brief run in `make test`.
FUZZ_BRIEF_SECONDS   ?= 3
# libFuzzer's random seed: empty (a new one each run) for `make fuzz`; the brief run in
# `make test` fixes it, so that a CI run repeats the inputs a developer's run tried first.
FUZZ_SEED            ?=
FUZZ_SEED_OPT         = $(if $(FUZZ_SEED),-seed=$(FUZZ_SEED))

.SECONDARY: $(patsubst %,$(TBFUZZ_BUILD)/san/fuzz_%.o,$(TBFUZZ_PARSERS)) \
            $(call TBFUZZ_SAN_TB,tb_config tb_stim tb_score tb_cov dut_pack dut_expect tb_pcap \
                                 tb_free tb_check tb_fast)

$(TBFUZZ_BUILD)/san/tb/%.o: tb/common/%.c $(TBFUZZ_HDRS) tb/common/tb.h tb/common/tb_lockstep.h \
                            | deps
	@mkdir -p $(@D)
	$(TBFUZZ_CC) $(TBFUZZ_CFLAGS) $(TBFUZZ_SAN) -c -o $@ $<

# The targets that compile a program's own source into them (its parser is static there).
$(TBFUZZ_BUILD)/san/fuzz_trace_args.o: cmodel/tools/lfc_trace.c
$(TBFUZZ_BUILD)/san/fuzz_demo_args.o: cmodel/demo/lfc_demo.c
$(TBFUZZ_BUILD)/san/fuzz_tb_args.o: tb/common/tb_main.c tb/common/tb.h tb/common/tb_lockstep.h
$(TBFUZZ_BUILD)/san/fuzz_check_args.o: cmodel/tools/lfc_check.c
# lfc-check's target reads the committed captures of tb/fuzz/check_fixtures/ (by absolute path,
# so that it runs from any directory).
$(TBFUZZ_BUILD)/san/fuzz_check_args.o: \
  TBFUZZ_CFLAGS += -DFUZZ_CHECK_FIXTURES='"$(CURDIR)/tb/fuzz/check_fixtures"'
$(patsubst %,$(TBFUZZ_BUILD)/san/fuzz_%.o,$(TBFUZZ_PARSERS)): tb/fuzz/fuzz_parse.h

# fuzz_<name>: its object, the model, and the test bench objects it names.
define TBFUZZ_PARSER_RULE
$(TBFUZZ_BUILD)/fuzz_$(1): $(TBFUZZ_BUILD)/san/fuzz_$(1).o $(TBFUZZ_SAN_MODEL_OBJS) $(2)
	@mkdir -p $$(@D)
	$(TBFUZZ_CC) -fsanitize=fuzzer,address,undefined -o $$@ $$^ -linih -lm -lpthread
.PHONY: fuzz-$(subst _,-,$(1))
fuzz-$(subst _,-,$(1)): $(TBFUZZ_BUILD)/fuzz_$(1)
	@$$(TBFUZZ_RUN_ENV) tb/fuzz/run.sh parser $(1)
endef
$(eval $(call TBFUZZ_PARSER_RULE,parse_int,))
$(eval $(call TBFUZZ_PARSER_RULE,cfg_set,))
$(eval $(call TBFUZZ_PARSER_RULE,tb_config,$(call TBFUZZ_SAN_TB,tb_config)))
$(eval $(call TBFUZZ_PARSER_RULE,flat_cfg,))
$(eval $(call TBFUZZ_PARSER_RULE,trace_args,))
$(eval $(call TBFUZZ_PARSER_RULE,demo_args,))
$(eval $(call TBFUZZ_PARSER_RULE,check_pcap,))
$(eval $(call TBFUZZ_PARSER_RULE,check_text,))
$(eval $(call TBFUZZ_PARSER_RULE,check_args,))
$(eval $(call TBFUZZ_PARSER_RULE,tb_args,$(call TBFUZZ_SAN_TB,tb_config tb_stim tb_score tb_cov \
  dut_pack dut_expect tb_pcap tb_free tb_check tb_fast) $(TBFUZZ_BUILD)/san/fuzz_dut_stub.o))

# ---- make fuzz: every target ----

# The make targets `make fuzz` runs, each for FUZZ_SECONDS and failing on a finding. Every part
# appends its own with `FUZZ_TARGETS += ...` (sim/fuzz/fuzz.mk: the scenario parser); `+=` makes
# the variable recursively expanded whichever file comes first, and the recipes below expand it
# when they run, after every file is read.
FUZZ_TARGETS += fuzz-model fuzz-cosim $(patsubst %,fuzz-%,$(subst _,-,$(TBFUZZ_PARSERS)))

.PHONY: fuzz fuzz-all
fuzz: fuzz-all
# Each target in a make of its own, so that one finding does not stop the others; a summary
# line at the end names the targets that failed (each has printed its input file).
fuzz-all:
	@failed=""; \
	for t in $(FUZZ_TARGETS); do \
	  $(MAKE) --no-print-directory $$t FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_SEED=$(FUZZ_SEED) || \
	    failed="$$failed $$t"; \
	done; \
	if [ -n "$$failed" ]; then \
	  echo "fuzz: FAILED:$$failed (the input of each finding is named above)" >&2; exit 1; \
	fi; \
	echo "fuzz: $(words $(FUZZ_TARGETS)) targets, $(FUZZ_SECONDS) s each, no finding"
