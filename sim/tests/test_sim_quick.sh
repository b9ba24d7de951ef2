#!/bin/sh
# test_sim_quick.sh LFC_SIM LFC_SIM_CHECK OUTDIR - a few scenarios of lfc-sim for `make check`,
# a few seconds: the checks of test_sim.sh (`make test-sim`, every scenario) on QUICK_SCENARIOS,
# small fabrics that cover IB credits, PFC, DCQCN, a deadlock and a fat tree:
#  1. skip-ahead == stepping every cycle: LFC_SIM (built for speed) with skip-ahead and on 2
#     threads, LFC_SIM_CHECK (the model's assertions on) stepping every cycle and skipping
#     ahead: one digest of all counters, flows and link words;
#  2. a claim of each (docs/sim.md "Tests"), read from --json: IB incast never drops, PFC incast
#     pauses without drops, the PFC ring deadlocks and it is detected.
#
# Exit status: 0 every check held, 1 one failed, 2 bad arguments.
set -u
if [ $# -ne 3 ]; then
  echo "usage: $0 LFC_SIM LFC_SIM_CHECK OUTDIR" >&2
  exit 2
fi
SIM=$1
CHK=$2
OUT=$3
DIR=$(dirname "$0")/../scenarios
QUICK_SCENARIOS="ib_incast pfc_incast ring_deadlock_pfc victim_dcqcn fat_tree_mix"
mkdir -p "$OUT" || exit 2
fail=0
ok() { echo "  ok   $*"; }
bad() { echo "  FAIL $*"; fail=1; }
digest() { sed -n 's/^digest //p'; }

for n in $QUICK_SCENARIOS; do
  f="$DIR/$n.ini"
  a=$("$SIM" "$f" --no-progress --digest --json "$OUT/$n.json" 2>&1) ||
    { bad "$n: skip-ahead run failed: $(echo "$a" | tail -3)"; continue; }
  b=$("$CHK" "$f" --no-progress --digest --step-all 2>&1) ||
    { bad "$n: stepped run failed: $(echo "$b" | grep -E 'MISMATCH|ERROR')"; continue; }
  c=$("$CHK" "$f" --no-progress --digest 2>&1) ||
    { bad "$n: checked skip-ahead run failed: $(echo "$c" | tail -3)"; continue; }
  t=$("$SIM" "$f" --no-progress --digest --threads 2 2>&1) ||
    { bad "$n: --threads 2 run failed: $(echo "$t" | tail -3)"; continue; }
  da=$(echo "$a" | digest); db=$(echo "$b" | digest); dc=$(echo "$c" | digest)
  dt=$(echo "$t" | digest)
  if [ -n "$da" ] && [ "$da" = "$db" ] && [ "$da" = "$dc" ] && [ "$da" = "$dt" ]; then
    ok "$n: skip-ahead == every cycle == checked == 2 threads (digest $da)"
  else
    bad "$n: digests differ: skip-ahead $da, every cycle $db, checked $dc, 2 threads $dt"
  fi
done

# claim NAME SCENARIO PYTHON-EXPR: the expression sees s (the JSON's summary) and d (all of it).
claim() {
  if [ ! -s "$OUT/$2.json" ]; then bad "$1: no $OUT/$2.json"; return; fi
  if python3 - "$OUT/$2.json" "$3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); s = d["summary"]
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
  then ok "$1: $3"; else bad "$1: $3"; fi
}
claim "IB incast never drops" ib_incast 's["drops"] == 0 and s["delivered_bytes"] > 200000'
claim "PFC incast pauses, no drops" pfc_incast 's["pause_frames"] > 10 and s["drops"] == 0'
claim "ring deadlocks under PFC, detected" ring_deadlock_pfc \
  's["deadlock"] and len(d["deadlock"]["queues"]) == 4'

if [ $fail -eq 0 ]; then echo "test-sim-quick: all passed"; else echo "test-sim-quick: FAILED"; fi
exit $fail
