# cmodel/tools/check.mk - lfc-check, the protocol checkers of lfc/check.h run over pcap captures
# (docs/verify-your-rtl.md). Included by the Makefile; objects are compiled by its pattern rule
# $(BUILD)/obj/%.o.
#
#   make test-lfc-check   lfc_wire_gen writes captures of one link of the model (clean, and
#                         broken: a node slow to honour pauses, a packet missing); lfc-check must
#                         exit 0 on the clean ones, 1 with the violation's line on the broken ones
#                         and 2 on bad files; the example of docs/verify-your-rtl.md is the
#                         file it shows and prints what it shows (scripts/test_lfc_check.sh, a
#                         few seconds)

CHECK_BIN = $(BUILD)/tools/lfc_check
# The example of docs/verify-your-rtl.md, built as a user of the library would build it.
VERIFY_EXAMPLE_BIN = $(BUILD)/tools/verify_example

$(CHECK_BIN): $(BUILD)/obj/tools/lfc_check.o $(BUILD)/liblfc.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

-include $(BUILD)/obj/tools/lfc_check.d

$(VERIFY_EXAMPLE_BIN): docs/examples/verify_example.c $(BUILD)/liblfc.a
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/liblfc.a $(LDLIBS)

.PHONY: test-lfc-check
TEST_STEPS += test-lfc-check
test-lfc-check: deps-minimal $(CHECK_BIN) $(WIRE_GEN_BIN) $(VERIFY_EXAMPLE_BIN)
	@echo "== lfc-check: clean captures exit 0, broken ones 1 with their line, bad files 2"
	@scripts/test_lfc_check.sh $(CHECK_BIN) $(WIRE_GEN_BIN) $(VERIFY_EXAMPLE_BIN) \
	  $(BUILD)/lfc-check-test
