#!/bin/sh
# test_sim.sh LFC_SIM OUTDIR [LFC_SIM_CHECK] - the checks of `make test-sim` (docs/sim.md "Tests"):
#  1. skip-ahead == stepping every cycle: every scenario run both ways, same digest of all
#     counters, flows and link words; the stepped run also checks the rebuilt link words against
#     lfc_link in every cycle (exit 1 on a mismatch). LFC_SIM_CHECK (the model with its
#     assertions, which check the skip-ahead contract on every jump) runs the stepped and a
#     second skip-ahead run; LFC_SIM (built for speed) must give the same digest;
#     and threads: LFC_SIM with --threads 2 and 3 (docs/sim.md "Threads") must give the same
#     digest as with one;
#  2. the expected outcome of each claim (docs/sim.md "Tests"), read from --json;
#  3. a checker that can fail: a deliberately wrong expectation is caught;
#  4. bad input: one line naming file:line, key and value, exit status 2.
# Every run has a time limit (SIM_TIMEOUT_S, default 600 s, some hundred times a run's time
# here): a simulator that never ends fails the check instead of holding up the suite.
set -u
SIM_BIN=$1
OUT=$2
CHK_BIN=${3:-$1}
LIMIT=${SIM_TIMEOUT_S:-600}
case $LIMIT in # timeout(1) takes seconds with a fraction; 0 would mean no limit
  *[!0-9.]*|*.*.*|.*|*.|'') ok_limit=0 ;;
  *[1-9]*) ok_limit=1 ;;
  *) ok_limit=0 ;;
esac
if [ "$ok_limit" -eq 0 ]; then
  echo "test_sim.sh: SIM_TIMEOUT_S='$LIMIT': must be a number of seconds above 0 (e.g. 600 or 0.5)" >&2
  exit 2
fi
DIR=$(dirname "$0")/../scenarios
mkdir -p "$OUT"
sim_timed() { timeout "$LIMIT" "$SIM_BIN" "$@"; }
chk_timed() { timeout "$LIMIT" "$CHK_BIN" "$@"; }
SIM=sim_timed
CHK=chk_timed
fail=0
ok() { echo "  ok   $*"; }
bad() { echo "  FAIL $*"; fail=1; }

# --- 1. skip-ahead equivalence --------------------------------------------------------
for f in "$DIR"/*.ini; do
  n=$(basename "$f" .ini)
  a=$("$SIM" "$f" --no-progress --digest --json "$OUT/$n.json" 2>&1) || { bad "$n: skip-ahead run failed: $(echo "$a" | tail -3)"; continue; }
  b=$("$CHK" "$f" --no-progress --digest --step-all 2>&1) || { bad "$n: stepped run failed: $(echo "$b" | grep -E 'MISMATCH|ERROR' )"; continue; }
  c=$("$CHK" "$f" --no-progress --digest 2>&1) || { bad "$n: checked skip-ahead run failed: $(echo "$c" | tail -3)"; continue; }
  t2=$("$SIM" "$f" --no-progress --digest --threads 2 2>&1) || { bad "$n: --threads 2 run failed: $(echo "$t2" | tail -3)"; continue; }
  t3=$("$SIM" "$f" --no-progress --digest --threads 3 2>&1) || { bad "$n: --threads 3 run failed: $(echo "$t3" | tail -3)"; continue; }
  da=$(echo "$a" | sed -n 's/^digest //p'); db=$(echo "$b" | sed -n 's/^digest //p'); dc=$(echo "$c" | sed -n 's/^digest //p')
  d2=$(echo "$t2" | sed -n 's/^digest //p'); d3=$(echo "$t3" | sed -n 's/^digest //p')
  if [ -n "$da" ] && [ "$da" = "$d2" ] && [ "$da" = "$d3" ]; then ok "$n: 1 thread == 2 threads == 3 threads (digest $da)"
  else bad "$n: digests differ: 1 thread $da, 2 threads $d2, 3 threads $d3"; fi
  sa=$(echo "$a" | sed -n 's/.*device steps \([0-9]*\).*/\1/p'); sb=$(echo "$b" | sed -n 's/.*device steps \([0-9]*\).*/\1/p')
  if [ -n "$da" ] && [ "$da" = "$db" ] && [ "$da" = "$dc" ]; then ok "$n: skip-ahead == every cycle (digest $da; $sa vs $sb device steps)"
  else bad "$n: digests differ: skip-ahead $da, every cycle $db, checked skip-ahead $dc"; fi
