# sim/unit.mk - white-box cmocka unit tests of lfc-sim's fabric code, one file per unit of
# sim/src (docs/sim.md "Tests"). Included by the top-level Makefile; every rule honours BUILD.
#
#   make test-sim-unit   topology, routing, partition, deadlock detection, latency series and
#                        percentiles, the threads' crew and channels, plain and ASan+UBSan; in
#                        TEST_STEPS and CHECK_STEPS (a few seconds once built)
#
# Each test is built from its unit's sources and those it calls, not from lfc-sim: the
# scenario is read from text (scenario.c, which needs calc.c and liblfc), the fabric built by
# topology.c. test_deadlock fills the detector's observer interface (observer.h) by hand, the
# packets each switch holds included, so that it can set up wait-for situations without
# engine.c.

.PHONY: test-sim-unit

SIM_UNIT_DIR   = $(BUILD)/sim/unit
SIM_UNIT_TESTS = test_topology test_routing test_partition test_deadlock test_latsum test_crew \
                 test_chan
SIM_UNIT_BASE  = sim/src/scenario.c sim/src/calc.c sim/src/topology.c
SIM_UNIT_LIBS  = $(CMOCKA_LIBS) -linih -pthread $(LDLIBS)

# The sources of each test besides its own file.
SIM_UNIT_SRCS_test_topology  = $(SIM_UNIT_BASE)
SIM_UNIT_SRCS_test_routing   = $(SIM_UNIT_BASE) sim/src/routing.c
SIM_UNIT_SRCS_test_partition = $(SIM_UNIT_BASE) sim/src/partition.c
SIM_UNIT_SRCS_test_deadlock  = $(SIM_UNIT_BASE) sim/src/routing.c sim/src/deadlock.c \
                               sim/src/outfile.c
SIM_UNIT_SRCS_test_latsum    = sim/src/latsum.c
SIM_UNIT_SRCS_test_crew      = sim/src/crew.c
SIM_UNIT_SRCS_test_chan      = sim/src/chan.c

SIM_UNIT_BINS      = $(addprefix $(SIM_UNIT_DIR)/,$(SIM_UNIT_TESTS))
SIM_UNIT_ASAN_BINS = $(addprefix $(SIM_UNIT_DIR)/asan/,$(SIM_UNIT_TESTS))

# Each source is compiled once and the tests link the objects, so that a change in liblfc
# relinks them instead of compiling the scenario parser and the fabric again for each test
# (that was 34 CPU s of make check after an edit in cmodel/src). The plain objects of sim/src are
# lfc-sim-check's ($(BUILD)/sim/obj, sim/sim.mk); the sanitizer ones are built here.
SIM_UNIT_ASAN_OBJDIR = $(BUILD)/sim/asan/obj
sim_unit_objs = $(patsubst sim/src/%.c,$(2)/%.o,$(SIM_UNIT_SRCS_$(1)))
SIM_UNIT_ASAN_OBJS = $(sort $(foreach t,$(SIM_UNIT_TESTS), \
                       $(call sim_unit_objs,$(t),$(SIM_UNIT_ASAN_OBJDIR))))
SIM_UNIT_TEST_OBJS = $(foreach t,$(SIM_UNIT_TESTS), \
                       $(SIM_UNIT_DIR)/obj/$(t).o $(SIM_UNIT_DIR)/asan/obj/$(t).o)

$(SIM_UNIT_ASAN_OBJDIR)/%.o: sim/src/%.c | deps-sim
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Isim/src $(CFLAGS) $(ASAN_FLAGS) $(DEPFLAGS) -c -o $@ $<

$(SIM_UNIT_DIR)/obj/%.o: sim/tests/%.c | deps-minimal deps-sim
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Isim/src $(CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(SIM_UNIT_DIR)/asan/obj/%.o: sim/tests/%.c | deps-minimal deps-sim
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Isim/src $(CFLAGS) $(ASAN_FLAGS) $(DEPFLAGS) -c -o $@ $<

-include $(SIM_UNIT_ASAN_OBJS:.o=.d) $(SIM_UNIT_TEST_OBJS:.o=.d)

# sim_unit_rules NAME: the plain and the ASan+UBSan binary of sim/tests/NAME.c.
define sim_unit_rules
$(SIM_UNIT_DIR)/$(1): $(SIM_UNIT_DIR)/obj/$(1).o $(call sim_unit_objs,$(1),$(BUILD)/sim/obj) \
                      $(BUILD)/liblfc.a
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) $$(LDFLAGS) -o $$@ $$^ $$(SIM_UNIT_LIBS)
$(SIM_UNIT_DIR)/asan/$(1): $(SIM_UNIT_DIR)/asan/obj/$(1).o \
                           $(call sim_unit_objs,$(1),$(SIM_UNIT_ASAN_OBJDIR)) $(BUILD)/asan/liblfc.a
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) $$(ASAN_FLAGS) $$(LDFLAGS) -o $$@ $$^ $$(SIM_UNIT_LIBS)
endef
$(foreach t,$(SIM_UNIT_TESTS),$(eval $(call sim_unit_rules,$(t))))

TEST_STEPS += test-sim-unit
test-sim-unit: deps-minimal $(SIM_UNIT_BINS) $(SIM_UNIT_ASAN_BINS)
	@echo "== lfc-sim units: topology, routing, partition, deadlock detection, latency series and percentiles, the threads' crew and channels (cmocka, plain and ASan+UBSan)"
	@scripts/run-cmocka.sh run $(CMOCKA_LOG_DIR)/sim-unit $(SIM_UNIT_BINS)
	@$(ASAN_ENV) scripts/run-cmocka.sh run $(CMOCKA_LOG_DIR)/sim-unit-asan $(SIM_UNIT_ASAN_BINS)
