# tb/mutants/mutants.mk - `make mutants`: Yosys `mutate` mutants of the switch RTL, each run
# through the lockstep co-simulation (tb/mutants/README.md). Included by the top Makefile after
# tb/tb.mk, whose variables (TB_PARAMS, TB_COMMON_OBJS, JOBS) it uses.
#
#   make mutants [JOBS=n] [MUT_CONFIGS="..."] [MUT_SEEDS=n]
#       $(BUILD)/mutants/summary.json, survivors.txt, mutants.tsv; fails if fewer than 97 % of
#       the non-equivalent mutants were killed
#
# The Debian packages it needs besides those of the co-simulation: yosys, python3.

MUT_SEEDS ?= 3

.PHONY: mutants mutants-list test-mutants-report test-mutants-pick

# report.py's verdicts on made-up results (seconds; part of make test): an argued equivalent
# whose explained.txt entry no longer names the mutant's line must stop the report.
TEST_STEPS += test-mutants-report
test-mutants-report: deps-minimal
	@$(PYTHON3) tb/mutants/test_report.py

# pick.py's sample on made-up candidate lists (seconds; part of make test): a module's mutants
# must not change with the rest of the design (Yosys's counters, order and control bits).
TEST_STEPS += test-mutants-pick
test-mutants-pick: deps-minimal
	@$(PYTHON3) tb/mutants/test_pick.py

# Yosys's mutants change one bit of a cell; they rarely turn a `<=` into a `<` or move a compare
# by one. The hand-made mutants of tb/scripts/mutant_smoke.sh do, at every edge of the SPEC's
# comparisons that the coverage points count (tb/common/tb_cov_points.h): they run too.
mutants: deps-hdl all $(TB_PARAMS) $(TB_COMMON_OBJS)
	@BUILD=$(BUILD) JOBS=$(JOBS) MUT_SEEDS=$(MUT_SEEDS) TEST_COSIM_SEEDS=$(TEST_COSIM_SEEDS) \
	  VERILATOR=$(VERILATOR) \
	  VERILATOR_JOBS=$(VERILATOR_JOBS) $(if $(MUT_CONFIGS),MUT_CONFIGS="$(MUT_CONFIGS)") \
	  bash tb/mutants/mutants.sh
	@$(if $(MUT_CONFIGS),true,$(TB_RUN_ENV) tb/scripts/mutant_smoke.sh)

# The choice of mutants only (steps 1-2 of mutants.sh, minutes): every explained.txt entry must
# still name its mutant's source line. Run it after a change of rtl/ that moves lines.
mutants-list: deps-hdl $(TB_PARAMS)
	@BUILD=$(BUILD) MUT_LIST_ONLY=1 $(if $(MUT_CONFIGS),MUT_CONFIGS="$(MUT_CONFIGS)") \
	  bash tb/mutants/mutants.sh
