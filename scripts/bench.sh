#!/usr/bin/env bash
# Model throughput (cmodel/bench/bench_model.c): star testbeds of 8, 32 and 64 ports with
# 8 classes, uniform traffic at full load (1000 permille) and at 10 %, in PFC and IB mode.
#
# For each configuration:
#   port_cycles_per_s                    wall clock, ports x cycles / seconds (release build)
#   instructions_per_port_cycle          callgrind: inclusive instructions of lfc_switch_step
#                                        per port-cycle (the switch alone)
#   testbed_instructions_per_port_cycle  the same for lfc_star_step (switch, end nodes, links,
#                                        traffic and scoreboard)
# Both callgrind figures count only the measured cycles (--toggle-collect=bench_measured_run),
# after a warm-up that fills the buffers.
#
# Writes build/bench/model.json (an array of objects) and prints a table; the hot spots of the
# 32-port, full-load runs (callgrind_annotate, exclusive cost of the switch's own functions) go
# to build/bench/hotspots-*.txt
# and, if the switch is above TARGET instructions per port-cycle, to the terminal too.
#
# Environment: BUILD (default build); BENCH_PORT_CYCLES (wall-clock run, default 4000000);
# BENCH_CG_PORT_CYCLES (callgrind run, default 320000); BENCH_QUICK=1 runs 32 ports only.
set -euo pipefail

cd "$(dirname "$0")/.."
BUILD="${BUILD:-build}"
BIN="$BUILD/bench/bench_model"
OUT="$BUILD/bench"
PORT_CYCLES="${BENCH_PORT_CYCLES:-4000000}"
CG_PORT_CYCLES="${BENCH_CG_PORT_CYCLES:-320000}"
WARMUP=10000
CG_WARMUP=5000
CLASSES=8
TARGET=100

command -v valgrind >/dev/null || { echo "bench: valgrind is needed (make deps)" >&2; exit 1; }
MAKEFLAGS= make -s BUILD="$BUILD" "$BIN" >/dev/null
mkdir -p "$OUT"

ports_list="8 32 64"
[ "${BENCH_QUICK:-0}" = 1 ] && ports_list="32"

# inclusive FUNCTION FILE: the inclusive Ir of FUNCTION in a callgrind output file.
# callgrind_annotate lists a function once per source file its code came from (code inlined
# from lfc_internal.h is a separate `lfc_internal.h:lfc_switch_step` row), so add up every row.
inclusive() {
  callgrind_annotate --inclusive=yes --threshold=100 "$2" 2>/dev/null |
    awk -v f="$1" '($0 ~ (":" f " ") || $0 ~ (":" f "$")) {
      gsub(",", "", $1); sum += $1 } END { print sum + 0 }'
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
      sw_ir="$(inclusive lfc_switch_step "$cg")"
      tb_ir="$(inclusive lfc_star_step "$cg")"
      pc=$((ports * cg_cycles))
      sw_ipc="$(awk -v a="${sw_ir:-0}" -v b="$pc" 'BEGIN { printf "%.1f", a / b }')"
      tb_ipc="$(awk -v a="${tb_ir:-0}" -v b="$pc" 'BEGIN { printf "%.1f", a / b }')"
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
{
  echo "["
  for i in "${!rows[@]}"; do
    sep=","
    [ "$i" -eq $((${#rows[@]} - 1)) ] && sep=""
    echo "  ${rows[$i]}$sep"
  done
  echo "]"
} >"$json"
echo "bench: wrote $json"
