# shellcheck shell=bash
# tb/scripts/args.sh - checks of the values the co-simulation scripts take from make's command
# line (SEED=, CYCLES=, SEEDS=, JOBS=, CONFIGS=, SIMS=, ...). Sourced by cosim.sh, regress.sh,
# soak.sh, mutant_smoke.sh, tb/mutants/mutants.sh and scripts/bench-cosim.sh. A wrong value stops the script at once, before minutes of
# building, with one line that names the variable, its value and what is allowed, and exit
# status 2 (the status cosim.sh and the test give a configuration error). Without these checks
# CYCLES=-5 ran for hours (strtoull takes "-5" as 2^64 - 5), SEED=abc died in shell arithmetic
# on an "unbound variable", and SEEDS=abc ended in "0 passed, 0 failed".
#
# Numbers are decimal (a leading 0 does not make them octal, as it would in shell arithmetic)
# and at most 18 digits, so that shell arithmetic on them cannot overflow.

ARGS_DIGITS_MAX=18
ARGS_SIMS="verilator icarus icarus-netlist"
# Verilator's +verilator+seed+ is a 32-bit signed int, and 0 means "pick one at random": a run's
# seed s draws its registers' start values from s % VERILATOR_SEED_MAX + 1 (tb/scripts/cosim.sh,
# tb/mutants/runs.sh), exported for the latter.
export VERILATOR_SEED_MAX=2147483646

# args_fail WHO NAME VALUE ALLOWED: the one line, and exit 2.
args_fail() {
  echo "$1: $2='$3': $4" >&2
  exit 2
}

# args_in_range VALUE MIN [MAX]: true when VALUE is a decimal number from MIN (to MAX).
args_in_range() {
  [[ "$1" =~ ^[0-9]+$ ]] && [ ${#1} -le $ARGS_DIGITS_MAX ] && (( 10#$1 >= $2 )) &&
    { [ -z "${3:-}" ] || (( 10#$1 <= $3 )); }
}

# args_uint WHO NAME VALUE MIN [MAX]: VALUE is a whole number from MIN (to MAX).
args_uint() {
  local allowed="a whole number, $4 or more"
  [ -n "${5:-}" ] && allowed="a whole number from $4 to $5"
  args_in_range "$3" "$4" "${5:-}" || args_fail "$1" "$2" "$3" "$allowed"
}

# args_cycles WHO NAME VALUE: empty (the configuration's own number of cycles) or 1 or more.
args_cycles() {
  [ -z "$3" ] || args_in_range "$3" 1 ||
    args_fail "$1" "$2" "$3" "a number of cycles, 1 or more (or empty: the configuration's own)"
}

# args_flag WHO NAME VALUE: 0 or 1.
args_flag() {
  [ "$3" = 0 ] || [ "$3" = 1 ] || args_fail "$1" "$2" "$3" "0 or 1"
}

# args_sims WHO NAME VALUE: one or more of the simulators.
args_sims() {
  local s allowed="one or more of: $ARGS_SIMS"
  [ -n "${3// /}" ] || args_fail "$1" "$2" "$3" "$allowed"
  for s in $3; do
    [[ " $ARGS_SIMS " == *" $s "* ]] || args_fail "$1" "$2" "$3" "$allowed"
  done
}

# args_sim WHO NAME VALUE: one of the simulators.
args_sim() {
  [[ " $ARGS_SIMS " == *" $3 "* ]] || args_fail "$1" "$2" "$3" "one of: $ARGS_SIMS"
}

# args_configs WHO NAME VALUE: one or more names of tb/configs/*.ini (run from the top of the
# tree); the list of them when one is not there.
args_configs() {
  local c names
  names="$(cd tb/configs 2>/dev/null && ls -- *.ini 2>/dev/null | sed 's/\.ini$//' | tr '\n' ' ')"
  [ -n "${3// /}" ] || args_fail "$1" "$2" "$3" "one or more of: $names"
  for c in $3; do
    [ -f "tb/configs/$c.ini" ] ||
      args_fail "$1" "$2" "$3" "there is no tb/configs/$c.ini; configurations: $names"
  done
}

# args_hours WHO NAME VALUE: a number of hours, fractions allowed, at least one second.
args_hours() {
  [[ "$3" =~ ^[0-9]*\.?[0-9]+$ ]] && awk -v h="$3" 'BEGIN { exit !(h * 3600 >= 1) }' ||
    args_fail "$1" "$2" "$3" "a number of hours (fractions allowed), at least 1 second"
}
