#!/usr/bin/env bash
# Co-simulation regression: configurations x seeds x simulators, in parallel.
# Called by `make regress` and `make test-cosim` (tb/tb.mk), which set the environment:
#
#   SEEDS=K            seeds 1..K per configuration and simulator
#   SIMS, CONFIGS      which simulators and configurations (names of tb/configs/*.ini)
#   CYCLES             cycles per run; empty: the configuration's [run] cycles, or with SHORT=1
#                      its [run] test_cycles; Icarus runs ICARUS_PCT % of that (default 10, or
#                      50 with SHORT=1) unless CYCLES is given
#   JOBS               parallel runs (and builds)
#   OUT                output directory: junit.xml, summary.txt, coverage.json, runs/...
#   COVER_STRICT=1     fail if a coverage point was never hit in the whole regression
#
# The last line printed is `cosim: N passed, M failed`: the runs, and with COVER_STRICT=1 the
# coverage check as one more (a testcase of junit.xml too). Exit 1 if anything failed, 2 for a
# value above that is not allowed (tb/scripts/args.sh), before anything is built, or for a
# result file (summary.txt, junit.xml, coverage.json) that could not be written. A simulator
# or configuration named twice runs once. Each run may take COSIM_TIMEOUT (tb/scripts/cosim.sh).
set -uo pipefail

# Defaults only where a value is not given at all: SIMS= or CONFIGS= (empty) is refused below.
: "${CYCLES:=}"
SEEDS="${SEEDS-2}" SIMS="${SIMS-verilator icarus}" CONFIGS="${CONFIGS-}" JOBS="${JOBS-2}"
: "${OUT:=build/regress}" "${COVER_STRICT:=1}" "${SHORT:=0}" "${MAKE:=make}" "${BUILD:=build}"
: "${COSIM_BUILD:=$BUILD/cosim}"
# The results of an earlier regression go first, even if this one is refused below: a
# junit.xml left behind would read as this one's.
rm -rf "$OUT"
if [ "$SHORT" = 1 ]; then : "${ICARUS_PCT:=50}"; else : "${ICARUS_PCT:=10}"; fi
# shellcheck source=tb/scripts/args.sh
. "$(dirname "$0")/args.sh"
args_uint regress SEEDS "$SEEDS" 1
args_sims regress SIMS "$SIMS"
args_configs regress CONFIGS "$CONFIGS"
args_cycles regress CYCLES "$CYCLES"
args_uint regress JOBS "$JOBS" 1
args_uint regress ICARUS_PCT "$ICARUS_PCT" 1 100
args_flag regress COVER_STRICT "$COVER_STRICT"
args_flag regress SHORT "$SHORT"
# once each, in the order given
# shellcheck disable=SC2086  # $1 is a list of words
uniq_words() { printf '%s\n' $1 | awk '!seen[$0]++' | tr '\n' ' '; }
SIMS="$(uniq_words "$SIMS")" CONFIGS="$(uniq_words "$CONFIGS")"
# With a run per core already, each run keeps its C side on its own thread (+threads=1): two
# threads per run on a full machine only add hand-overs (22 configurations x 3 seeds at full
# length, JOBS=2 on 2 cores: 11 % less wall time on one thread). The output is the same.
if [ "$JOBS" -ge "$(nproc 2>/dev/null || echo 1)" ]; then
  TB_PLUSARGS="+threads=1${TB_PLUSARGS:+ $TB_PLUSARGS}"
fi
export COSIM_BUILD TB_VPI VVP TB_MAKE_EXTRA BUILD TB_PLUSARGS
params="$BUILD/tb/tb-params"

# write_fail PATH: a result file could not be written (a full disk, a directory not writable):
# one line and exit 2, not a regression that reports on files it did not write.
write_fail() {
  echo "regress: cannot write $1" >&2
  exit 2
}
mkdir -p "$OUT/runs" 2>/dev/null || write_fail "$OUT/runs"
t_start=$(date +%s)

# ---- 1. build every simulator (make -k: a broken build fails its own runs only) ----
echo "== building $(wc -w <<<"$CONFIGS") configurations for: $SIMS (log: $OUT/build.log)"
$MAKE --no-print-directory -k -j"$JOBS" cosim-build SIMS="$SIMS" CONFIGS="$CONFIGS" \
  VERILATOR_JOBS=1 >"$OUT/build.log" 2>&1
