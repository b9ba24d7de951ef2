# sim/fuzz/fuzz.mk - libFuzzer on lfc-sim's parsers (sim/fuzz/README.md). Included by
# sim/calc.mk.
#
#   make fuzz-sim-scenario [FUZZ_SECONDS=60]  fuzz lfc_scenario_load_mem for that long
#   make fuzz-sim-cli [FUZZ_SECONDS=60]       fuzz the command line: cli_parse, lfc_calc_parse
#                                             and the --set overrides (lfc_scenario_set)
#   make fuzz                                 every target of FUZZ_TARGETS, one after another
#                                             (the umbrella is tb/fuzz/fuzz.mk's)
#       each fails on any crash, leak, sanitizer finding, hang (SIMFUZZ_TIMEOUT) or broken
#       error contract, leaving the input in $(BUILD)/fuzz/artifacts/ (scenario) or
#       $(BUILD)/fuzz/cli/artifacts/ (command line)
#   make test-fuzz-regress        replay sim/fuzz/regress/* and the seed scenarios once, and the
#                                 command-line seeds plus a short fixed-seed run (in TEST_STEPS)
#
# Needs Debian clang-14 and libclang-rt-14-dev (libFuzzer and the sanitizer runtimes).

.PHONY: fuzz fuzz-sim-scenario fuzz-sim-cli test-fuzz-regress

