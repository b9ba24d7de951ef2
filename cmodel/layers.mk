# cmodel/layers.mk - the files of cmodel/src depend on each other one way only, in the order of
# docs/cmodel-layers.md (a file uses only files above it there). Included by the Makefile, whose
# CHECK_STEPS lists test-layers (make check).
#
#   make test-layers   scripts/test_layers.py over the library's objects: a back edge, a use the
#                      table does not list or one it lists that is gone fails the step; first, the
#                      same check with a back edge added (event_log.c using switch.c) must fail.
#                      Under a second once the library is built.

.PHONY: test-layers
TEST_STEPS += test-layers
test-layers: deps-minimal $(BUILD)/liblfc.a
	@echo "== cmodel/src: every use goes up the table of docs/cmodel-layers.md"
	@if scripts/test_layers.py $(BUILD)/obj/src --add-edge event_log.c:switch.c \
	     >$(BUILD)/test-layers-selftest.txt 2>&1; then \
	   echo "test-layers: FAIL: a back edge (event_log.c using switch.c) was not caught" >&2; \
	   exit 1; \
	 elif ! grep -q 'back edge: event_log.c uses switch.c' $(BUILD)/test-layers-selftest.txt; then \
	   echo "test-layers: FAIL: the added back edge was not named:" >&2; \
	   cat $(BUILD)/test-layers-selftest.txt >&2; exit 1; \
	 fi
	@scripts/test_layers.py $(BUILD)/obj/src
