# scripts/tables.mk - the tables of tables/ (docs/tables.md): the switch parameters, the register
# map and the switch's port list, from which scripts/gen_tables.py writes C and Verilog files
# (committed) and against which scripts/check_tables.py checks the hand-written copies.
# Included by the top Makefile.
#
#   make gen-tables   rewrite the generated files from tables/ (then review and commit them)
#   make test-tables  the generated files are up to date, every copy agrees, and the check
#                     fails on a copy broken by hand (scripts/test_tables.sh; seconds)

.PHONY: gen-tables test-tables

gen-tables:
	@$(PYTHON3) scripts/gen_tables.py

TEST_STEPS += test-tables
test-tables:
	@echo "== tables/: generated files up to date, copies agree, broken copies caught"
	@PYTHON3=$(PYTHON3) scripts/test_tables.sh $(BUILD)/test-tables
