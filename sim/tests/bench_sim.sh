#!/bin/sh
# bench_sim.sh LFC_SIM OUT.json - the lfc-sim part of `make bench` (docs/sim.md "Speed"):
# a 1024-host k=16 fat tree under permutation traffic (100 Gb/s, 4 KB packets) for
# BENCH_SIM_US microseconds (default 1000 = 1 ms), and a 128-host 127:1 incast, on
# BENCH_SIM_THREADS threads (default 2: docs/sim.md "Threads"; the results do not depend on it).
# eq_port_cycles_per_s = links x simulated cycles / wall seconds of the simulation loop;
# cpu_seconds (the whole process, setup included, all threads) and the load average tell a busy
# machine's figure from an idle one's.
# The figures the speed goals are measured by (docs/sim.md "Speed"), added to the fat tree's
# entry: the fat tree runs BENCH_SIM_PAIRS times (default 3) on 1 thread and then on 2, the
# pairs one after the other so that a change in the machine's load falls on both runs of a
# pair; `pairs` lists each pair's wall and CPU seconds and speed-up, `speedup_2_threads` is the
# median pair's wall(1) / wall(2) and `scaling` that pair's runs, `cpu_seconds_1_thread` the
# median of the 1-thread runs' CPU seconds, `peak_rss_mb` the largest of the runs' on
# BENCH_SIM_THREADS threads; and an entry of its own,
# `instructions_per_packet_hop`: callgrind's instruction count (whole program) of a k=8 fat tree
# (128 hosts, the same traffic) for BENCH_SIM_CALLGRIND_US microseconds (default 500, about 20 s
# under callgrind) over that run's delivered packet-hops; with it `instructions_by_part` (the
# run's instructions by the source file they come from: callgrind_annotate) and
# `device_steps_per_packet_hop` (lfc-sim's "device steps" line: is the cost per event?). A
# table after the JSON puts each figure beside its goal and beside the figures docs/sim.md
# records, then the parts and the steps per packet-hop (bench_sim_report.py).
# "Today's" code runs in the same pairs: BENCH_SIM_BASELINE (default eb8d2dd, the commit whose
# figures docs/sim.md records as today's; empty: none) is built from git by
# bench_sim_baseline.sh into the directory of OUT.json, and each pair starts with its run of the
# fat tree on one thread, so that the CPU goal (a fifth of today's CPU seconds) is also measured
# as a ratio of two runs minutes apart: `baseline` in the fat tree's entry (its rev, the median
# of the per-pair ratios of its CPU seconds to this code's on one thread, each pair's in
# `pairs`). A checkout without the default's commit (no git, a shallow clone) runs without it;
# one given in BENCH_SIM_BASELINE must be there.
# lfc-sim runs with glibc's heap on transparent huge pages (docs/sim.md "Speed": the fat tree's
# state is spread over some 100 MB, and with 4 KB pages much of a step is TLB misses); the
# setting is in the JSON (glibc_tunables). BENCH_SIM_TUNABLES= (empty) runs without it.
# Exit status: 0 written; 1 the fat tree's results differ between 1 and 2 threads; 2 a bad
# BENCH_SIM_* value (one line naming it: also a BENCH_SIM_BASELINE that is no commit here), a
# missing tool (valgrind, callgrind_annotate), the baseline's tree not building, the callgrind
# run's parts not summing to its total or its report without "device steps", OUT.json not
# written.
set -eu
EXIT_BAD=2
if [ $# -ne 2 ]; then
  echo "usage: bench_sim.sh LFC_SIM OUT.json" >&2
  exit $EXIT_BAD
fi
SIM=$1
OUT=$2
US=${BENCH_SIM_US:-1000}
CG_US=${BENCH_SIM_CALLGRIND_US:-500}
THREADS=${BENCH_SIM_THREADS:-2}
PAIRS=${BENCH_SIM_PAIRS:-3}
TUNABLES=${BENCH_SIM_TUNABLES-glibc.malloc.hugetlb=1}
BASELINE=${BENCH_SIM_BASELINE-eb8d2dd}
EXIT_NO_BASELINE=3 # bench_sim_baseline.sh: none, and it said why
HERE=$(dirname "$0")
for v in BENCH_SIM_US=$US BENCH_SIM_CALLGRIND_US=$CG_US BENCH_SIM_THREADS=$THREADS \
         BENCH_SIM_PAIRS=$PAIRS; do
  case ${v#*=} in
    ''|*[!0-9]*|0*) echo "bench_sim.sh: ${v%%=*}='${v#*=}': must be a positive integer" >&2
                    exit $EXIT_BAD ;;
  esac
done
# The default's commit may be missing (no git, a shallow clone): the bench goes on without it,
# as it does with BENCH_SIM_BASELINE empty; a commit given in BENCH_SIM_BASELINE must be there.
if BASE_SIM=$("$HERE/bench_sim_baseline.sh" "$BASELINE" "$(dirname "$OUT")/baseline"); then
  :
else
  rc=$?
  if [ $rc -ne $EXIT_NO_BASELINE ] || [ -n "${BENCH_SIM_BASELINE:-}" ]; then exit $EXIT_BAD; fi
  BASE_SIM=
fi
for tool in valgrind callgrind_annotate; do
  command -v $tool >/dev/null || { echo "bench_sim.sh: $tool not found (make deps-minimal)" >&2
                                   exit $EXIT_BAD; }
done
TMP=$(mktemp -d)
trap 'rm -rf "$TMP" "$OUT.tmp"' EXIT # a report that failed half-way leaves no OUT.tmp
"$HERE/bench_fat_tree.sh" 16 "$US" > "$TMP/ft.ini"
"$HERE/bench_fat_tree.sh" 8 "$CG_US" > "$TMP/ft8.ini"
cat > "$TMP/incast.ini" <<INI
[sim]
duration_us = $US
sample_us = 1000000
[topology]
kind = leaf_spine
leaves = 4
spines = 4
hosts_per_leaf = 32
[switch]
mode = pfc
classes = 1
[traffic.incast]
pattern = incast
src = 1-127
dst = 0
packet_bytes = 4096
INI
# run NAME INI THREADS [LFC_SIM]: $TMP/NAME.json (lfc-sim's --json) and $TMP/NAME.run (peak RSS
# in KB, CPU seconds, load average of the minute before, threads, and of the cycles the lanes
# stepped those one thread stepped alone and all, from the report's "threads" line: 0 0 without
# one); LFC_SIM
# defaults to $SIM.
run() {
  load=$(cut -d' ' -f1 /proc/loadavg)
  out=$(GLIBC_TUNABLES=$TUNABLES /usr/bin/time -f 'rss_kb %M cpu %U %S' \
        "${4:-$SIM}" "$2" --no-progress --threads "$3" --json "$TMP/$1.json" 2>&1)
  rss=$(echo "$out" | sed -n 's/^rss_kb \([0-9]*\) .*/\1/p')
  cpu=$(echo "$out" | sed -n 's/^rss_kb [0-9]* cpu \([0-9.]*\) \([0-9.]*\)/\1 + \2/p' | bc)
  alone=$(echo "$out" | sed -n 's/^  threads [0-9]*: \([0-9]*\) of \([0-9]*\) cycles .*/\1 \2/p')
  echo "$rss $cpu $load $3 ${alone:-0 0}" > "$TMP/$1.run"
}
[ -z "$BASE_SIM" ] || echo "$BASELINE" > "$TMP/baseline.rev"
i=1
while [ "$i" -le "$PAIRS" ]; do
  [ -z "$BASE_SIM" ] || run "base_$i" "$TMP/ft.ini" 1 "$BASE_SIM"
  run "ft_t1_$i" "$TMP/ft.ini" 1
  run "ft_t2_$i" "$TMP/ft.ini" 2
  i=$((i + 1))
done
case $THREADS in
  1|2) ;; # the report takes the entry from the pairs' runs
  *) run ft "$TMP/ft.ini" "$THREADS" ;;
esac
run incast "$TMP/incast.ini" "$THREADS"
# callgrind runs one thread at a time whatever --threads says; one thread counts no lanes' work.
valgrind --tool=callgrind --callgrind-out-file="$TMP/ft8.callgrind" \
  "$SIM" "$TMP/ft8.ini" --no-progress --threads 1 --json "$TMP/ft8.json" \
  > "$TMP/ft8.out" 2> /dev/null
# every function's own instructions, for `instructions_by_part` (bench_sim_report.py)
callgrind_annotate --auto=no --inclusive=no --threshold=100 "$TMP/ft8.callgrind" \
  > "$TMP/ft8.annotate"
python3 "$HERE/bench_sim_report.py" "$TMP" "$US" "$CG_US" "$TUNABLES" "$PAIRS" "$THREADS" \
  "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
cat "$OUT"
python3 "$HERE/bench_sim_report.py" --table "$OUT"
