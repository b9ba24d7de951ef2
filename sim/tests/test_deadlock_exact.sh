#!/bin/sh
# test_deadlock_exact.sh LFC_SIM OUTDIR - the deadlock detector's wait-for graph is exact
# (docs/sim.md "Deadlock detection"): `make test-sim-deadlock`, about 30 s.
#  1. no false deadlock: random fabrics whose routing leaves no cycle of channel dependencies
#     (leaf-spine and fat tree with shortest paths, up*/down* with failed links, rings routed
#     up*/down*, lines), under heavy congestion that keeps flowing (uniform, permutation,
#     all-to-all and crossing incasts at full load into hosts that drain slowly), seeds 1 to 3
#     (sim/tests/deadlock_gen.py): no deadlock reported, queues paused or credit-starved, data
#     delivered. The detector that joined every blocked queue of the next switch reported a
#     cycle in 14 of these 48 fabrics;
#  2. every deliberate deadlock is still found, with the same queues formed at the same cycle
#     (the values the earlier detector reported), with 1 and 3 threads and stepping every cycle,
#     and a ring whose stopped queues hold packets for the next switch (ring_mixed_hops.ini):
#     waited for are the occupants of the buffer that stops a queue, not its own packets' routes;
#  3. random rings routed clockwise (cyclic) deadlock, reported with the clockwise queues;
#  4. the checker can fail: expecting no deadlock on ring_deadlock_pfc is rejected.
# Exit status 0 all passed, 1 a check failed, 2 bad usage.
set -u
if [ $# -ne 2 ]; then
  echo "usage: test_deadlock_exact.sh LFC_SIM OUTDIR" >&2
  exit 2
fi
SIM=$1
OUT=$2
HERE=$(dirname "$0")
DIR=$HERE/../scenarios
mkdir -p "$OUT" || exit 2
fail=0
ok() { echo "  ok   $*"; }
bad() { echo "  FAIL $*"; fail=1; }

# summary JSON EXPR: exit status of a Python expression over the run's JSON (s: summary,
# d: all, cyc: the cycle as "sw pP cC ..." text)
summary() {
  python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); s = d["summary"]
cyc = " ".join(f'{q["switch"]} p{q["port"]} c{q["class"]}' for q in d["deadlock"]["queues"])
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
}
# run NAME INI [args]: JSON into $OUT/NAME.json; 0 if lfc-sim exited 0 (names its variables
# r_*: a function shares the callers' variables)
run() {
  r_name=$1; shift; r_ini=$1; shift
  "$SIM" "$r_ini" --no-progress --json "$OUT/$r_name.json" "$@" >"$OUT/$r_name.txt" 2>&1 && return 0
  bad "$r_name: lfc-sim exited $?: $(tail -1 "$OUT/$r_name.txt")"
  return 1
}

# --- 1. no false deadlock -------------------------------------------------------------
N=16
for seed in 1 2 3; do
  gen=$OUT/gen_$seed
  rm -rf "$gen"
  python3 "$HERE/deadlock_gen.py" $seed $N "$gen" >"$OUT/gen_$seed.txt" || { bad "deadlock_gen.py $seed failed"; continue; }
  falses=0
  while read -r name what; do
    run "s${seed}_$name" "$gen/$name.ini" || continue
    j=$OUT/s${seed}_$name.json
    if ! summary "$j" 'not s["deadlock"]'; then
      bad "seed $seed $name ($what): deadlock reported on a routing without cycles: $(grep DEADLOCK "$OUT/s${seed}_$name.txt")"
      falses=$((falses + 1))
    elif ! summary "$j" 's["delivered_bytes"] > 0 and s["paused_queue_cycles"] + s["credit_starved_queue_cycles"] > 0'; then
      bad "seed $seed $name ($what): not the heavy, flowing congestion the test needs"
    fi
  done <"$OUT/gen_$seed.txt"
  [ $falses -eq 0 ] && ok "seed $seed: $N random deadlock-free fabrics under heavy congestion, no deadlock reported" ||
    bad "seed $seed: $falses of $N deadlock-free fabrics reported a deadlock"