build_rc=$?
# sim_bin SIM CONFIG: the simulator a run needs.
sim_bin() {
  if [ "$1" = verilator ]; then echo "$COSIM_BUILD/verilator/$2/obj/Vcosim"
  else echo "$COSIM_BUILD/$1/$2/sim.vvp"; fi
}
# A failed build can leave an older simulator behind (say the test's C did not compile): the
# runs of a configuration whose simulator failed to build fail, and all of them if something
# they share failed (make's "*** [file:line: target] Error" lines say which; the targets of the
# Verilated model's own makefile, without a directory, are reported again as the simulator's).
mkdir -p "$OUT/unbuilt"
if [ $build_rc -ne 0 ]; then
  echo "   some builds failed; their runs fail (see $OUT/build.log)"
  sed -nE 's/.*\*\*\* \[[^]]*: ([^] ]+)\] Error.*/\1/p' "$OUT/build.log" | grep / \
    >"$OUT/unbuilt/targets"
  for sim in $SIMS; do
    for config in $CONFIGS; do
      if grep -vq -e "^$COSIM_BUILD/[^/]*/[^/]*/" "$OUT/unbuilt/targets" ||
         grep -q -e "^$COSIM_BUILD/$sim/$config/" "$OUT/unbuilt/targets" ||
         [ ! -s "$OUT/unbuilt/targets" ]; then
        touch "$OUT/unbuilt/$sim.$config"
      fi
    done
  done
fi
warned="$(grep -l '^%Warning' "$COSIM_BUILD"/verilator/*/obj/build.log 2>/dev/null |
          sed -E 's|.*/verilator/([^/]*)/obj/build.log|\1|' | tr '\n' ' ')"
t_built=$(date +%s)

# ---- 2. the runs ----
jobs_file="$OUT/jobs.txt"
: >"$jobs_file"
for sim in $SIMS; do
  for config in $CONFIGS; do
    if [ -n "$CYCLES" ]; then
      n="$CYCLES"
    else
      if [ "$SHORT" = 1 ]; then n="$("$params" test_cycles "tb/configs/$config.ini")"
      else n="$("$params" cycles "tb/configs/$config.ini")"; fi
      [ "$sim" != verilator ] && n=$(( n * ICARUS_PCT / 100 )) && [ "$n" -lt 1 ] && n=1
    fi
    for seed in $(seq 1 "$SEEDS"); do
      echo "$sim $config $seed $n" >>"$jobs_file"
    done
  done
done
total=$(wc -l <"$jobs_file")
echo "== running $total co-simulations, $JOBS at a time"

run_one() {
  local sim="$1" config="$2" seed="$3" n="$4"
  local dir="$OUT/runs/$sim/$config/seed$seed" t0 t1 bin
  mkdir -p "$dir"
  bin="$(sim_bin "$sim" "$config")"
  t0=$(date +%s.%N)
  if [ ! -f "$bin" ] || [ -f "$OUT/unbuilt/$sim.$config" ]; then
    echo "BUILD FAILED: $bin was not built (see $OUT/build.log)" >"$dir/log.txt"
    echo 3 >"$dir/rc"
  else
    tb/scripts/cosim.sh "$sim" "$config" "$seed" "$n" 0 "$dir" >/dev/null 2>&1
    [ -f "$dir/rc" ] || echo 4 >"$dir/rc"
  fi
  t1=$(date +%s.%N)
  echo "$t0 $t1" | awk '{printf "%.2f\n", $2 - $1}' >"$dir/time"
  local rc; rc=$(cat "$dir/rc")
  printf '  %-4s %-14s %-28s seed %-3s %7s cycles  %6ss\n' \
    "$([ "$rc" = 0 ] && echo PASS || echo FAIL)" "$sim" "$config" "$seed" "$n" "$(cat "$dir/time")"
}
export -f run_one sim_bin
export OUT

xargs -P "$JOBS" -L 1 bash -c 'run_one "$@"' _ <"$jobs_file"
t_end=$(date +%s)

