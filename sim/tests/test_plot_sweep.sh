#!/bin/bash
# sim/tests/test_plot_sweep.sh BUILD_DIR LFC_SIM - make test-plot-sweep (docs/sim.md "Plots for a
# design review"): both plots from short sweeps, every number behind them checked by
# scripts/plot-sweep check-*, and each check shown to fail on a wrong input.
set -u
out=$1
sim=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
ps="$root/scripts/plot-sweep"
fails=0
ok() { echo "  ok   $*"; }
bad() { echo "  FAIL $*"; fails=$((fails + 1)); }
rm -rf "$out"
mkdir -p "$out"

# 1. latency against load: 5 loads across saturation, 100 us each (about a second)
if "$ps" latency-load "$here/plot_latency_load.ini" --out "$out/lat" --loads 0.1,0.5,0.7,0.8,1.0 \
    -j 2 --lfc-sim "$sim" >"$out/lat.log" 2>&1; then ok "latency-load ran"; else
  bad "latency-load: $(tail -1 "$out/lat.log")"; fi
for f in latency_load.csv saturation.csv latency_load.png; do
  [ -s "$out/lat/$f" ] && ok "wrote $f" || bad "no $f"
done
"$ps" check-latency-load "$out/lat" >"$out/lat.check" 2>&1 && ok "check-latency-load passes" ||
  { bad "check-latency-load: $(grep FAIL "$out/lat.check" | head -3)"; }
grep -q "saturation between load" "$out/lat.check" && ok "saturation found between two loads" ||
  bad "no saturation bracketed"