done
# Threads on a larger fabric: a k = 8 fat tree (208 devices, 8 lanes with 8 threads) under
# permutation and uniform traffic, whose flows are delivered and sampled in many lanes at once.
k8="$(dirname "$0")/fat_tree_k8.ini"
d1=$("$SIM" "$k8" --no-progress --digest | sed -n 's/^digest //p')
for t in 2 3 8; do
  dt=$("$SIM" "$k8" --no-progress --digest --threads $t | sed -n 's/^digest //p')
  [ -n "$d1" ] && [ "$d1" = "$dt" ] && ok "fat tree k=8: 1 thread == $t threads (digest $d1)" ||
    bad "fat tree k=8: digests differ: 1 thread $d1, $t threads $dt"
done
# ... and its time series (--csv), sampled every 0.25 us between windows: the flows'
# throughput reads their records, which the lanes must all have applied before a sample.
for t in 1 2; do
  rm -rf "$OUT/k8_csv$t"
  "$SIM" "$k8" --no-progress --threads $t --csv "$OUT/k8_csv$t" --set sim.sample_us=0.25 \
    >/dev/null 2>&1 || bad "fat tree k=8 --csv --threads $t: exit $?"
done
for f in flows.csv queues.csv; do
  if [ -s "$OUT/k8_csv1/$f" ] && cmp -s "$OUT/k8_csv1/$f" "$OUT/k8_csv2/$f"; then
    ok "fat tree k=8: $f of 1 thread == of 2 threads ($(wc -l < "$OUT/k8_csv1/$f") lines)"
  else bad "fat tree k=8: $f differs between 1 and 2 threads (or is missing)"; fi
done
# Different seeds must give a different digest (the digest sees what changes).
d1=$("$SIM" "$DIR/fat_tree_mix.ini" --no-progress --digest | sed -n 's/^digest //p')
d2=$("$SIM" "$DIR/fat_tree_mix.ini" --no-progress --digest --seed 7 | sed -n 's/^digest //p')
[ "$d1" != "$d2" ] && ok "digest changes with the seed" || bad "digest blind to the seed"

# --- 2. outcomes ----------------------------------------------------------------------
check() { # check NAME JSON PYTHON-EXPR [--set ...]: the expression sees s (summary), d (all)
  name=$1; json=$2; expr=$3
  if python3 - "$json" "$expr" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); s = d["summary"]
fl = {f["group"]: f for f in d["flows"]}
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
  then ok "$name: $expr"; else bad "$name: $expr"; fi
}
run() { # run NAME SCENARIO [args]: JSON into $OUT/NAME.json
  name=$1; shift; sc=$1; shift
  "$SIM" "$DIR/$sc.ini" --no-progress --json "$OUT/$name.json" "$@" >"$OUT/$name.txt" 2>&1 ||
    bad "$name: lfc-sim exited $?"
}

for vl in 65 128 512 2048; do
  run ib_incast_$vl ib_incast --set ib.vl_blocks=$vl
  check "IB incast vl_blocks=$vl" "$OUT/ib_incast_$vl.json" 's["drops"] == 0 and s["delivered_bytes"] > 200000'
done

# Headroom from the calculator for 100 m at 100 Gb/s, 4096-byte packets (the scenario's links).
hr=$("$SIM" headroom --speed-gbps 100 --cable-m 100 --mtu 4096 2>/dev/null | sed -n 's/.*headroom_blocks[ =:]*\([0-9][0-9]*\).*/\1/p' | head -1)
if [ -z "$hr" ]; then
  hr=$("$SIM" headroom --speed-gbps 100 --cable-m 100 --mtu 4096 2>/dev/null | grep -io '[0-9]* blocks' | tail -1 | grep -o '[0-9]*')
fi
echo "  calculator headroom: ${hr:-?} blocks"
if [ -n "$hr" ]; then
  run hr_below pfc_headroom --set pfc.headroom_blocks=$((hr / 2))
  check "PFC headroom $((hr / 2)) < calculator $hr drops" "$OUT/hr_below.json" 's["drops_by_cause"]["headroom"] > 0'
  run hr_at pfc_headroom --set pfc.headroom_blocks=$hr
  check "PFC headroom = calculator $hr is lossless" "$OUT/hr_at.json" 's["drops"] == 0 and s["delivered_bytes"] > 300000'
else
  bad "could not read the headroom figure from lfc-sim headroom"
fi

