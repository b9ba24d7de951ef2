#!/bin/sh
# test_sim_tsan.sh LFC_SIM_TSAN OUTDIR - `make test-sim-tsan` (docs/sim.md "Threads"): lfc-sim
# built with ThreadSanitizer runs scenarios that use every path between threads (words across
# lanes, the merge of deliveries, drops and per-hop records, CNPs, flows started by the merge,
# samples and a deadlock stop, adaptive routing's route records) on 2 and 3 threads. Any report fails the run (exit status 66);
# the digest must equal the one-thread digest of the same binary.
set -u
SIM=$1
OUT=$2
DIR=$(dirname "$0")/../scenarios
mkdir -p "$OUT"
export TSAN_OPTIONS="halt_on_error=1 exitcode=66"
fail=0
# and a k = 8 fat tree (208 devices: every lane has work in every window)
for n in fat_tree_mix victim_dcqcn collectives_ina ring_deadlock_pfc bounce_deadlock_pfc \
         fat_tree_k8 permutation_ar; do
  ini="$DIR/$n.ini"
  set --
  # the fabric of test_sim.sh, shorter: ThreadSanitizer runs it 5-15 times slower
  [ "$n" = fat_tree_k8 ] && ini="$(dirname "$0")/fat_tree_k8.ini" && set -- --set sim.duration_us=4
  [ "$n" = permutation_ar ] && set -- --set sim.duration_us=5
  ref=$("$SIM" "$ini" "$@" --no-progress --digest 2>"$OUT/$n.1.err" | sed -n 's/^digest //p')
  for t in 2 3; do
    out=$("$SIM" "$ini" "$@" --no-progress --digest --threads $t 2>"$OUT/$n.$t.err"); rc=$?
    d=$(echo "$out" | sed -n 's/^digest //p')
    if [ $rc -ne 0 ] || grep -q ThreadSanitizer "$OUT/$n.$t.err"; then
      echo "  FAIL $n --threads $t: exit $rc: $(grep -m1 -A3 'WARNING: ThreadSanitizer' "$OUT/$n.$t.err")"
      fail=1
    elif [ -z "$d" ] || [ "$d" != "$ref" ]; then
      echo "  FAIL $n --threads $t: digest $d, one thread $ref"
      fail=1
    else
      echo "  ok   $n --threads $t: no ThreadSanitizer report, digest $d as with one thread"
    fi
  done
done
# --pcap (docs/sim.md "Captures"): the lanes append to the captures of the wires they send on,
# the samples write them between windows; the files are the same bytes as with one thread.
ini="$(dirname "$0")/fat_tree_k8.ini"
set -- --set sim.duration_us=4 --no-progress --pcap-links "edge0, agg1, core2"
rm -rf "$OUT/pcap.1" "$OUT/pcap.2" "$OUT/pcap.3"
"$SIM" "$ini" "$@" --pcap "$OUT/pcap.1" >/dev/null 2>"$OUT/pcap.1.err"
for t in 2 3; do
  "$SIM" "$ini" "$@" --threads $t --pcap "$OUT/pcap.$t" >/dev/null 2>"$OUT/pcap.$t.err"; rc=$?
  if [ $rc -ne 0 ] || grep -q ThreadSanitizer "$OUT/pcap.$t.err"; then
    echo "  FAIL --pcap --threads $t: exit $rc:" \
      "$(grep -m1 -A3 'WARNING: ThreadSanitizer' "$OUT/pcap.$t.err")"
    fail=1
  elif ! diff -r "$OUT/pcap.1" "$OUT/pcap.$t" >/dev/null || [ -z "$(ls "$OUT/pcap.1")" ]; then
    echo "  FAIL --pcap --threads $t: the files differ from one thread's (or there are none)"
    fail=1
  else
    echo "  ok   --pcap --threads $t: no ThreadSanitizer report," \
      "$(ls "$OUT/pcap.$t" | wc -l) files as with one thread"
  fi
done
[ $fail -eq 0 ] && echo "test-sim-tsan: all passed" || echo "test-sim-tsan: FAILED"
exit $fail