# wrong inputs, each must fail the check (exit 1)
mutate() { # NAME DIR CHECK FILE PYTHON-EXPR-ON-ROWS
  local name=$1 dir=$2 check=$3 file=$4 expr=$5
  rm -rf "$out/m"; cp -r "$dir" "$out/m"
  python3 - "$out/m/$file" "$expr" <<'PY'
import csv, sys
path, expr = sys.argv[1], sys.argv[2]
with open(path, newline="") as f:
    rows = list(csv.DictReader(f))
fields = list(rows[0].keys())
exec(expr)
with open(path, "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=fields)
    w.writeheader()
    w.writerows(rows)
PY
  "$ps" "$check" "$out/m" >"$out/m.log" 2>&1
  local rc=$?
  if [ $rc -eq 1 ]; then ok "fails on $name: $(grep -m1 FAIL "$out/m.log" | cut -c8-110)"; else
    bad "$name: check-* exit $rc, wanted 1"; fi
}
mutate "latencies of pfc reversed" "$out/lat" check-latency-load latency_load.csv \
  'p=[r for r in rows if r["mode"]=="pfc"]; v=[r["latency_ns_mean"] for r in p][::-1]
for r,x in zip(p,v): r["latency_ns_mean"]=x'
mutate "saturation marked one load late" "$out/lat" check-latency-load saturation.csv \
  'rows[0]["saturation_load"]="1"'
mutate "accepted above offered" "$out/lat" check-latency-load latency_load.csv \
  'rows[0]["accepted_load"]=str(float(rows[0]["offered_measured"])*1.5)'
mutate "every point stable (no saturation)" "$out/lat" check-latency-load latency_load.csv \
  'for r in rows: r["accepted_load"]=r["offered_measured"]; r["latency_ns_mean"]=rows[0]["latency_ns_mean"]; r["latency_ns_p99"]=rows[0]["latency_ns_p99"]; r["saturated"]="0"'

# 2. FCT slowdown: one load, both modes, 600 us of arrivals (a second or two)
if "$ps" fct-slowdown "$here/plot_fct.ini" --out "$out/fct" --loads 0.6 -j 2 --lfc-sim "$sim" \
    --set sim.duration_us=900 --set traffic.stop_us=600 >"$out/fct.log" 2>&1; then
  ok "fct-slowdown ran: $(head -1 "$out/fct.log")"; else bad "fct-slowdown: $(tail -1 "$out/fct.log")"; fi
for f in fct_flows.csv fct_ideal.csv fct_slowdown.csv fct_slowdown.png; do
  [ -s "$out/fct/$f" ] && ok "wrote $f" || bad "no $f"
done
"$ps" check-fct-slowdown "$out/fct" >"$out/fct.check" 2>&1 && ok "check-fct-slowdown passes" ||
  bad "check-fct-slowdown: $(grep FAIL "$out/fct.check" | head -3)"
# the ideal FCT is the flow's own FCT alone: independently, one lfc-sim run of the smallest size
python3 - "$out/fct" "$sim" "$here/plot_fct.ini" <<'PY' && ok "an ideal FCT equals lfc-sim's run of that flow alone" || bad "ideal FCT differs from a run of the flow alone"
import csv, json, subprocess, sys, tempfile, os
d, sim, ini = sys.argv[1:]
r = next(csv.DictReader(open(os.path.join(d, "fct_ideal.csv"))))
with tempfile.TemporaryDirectory() as t:
    j, alone = os.path.join(t, "o.json"), os.path.join(t, "alone.ini")
    text = open(ini).read()
    with open(alone, "w") as f:  # the fabric of plot_fct.ini, its traffic one flow
        f.write(text[:text.index("[traffic]")])
        f.write("[traffic]\npattern = flow\nsrc = %s\ndst = %s\nbytes = %s\nstart_us = 5\n"
                % (r["src"], r["dst"], r["bytes"]))
    subprocess.run([sim, alone, "--no-progress", "--no-warnings", "--json", j,
                    "--set", "switch.mode=" + r["mode"], "--set", "sim.duration_us=900"],
                   check=False, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if not os.path.exists(j):
        sys.exit(2)
    fct = json.load(open(j))["flows"][0]["fct_us"]
sys.exit(0 if abs(fct - float(r["ideal_fct_us"])) < 1e-6 else 1)
PY
mutate "an ideal FCT halved" "$out/fct" check-fct-slowdown fct_ideal.csv \
  'rows[0]["ideal_fct_us"]=str(float(rows[0]["ideal_fct_us"])/2)'
mutate "a slowdown below 1 (ideal above the FCT)" "$out/fct" check-fct-slowdown fct_flows.csv \
  'rows[0]["fct_us"]=str(float(rows[0]["ideal_fct_us"])/2); rows[0]["slowdown"]="0.5"'
mutate "a slowdown not fct / ideal" "$out/fct" check-fct-slowdown fct_flows.csv \
  'rows[3]["slowdown"]=str(float(rows[3]["slowdown"])*1.1)'
mutate "a bin's p99 from the wrong flows" "$out/fct" check-fct-slowdown fct_slowdown.csv \
  'rows[0]["slowdown_p99"]=str(float(rows[0]["slowdown_p99"])+1)'

# bad input: one line, exit 2
"$ps" latency-load "$here/plot_latency_load.ini" --out "$out/x" --loads 0.5,0.1 \
  --lfc-sim "$sim" >/dev/null 2>"$out/bad.err"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$out/bad.err")" -eq 1 ] && ok "decreasing --loads refused: $(cat "$out/bad.err")" ||
  bad "decreasing --loads: exit $rc, $(cat "$out/bad.err")"

# pattern poisson: the same digest on 1, 2 and 3 threads and stepped every cycle with the
# model's assertions (lfc-sim-check beside lfc-sim)
dig() { "$@" --set sim.duration_us=300 --set traffic.stop_us=200 --set switch.mode=ib --digest \
  2>/dev/null | grep -o 'digest [0-9a-f]*' | tail -1; }
d1=$(dig "$sim" "$here/plot_fct.ini")
d2=$(dig "$sim" "$here/plot_fct.ini" --threads 2)
d3=$(dig "$sim" "$here/plot_fct.ini" --threads 3)
chk="$(dirname "$sim")/lfc-sim-check"
ds=$([ -x "$chk" ] && dig "$chk" "$here/plot_fct.ini" --step-all || echo "$d1")
[ -n "$d1" ] && [ "$d1" = "$d2" ] && [ "$d1" = "$d3" ] && [ "$d1" = "$ds" ] &&
  ok "pattern poisson: $d1 on 1, 2, 3 threads and stepped" || bad "poisson digests: $d1 $d2 $d3 $ds"

# pattern poisson's keys at load: one line naming the key, exit 2
load_err() { # NAME WANT ARGS...
  local name=$1 want=$2; shift 2
  "$sim" "$here/plot_fct.ini" --estimate "$@" >/dev/null 2>"$out/load.err"
  local rc=$?
  if [ $rc -eq 2 ] && [ "$(wc -l <"$out/load.err")" -eq 1 ] && grep -q -- "$want" "$out/load.err"; then
    ok "$name refused: $(cut -c1-110 "$out/load.err")"; else bad "$name: exit $rc, $(cat "$out/load.err")"; fi
}
load_err "sizes with pattern uniform" "sizes.*only with pattern poisson" --set traffic.pattern=uniform
load_err "a size without weight" "sizes = 4096.*BYTES:WEIGHT" --set traffic.sizes=4096
load_err "a weight of 0" "BYTES:WEIGHT" --set "traffic.sizes=4096:0"
load_err "bytes with pattern poisson" "bytes.*sizes" --set traffic.bytes=4096
load_err "too many flows" "flows expected" --set sim.duration_us=1000000 --set traffic.stop_us=0

if [ $fails -ne 0 ]; then echo "test-plot-sweep: $fails failed"; exit 1; fi
echo "test-plot-sweep: all passed"
