#!/bin/bash
# tb/scripts/soak.sh - the long soak (docs/fuzzing.md §4; `make soak HOURS=h`, `make test-soak`).
#
# Random co-simulation (Verilator) of every configuration until the time is up: each run takes a
# configuration at random, a fresh random seed and its configuration's [run] cycles, and runs the
# lockstep co-simulation with the scoreboard. A run that fails keeps its log and prints its
# MISMATCH line and the command that reproduces it; the soak goes on. Ends with
#   soak: R runs, C cycles, M mismatches in S s (X cycles/s)
# and fails if there was a mismatch.
#
# Environment: HOURS (fractional allowed), or SECONDS_LIMIT (wins when set); CONFIGS; OUT;
# BUILD, COSIM_BUILD, MAKE (from tb/tb.mk); SOAK_SEED (default: from the clock, printed, so that
# the sequence of runs can be repeated). A wrong value stops it at once (tb/scripts/args.sh),
# named as `make soak` takes it: SOAK_SECONDS for SECONDS_LIMIT, SOAK_CONFIGS for CONFIGS.
set -u
: "${OUT:?}" "${COSIM_BUILD:?}" "${CONFIGS:?}" "${MAKE:=make}" "${HOURS:=1}"
# shellcheck source=tb/scripts/args.sh
. "$(dirname "$0")/args.sh"
args_configs soak SOAK_CONFIGS "$CONFIGS"
limit=${SECONDS_LIMIT:-}
if [ -z "$limit" ]; then
  args_hours soak HOURS "$HOURS"
  limit=$(awk -v h="$HOURS" 'BEGIN { printf "%d", h * 3600 }')
fi
args_uint soak SOAK_SECONDS "$limit" 1
seed0=${SOAK_SEED:-$(date +%s)}
args_uint soak SOAK_SEED "$seed0" 0
seed0=$(( 10#$seed0 ))
RANDOM=$((seed0 % 32768))
read -r -a configs <<<"$CONFIGS"
# write_fail PATH: a file of the soak could not be written: one line, exit 2 (a summary with
# runs missing would read as a soak that passed them).
write_fail() {
  echo "soak: cannot write $1" >&2
  exit 2
}
mkdir -p "$OUT/fail" 2>/dev/null || write_fail "$OUT/fail"

echo "== soak: ${#configs[@]} configurations, Verilator, ${limit} s, SOAK_SEED=$seed0"
# Build every simulator first (the build time does not count against the soak).
bins=()
for c in "${configs[@]}"; do bins+=("$COSIM_BUILD/verilator/$c/obj/Vcosim"); done
if ! $MAKE --no-print-directory -s COSIM_BUILD="$COSIM_BUILD" "${bins[@]}" > "$OUT/build.log" 2>&1
then
  tail -20 "$OUT/build.log"
  echo "soak: building the simulators failed ($OUT/build.log)"
  exit 1
fi

start=$(date +%s)
runs=0 cycles=0 fails=0
: > "$OUT/summary.txt" || write_fail "$OUT/summary.txt"
while :; do
  now=$(date +%s)
  left=$((start + limit - now))
  [ "$left" -gt 0 ] || break
  c=${configs[$((RANDOM % ${#configs[@]}))]}
  seed=$(( (RANDOM << 15 | RANDOM) + 1 ))
  log="$OUT/run.log"
  # A run that would outlast the soak is cut short: the runs' own lengths are in the .ini files.
  timeout --signal=KILL "$((left + 5))" nice -n 10 "$COSIM_BUILD/verilator/$c/obj/Vcosim" \
    +config="tb/configs/$c.ini" +seed="$seed" +sim=verilator > "$log" 2>&1
  rc=$?
  pass=$(grep -m1 '^PASS ' "$log")
  if [ "$rc" -eq 0 ] && [ -n "$pass" ]; then
    n=$(sed -E 's/.* cycles=([0-9]+) .*/\1/' <<<"$pass")
    cycles=$((cycles + n))
    runs=$((runs + 1))
    echo "PASS $c seed=$seed cycles=$n" >> "$OUT/summary.txt" || write_fail "$OUT/summary.txt"
  elif [ "$rc" -eq 137 ] && [ "$(date +%s)" -ge $((start + limit)) ]; then
    break  # cut at the end of the soak: neither a pass nor a failure
  else
    runs=$((runs + 1))
    fails=$((fails + 1))
    cp "$log" "$OUT/fail/$c-seed$seed.log" || write_fail "$OUT/fail/$c-seed$seed.log"
    m=$(grep -m1 '^MISMATCH ' "$log" || echo "exit status $rc, no MISMATCH line")
    echo "FAIL $c seed=$seed: $m" | tee -a "$OUT/summary.txt" || write_fail "$OUT/summary.txt"
    echo "  reproduce: make cosim SIM=verilator CONFIG=$c SEED=$seed; log $OUT/fail/$c-seed$seed.log"
  fi
done
secs=$(( $(date +%s) - start ))
rate=$(( secs > 0 ? cycles / secs : 0 ))
echo "soak: $runs runs, $cycles cycles, $fails mismatches in $secs s ($rate cycles/s); $OUT/summary.txt"
[ "$fails" -eq 0 ]
