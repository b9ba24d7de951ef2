#!/usr/bin/env bash
# tb/scripts/make_args.sh - the values `make cosim`, `regress`, `test-cosim` (and `test`), `soak`,
# `mutants` and `mutants-smoke` take from make's command line, checked when tb/tb.mk is read:
# before any prerequisite (the model, lfc-sim, a simulator) is built. The scripts those targets
# run check the same values again (tb/scripts/args.sh) for when they are run by hand; without this,
# `make cosim SEED=4294967296` built its simulator for minutes before cosim.sh refused the seed,
# and `make regress SEEDS=abc` built the whole tree first.
#
#   tb/scripts/make_args.sh "GOALS" NAME=VALUE...
#
# GOALS: make's goals (those not listed above are ignored); NAME=VALUE: the variables as make
# has them (its defaults included; an empty optional one is the script's default). Prints one
# line naming the first wrong value and what is allowed, and exits 2; else prints nothing.
set -u
[ $# -ge 1 ] || { echo "usage: $0 GOALS NAME=VALUE..." >&2; exit 2; }
goals=" $1 "
shift
declare -A v=()
for a in "$@"; do v["${a%%=*}"]="${a#*=}"; done
val() { printf '%s' "${v[$1]-}"; }
# shellcheck source=tb/scripts/args.sh
. "$(dirname "$0")/args.sh"
has() { [[ "$goals" == *" $1 "* ]]; }
# opt_uint WHO NAME MIN [MAX]: the value, if one is given, is a whole number in range.
opt_uint() { [ -z "$(val "$2")" ] || args_uint "$1" "$2" "$(val "$2")" "$3" "${4:-}"; }

if has cosim; then
  args_sim cosim SIM "$(val SIM)"
  [ "$(wc -w <<<"$(val CONFIG)")" -eq 1 ] ||
    args_fail cosim CONFIG "$(val CONFIG)" "one name of tb/configs/*.ini"
  args_configs cosim CONFIG "$(val CONFIG)"
  args_uint cosim SEED "$(val SEED)" 0 4294967295
  args_cycles cosim CYCLES "$(val CYCLES)"
  args_flag cosim WAVES "$(val WAVES)"
  args_flag cosim PCAP "$(val PCAP)"
  args_flag cosim COMPARE "$(val COMPARE)"
  opt_uint cosim COSIM_TIMEOUT 0
fi
if has regress; then
  args_uint regress SEEDS "$(val SEEDS)" 1
  args_sims regress SIMS "$(val SIMS)"
  args_configs regress CONFIGS "$(val CONFIGS)"
  args_cycles regress CYCLES "$(val CYCLES)"
  args_uint regress JOBS "$(val JOBS)" 1
  opt_uint regress ICARUS_PCT 1 100
  opt_uint regress COSIM_TIMEOUT 0
fi
if has test-cosim || has test; then
  args_uint test-cosim JOBS "$(val JOBS)" 1
  args_uint test-cosim TEST_COSIM_SEEDS "$(val TEST_COSIM_SEEDS)" 1
  args_configs test-cosim TEST_NETLIST_CONFIGS "$(val TEST_NETLIST_CONFIGS)"
fi
if has soak; then
  [ -z "$(val SOAK_CONFIGS)" ] || args_configs soak SOAK_CONFIGS "$(val SOAK_CONFIGS)"
  if [ -n "$(val SOAK_SECONDS)" ]; then
    args_uint soak SOAK_SECONDS "$(val SOAK_SECONDS)" 1
  elif [ -n "$(val HOURS)" ]; then
    args_hours soak HOURS "$(val HOURS)"
  fi
  opt_uint soak SOAK_SEED 0
fi
if has mutants; then
  args_uint mutants JOBS "$(val JOBS)" 1
  opt_uint mutants MUT_SEEDS 1
  opt_uint mutants MUT_LIST_SEED 0
  opt_uint mutants MUT_TIMEOUT 1
  args_uint mutants VERILATOR_JOBS "$(val VERILATOR_JOBS)" 1
  [ -z "$(val MUT_CONFIGS)" ] || args_configs mutants MUT_CONFIGS "$(val MUT_CONFIGS)"
fi
if has mutants-smoke; then
  [ -z "$(val MUTANT_SIM)" ] || args_sim mutants-smoke MUTANT_SIM "$(val MUTANT_SIM)"
fi
exit 0
