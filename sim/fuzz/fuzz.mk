# sim/fuzz/fuzz.mk - libFuzzer on the lfc-sim scenario parser (sim/fuzz/README.md).
# Included by sim/calc.mk.
#
#   make fuzz-scenario [FUZZ_SECONDS=60]
#                                 fuzz lfc_scenario_load_mem for that long (`make fuzz` runs it
#                                 with every other target, tb/fuzz/fuzz.mk); fails on any
#                                 crash, leak, sanitizer finding, hang (SIMFUZZ_TIMEOUT) or
#                                 broken error contract, leaving the input in
#                                 $(BUILD)/fuzz/artifacts/
#   make test-fuzz-regress        replay sim/fuzz/regress/* and the seed scenarios once (in
#                                 TEST_STEPS)
#
# Needs Debian clang-14 and libclang-rt-14-dev (libFuzzer and the sanitizer runtimes).

.PHONY: fuzz-scenario test-fuzz-regress
FUZZ_TARGETS += fuzz-scenario

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

$(SIMFUZZ_DIR)/obj/sim/%.o: sim/src/%.c | deps
	@mkdir -p $(@D)
	$(SIMFUZZ_CC) $(CPPFLAGS) -Isim/src $(SIMFUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

# obj/src/ like the main build, so that target-specific flags for %/src/version.o (the version
# string, scripts/install.mk) apply here too.
$(SIMFUZZ_DIR)/obj/src/%.o: cmodel/src/%.c | deps
	@mkdir -p $(@D)
	$(SIMFUZZ_CC) $(CPPFLAGS) $(SIMFUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(SIMFUZZ_DIR)/obj/fuzz_scenario.o: sim/fuzz/fuzz_scenario.c | deps
	@mkdir -p $(@D)
	$(SIMFUZZ_CC) $(CPPFLAGS) -Isim/src $(SIMFUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(SIMFUZZ_BIN): $(SIMFUZZ_DIR)/obj/fuzz_scenario.o $(SIMFUZZ_OBJS)
	$(SIMFUZZ_CC) $(SIMFUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ -linih -lm

-include $(SIMFUZZ_OBJS:.o=.d) $(SIMFUZZ_DIR)/obj/fuzz_scenario.d

# The working corpus lives in $(SIMFUZZ_DIR)/corpus and grows from run to run; the seeds are
# copied in each time (the scenarios and the co-simulation configurations), and
# sim/fuzz/regress/ is read as a second corpus, so earlier crash inputs run first.
fuzz-scenario: $(SIMFUZZ_BIN)
	@mkdir -p $(SIMFUZZ_DIR)/corpus $(SIMFUZZ_DIR)/artifacts
	@rm -f $(SIMFUZZ_DIR)/artifacts/*
	@$(if $(SIMFUZZ_SEEDS),cp $(SIMFUZZ_SEEDS) $(SIMFUZZ_DIR)/corpus/)
	@echo "== fuzz: scenario parser for $(FUZZ_SECONDS) s ($(SIMFUZZ_DIR)/fuzz.log)"
	@$(SIMFUZZ_ENV) $(SIMFUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) -timeout=$(SIMFUZZ_TIMEOUT) \
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
