# tb/tb.mk - lockstep co-simulation of the RTL (rtl/) against the C model (cmodel/).
# Included by the top Makefile. See tb/README.md.
#
#   make cosim SIM=verilator|icarus|icarus-netlist CONFIG=<name> [SEED=n] [CYCLES=n] [WAVES=1]
#              [PCAP=1] [COMPARE=0]
#       one run of tb/configs/<name>.ini; on a mismatch the waves of the last 2000 cycles are
#       written automatically (a rerun with tracing from a bounded window); PCAP=1 also writes
#       the words into and out of every port as pcap files, in the run's directory under pcap/;
#       COMPARE=0 runs the RTL with the same stimulus and partners but no compare against the
#       model (the partners see the RTL's words; the end-to-end scoreboard still runs)
#   make cosim-build [SIMS="verilator icarus"] [CONFIGS="..."]
#       build the simulators of every configuration (each is built per configuration)
#   make regress [SEEDS=K] [SIMS=...] [CONFIGS=...] [CYCLES=n] [JOBS=n]
#       every configuration x K seeds x both simulators in parallel: build/regress/junit.xml,
#       build/regress/summary.txt, build/regress/coverage.json; fails if a run failed or a
#       coverage point was never hit
#   make test-cosim-pcap
#       make cosim PCAP=1 on a few configurations: tshark reads every port's pcap file back
#   make test-cosim
#       the regression of `make test` (every configuration, both simulators, one seed, short
#       runs; then every configuration on Verilator, TEST_COSIM_SEEDS seeds at full length; then
#       the Yosys netlists of TEST_NETLIST_CONFIGS on Icarus);
#       each part's last line is `cosim: N passed, M failed`
#   make mutants-smoke
#       tb/scripts/mutant_smoke.sh: hand-made RTL mutants must each be caught
#   make coverage [COVERAGE_CONFIGS="..."] [COVERAGE_SEEDS=n]
#       Verilator line + toggle coverage of the RTL over a few configurations, merged with
#       verilator_coverage, as an lcov HTML report: build/coverage/html/index.html

SIM     ?= verilator
CONFIG  ?= ib_basic
SEED    ?= 1
CYCLES  ?=
WAVES   ?= 0
PCAP    ?= 0
COMPARE ?= 1
SEEDS   ?= 2
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)

