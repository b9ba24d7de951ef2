# cmodel/tools/wire.mk - the wire-format cross-check with Wireshark (docs/wire-formats.md §7).
# Included by the Makefile; objects are compiled by its pattern rule $(BUILD)/obj/%.o.
#
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
test-wire-tshark: deps $(WIRE_GEN_BIN)
	@echo "== wire formats: tshark decodes every frame the codecs write"
	@scripts/test_wire_tshark.sh $(WIRE_GEN_BIN) $(BUILD)/wire-tshark