done

# --- 2. the deliberate deadlocks: same queues, same cycle -----------------------------
# (ring_mixed_hops, sim/tests: a detector that followed the routes of a queue's own packets
# instead of the buffer's occupants saw its cycle only at cycle 6468)
while read -r name sc cycle args; do
  case $sc in
    bounce_*) expect="leaf0 p2 c0 spine0 p2 c0 leaf2 p3 c0 spine1 p0 c0" ;;
    ring_mixed_hops) expect="sw0 p3 c0 sw1 p3 c0 sw2 p3 c0 sw3 p3 c0" ;;
    *) expect="sw0 p2 c0 sw1 p2 c0 sw2 p2 c0 sw3 p2 c0" ;;
  esac
  ini=$DIR/$sc.ini
  [ -f "$HERE/$sc.ini" ] && ini=$HERE/$sc.ini
  # shellcheck disable=SC2086  # args: words of a fixed list
  run "$name" "$ini" $args || continue
  if summary "$OUT/$name.json" "s['deadlock'] and s['deadlock_cycle'] == $cycle and cyc == '$expect'"; then
    ok "$name: deadlock ($expect) formed at cycle $cycle"
  else
    bad "$name: expected deadlock ($expect) formed at cycle $cycle; got: $(grep -i deadlock "$OUT/$name.txt")"
  fi
done <<'EOF'
ring_pfc ring_deadlock_pfc 392
ring_pfc_t3 ring_deadlock_pfc 392 --threads 3
ring_pfc_step ring_deadlock_pfc 392 --step-all
ring_ib ring_deadlock_ib 980
ring_ib_t3 ring_deadlock_ib 980 --threads 3
identity_pfc ring_classes_pfc 392 --set classmap.sw3-sw0=0,1
identity_ib ring_classes_ib 980 --set classmap.sw3-sw0=0,1
bounce bounce_deadlock_pfc 588
bounce_t3 bounce_deadlock_pfc 588 --threads 3
bounce_step bounce_deadlock_pfc 588 --step-all
bounce_stop bounce_deadlock_pfc 588 --set sim.stop_on_deadlock=1
mixed ring_mixed_hops 3528
mixed_t3 ring_mixed_hops 3528 --threads 3
mixed_step ring_mixed_hops 3528 --step-all
EOF
for sc in ring_updown ring_classes_pfc ring_classes_ib; do
  run "$sc" "$DIR/$sc.ini" || continue
  summary "$OUT/$sc.json" 'not s["deadlock"]' && ok "$sc: no deadlock" || bad "$sc: deadlock reported"
done

# --- 3. random cyclic rings deadlock --------------------------------------------------
gen=$OUT/gen_cyclic
rm -rf "$gen"
python3 "$HERE/deadlock_gen.py" 4 6 "$gen" cyclic >"$OUT/gen_cyclic.txt" || bad "deadlock_gen.py cyclic failed"
while read -r name expect; do
  run "cyc_$name" "$gen/$name.ini" || continue
  if summary "$OUT/cyc_$name.json" "s['deadlock'] and cyc == '$expect'"; then
    ok "cyclic $name ($(sed -n '1s/^; //p' "$gen/$name.ini" | cut -d: -f2)): deadlock ($expect)"
  else
    bad "cyclic $name: expected deadlock ($expect); got: $(grep -i deadlock "$OUT/cyc_$name.txt")"
  fi
done <"$OUT/gen_cyclic.txt"

# --- 4. the checker can fail ----------------------------------------------------------
if summary "$OUT/ring_pfc.json" 'not s["deadlock"]'; then
  bad "mutant check: a no-deadlock expectation passed on ring_deadlock_pfc"
else
  ok "a no-deadlock expectation on ring_deadlock_pfc is rejected (the checker can fail)"
fi

[ $fail -eq 0 ] && echo "test-sim-deadlock: all passed" || echo "test-sim-deadlock: FAILED"
exit $fail