check "PFC incast pauses, no drops" "$OUT/pfc_incast.json" 's["pause_frames"] > 10 and s["drops"] == 0'
run victim_alone victim --set traffic.incast.stop_us=0.001
check "victim alone near line rate" "$OUT/victim_alone.json" 'fl["victim"]["throughput_gbps"] > 80'
check "victim under PFC congestion spreading loses throughput" "$OUT/victim.json" 'fl["victim"]["throughput_gbps"] < 0.7 * json.load(open("'"$OUT"'/victim_alone.json"))["flows"][-1]["throughput_gbps"]'

check "ring deadlocks under PFC, detected" "$OUT/ring_deadlock_pfc.json" 's["deadlock"] and len(d["deadlock"]["queues"]) == 4'
check "ring deadlocks under IB credits, detected" "$OUT/ring_deadlock_ib.json" 's["deadlock"] and len(d["deadlock"]["queues"]) == 4'
check "up*/down* on the same ring: no deadlock, data flows" "$OUT/ring_updown.json" 'not s["deadlock"] and s["delivered_bytes"] > 500000'

run lat_ib latency
run lat_eth latency --set switch.latency_ns=600 --set switch.cut_through=0
check "IB-class cut-through latency 3 hops" "$OUT/lat_ib.json" '300 < d["flows"][0]["latency_ns_p50"] < 1000'
check "Ethernet-class store-and-forward latency is higher by ~3 x (470 ns + 1 KB serialisation)" "$OUT/lat_eth.json" 'd["flows"][0]["latency_ns_p50"] - json.load(open("'"$OUT"'/lat_ib.json"))["flows"][0]["latency_ns_p50"] > 3 * 470'

check "ring and tree all-reduce complete" "$OUT/allreduce.json" 's["flows_complete"] == s["flows"] and s["drops"] == 0'

# Per-hop latency: time in each switch, first block in to first block out.
check "IB-class cut-through: each of the 3 hops 100-200 ns" "$OUT/lat_ib.json" 'len(d["flows"][0]["hops"]) == 3 and all(100 <= h["latency_ns_p50"] <= 200 for h in d["flows"][0]["hops"])'
check "Ethernet-class store-and-forward: each hop 600 ns + 1 KB at 100 Gb/s (82 ns), within 600-800 ns" "$OUT/lat_eth.json" 'len(d["flows"][0]["hops"]) == 3 and all(600 <= h["latency_ns_p50"] <= 800 for h in d["flows"][0]["hops"])'

# DCQCN: the same congestion with and without reaction points at the incast senders.
run victim_nodcqcn victim_dcqcn --set traffic.incast.dcqcn=0
V0="json.load(open('$OUT/victim_nodcqcn.json'))"
check "PFC alone: the late victim is starved by congestion spreading" "$OUT/victim_nodcqcn.json" 'fl["victim"]["throughput_gbps"] < 40'
check "ECN + DCQCN: CNPs cut the incast's rates" "$OUT/victim_dcqcn.json" 'all(f["cnps"] > 0 for f in d["flows"] if f["group"] == "incast")'
check "ECN + DCQCN: pause frames cut by a third or more" "$OUT/victim_dcqcn.json" 's["pause_frames"] < 0.67 * '"$V0"'["summary"]["pause_frames"]'
check "ECN + DCQCN: the victim gets its line rate back (> 80 Gb/s, > 2 x PFC alone)" "$OUT/victim_dcqcn.json" 'fl["victim"]["throughput_gbps"] > 80 and fl["victim"]["throughput_gbps"] > 2 * [f for f in '"$V0"'["flows"] if f["group"] == "victim"][0]["throughput_gbps"]'

# Class maps: the rings of ring_deadlock_* with the dateline cable moving packets to class 1.
check "ring, PFC, hops on two classes: no deadlock, data flows" "$OUT/ring_classes_pfc.json" 'not s["deadlock"] and s["delivered_bytes"] > 500000'
check "ring, IB, hops on two VLs: no deadlock, data flows" "$OUT/ring_classes_ib.json" 'not s["deadlock"] and s["delivered_bytes"] > 500000'
# sw3 sends the dateline cable's packets in class 0 and sw0 holds them in class 1: sw0's XOFF of
# class 1 must pause sw3's class 0 (a control word is read through the map of the wire back).
check "ring, PFC: the XOFF of class 1 at sw0 pauses class 0 at sw3" "$OUT/ring_classes_pfc.json" 'any(p["switch"] == "sw3" and p["class"] == 0 and p["pause_rx"] > 0 for p in d["ports"])'
run classes_identity ring_classes_pfc --set classmap.sw3-sw0=0,1
check "the same ring with an identity class map deadlocks (the map is what prevents it)" "$OUT/classes_identity.json" 's["deadlock"]'