# The RTL under test: rtl/ (or a mutant's copy: RTL_DIR=... COSIM_BUILD=...). TB_RTL_OTHER is
# the absolute path of the tree when it is not rtl/ itself.
TB_RTL_DIR   = $(if $(RTL_DIR),$(RTL_DIR),rtl)
TB_RTL_SRCS  = $(sort $(wildcard $(TB_RTL_DIR)/*.v))
TB_RTL_HDRS  = $(wildcard $(TB_RTL_DIR)/*.vh)
TB_RTL_OTHER = $(filter-out $(abspath rtl),$(abspath $(TB_RTL_DIR)))

# Per-RTL builds (simulators, runs) go to COSIM_BUILD; the C objects are shared. Another tree
# named by RTL_DIR alone builds in a directory of its own (its name and a checksum of its path),
# so that its builds and those of rtl/ never replace each other.
ifeq ($(origin COSIM_BUILD),undefined)
ifneq ($(TB_RTL_OTHER),)
COSIM_BUILD := $(BUILD)/cosim-$(notdir $(TB_RTL_OTHER))-$(firstword $(shell printf '%s' \
               '$(TB_RTL_OTHER)' | cksum))
else
COSIM_BUILD := $(BUILD)/cosim
endif
endif

# What the simulators in COSIM_BUILD were built from: the RTL tree's path and a digest of its
# files. Make goes by dates alone: without this, COSIM_BUILD given for another tree, or a tree
# copied with its dates (cp -p, a mutant made before the last build), reused the simulators of
# the previous tree, and a broken RTL passed (or rtl/ failed with the mutant's mismatch). The
# file is rewritten only when it changes (through a temporary file, for parallel makes), so an
# unchanged tree rebuilds nothing.
TB_RTL_ID = $(abspath $(TB_RTL_DIR)) $(firstword $(shell cat $(TB_RTL_SRCS) $(TB_RTL_HDRS) | md5sum))
$(COSIM_BUILD)/rtl.id: tb_rtl_id_check
	@mkdir -p $(@D)
	@id='$(TB_RTL_ID)'; [ "$$(cat $@ 2>/dev/null)" = "$$id" ] || \
	  { printf '%s\n' "$$id" > $@.$$$$ && mv -f $@.$$$$ $@; }
.PHONY: tb_rtl_id_check
TB_OBJDIR    = $(BUILD)/tb/obj
TB_CONFIGS   = $(sort $(basename $(notdir $(wildcard tb/configs/*.ini))))
CONFIGS     ?= $(TB_CONFIGS)
SIMS        ?= verilator icarus

TB_COMMON_SRCS = $(wildcard tb/common/*.c)
TB_COMMON_HDRS = $(wildcard tb/common/*.h)
TB_COMMON_OBJS = $(patsubst tb/common/%.c,$(TB_OBJDIR)/common/%.o,$(TB_COMMON_SRCS))
TB_CFLAGS      = $(CFLAGS) -Icmodel/include -Itb/common
TB_LIBS        = -linih -lm
TB_PARAMS      = $(BUILD)/tb/tb-params
TB_VPI         = $(BUILD)/tb/lfc_cosim.vpi

VERILATOR      ?= verilator
IVERILOG       ?= iverilog
YOSYS          ?= yosys
VVP            ?= vvp
VERILATOR_JOBS ?= 2
# The C++ of the Verilated model: -O1 builds in 3/4 of the time of the default and runs as fast.
# ccache (Debian) shares the compiled Verilator runtime (verilated.cpp, ~8 CPU s a build) and the
# unchanged files across the per-configuration builds and across runs. deps-hdl, which every
# Verilator build waits for, installs it.
TB_OBJCACHE = OBJCACHE=ccache
VERILATOR_CXX_OPT ?= OPT_FAST=-O1 OPT_SLOW=-O0 OPT_GLOBAL=-O1 $(TB_OBJCACHE)
# -Wall as the RTL's own lint (make lint) uses, and fatal: every configuration in tb/configs is
# lint-clean. Not fatal for another RTL tree (RTL_DIR=..., a mutant): a mutant that trips a lint
# warning must still run and be caught by the comparison, not fail to build.
VERILATOR_WARN ?= $(if $(TB_RTL_OTHER),-Wno-fatal,)
# The top is lfc_cosim_top, generated per configuration by tb/verilator/cosim_top.sh: lfc_switch
# with its received words behind registers, so that Verilator evaluates the receive logic only
# when they change (tb/README.md "The speed seam"); --prefix keeps the class name Vlfc_switch.
# --expand-limit: Verilator turns an operation on a vector of up to this many 32-bit words into
# word-by-word code; above it (default 64) a vector assigned in parts becomes a chain of
# concatenations that each copy every word before them. The widest vectors here are the 16-port
# top's out_o (176 words) and lfc_switch's pop_info (104): with the default, the chains were a
# third of a 16-port model's instructions per cycle (docs/perf-log.md).
VERILATOR_EXPAND_LIMIT = 256
VERILATOR_FLAGS = --cc --exe --build -O2 -Wall $(VERILATOR_WARN) \
                  --expand-limit $(VERILATOR_EXPAND_LIMIT) \
                  -MAKEFLAGS "$(VERILATOR_CXX_OPT)" \
                  -j $(VERILATOR_JOBS) --top-module lfc_cosim_top --prefix Vlfc_switch \
                  -I$(TB_RTL_DIR)

.PHONY: cosim cosim-build regress test-cosim mutants-smoke cosim-clean coverage
TEST_STEPS += test-cosim
# Hand-made RTL mutants, among them one per edge of every SPEC comparison (tb/README.md): each
# must fail the short run of the configuration that requires its coverage point.
TEST_STEPS += mutants-smoke

# ---- C parts, built with gcc ----

$(TB_OBJDIR)/common/%.o: tb/common/%.c $(TB_COMMON_HDRS) | deps-hdl
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(TB_CFLAGS) -c -o $@ $<

$(TB_OBJDIR)/tools/%.o: tb/tools/%.c $(TB_COMMON_HDRS) | deps-hdl
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(TB_CFLAGS) -c -o $@ $<

$(TB_OBJDIR)/vpi/cosim_vpi.o: tb/vpi/cosim_vpi.c $(TB_COMMON_HDRS) | deps-hdl
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(TB_CFLAGS) -I/usr/include/iverilog -c -o $@ $<

$(TB_PARAMS): $(TB_OBJDIR)/tools/tb_params.o $(TB_OBJDIR)/common/tb_config.o $(BUILD)/liblfc.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(TB_LIBS)

# The VPI module: the adapter, the test and the model in one shared object for vvp -m.
$(TB_VPI): $(TB_OBJDIR)/vpi/cosim_vpi.o $(TB_COMMON_OBJS) $(BUILD)/liblfc.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -shared -o $@ $^ $(TB_LIBS)

# ---- simulators, one build per configuration ----

# Verilator: the shim is C++; the test and the model are linked in as gcc-built objects. Two
# builds per configuration: obj/ (no tracing, for regressions) and obj-trace/ (--trace-fst, for
# WAVES=1 and the automatic rerun after a mismatch). The executable is removed first: Verilator
# skips its own work when the Verilog and the command line are unchanged, and its makefile does
# not relink when only our objects changed, so a change of the model or the test costs a link.
define tb_verilator_build
	@mkdir -p $(@D)
	@rm -f $@
	@params="$$($(TB_PARAMS) verilator $<)" && ports="$$($(TB_PARAMS) ports $<)" && \
	  id="$$($(TB_PARAMS) id $<)" && \
	  echo "== verilator build $* ($$ports ports, RTL $(TB_RTL_DIR)$(1))" && \
	  tb/verilator/cosim_top.sh "$$params" > $(@D)/lfc_cosim_top.v.new && \
	  { cmp -s $(@D)/lfc_cosim_top.v.new $(@D)/lfc_cosim_top.v || \
	    mv $(@D)/lfc_cosim_top.v.new $(@D)/lfc_cosim_top.v; } && \
	  $(VERILATOR) $(VERILATOR_FLAGS) $(2) -Mdir $(@D) -o Vcosim \
	    -CFLAGS "-DTB_PORTS=$$ports -DTB_PARAMS_ID=$${id}u -DTB_RX_LATCH \
	      -I$(CURDIR)/tb/common -I$(CURDIR)/cmodel/include" \
	    $(abspath $(@D)/lfc_cosim_top.v $(TB_RTL_SRCS) tb/verilator/dut_verilator.cpp) \
	    $(abspath $(TB_COMMON_OBJS) $(BUILD)/liblfc.a) -LDFLAGS "$(TB_LIBS)" \
	    > $(@D)/build.log 2>&1 || { cat $(@D)/build.log 2>/dev/null; exit 1; }
endef
TB_VERILATOR_DEPS = $(TB_PARAMS) $(TB_RTL_SRCS) $(TB_RTL_HDRS) $(COSIM_BUILD)/rtl.id \
                    tb/verilator/dut_verilator.cpp \
                    tb/verilator/cosim_top.sh tb/tb.mk \
                    $(TB_COMMON_OBJS) $(BUILD)/liblfc.a

$(COSIM_BUILD)/verilator/%/obj/Vcosim: tb/configs/%.ini $(TB_VERILATOR_DEPS)
	$(call tb_verilator_build,,)

$(COSIM_BUILD)/verilator/%/obj-trace/Vcosim: tb/configs/%.ini $(TB_VERILATOR_DEPS)
	$(call tb_verilator_build,$(comma) with FST tracing,--trace-fst)

comma := ,

# Icarus: tb/vpi/tb_top.v around the RTL, parameters by -P.
# A configuration error stops the build (the parameters are read before iverilog runs).
$(COSIM_BUILD)/icarus/%/sim.vvp: tb/configs/%.ini $(TB_PARAMS) $(TB_RTL_SRCS) $(TB_RTL_HDRS) \
    $(COSIM_BUILD)/rtl.id tb/vpi/tb_top.v
	@mkdir -p $(@D)
	@echo "== iverilog build $* (RTL $(TB_RTL_DIR))"
	@params="$$($(TB_PARAMS) icarus $<)" && id="$$($(TB_PARAMS) id $<)" && \
	  $(IVERILOG) -g2005 -I$(TB_RTL_DIR) -s tb_top $$params -Ptb_top.ParamsId=$$id -o $@ \
	    tb/vpi/tb_top.v $(TB_RTL_SRCS)

# Icarus on the configuration's flat Yosys netlist (tb/scripts/netlist.sh): the same tb_top and
# VPI module, the switch as Yosys synthesises it; about a tenth of the RTL's instructions in vvp.
# -S: iverilog synthesises the netlist's register processes into flip-flop functors
# (tb/scripts/netlist_vvp.py); the processes marked ivl_synthesis_off stay threads. Its output,
# sim.iverilog.vvp, loses the nodes of its anonymous nets (tb/scripts/vvp_strip.py, log in
# vvp_strip.log) on the way to sim.vvp.
$(COSIM_BUILD)/icarus-netlist/%/sim.vvp: tb/configs/%.ini $(TB_PARAMS) $(TB_RTL_SRCS) \
    $(TB_RTL_HDRS) $(COSIM_BUILD)/rtl.id tb/vpi/tb_top.v tb/scripts/netlist.sh \
    tb/scripts/netlist_vvp.py tb/scripts/vvp_strip.py tb/scripts/yosys_chparam.sh
	@mkdir -p $(@D)
	@echo "== yosys netlist + iverilog build $* (RTL $(TB_RTL_DIR))"
	@BUILD=$(BUILD) TB_RTL_DIR=$(TB_RTL_DIR) YOSYS=$(YOSYS) tb/scripts/netlist.sh $< $(@D)
	@params="$$($(TB_PARAMS) icarus $<)" && id="$$($(TB_PARAMS) id $<)" && \
	  $(IVERILOG) -S -g2005 -DTB_NETLIST -s tb_top $$params -Ptb_top.ParamsId=$$id \
	    -o $(@D)/sim.iverilog.vvp tb/vpi/tb_top.v $(@D)/netlist.v
	@rm -f $@ && python3 tb/scripts/vvp_strip.py $(@D)/sim.iverilog.vvp $@.tmp \
	  >$(@D)/vvp_strip.log && mv $@.tmp $@

tb_sim_target = $(if $(filter icarus icarus-netlist,$(1)),$(COSIM_BUILD)/$(1)/$(2)/sim.vvp $(TB_VPI),$(COSIM_BUILD)/verilator/$(2)/obj$(if $(filter 1,$(3)),-trace)/Vcosim)

cosim-build: $(foreach s,$(SIMS),$(foreach c,$(CONFIGS),$(call tb_sim_target,$(s),$(c))))

# ---- running ----

# The variables the run scripts need.
TB_RUN_ENV = BUILD=$(BUILD) COSIM_BUILD=$(COSIM_BUILD) TB_VPI=$(TB_VPI) VVP=$(VVP) MAKE="$(MAKE)" \
             TB_MAKE_EXTRA="$(if $(TB_RTL_OTHER),RTL_DIR=$(TB_RTL_DIR) COSIM_BUILD=$(COSIM_BUILD))"

# What is left of $(1) when its digits are taken out: empty for a decimal number.
tb_nondigits = $(strip $(subst 0,,$(subst 1,,$(subst 2,,$(subst 3,,$(subst 4,,$(subst 5,,$(subst \
  6,,$(subst 7,,$(subst 8,,$(subst 9,,$(1))))))))))))
# Non-empty unless $(1) is one decimal number (tb_not_count: one of 1 or more).
tb_not_uint  = $(filter-out 1,$(words $(1))$(call tb_nondigits,$(1)))
tb_not_count = $(or $(call tb_not_uint,$(1)),$(if $(subst 0,,$(1)),,zero))

cosim: $(call tb_sim_target,$(SIM),$(CONFIG),$(WAVES))
	@$(TB_RUN_ENV) PCAP=$(PCAP) COMPARE=$(COMPARE) tb/scripts/cosim.sh $(SIM) $(CONFIG) $(SEED) \
	  "$(CYCLES)" $(WAVES) $(COSIM_BUILD)/run/$(SIM)/$(CONFIG)/seed$(SEED)

# Every configuration x SEEDS seeds x both simulators.
# The results of an earlier regression go before anything is built (first prerequisite), so a
# failed build or a refused value never leaves a junit.xml that reads as this run's.
tb_regress_clear:
	@rm -rf $(BUILD)/regress
tb_test_cosim_clear:
	@rm -rf $(BUILD)/test-cosim $(BUILD)/test-cosim-seeds $(BUILD)/test-cosim-netlist
.PHONY: tb_regress_clear tb_test_cosim_clear

regress: tb_regress_clear all $(TB_PARAMS)
	@$(TB_RUN_ENV) SEEDS=$(SEEDS) SIMS="$(SIMS)" CONFIGS="$(CONFIGS)" CYCLES="$(CYCLES)" \
	  JOBS=$(JOBS) OUT=$(BUILD)/regress COVER_STRICT=1 tb/scripts/regress.sh

# The regression of `make test`, in two parts:
#  1. every configuration, both simulators, seed 1, short runs (the configuration's
#     test_cycles): the RTL on both simulators; coverage reported, not enforced;
#  2. every configuration on Verilator, seeds 1..TEST_COSIM_SEEDS, full runs ([run] cycles):
#     every run `make mutants` makes of a mutant (seed 1 short, then MUT_SEEDS = 3 more seeds at
#     full length, on the configuration and on its stimulus variants, which are configurations
#     too), so that every mutant `make mutants` kills also makes `make test` fail
#     (tb/mutants/report.py checks this, `make_test_runs`); every coverage point must be hit.
#     Verilator runs these in about ten seconds; Icarus would take an hour;
#  3. the Yosys netlists of TEST_NETLIST_CONFIGS on Icarus (SIM=icarus-netlist), seed 1, short
#     runs: that flow keeps working and the synthesised switch equals the model (half a minute,
#     mostly Yosys).
TEST_COSIM_SEEDS ?= 4
TEST_NETLIST_CONFIGS ?= ib_basic pfc_basic
test-cosim: tb_test_cosim_clear deps-hdl all $(TB_PARAMS)
	@echo "== co-simulation: every configuration, verilator and icarus, 1 seed, short runs"
	@$(TB_RUN_ENV) SEEDS=1 SIMS="verilator icarus" CONFIGS="$(TB_CONFIGS)" CYCLES= SHORT=1 \
	  JOBS=$(JOBS) OUT=$(BUILD)/test-cosim COVER_STRICT=0 tb/scripts/regress.sh
	@echo "== co-simulation: every configuration, verilator, seeds 1..$(TEST_COSIM_SEEDS), full runs"
	@$(TB_RUN_ENV) SEEDS=$(TEST_COSIM_SEEDS) SIMS=verilator CONFIGS="$(TB_CONFIGS)" CYCLES= \
	  SHORT=0 JOBS=$(JOBS) OUT=$(BUILD)/test-cosim-seeds COVER_STRICT=1 tb/scripts/regress.sh
	@echo "== co-simulation: the Yosys netlists of $(TEST_NETLIST_CONFIGS) on icarus, 1 seed, short runs"
	@$(TB_RUN_ENV) SEEDS=1 SIMS=icarus-netlist CONFIGS="$(TEST_NETLIST_CONFIGS)" CYCLES= SHORT=1 \
	  JOBS=$(JOBS) OUT=$(BUILD)/test-cosim-netlist COVER_STRICT=0 tb/scripts/regress.sh

# Wrong values for make cosim / regress / soak / mutants and the test's +arguments are refused
# at once (tb/scripts/args.sh, tb_main.c). After test-cosim in `make test`: the binary it needs
# is one test-cosim builds (two makes building one directory at once would clobber it).
TEST_STEPS += test-cosim-args
.PHONY: test-cosim-args
test-cosim-args: deps-hdl all $(TB_PARAMS) | $(if $(filter test,$(MAKECMDGOALS)),test-cosim)
	@$(MAKE) -s --no-print-directory $(COSIM_BUILD)/verilator/pfc_basic/obj/Vcosim
	@$(TB_RUN_ENV) tb/scripts/test_args.sh $(COSIM_BUILD)/verilator/pfc_basic/obj/Vcosim

# The speed seam (tb/common/tb_fast.c, tb/README.md "The speed seam") changes no result: a run of
# TEST_SEAM_CONFIG threaded and not, packed (Verilator) and not (Icarus), and a failing run of an
# RTL mutant on Icarus threaded and not, print the same logs but for the speeds
# (tb/scripts/test_seam.sh). After test-cosim in `make test`, which builds these simulators.
TEST_SEAM_CONFIG ?= pfc_small_buffer
TEST_SEAM_CYCLES ?= 3000
TEST_STEPS += test-cosim-seam
.PHONY: test-cosim-seam
test-cosim-seam: deps-hdl all $(TB_PARAMS) | $(if $(filter test,$(MAKECMDGOALS)),test-cosim)
	@echo "== the speed seam changes no result: tb/scripts/test_seam.sh"
	@$(TB_RUN_ENV) tb/scripts/test_seam.sh $(TEST_SEAM_CONFIG) $(TEST_SEAM_CYCLES) \
	  $(BUILD)/test-cosim-seam

# PCAP=1's files (tb/common/tb_pcap.c): a short run of each TEST_PCAP_CONFIGS on Verilator with
# PCAP=1, and tshark must decode every frame of every port as the model's counters say
# (tb/scripts/test_pcap.sh). Both directions of PFC and ECN marks, both directions of PFC with
# lossy drops, IB data and FCPs. After test-cosim in `make test`, which builds these simulators.
TEST_PCAP_CONFIGS = pfc_dynamic_ecn pfc_small_buffer ib_basic
TEST_STEPS += test-cosim-pcap
.PHONY: test-cosim-pcap
test-cosim-pcap: deps-hdl deps-verify all $(TB_PARAMS) | $(if $(filter test,$(MAKECMDGOALS)),test-cosim)
	@$(MAKE) -s --no-print-directory \
	  $(foreach c,$(TEST_PCAP_CONFIGS),$(COSIM_BUILD)/verilator/$(c)/obj/Vcosim)
	@echo "== co-simulation with PCAP=1: tshark decodes every port's frames as the model counted them"
	@$(TB_RUN_ENV) tb/scripts/test_pcap.sh $(BUILD)/test-cosim-pcap $(TEST_PCAP_CONFIGS)

# The verification IP on RTL that is not the model (docs/verify-your-rtl.md §6): variants of
# rtl/ made by sed under build/vip-variants (tb/scripts/vip_variants.sh), on Icarus, short runs.
# Well-behaved ones (another latency, FCP rate, VL arbitration table, DRR quantum) must fail the
# lockstep with a MISMATCH and pass COMPARE=0 and lfc-check on every port's capture; broken ones
# (data without credit, counters without the 12-bit wrap, a pause ignored, an early resume, a
# late refresh, a lossless drop, a bad PFC opcode or FCS) must make lfc-check or the COMPARE=0
# scoreboard exit 1 with the rule's line. One to two minutes on two cores (docs §6).
.PHONY: test-vip-variants
TEST_STEPS += test-vip-variants
test-vip-variants: $(TB_PARAMS) $(TB_VPI) $(BUILD)/tools/lfc_check | deps-hdl
	@echo "== RTL variants without the model: lfc-check and the COMPARE=0 scoreboard"
	@BUILD=$(BUILD) MAKE="$(MAKE)" LFC_CHECK=$(BUILD)/tools/lfc_check tb/scripts/vip_variants.sh

# ---- RTL code coverage (Verilator --coverage-line --coverage-toggle) ----

# A few configurations that together reach every block of the RTL (IB with credit stress and
# misbehaving peers, VL15 and VL arbitration; PFC with the watchdog under a storm, dynamic
# thresholds, ECN, strict + DRR), each run for its [run] cycles with COVERAGE_SEEDS seeds.
COVERAGE_CONFIGS ?= ib_credit_stress ib_vl15_vlarb pfc_watchdog pfc_dynamic_ecn
COVERAGE_SEEDS   ?= 1
TB_COV_OUT        = $(BUILD)/coverage

$(COSIM_BUILD)/verilator/%/obj-cov/Vcosim: tb/configs/%.ini $(TB_VERILATOR_DEPS)
	$(call tb_verilator_build,$(comma) with line and toggle coverage,--coverage-line --coverage-toggle)

# Before the builds: the configurations exist, COVERAGE_SEEDS is a number.
ifneq ($(filter coverage,$(MAKECMDGOALS)),)
tb_cov_missing = $(firstword $(filter-out $(TB_CONFIGS),$(COVERAGE_CONFIGS)))
ifneq ($(tb_cov_missing),)
$(error COVERAGE_CONFIGS: no tb/configs/$(tb_cov_missing).ini; configurations: $(TB_CONFIGS))
endif
ifeq ($(COVERAGE_CONFIGS),)
$(error COVERAGE_CONFIGS is empty; configurations: $(TB_CONFIGS))
endif
ifneq ($(call tb_not_count,$(COVERAGE_SEEDS)),)
$(error COVERAGE_SEEDS=$(COVERAGE_SEEDS): a whole number, 1 or more)
endif
endif

# Each run writes its counts (+coverage_dat); verilator_coverage merges them and writes an lcov
# tracefile, genhtml the HTML report. The summary: line and toggle points hit (from the merged
# counts), and genhtml's line figure (a source line counts as hit when any point on it was).
coverage: deps-hdl deps-verify all $(TB_PARAMS) $(foreach c,$(COVERAGE_CONFIGS),$(COSIM_BUILD)/verilator/$(c)/obj-cov/Vcosim)
	@rm -rf $(TB_COV_OUT) && mkdir -p $(TB_COV_OUT)/runs
	@set -e; for c in $(COVERAGE_CONFIGS); do for s in $$(seq 1 $(COVERAGE_SEEDS)); do \
	  log=$(TB_COV_OUT)/runs/$$c-seed$$s.log; \
	  if ! $(COSIM_BUILD)/verilator/$$c/obj-cov/Vcosim +config=tb/configs/$$c.ini +seed=$$s \
	      +coverage_dat=$(TB_COV_OUT)/runs/$$c-seed$$s.dat >$$log 2>&1; then \
	    echo "coverage: the run of $$c seed $$s failed:"; tail -n 20 $$log; exit 1; fi; \
	  echo "   $$(tail -n 1 $$log)"; done; done
	@verilator_coverage --write $(TB_COV_OUT)/merged.dat $(TB_COV_OUT)/runs/*.dat
	@verilator_coverage --write-info $(TB_COV_OUT)/merged.info $(TB_COV_OUT)/merged.dat
	@genhtml --quiet --title "lfc RTL: $(words $(COVERAGE_CONFIGS)) configurations" \
	  --output-directory $(TB_COV_OUT)/html $(TB_COV_OUT)/merged.info >$(TB_COV_OUT)/genhtml.log 2>&1 \
	  || { cat $(TB_COV_OUT)/genhtml.log; exit 1; }
	@grep -a "^C '" $(TB_COV_OUT)/merged.dat | LC_ALL=C awk \
	  '{ t = ($$0 ~ /v_toggle/) ? "toggle" : "line"; n[t]++; if ($$NF > 0) h[t]++ } \
	  END { printf "coverage: line points %d of %d (%.1f%%), toggle points %d of %d (%.1f%%); ", \
	        h["line"], n["line"], 100 * h["line"] / n["line"], \
	        h["toggle"], n["toggle"], 100 * h["toggle"] / n["toggle"] }'
	@printf 'genhtml %s; report %s\n' \
	  "$$(lcov --summary $(TB_COV_OUT)/merged.info 2>&1 | grep -m1 'lines' | sed 's/^ *//')" \
	  $(TB_COV_OUT)/html/index.html

mutants-smoke: all $(TB_PARAMS)
	@$(TB_RUN_ENV) tb/scripts/mutant_smoke.sh

cosim-clean:
	rm -rf $(COSIM_BUILD) $(BUILD)/tb $(BUILD)/regress $(BUILD)/test-cosim $(BUILD)/test-cosim-seeds \
	  $(BUILD)/test-cosim-netlist \
	  $(BUILD)/mutants

# Every value make cosim / regress / test-cosim / soak / mutants / mutants-smoke takes from the
# command line, checked when this file is read (at its end, after its defaults; those of
# tb/mutants/mutants.mk and tb/fuzz/fuzz.mk, read later, are empty here and mean the default):
# before any prerequisite is built (a recipe's script would see a wrong SEED only after minutes
# of building). One line naming the value and what is allowed, exit 2 (tb/scripts/make_args.sh,
# with tb/scripts/args.sh's checks, which the scripts repeat for runs by hand).
TB_ARG_GOALS = cosim regress test test-cosim soak mutants mutants-smoke
tb_q = '$(subst ','\'',$(1))'
ifneq ($(filter $(TB_ARG_GOALS),$(MAKECMDGOALS)),)
TB_ARGS_ERR := $(shell tb/scripts/make_args.sh $(call tb_q,$(MAKECMDGOALS)) \
  $(foreach n,SIM CONFIG SEED CYCLES WAVES PCAP COMPARE COSIM_TIMEOUT SEEDS SIMS CONFIGS JOBS \
    ICARUS_PCT TEST_COSIM_SEEDS TEST_NETLIST_CONFIGS SOAK_CONFIGS SOAK_SECONDS HOURS SOAK_SEED MUT_SEEDS \
    MUT_LIST_SEED MUT_TIMEOUT VERILATOR_JOBS MUT_CONFIGS MUTANT_SIM,$(call tb_q,$(n)=$($(n)))) \
  2>&1)
ifneq ($(TB_ARGS_ERR),)
$(error $(TB_ARGS_ERR))
endif
endif
