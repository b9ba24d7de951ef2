#!/usr/bin/env bash
# test_calc_sweep_standin.sh - a stand-in for lfc-sim in the tests of scripts/sweep.
#
#   test_calc_sweep_standin.sh SCENARIO --json FILE [--set section.key=value ...]
#
# Writes FILE with a "summary" computed from the --set values, so the test can check that each
# CSV row carries its own point's results: drops = a * b and pause_frames = a + b (a, b the
# values of t.a and t.b), delivered_bytes = 64 * a, deadlock = (b > a), sim_cycles = the number
# of --set options, "sets" = all --set values in order, and "slurm_job" = $SLURM_ARRAY_JOB_ID
# (empty outside Slurm). A value "bad" makes it fail like
# lfc-sim does on bad input (one stderr line, exit 2); "nojson" makes it exit 0 without a JSON
# file; "slow" makes it sleep 1 s first. With --estimate (scripts/sweep's check of every point
# before it runs any) it only reads the arguments: "bad" fails there too, as in lfc-sim.
set -euo pipefail
scenario="$1"; shift
[ -f "$scenario" ] || { echo "standin: no scenario '$scenario'" >&2; exit 2; }
json="" a=0 b=0 n=0 sets="" estimate=0
while [ $# -gt 0 ]; do
  case "$1" in
    --json) json="$2"; shift 2 ;;
    --estimate) estimate=1; shift ;;
    --no-progress | --no-warnings) shift ;;
    --set)
      kv="$2"; shift 2; n=$((n + 1)); sets="$sets${sets:+;}$kv"
      case "${kv#*=}" in
        bad) echo "$scenario: --set $kv: bad value 'bad'; allowed: numbers" >&2; exit 2 ;;
        nojson) [ "$estimate" -eq 1 ] || exit 0 ;;
        slow) [ "$estimate" -eq 1 ] || sleep 1 ;;
      esac
      case "${kv%%=*}" in t.a) a="${kv#*=}" ;; t.b) b="${kv#*=}" ;; esac ;;
    *) echo "standin: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[ "$estimate" -eq 0 ] || exit 0
[ -n "$json" ] || { echo "standin: no --json" >&2; exit 2; }
dl=false; [ "$b" -gt "$a" ] && dl=true
printf '{"summary": {"sim_cycles": %d, "delivered_bytes": %d, "drops": %d, "pause_frames": %d, "ecn_marks": 0, "deadlock": %s, "deadlock_cycle": null, "wall_seconds": 0.001, "sets": "%s", "scenario": "%s", "slurm_job": "%s"}, "flows": []}\n' \
  "$n" $((64 * a)) $((a * b)) $((a + b)) "$dl" "$sets" "$scenario" "${SLURM_ARRAY_JOB_ID:-}" >"$json"
