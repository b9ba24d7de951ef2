# tb/mutants/runs.sh - the runs of one mutant (sourced by tb/mutants/mutants.sh; see README.md).
#
# run_mutant CONFIG ID   (environment: OUT, PARAMS, MUT_SEEDS, MUT_TIMEOUT, VARIANTS)
#   runs OUT/CONFIG/obj/Vcosim with LFC_MUTSEL=ID, first on tb/configs/CONFIG.ini: the run
#   `make test-cosim` makes (seed 1, test_cycles), then seeds 2..MUT_SEEDS+1 of [run] cycles,
#   each with the RTL's registers starting at the values tb/scripts/cosim.sh draws for that seed
#   (so that a run named here is the run of make test, register for register);
#   then, while it survives, the same runs on each stimulus variant of CONFIG (VARIANTS, the file
#   tb/mutants/variants.txt: "CONFIG VARIANT" lines; a variant is tb/configs/VARIANT.ini with
#   CONFIG's RTL parameters and other partners, traffic or misbehaviour). Stops at the first
#   failing run, except for ID 0 (the unmutated netlist), which runs everything.
#   Writes OUT/CONFIG/runs/ID/<run>.log and OUT/CONFIG/runs/ID/result, one line:
#     "killed short|long|variant RC RUN FIRST-LINE" or "survived - 0 - -"
#   (short: the test-cosim run of CONFIG; long: a longer seed of CONFIG; variant: a run of a
#   variant, RUN = VARIANT/short or VARIANT/seedN).

run_mutant() {
  local c="$1" k="$2" d="$OUT/$1" r="$OUT/$1/runs/$2" v s n rc line
  mkdir -p "$r"
  # one NAME INI SEED CYCLES: one run; returns the simulator's exit status. Every register of
  # the RTL starts at a value drawn from the seed as tb/scripts/cosim.sh draws it (Verilator's
  # seed: the run's seed modulo VERILATOR_SEED_MAX, plus 1): the reset must set every register
  # the switch reads, which a run from all-zero registers cannot show.
  one() {
    local name="$1" ini="$2" seed="$3" cycles="$4"
    # shellcheck disable=SC2086  # MUT_THREADS is empty or one +threads=1 word
    LFC_MUTSEL="$k" timeout "$MUT_TIMEOUT" "$d/obj/Vcosim" +config="$ini" \
      +seed="$seed" +cycles="$cycles" +sim=verilator +cov="$r/${name//\//_}.cov.json" \
      ${MUT_THREADS:-} +verilator+rand+reset+2 \
      +verilator+seed+$(( seed % VERILATOR_SEED_MAX + 1 )) \
      >"$r/${name//\//_}.log" 2>&1
  }
  # killed KIND RC RUN: record the first failure.
  killed() {
    line="$(grep -m1 '^MISMATCH ' "$r/${3//\//_}.log" || tail -n 1 "$r/${3//\//_}.log")"
    [ -f "$r/result" ] || echo "killed $1 $2 $3 $line" >"$r/result"
  }
  # runs PREFIX INI KIND-OF-SHORT KIND-OF-LONG: the short run, then the seeds.
  runs() {
    local ini="$2"
    n="$("$PARAMS" test_cycles "$ini")"
    one "$1short" "$ini" 1 "$n"; rc=$?
    if [ "$rc" -ne 0 ]; then killed "$3" "$rc" "$1short"; [ "$k" != 0 ] && return 1; fi
    n="$("$PARAMS" cycles "$ini")"
    for s in $(seq 2 $((MUT_SEEDS + 1))); do
      one "$1seed$s" "$ini" "$s" "$n"; rc=$?
      if [ "$rc" -ne 0 ]; then killed "$4" "$rc" "$1seed$s"; [ "$k" != 0 ] && return 1; fi
    done
    return 0
  }
  runs "" "tb/configs/$c.ini" short long || return 0
  for v in $(awk -v c="$c" '!/^#/ && $1 == c {print $2}' "$VARIANTS"); do
    runs "$v/" "tb/configs/$v.ini" variant variant || return 0
  done
  [ -f "$r/result" ] || echo "survived - 0 - -" >"$r/result"
}
export -f run_mutant
