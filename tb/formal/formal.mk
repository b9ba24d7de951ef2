# tb/formal/formal.mk - formal proofs of the lossless invariants on the RTL (tb/formal/README.md).
# Included by the top Makefile.
#
#   make formal        every property: k-induction proof (Yosys 0.23 `sat -tempinduct`) and, per
#                      property, a bounded check that a deliberately broken copy of the RTL (sed,
#                      in $(BUILD)/formal/broken/) fails it. Prints PROVED / FAILED with the
#                      induction depth; fails if a property is not proved or a broken copy is not
#                      caught. About 2 CPU minutes (tb/formal/README.md).
#   make formal-quick  the credit, FCP and pause-timer properties only (seconds); also
#                      `test-formal`, a step of `make test`.
#
# FORMAL_TIMEOUT (seconds, default 600) limits each Yosys run.

FORMAL_DIR  = tb/formal
FORMAL_DEPS = $(FORMAL_DIR)/formal.sh $(wildcard $(FORMAL_DIR)/*.v) $(wildcard rtl/*.v) \
              $(wildcard rtl/*.vh)

.PHONY: formal formal-quick test-formal

formal: deps-hdl $(FORMAL_DEPS)
	@bash $(FORMAL_DIR)/formal.sh $(BUILD)/formal all

formal-quick: deps-hdl $(FORMAL_DEPS)
	@bash $(FORMAL_DIR)/formal.sh $(BUILD)/formal quick

test-formal: formal-quick

TEST_STEPS += test-formal