# Failed links and bounce routing; the PFC watchdog.
check "leaf-spine, failed links, bounce routing, PFC: deadlock of 4 queues, nothing delivered" "$OUT/bounce_deadlock_pfc.json" 's["deadlock"] and len(d["deadlock"]["queues"]) == 4 and s["delivered_bytes"] == 0'
run bounce_wd bounce_deadlock_pfc --set pfc.wd_enable=1
check "the PFC watchdog breaks it: trips, drops by the watchdog, no lasting deadlock" "$OUT/bounce_wd.json" 'not s["deadlock"] and s["watchdog_trips"] > 0 and s["drops_by_cause"]["watchdog"] > 0'
# Dropping does not make the flows through the cycle deliver: the four queues trip and restore
# together and the cycle forms again after a few packets, each of which a stormed queue drops
# on its way (docs/study: nothing delivered). Forwarding through the storm moves data.
run bounce_wd_fwd bounce_deadlock_pfc --set pfc.wd_enable=1 --set pfc.wd_action=forward
check "the PFC watchdog forwarding: trips, no lasting deadlock, data moves" "$OUT/bounce_wd_fwd.json" 'not s["deadlock"] and s["watchdog_trips"] > 0 and s["delivered_bytes"] > 0'

# Ring all-reduce vs in-network aggregation, and the MFU, on each fabric.
for m in ib pfc; do
  run ina_$m collectives_ina --set switch.mode=$m
  check "$m: ring all-reduce and in-network aggregation complete, no drops" "$OUT/ina_$m.json" 'all(g["complete"] for g in d["groups"]) and s["drops"] == 0'
  check "$m: in-network aggregation < 0.8 x ring all-reduce time, higher MFU" "$OUT/ina_$m.json" '(lambda g: g["sharp"]["time_us"] < 0.8 * g["ring"]["time_us"] and g["sharp"]["mfu"] > g["ring"]["mfu"])({x["name"]: x for x in d["groups"]})'
done

# --- 3. the checks can fail -----------------------------------------------------------
if python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["summary"]; sys.exit(0 if s["deadlock"] else 1)' "$OUT/ring_updown.json"; then
  bad "mutant check: the deadlock check passed on a deadlock-free run"
else ok "a deadlock expectation on the up*/down* run is rejected (the checker can fail)"; fi

# --- 4. bad input ---------------------------------------------------------------------
printf '[topology]\nkind = torus\n' > "$OUT/bad1.ini"
printf '[sim]\nduration_us = 5\n[pfc]\nkmin = 70\nkmax = 60\n' > "$OUT/bad2.ini"
printf '[sim]\n[traffic.x]\npattern = flow\nsrc = 0\ndst = 99\n' > "$OUT/bad3.ini"
printf '[routing]\npath = h0 sw0 h9\n' > "$OUT/bad4.ini"
printf '[topology]\nkind = ring\nswitches = 3\n[classmap]\nsw0-sw9 = 0\n' > "$OUT/bad5.ini"
printf '[topology]\nkind = ring\nswitches = 3\n[switch]\nmode = ib\nclasses = 3\n[classmap]\nsw0-sw1 = 1, 2, 0\n' > "$OUT/bad6.ini"
for b in bad1 bad2 bad3 bad4 bad5 bad6; do
  msg=$("$SIM" "$OUT/$b.ini" 2>&1 >/dev/null); rc=$?
  lines=$(echo "$msg" | wc -l)
  if [ $rc -eq 2 ] && [ "$lines" -eq 1 ] && echo "$msg" | grep -q "$b.ini"; then ok "$b: exit 2: $msg"
  else bad "$b: exit $rc, $lines lines: $msg"; fi
done
msg=$("$SIM" "$DIR/pfc_incast.ini" --set pfc.xoff_th=banana 2>&1 >/dev/null); rc=$?
# An override has no line: the message names it "--set", not "--set:0".
case "$rc $msg" in
  "2 --set: [pfc] xoff_th = banana: "*) ok "--set pfc.xoff_th=banana: exit 2: $msg" ;;
  *) bad "--set bad value: exit $rc: $msg" ;;
