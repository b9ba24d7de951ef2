# sim/unit.mk - white-box cmocka unit tests of lfc-sim's fabric code, one file per unit of
# sim/src (docs/sim.md "Tests"). Included by the top-level Makefile; every rule honours BUILD.
#
#   make test-sim-unit   topology, routing, partition and deadlock detection, plain and
#                        ASan+UBSan; in TEST_STEPS and CHECK_STEPS (a few seconds once built)
#
# Each test is built from its unit's sources and those it calls, not from lfc-sim: the
# scenario is read from text (scenario.c, which needs calc.c and liblfc), the fabric built by
# topology.c. test_deadlock fills the detector's observer interface (observer.h) by hand, the
# packets each switch holds included, so that it can set up wait-for situations without
# engine.c.

.PHONY: test-sim-unit

SIM_UNIT_DIR   = $(BUILD)/sim/unit
SIM_UNIT_TESTS = test_topology test_routing test_partition test_deadlock
SIM_UNIT_BASE  = sim/src/scenario.c sim/src/calc.c sim/src/topology.c
SIM_UNIT_HDRS  = $(wildcard sim/src/*.h) sim/tests/sim_unit.h
SIM_UNIT_LIBS  = $(CMOCKA_LIBS) -linih $(LDLIBS)

# The sources of each test besides its own file.
SIM_UNIT_SRCS_test_topology  = $(SIM_UNIT_BASE)
SIM_UNIT_SRCS_test_routing   = $(SIM_UNIT_BASE) sim/src/routing.c
SIM_UNIT_SRCS_test_partition = $(SIM_UNIT_BASE) sim/src/partition.c
SIM_UNIT_SRCS_test_deadlock  = $(SIM_UNIT_BASE) sim/src/routing.c sim/src/deadlock.c \
                               sim/src/outfile.c

SIM_UNIT_BINS      = $(addprefix $(SIM_UNIT_DIR)/,$(SIM_UNIT_TESTS))
SIM_UNIT_ASAN_BINS = $(addprefix $(SIM_UNIT_DIR)/asan/,$(SIM_UNIT_TESTS))

# sim_unit_rules NAME: the plain and the ASan+UBSan binary of sim/tests/NAME.c.
define sim_unit_rules
$(SIM_UNIT_DIR)/$(1): sim/tests/$(1).c $(SIM_UNIT_SRCS_$(1)) $(SIM_UNIT_HDRS) $(BUILD)/liblfc.a \
                      | deps-minimal deps-sim
	@mkdir -p $$(@D)
	$$(CC) $$(CPPFLAGS) -Isim/src $$(CFLAGS) $$(LDFLAGS) -o $$@ sim/tests/$(1).c \
	  $(SIM_UNIT_SRCS_$(1)) $(BUILD)/liblfc.a $$(SIM_UNIT_LIBS)
$(SIM_UNIT_DIR)/asan/$(1): sim/tests/$(1).c $(SIM_UNIT_SRCS_$(1)) $(SIM_UNIT_HDRS) \
                           $(BUILD)/asan/liblfc.a | deps-minimal deps-sim
	@mkdir -p $$(@D)
	$$(CC) $$(CPPFLAGS) -Isim/src $$(CFLAGS) $$(ASAN_FLAGS) $$(LDFLAGS) -o $$@ sim/tests/$(1).c \
	  $(SIM_UNIT_SRCS_$(1)) $(BUILD)/asan/liblfc.a $$(SIM_UNIT_LIBS)
endef
$(foreach t,$(SIM_UNIT_TESTS),$(eval $(call sim_unit_rules,$(t))))

TEST_STEPS += test-sim-unit
test-sim-unit: deps-minimal $(SIM_UNIT_BINS) $(SIM_UNIT_ASAN_BINS)
	@echo "== lfc-sim units: topology, routing, partition, deadlock detection (cmocka, plain and ASan+UBSan)"
	@scripts/run-cmocka.sh run $(CMOCKA_LOG_DIR)/sim-unit $(SIM_UNIT_BINS)
	@$(ASAN_ENV) scripts/run-cmocka.sh run $(CMOCKA_LOG_DIR)/sim-unit-asan $(SIM_UNIT_ASAN_BINS)
