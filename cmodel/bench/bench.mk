# cmodel/bench/bench.mk - rules for the benchmark program (scripts/bench.sh) and the golden-trace
# tool (scripts/golden.sh). Included by the Makefile; objects are compiled by its pattern rule
# $(BUILD)/obj/%.o: cmodel/%.c with the release CFLAGS.

BENCH_BIN = $(BUILD)/bench/bench_model
TRACE_BIN = $(BUILD)/tools/lfc_trace

$(BENCH_BIN): $(BUILD)/obj/bench/bench_model.o $(BUILD)/liblfc.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(TRACE_BIN): $(BUILD)/obj/tools/lfc_trace.o $(BUILD)/liblfc.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

-include $(BUILD)/obj/bench/bench_model.d $(BUILD)/obj/tools/lfc_trace.d

# lfc_trace on a standard output it cannot write (/dev/full, a closed descriptor): exit 2 and
# one line, never 0 with a lost trace (scripts/test_trace_write.sh).
.PHONY: test-trace-write
TEST_STEPS += test-trace-write
test-trace-write: $(TRACE_BIN)
	@echo "== lfc_trace: writes to a full or closed standard output fail with exit 2"
	@scripts/test_trace_write.sh $(TRACE_BIN)

# scripts/golden.sh record on a failing write (a full disk, a file-size limit): exit 2 naming
# the file, the old traces untouched (scripts/test_golden_write.sh, into a copy of the traces).
.PHONY: test-golden-write
TEST_STEPS += test-golden-write
test-golden-write: deps-minimal $(TRACE_BIN)
	@echo "== scripts/golden.sh: record keeps the old traces when a write fails"
	@BUILD=$(BUILD) scripts/test_golden_write.sh $(BUILD)/golden-write-test

# Bad arguments to the scripts under scripts/: one line naming the argument, exit 2, nothing
# built or run (scripts/test_script_args.sh).
.PHONY: test-script-args
TEST_STEPS += test-script-args
test-script-args: deps-minimal $(BUILD)/lfc-demo $(BENCH_BIN)
	@echo "== scripts/, lfc-demo, bench_model: bad arguments refused with one line and exit 2"
	@DEMO=$(abspath $(BUILD)/lfc-demo) BENCH=$(abspath $(BENCH_BIN)) \
	  scripts/test_script_args.sh $(BUILD)/script-args-test
