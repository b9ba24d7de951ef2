#!/usr/bin/env bash
# time-steps.sh - how long each step of a test tier takes: runs `make STEP` for each STEP, one
# after another, and prints a table of wall-clock and CPU (user+sys of make and everything it
# ran) seconds, most CPU first, then the totals. On a shared machine the wall time depends on
# the load; the CPU seconds hardly do, so they are what to compare between runs. Build first
# (make check), or the first step that needs the library pays for building it.
#
#   scripts/time-steps.sh [-C DIR] STEP...     e.g. scripts/time-steps.sh test-unit test-asan
#
# Each step's output goes to BUILD/time-steps/STEP.log (BUILD from the environment, default
# build). Exit status: 0 every step passed, 1 a step failed (named; the others still run),
# 2 bad arguments.
set -uo pipefail
dir=.
if [ "${1-}" = -C ]; then
  [ $# -ge 2 ] || { echo "usage: $0 [-C DIR] STEP..." >&2; exit 2; }
  dir="$2"; shift 2
fi
if [ $# -eq 0 ]; then
  echo "usage: $0 [-C DIR] STEP..." >&2
  exit 2
fi
cd "$dir" || exit 2
build="${BUILD:-build}"
logs="$build/time-steps"
mkdir -p "$logs" || exit 2
unset MAKEFLAGS MFLAGS MAKELEVEL

rows="$logs/rows"
: >"$rows"
failed=()
for step in "$@"; do
  # bash's `time` reports the CPU seconds of the children it waited for, recursively.
  TIMEFORMAT='%R %U %S'
  { time make --no-print-directory BUILD="$build" "$step" >"$logs/$step.log" 2>&1; } \
    2>"$logs/$step.time"
  rc=$?
  read -r real user sys <"$logs/$step.time"
  printf '%s %s %s %s %s\n' "$step" "$real" "$user" "$sys" "$rc" >>"$rows"
  [ "$rc" -eq 0 ] || failed+=("$step")
done

awk '{ cpu = $3 + $4; printf "%-28s %8.1f %8.1f %s\n", $1, $2, cpu, ($5 == 0 ? "" : "FAILED") }' \
  "$rows" | sort -k3,3 -n -r | { printf '%-28s %8s %8s\n' step wall_s cpu_s; cat; }
awk '{ w += $2; c += $3 + $4 } END { printf "%-28s %8.1f %8.1f\n", "total", w, c }' "$rows"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ ${#failed[@]} -ne 0 ]; then
  echo "time-steps: failed: ${failed[*]} (logs in $logs/)" >&2
  exit 1
fi
