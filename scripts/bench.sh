#!/usr/bin/env bash
# Model throughput (cmodel/bench/bench_model.c): star testbeds of 8, 32 and 64 ports with
# 8 classes, uniform traffic at full load (1000 permille) and at 10 %, in PFC and IB mode.
#
# For each configuration:
#   port_cycles_per_s                    wall clock, ports x cycles / seconds (release build)
#   instructions_per_port_cycle          callgrind: instructions in lfc_switch_step and its callees
#                                        per port-cycle (the switch alone)
#   testbed_instructions_per_port_cycle  the same for lfc_star_step (switch, end nodes, links,
#                                        traffic and scoreboard)
# Both callgrind figures count only measured cycles, after a warm-up that fills the buffers
# (see ipc below).
#
# Writes build/bench/model.json (an array of objects) and prints a table (then runs the
# co-simulation and simulator benchmarks: cosim.json, sim.json); the hot spots of the
# 32-port, full-load runs (callgrind_annotate, exclusive cost of the switch's own functions) go
# to build/bench/hotspots-*.txt
# and, if the switch is above TARGET instructions per port-cycle, to the terminal too.
#
# Environment: BUILD (default build); BENCH_PORT_CYCLES (wall-clock run, default 4000000, at
# least 64: one cycle of 64 ports); BENCH_CG_PORT_CYCLES (callgrind run, default 320000, at least
# 64); BENCH_QUICK=1 runs 32 ports only (0 or 1). No arguments.
#
# Exit status: 0 ok; 1 a finding of a later benchmark (a co-simulation that did not pass, from
# scripts/bench-cosim.sh); 2 an argument or a bad environment value (one line naming it), a
# missing tool (valgrind), a build that fails or a file that cannot be written (model.json is
# written to a temporary name and renamed). A failing benchmark program exits with its own status.
set -euo pipefail