esac
for v in 0 65 banana; do
  msg=$("$SIM" "$DIR/pfc_incast.ini" --threads $v 2>&1 >/dev/null); rc=$?
  lines=$(echo "$msg" | wc -l)
  if [ $rc -eq 2 ] && [ "$lines" -eq 1 ] && echo "$msg" | grep -q "threads $v"; then ok "--threads $v: exit 2: $msg"
  else bad "--threads $v: exit $rc, $lines lines: $msg"; fi
done
msg=$("$SIM" "$DIR/pfc_incast.ini" --set sim.threads=0 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && ok "--set sim.threads=0: exit 2: $msg" || bad "--set sim.threads=0: exit $rc: $msg"
# Integers are decimal, 0x hex or 0b binary: a leading zero is not octal (065 was read as 53
# and accepted, 09 was refused).
printf '[sim]\nduration_us = 5\nthreads = 09\n' > "$OUT/zero9.ini"
msg=$("$SIM" "$OUT/zero9.ini" --no-progress 2>&1 >/dev/null); rc=$?
[ $rc -eq 0 ] && ok "threads = 09 is 9" || bad "threads = 09: exit $rc: $msg"
printf '[sim]\nduration_us = 5\nthreads = 065\n' > "$OUT/zero65.ini"
msg=$("$SIM" "$OUT/zero65.ini" --no-progress 2>&1 >/dev/null); rc=$?
case "$rc $msg" in
  "2 $OUT/zero65.ini:3: [sim] threads = 065: allowed: an integer 1..64") ok "threads = 065 is 65: exit 2: $msg" ;;
  *) bad "threads = 065: exit $rc: $msg" ;;
esac

# A key given twice in the file is refused with both lines (the second silently won); a path
# (repeatable) is not a key given twice: bounce_deadlock_pfc above has four.
printf '[sim]\nduration_us = 5\n[traffic.x]\npattern = flow\nsrc = 0\nsrc = 1\ndst = 2\n' > "$OUT/twice.ini"
printf '[sim]\nduration_us = 5\n[switch]\nmode = pfc\n[pfc]\nkmin = 10\n\n[pfc]\nkmin = 20\n' > "$OUT/twice_sw.ini"
for b in "twice.ini:6: [traffic.x] src = 1: given twice (first on line 5)" \
         "twice_sw.ini:9: [pfc] kmin = 20: given twice (first on line 6)"; do
  n=${b%%.ini:*}
  msg=$("$SIM" "$OUT/$n.ini" --no-progress 2>&1 >/dev/null); rc=$?
  case "$rc $msg" in
    "2 $OUT/${b}"*) ok "$n: exit 2: $msg" ;;
    *) bad "$n: exit $rc: $msg" ;;
  esac
done
# A value goes on over indented lines (libinih's continuation lines; the second line replaced
# the first): a host list joined with commas, a path with blanks, the same run as on one line.
digest() { "$SIM" "$1" --no-progress --digest 2>&1 | sed -n 's/^digest //p'; }
sed 's/^src = 1-7$/src = 1-3,\n  4, 5\n\t6-7/' "$DIR/pfc_incast.ini" > "$OUT/cont_src.ini"
sed 's/^path = h0 sw0 sw1 sw2 h2$/path = h0 sw0\n  sw1\n  sw2 h2/' "$DIR/ring_classes_ib.ini" > "$OUT/cont_path.ini"
for pair in "cont_src pfc_incast" "cont_path ring_classes_ib"; do
  n=${pair% *}; base=${pair#* }
  if cmp -s "$OUT/$n.ini" "$DIR/$base.ini"; then bad "$n: the test did not split a line"; continue; fi
  d1=$(digest "$OUT/$n.ini"); d0=$(digest "$DIR/$base.ini")
  if [ -n "$d0" ] && [ "$d1" = "$d0" ]; then ok "$n: a value over indented lines == on one line (digest $d0)"
  else bad "$n: digest $d1, on one line $d0"; fi
done
# A line longer than libinih's buffer was cut, its rest read as a line of its own (a syntax
# error on the wrong line, or a cut comment read as a key): now refused on its own line.
{ printf '[sim]\nduration_us = 5 ; '; head -c 300 /dev/zero | tr '\0' x; printf '\n'; } > "$OUT/long.ini"
msg=$("$SIM" "$OUT/long.ini" --no-progress 2>&1 >/dev/null); rc=$?
case "$rc $msg" in
  "2 $OUT/long.ini:2: line longer than "*) ok "a 318-character line: exit 2: $msg" ;;
  *) bad "a 318-character line: exit $rc: $msg" ;;
esac

[ $fail -eq 0 ] && echo "test-sim: all passed" || echo "test-sim: FAILED"
exit $fail
