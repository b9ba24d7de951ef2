#!/bin/sh
# bench_sim.sh LFC_SIM OUT.json - the lfc-sim part of `make bench` (docs/sim.md "Speed"):
# a 1024-host k=16 fat tree under permutation traffic (100 Gb/s, 4 KB packets) for
# BENCH_SIM_US microseconds (default 1000 = 1 ms), and a 128-host 127:1 incast, on
# BENCH_SIM_THREADS threads (default 2: docs/sim.md "Threads"; the results do not depend on it).
# eq_port_cycles_per_s = links x simulated cycles / wall seconds of the simulation loop;
# cpu_seconds (the whole process, setup included, all threads) and the load average tell a busy
# machine's figure from an idle one's.
# lfc-sim runs with glibc's heap on transparent huge pages (docs/sim.md "Speed": the fat tree's
# state is spread over some 100 MB, and with 4 KB pages much of a step is TLB misses); the
# setting is in the JSON (glibc_tunables). BENCH_SIM_TUNABLES= (empty) runs without it.
set -eu
SIM=$1
OUT=$2
US=${BENCH_SIM_US:-1000}
THREADS=${BENCH_SIM_THREADS:-2}
TUNABLES=${BENCH_SIM_TUNABLES-glibc.malloc.hugetlb=1}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cat > "$TMP/ft.ini" <<INI
[sim]
duration_us = $US
sample_us = 1000000
[topology]
kind = fat_tree
k = 16
[link]
speed_gbps = 100
cable_m = 2
[switch]
mode = pfc
classes = 1
[traffic.perm]
pattern = permutation
src = 0-1023
packet_bytes = 4096
INI
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
entry() { # entry NAME INI
  out=$(GLIBC_TUNABLES=$TUNABLES /usr/bin/time -f 'rss_kb %M cpu %U %S' \
        "$SIM" "$2" --no-progress --threads "$THREADS" --json "$TMP/$1.json" 2>&1)
  rss=$(echo "$out" | sed -n 's/^rss_kb \([0-9]*\) .*/\1/p')
  cpu=$(echo "$out" | sed -n 's/^rss_kb [0-9]* cpu \([0-9.]*\) \([0-9.]*\)/\1 + \2/p' | bc)
  python3 - "$TMP/$1.json" "$1" "$rss" "$cpu" "$(cut -d' ' -f1 /proc/loadavg)" "$TUNABLES" \
    "$THREADS" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); s = d["summary"]; sc = d["scenario"]
w = s["wall_seconds"]
print(json.dumps({"name": sys.argv[2], "hosts": sc["hosts"], "links": sc["links"],
                  "sim_cycles": s["sim_cycles"], "sim_us": s["sim_us"], "wall_seconds": w,
                  "peak_rss_mb": round(int(sys.argv[3]) / 1024.0, 1),
                  "eq_port_cycles_per_s": round(sc["links"] * s["sim_cycles"] / w) if w > 0 else None,
                  "cpu_seconds": float(sys.argv[4]), "load_average_1min": float(sys.argv[5]),
                  "glibc_tunables": sys.argv[6], "threads": int(sys.argv[7]),
                  "delivered_bytes": s["delivered_bytes"], "drops": s["drops"],
                  "pause_frames": s["pause_frames"]}))
PY
}
{
  echo "["
  entry fat_tree_k16_permutation "$TMP/ft.ini"
  echo ","
  entry incast_127_to_1 "$TMP/incast.ini"
  echo "]"
} > "$OUT"
cat "$OUT"