cd "$(dirname "$0")/.."
if [ $# -ne 0 ]; then
  echo "bench: usage: scripts/bench.sh (no arguments; environment: BUILD, BENCH_PORT_CYCLES," \
       "BENCH_CG_PORT_CYCLES, BENCH_QUICK)" >&2
  exit 2
fi
BUILD="${BUILD:-build}"
BIN="$BUILD/bench/bench_model"
OUT="$BUILD/bench"
PORT_CYCLES="${BENCH_PORT_CYCLES:-4000000}"
CG_PORT_CYCLES="${BENCH_CG_PORT_CYCLES:-320000}"
WARMUP=10000
CG_WARMUP=5000
CLASSES=8
TARGET=100
MAX_PORTS=64  # the largest testbed: each run has PORT_CYCLES / ports cycles, at least one

# shellcheck source=tb/scripts/args.sh
. tb/scripts/args.sh
args_uint bench BENCH_PORT_CYCLES "$PORT_CYCLES" $MAX_PORTS
args_uint bench BENCH_CG_PORT_CYCLES "$CG_PORT_CYCLES" $MAX_PORTS
args_flag bench BENCH_QUICK "${BENCH_QUICK:-0}"
PORT_CYCLES=$((10#$PORT_CYCLES)) CG_PORT_CYCLES=$((10#$CG_PORT_CYCLES))

command -v valgrind >/dev/null || { echo "bench: valgrind is needed (make deps)" >&2; exit 2; }
MAKEFLAGS='' make -s BUILD="$BUILD" "$BIN" >/dev/null ||
  { echo "bench: cannot build $BIN" >&2; exit 2; }
mkdir -p "$OUT" || { echo "bench: cannot create $OUT" >&2; exit 2; }

ports_list="8 32 64"
[ "${BENCH_QUICK:-0}" = 1 ] && ports_list="32"

# ipc FUNCTION PORTS CYCLES MODE LOAD: instructions per port-cycle spent in FUNCTION and what
# it calls. callgrind collects only inside FUNCTION (--toggle-collect); two runs, of CYCLES and
# 2 x CYCLES measured cycles after the same warm-up, differ by exactly CYCLES cycles of work, so
# their difference excludes set-up and warm-up. (callgrind_annotate's inclusive rows cannot be
# used: inlined code splits a function into one row per source file, and the rows overlap.)
ipc() {
  local fn="$1" ports="$2" cycles="$3" mode="$4" load="$5" t1 t2 n
  for n in "$cycles" $((2 * cycles)); do
    valgrind --tool=callgrind --toggle-collect="$fn" --callgrind-out-file="$OUT/cg-ipc.out" \
      "$BIN" --ports "$ports" --classes $CLASSES --load "$load" --mode "$mode" \
      --cycles "$n" --warmup $CG_WARMUP >/dev/null 2>&1
    t2="$(awk '/^totals:/ { print $2 }' "$OUT/cg-ipc.out")"
    [ "$n" = "$cycles" ] && t1="$t2"
  done
  awk -v a="$t1" -v b="$t2" -v pc=$((ports * cycles)) 'BEGIN { printf "%.1f", (b - a) / pc }'
}

json="$OUT/model.json"
rows=()
printf '%5s %7s %5s %4s %14s %10s %10s\n' ports classes load mode port-cyc/s sw-ins/pc tb-ins/pc
for ports in $ports_list; do
  for load in 1000 100; do
    for mode in pfc ib; do
      cycles=$((PORT_CYCLES / ports))
      wall="$("$BIN" --ports "$ports" --classes $CLASSES --load "$load" --mode "$mode" \
                     --cycles "$cycles" --warmup $WARMUP)"
      pcps="$(sed -E 's/.*"port_cycles_per_s": ([0-9]+).*/\1/' <<<"$wall")"
      cg_cycles=$((CG_PORT_CYCLES / ports))
      cg="$OUT/callgrind-$ports-$load-$mode.out"
      valgrind --tool=callgrind --toggle-collect=bench_measured_run --callgrind-out-file="$cg" \
        "$BIN" --ports "$ports" --classes $CLASSES --load "$load" --mode "$mode" \
        --cycles "$cg_cycles" --warmup $CG_WARMUP >/dev/null 2>&1
      sw_ipc="$(ipc lfc_switch_step "$ports" "$cg_cycles" "$mode" "$load")"
      tb_ipc="$(ipc lfc_star_step "$ports" "$cg_cycles" "$mode" "$load")"
      printf '%5s %7s %5s %4s %14s %10s %10s\n' "$ports" $CLASSES "$load" "$mode" "$pcps" \
        "$sw_ipc" "$tb_ipc"
      rows+=("$(printf '{"ports": %s, "classes": %s, "load": %s, "mode": "%s", ' \
        "$ports" $CLASSES "$load" "$mode")$(printf '"port_cycles_per_s": %s, ' "$pcps")$(printf \
        '"instructions_per_port_cycle": %s, "testbed_instructions_per_port_cycle": %s}' \
        "$sw_ipc" "$tb_ipc")")
      if [ "$ports" = 32 ] && [ "$load" = 1000 ]; then
        callgrind_annotate --auto=no --threshold=95 "$cg" 2>/dev/null |
          grep -E '^ *[0-9,]+ \(' | grep -v 'PROGRAM TOTALS' |
          grep -vE 'cmodel/src/(star|nic|link|traffic)\.c|bench_model\.c' | sed -n '1,12p' \
          >"$OUT/hotspots-$mode.txt" || true
        if awk -v x="$sw_ipc" -v t=$TARGET 'BEGIN { exit !(x > t) }'; then
          echo "    above the target of $TARGET instructions per port-cycle; hot spots (exclusive):"
          sed 's/^/      /' "$OUT/hotspots-$mode.txt"
        fi
      fi
      rm -f "$cg"
    done
  done
done
# One write, checked, to a temporary name renamed into place: a full disk leaves the old file.
text="["
for i in "${!rows[@]}"; do
  sep=","
  [ "$i" -eq $((${#rows[@]} - 1)) ] && sep=""
  text+=$'\n'"  ${rows[$i]}$sep"
done
text+=$'\n'"]"
if ! { printf '%s\n' "$text" >"$json.tmp" && mv -f "$json.tmp" "$json"; } 2>/dev/null; then
  rm -f "$json.tmp"
  echo "bench: cannot write $json" >&2
  exit 2
fi
echo "bench: wrote $json"
BUILD="$BUILD" bash scripts/bench-cosim.sh  # the co-simulation (tb/): Verilator, Icarus, model
MAKEFLAGS= make -s BUILD="$BUILD" bench-sim  # the fabric simulator (sim/): sim.json