# ---- 3. coverage: the sum over every run ----
find "$OUT/runs" -name coverage.json -print0 | xargs -0 -r cat | awk '
  /"coverage": \{/ { inside = 1; next }
  inside && /\}/ { inside = 0; next }
  inside { gsub(/[",:]/, " "); if (!($1 in sum)) order[n++] = $1; sum[$1] += $2 }
  END {
    printf "{\n"
    for (i = 0; i < n; i++) printf "  \"%s\": %d%s\n", order[i], sum[order[i]], i + 1 < n ? "," : ""
    printf "}\n"
  }' >"$OUT/coverage.json.tmp" && mv -f "$OUT/coverage.json.tmp" "$OUT/coverage.json" ||
  write_fail "$OUT/coverage.json"
missing="$(awk -F'[":, ]+' '/: 0,?$/ { print $2 }' "$OUT/coverage.json" | tr '\n' ' ')"
points=$(grep -c '": ' "$OUT/coverage.json")

cov_fail=0 cov_msg=""
if [ "$points" -eq 0 ]; then
  cov_msg="coverage: no coverage written (did any run finish?)"
  [ "$COVER_STRICT" = 1 ] && cov_fail=1
elif [ -n "$missing" ]; then
  cov_msg="coverage: $OUT/coverage.json; never hit: $missing"
  [ "$COVER_STRICT" = 1 ] && cov_fail=1
else
  cov_msg="coverage: all $points points hit ($OUT/coverage.json)"
fi

# ---- 4. results: summary table, JUnit XML (with COVER_STRICT=1, the coverage check as a case) ----
xml_escape() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g' \
                   -e 's/[^[:print:]\t]//g'; }
passed=0; failed=0
summary="$OUT/summary.txt"
cases="$OUT/cases.xml"
: >"$cases" || write_fail "$cases"
printf '%-14s %-28s %-5s %8s %8s  %-6s %s\n' sim config seed cycles seconds result detail \
  >"$summary.tmp" || write_fail "$summary"
while read -r sim config seed n; do
  dir="$OUT/runs/$sim/$config/seed$seed"
  rc=$(cat "$dir/rc" 2>/dev/null || echo 4)
  secs=$(cat "$dir/time" 2>/dev/null || echo 0)
  detail=""
  if [ "$rc" = 0 ]; then
    passed=$((passed + 1)); result=PASS
    detail="$(grep -m1 '^PASS ' "$dir/log.txt" | sed -E 's/.*(packets=[0-9]+) (cycles_per_second=[0-9]+).*/\1 \2/')"
  else
    failed=$((failed + 1)); result=FAIL
    detail="$(grep -m1 -E '^(MISMATCH|BUILD FAILED)' "$dir/log.txt" || tail -n 1 "$dir/log.txt")"
    [ -z "$detail" ] && detail="exit $rc, no output"
  fi
  printf '%-14s %-28s %-5s %8s %8s  %-6s %s\n' "$sim" "$config" "$seed" "$n" "$secs" "$result" \
    "$detail" >>"$summary.tmp" || write_fail "$summary"
  {
    printf '    <testcase classname="cosim.%s.%s" name="seed%s" time="%s">\n' \
      "$sim" "$config" "$seed" "$secs"
    if [ "$rc" != 0 ]; then
      printf '      <failure message="%s" type="exit%s">\n' "$(xml_escape <<<"$detail")" "$rc"
      xml_escape <"$dir/log.txt"
      printf '      </failure>\n'
    fi
    printf '      <system-out>'
    xml_escape <"$dir/log.txt"
    printf '</system-out>\n    </testcase>\n'
  } >>"$cases" || write_fail "$cases"
done <"$jobs_file"
mv -f "$summary.tmp" "$summary" || write_fail "$summary"
if [ "$COVER_STRICT" = 1 ]; then
  {
    printf '    <testcase classname="cosim.coverage" name="every point hit" time="0">\n'
    if [ "$cov_fail" = 1 ]; then
      failed=$((failed + 1))
      printf '      <failure message="%s" type="coverage"/>\n' "$(xml_escape <<<"$cov_msg")"
    else
      passed=$((passed + 1))
    fi
    printf '      <system-out>'
    xml_escape <"$OUT/coverage.json"
    printf '</system-out>\n    </testcase>\n'
  } >>"$cases" || write_fail "$cases"
fi
{
  printf '<?xml version="1.0" encoding="UTF-8"?>\n'
  printf '<testsuites name="lfc-cosim" tests="%d" failures="%d" time="%d">\n' \
    "$((passed + failed))" "$failed" "$((t_end - t_start))"
  printf '  <testsuite name="cosim" tests="%d" failures="%d" errors="0" skipped="0" time="%d">\n' \
    "$((passed + failed))" "$failed" "$((t_end - t_start))"
  cat "$cases"
  printf '  </testsuite>\n</testsuites>\n'
} >"$OUT/junit.xml.tmp" && mv -f "$OUT/junit.xml.tmp" "$OUT/junit.xml" ||
  write_fail "$OUT/junit.xml"
rm -f "$cases"

echo
cat "$summary"
echo
[ -n "$warned" ] && echo "verilator lint warnings (not fatal; see obj/build.log) in: $warned"
echo "build $((t_built - t_start)) s, runs $((t_end - t_built)) s; JUnit: $OUT/junit.xml; summary: $summary"
# The coverage table: each point and how often the runs hit it, three to a line.
echo "coverage, summed over the runs:"
awk -F'[":, ]+' '/": / { printf "  %-18s %9d%s", $2, $3, (++n % 3 == 0) ? "\n" : "" }
                 END { if (n % 3) printf "\n" }' "$OUT/coverage.json"
echo "$cov_msg"
[ "$cov_fail" = 1 ] && echo "coverage: FAIL (COVER_STRICT=1: every point must be hit by some run)"
echo "cosim: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
