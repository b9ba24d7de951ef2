# cmodel/tools/wire.mk - the wire formats: the tshark cross-check and the decoders' fuzzer
# (docs/wire-formats.md §7, §9). Included by the Makefile; objects are compiled by its pattern
# rule $(BUILD)/obj/%.o.
#
#   make fuzz-wire, make test-fuzz-wire   libFuzzer on the decoders (below)
#   make test-wire-tshark   lfc_wire_gen writes pcaps of random PFC, PAUSE, RoCEv2, IB data and
#                           FCP frames; tshark must decode every field as the codecs wrote it
#                           (scripts/test_wire_tshark.sh)

WIRE_GEN_BIN = $(BUILD)/tools/lfc_wire_gen

$(WIRE_GEN_BIN): $(BUILD)/obj/tools/lfc_wire_gen.o $(BUILD)/liblfc.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

-include $(BUILD)/obj/tools/lfc_wire_gen.d

.PHONY: test-wire-tshark
TEST_STEPS += test-wire-tshark
test-wire-tshark: deps-minimal deps-verify $(WIRE_GEN_BIN)
	@echo "== wire formats: tshark decodes every frame the codecs write"
	@scripts/test_wire_tshark.sh $(WIRE_GEN_BIN) $(BUILD)/wire-tshark

# libFuzzer on the decoders (tb/fuzz/fuzz_wire.c), with clang, ASan and UBSan; only the wire
# sources of the library are needed.
#   make fuzz-wire [FUZZ_SECONDS=60]   fuzz for that long; a finding leaves its input in
#                                      $(WIREFUZZ_DIR)/artifacts/ (copy it to tb/fuzz/wire_seeds/)
#   make test-fuzz-wire                the seeds and a short fixed-seed run (in TEST_STEPS)
WIREFUZZ_DIR    = $(BUILD)/fuzz-wire
WIREFUZZ_BIN    = $(WIREFUZZ_DIR)/fuzz_wire
WIREFUZZ_CC    ?= clang-14
WIREFUZZ_CFLAGS = -std=c11 -g -O1 -Wall -Wextra -Werror -Icmodel/include \
                  -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
WIREFUZZ_SRCS   = cmodel/src/crc.c $(wildcard cmodel/src/wire*.c)
WIREFUZZ_OBJS   = $(patsubst cmodel/src/%.c,$(WIREFUZZ_DIR)/obj/%.o,$(WIREFUZZ_SRCS))
WIREFUZZ_SEEDS  = tb/fuzz/wire_seeds
WIREFUZZ_RUNS  ?= 50000
WIREFUZZ_ENV    = ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
                  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
FUZZ_SECONDS   ?= 60

$(WIREFUZZ_DIR)/obj/%.o: cmodel/src/%.c | deps-verify
	@mkdir -p $(@D)
	$(WIREFUZZ_CC) $(WIREFUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<
$(WIREFUZZ_DIR)/obj/fuzz_wire.o: tb/fuzz/fuzz_wire.c | deps-verify
	@mkdir -p $(@D)
	$(WIREFUZZ_CC) $(WIREFUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<
$(WIREFUZZ_BIN): $(WIREFUZZ_DIR)/obj/fuzz_wire.o $(WIREFUZZ_OBJS)
	$(WIREFUZZ_CC) $(WIREFUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^

-include $(WIREFUZZ_OBJS:.o=.d) $(WIREFUZZ_DIR)/obj/fuzz_wire.d

.PHONY: fuzz-wire test-fuzz-wire
FUZZ_TARGETS += fuzz-wire
fuzz-wire: $(WIREFUZZ_BIN)
	@mkdir -p $(WIREFUZZ_DIR)/corpus $(WIREFUZZ_DIR)/artifacts
	@rm -f $(WIREFUZZ_DIR)/artifacts/*
	@echo "== fuzz: wire-format decoders for $(FUZZ_SECONDS) s ($(WIREFUZZ_DIR)/fuzz.log)"
	@$(WIREFUZZ_ENV) $(WIREFUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) $(FUZZ_SEED_OPT) -max_len=9000 \
	  -artifact_prefix=$(WIREFUZZ_DIR)/artifacts/ -print_final_stats=1 \
	  $(WIREFUZZ_DIR)/corpus $(WIREFUZZ_SEEDS) >$(WIREFUZZ_DIR)/fuzz.log 2>&1 || \
	  { grep -E 'ERROR|SUMMARY|fuzz_wire:|Test unit written' $(WIREFUZZ_DIR)/fuzz.log | \
	      sed 's/^/  /'; \
	    echo "fuzz-wire: FAILED; inputs in $(WIREFUZZ_DIR)/artifacts/" >&2; exit 1; }
	@echo "fuzz-wire: no crash, leak or broken contract in $(FUZZ_SECONDS) s"

TEST_STEPS += test-fuzz-wire
test-fuzz-wire: $(WIREFUZZ_BIN)
	@echo "== fuzz-wire: $(words $(wildcard $(WIREFUZZ_SEEDS)/*)) seeds and" \
	  "$(WIREFUZZ_RUNS) runs with seed 1"
	@mkdir -p $(WIREFUZZ_DIR)/regress-corpus
	@rm -rf $(WIREFUZZ_DIR)/regress-corpus/*
	@cp $(WIREFUZZ_SEEDS)/* $(WIREFUZZ_DIR)/regress-corpus/
	@$(WIREFUZZ_ENV) $(WIREFUZZ_BIN) -seed=1 -runs=$(WIREFUZZ_RUNS) -max_len=9000 \
	  -artifact_prefix=$(WIREFUZZ_DIR)/ $(WIREFUZZ_DIR)/regress-corpus \
	  >$(WIREFUZZ_DIR)/regress.log 2>&1 || \
	  { grep -E 'ERROR|SUMMARY|fuzz_wire:|Test unit written' $(WIREFUZZ_DIR)/regress.log | \
	      sed 's/^/  /'; \
	    echo "test-fuzz-wire: FAILED; log $(WIREFUZZ_DIR)/regress.log" >&2; exit 1; }
	@echo "  no finding"