FUZZ_SECONDS ?= 60
# Seconds one input may take before it counts as a hang; the longest input, in bytes
# (scenarios are a few hundred).
SIMFUZZ_TIMEOUT ?= 10
SIMFUZZ_MAX_LEN ?= 8192
SIMFUZZ_CC      ?= clang-14
SIMFUZZ_DIR      = $(BUILD)/fuzz
SIMFUZZ_BIN      = $(SIMFUZZ_DIR)/fuzz_scenario
SIMFUZZ_SAN      = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# No -Werror: this compiles other parts' sources with a second compiler, whose extra warnings
# are not this target's business; gcc -Werror builds them in make test.
SIMFUZZ_CFLAGS   = -std=c11 -g -O1 -Wall $(SIMFUZZ_SAN)
SIMFUZZ_SIM_SRCS = $(filter-out sim/src/main.c,$(wildcard sim/src/*.c))
SIMFUZZ_OBJS     = $(patsubst sim/src/%.c,$(SIMFUZZ_DIR)/obj/sim/%.o,$(SIMFUZZ_SIM_SRCS)) \
                   $(patsubst cmodel/src/%.c,$(SIMFUZZ_DIR)/obj/src/%.o,$(LIB_SRCS))
SIMFUZZ_SEEDS    = $(wildcard sim/scenarios/*.ini tb/configs/*.ini)
SIMFUZZ_REGRESS  = $(filter-out sim/fuzz/regress/README.md,$(wildcard sim/fuzz/regress/*))
SIMFUZZ_ENV      = ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
                   UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

$(SIMFUZZ_DIR)/obj/sim/%.o: sim/src/%.c | deps-verify deps-sim
	@mkdir -p $(@D)
	$(SIMFUZZ_CC) $(CPPFLAGS) -Isim/src $(SIMFUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

# obj/src/ like the main build, so that target-specific flags for %/src/version.o (the version
# string, scripts/install.mk) apply here too.
$(SIMFUZZ_DIR)/obj/src/%.o: cmodel/src/%.c | deps-verify deps-sim
	@mkdir -p $(@D)
	$(SIMFUZZ_CC) $(CPPFLAGS) $(SIMFUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(SIMFUZZ_DIR)/obj/fuzz_scenario.o: sim/fuzz/fuzz_scenario.c | deps-verify deps-sim
	@mkdir -p $(@D)
	$(SIMFUZZ_CC) $(CPPFLAGS) -Isim/src $(SIMFUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(SIMFUZZ_BIN): $(SIMFUZZ_DIR)/obj/fuzz_scenario.o $(SIMFUZZ_OBJS)
	$(SIMFUZZ_CC) $(SIMFUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ -linih -lm

-include $(SIMFUZZ_OBJS:.o=.d) $(SIMFUZZ_DIR)/obj/fuzz_scenario.d

# The working corpus lives in $(SIMFUZZ_DIR)/corpus and grows from run to run; the seeds are
# copied in each time (the scenarios and the co-simulation configurations), and
# sim/fuzz/regress/ is read as a second corpus, so earlier crash inputs run first.
FUZZ_TARGETS += fuzz-sim-scenario
fuzz-sim-scenario: $(SIMFUZZ_BIN)
	@mkdir -p $(SIMFUZZ_DIR)/corpus $(SIMFUZZ_DIR)/artifacts
	@rm -f $(SIMFUZZ_DIR)/artifacts/*
	@$(if $(SIMFUZZ_SEEDS),cp $(SIMFUZZ_SEEDS) $(SIMFUZZ_DIR)/corpus/)
	@echo "== fuzz: scenario parser for $(FUZZ_SECONDS) s ($(SIMFUZZ_DIR)/fuzz.log)"
	@$(SIMFUZZ_ENV) $(SIMFUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) $(FUZZ_SEED_OPT) -timeout=$(SIMFUZZ_TIMEOUT) \
	  -max_len=$(SIMFUZZ_MAX_LEN) -rss_limit_mb=2048 -dict=sim/fuzz/scenario.dict \
	  -artifact_prefix=$(SIMFUZZ_DIR)/artifacts/ -print_final_stats=1 \
	  $(SIMFUZZ_DIR)/corpus sim/fuzz/regress >$(SIMFUZZ_DIR)/fuzz.log 2>&1; \
	rc=$$?; \
	grep -E '^(#[0-9]+ +DONE|Done [0-9]+ runs|stat::number_of_executed_units|INFO: Loaded)' \
	  $(SIMFUZZ_DIR)/fuzz.log | sed 's/^/  /'; \
	if [ $$rc -ne 0 ] || [ -n "$$(ls -A $(SIMFUZZ_DIR)/artifacts)" ]; then \
	  grep -E 'ERROR|SUMMARY|fuzz_scenario:|Test unit written' $(SIMFUZZ_DIR)/fuzz.log | sed 's/^/  /'; \
	  ls -d $(SIMFUZZ_DIR)/artifacts/* 2>/dev/null | sed 's/^/input: /'; \
	  echo "fuzz: FAILED (exit $$rc); inputs in $(SIMFUZZ_DIR)/artifacts/: copy each to" \
	       "sim/fuzz/regress/ (make test-fuzz-regress replays them) and fix the parser" >&2; \
	  exit 1; \
	fi; \
	echo "fuzz: no crash, leak, hang or error-contract violation in $(FUZZ_SECONDS) s"

# Every regression input and every seed, once each, under the same sanitizers and checks.
TEST_STEPS += test-fuzz-regress
test-fuzz-regress: $(SIMFUZZ_BIN)
	@echo "== fuzz regression: $(words $(SIMFUZZ_REGRESS)) crash inputs, $(words $(SIMFUZZ_SEEDS)) seeds"
	@$(SIMFUZZ_ENV) $(SIMFUZZ_BIN) -timeout=$(SIMFUZZ_TIMEOUT) $(SIMFUZZ_REGRESS) $(SIMFUZZ_SEEDS) \
	  >$(SIMFUZZ_DIR)/regress.log 2>&1 || \
	  { sed 's/^/  | /' $(SIMFUZZ_DIR)/regress.log; \
	    echo "test-fuzz-regress: FAILED; log $(SIMFUZZ_DIR)/regress.log" >&2; exit 1; }
	@echo "  $$(grep -c '^Running: ' $(SIMFUZZ_DIR)/regress.log) inputs replayed, no finding"

# ---- the command line: fuzz_cli (cli.h, calc.h lfc_calc_parse, lfc_scenario_set) ----------
# An input is arguments separated by newlines; the seeds are command lines in
# sim/fuzz/cli_seeds/, one argument per line. A short run with a fixed seed belongs to
# test-fuzz-regress; fuzz-sim-cli runs for FUZZ_SECONDS and keeps its corpus.
SIMFUZZ_CLI_DIR   = $(SIMFUZZ_DIR)/cli
SIMFUZZ_CLI_BIN   = $(SIMFUZZ_DIR)/fuzz_cli
SIMFUZZ_CLI_SEEDS = $(wildcard sim/fuzz/cli_seeds/*)
SIMFUZZ_CLI_RUNS ?= 20000
SIMFUZZ_CLI_MAX_LEN ?= 4096

$(SIMFUZZ_DIR)/obj/fuzz_cli.o: sim/fuzz/fuzz_cli.c | deps
	@mkdir -p $(@D)
	$(SIMFUZZ_CC) $(CPPFLAGS) -Isim/src $(SIMFUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(SIMFUZZ_CLI_BIN): $(SIMFUZZ_DIR)/obj/fuzz_cli.o $(SIMFUZZ_OBJS)
	$(SIMFUZZ_CC) $(SIMFUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ -linih -lm

-include $(SIMFUZZ_DIR)/obj/fuzz_cli.d

FUZZ_TARGETS += fuzz-sim-cli
fuzz-sim-cli: $(SIMFUZZ_CLI_BIN)
	@mkdir -p $(SIMFUZZ_CLI_DIR)/corpus $(SIMFUZZ_CLI_DIR)/artifacts
	@rm -f $(SIMFUZZ_CLI_DIR)/artifacts/*
	@echo "== fuzz: lfc-sim command line for $(FUZZ_SECONDS) s ($(SIMFUZZ_CLI_DIR)/fuzz.log)"
	@$(SIMFUZZ_ENV) $(SIMFUZZ_CLI_BIN) -max_total_time=$(FUZZ_SECONDS) $(FUZZ_SEED_OPT) -timeout=$(SIMFUZZ_TIMEOUT) \
	  -max_len=$(SIMFUZZ_CLI_MAX_LEN) -rss_limit_mb=2048 -dict=sim/fuzz/cli.dict \
	  -artifact_prefix=$(SIMFUZZ_CLI_DIR)/artifacts/ -print_final_stats=1 \
	  $(SIMFUZZ_CLI_DIR)/corpus sim/fuzz/cli_seeds >$(SIMFUZZ_CLI_DIR)/fuzz.log 2>&1; \
	rc=$$?; \
	grep -E '^(#[0-9]+ +DONE|Done [0-9]+ runs|stat::number_of_executed_units|INFO: Loaded)' \
	  $(SIMFUZZ_CLI_DIR)/fuzz.log | sed 's/^/  /'; \
	if [ $$rc -ne 0 ] || [ -n "$$(ls -A $(SIMFUZZ_CLI_DIR)/artifacts)" ]; then \
	  grep -E 'ERROR|SUMMARY|fuzz_cli:|Test unit written' $(SIMFUZZ_CLI_DIR)/fuzz.log | sed 's/^/  /'; \
	  echo "fuzz-sim-cli: FAILED (exit $$rc); inputs in $(SIMFUZZ_CLI_DIR)/artifacts/: copy each" \
	       "to sim/fuzz/cli_seeds/ (make test-fuzz-regress replays them) and fix the parser" >&2; \
	  exit 1; \
	fi; \
	echo "fuzz-sim-cli: no crash, leak, hang or error-contract violation in $(FUZZ_SECONDS) s"

test-fuzz-regress: test-fuzz-regress-cli
.PHONY: test-fuzz-regress-cli
test-fuzz-regress-cli: $(SIMFUZZ_CLI_BIN)
	@rm -rf $(SIMFUZZ_CLI_DIR)/short $(SIMFUZZ_CLI_DIR)/short-artifacts
	@mkdir -p $(SIMFUZZ_CLI_DIR)/short $(SIMFUZZ_CLI_DIR)/short-artifacts
	@echo "== fuzz regression: $(words $(SIMFUZZ_CLI_SEEDS)) command lines, then $(SIMFUZZ_CLI_RUNS) fuzzed ones"
	@$(SIMFUZZ_ENV) $(SIMFUZZ_CLI_BIN) -timeout=$(SIMFUZZ_TIMEOUT) $(SIMFUZZ_CLI_SEEDS) \
	  >$(SIMFUZZ_CLI_DIR)/regress.log 2>&1 && \
	$(SIMFUZZ_ENV) $(SIMFUZZ_CLI_BIN) -seed=1 -runs=$(SIMFUZZ_CLI_RUNS) -timeout=$(SIMFUZZ_TIMEOUT) \
	  -max_len=$(SIMFUZZ_CLI_MAX_LEN) -dict=sim/fuzz/cli.dict \
	  -artifact_prefix=$(SIMFUZZ_CLI_DIR)/short-artifacts/ $(SIMFUZZ_CLI_DIR)/short \
	  sim/fuzz/cli_seeds \
	  >>$(SIMFUZZ_CLI_DIR)/regress.log 2>&1 || \
	  { sed 's/^/  | /' $(SIMFUZZ_CLI_DIR)/regress.log | tail -40; \
	    echo "test-fuzz-regress-cli: FAILED; log $(SIMFUZZ_CLI_DIR)/regress.log" >&2; exit 1; }
	@echo "  $$(grep -c '^Running: ' $(SIMFUZZ_CLI_DIR)/regress.log) command lines replayed, $(SIMFUZZ_CLI_RUNS) fuzzed, no finding"
