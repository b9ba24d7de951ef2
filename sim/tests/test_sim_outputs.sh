#!/bin/sh
# test_sim_outputs.sh LFC_SIM OUTDIR [LFC_SIM_CHECK] - lfc-sim's output files and memory
# (docs/sim.md "Output files" and "Memory"):
#  1. no shell and no gnuplot command from a --plot directory name (quotes, a newline, $(...),
#     a gnuplot pipe "|..."): nothing runs, the plots are drawn; a scenario path with a quote
#     is a JSON string in --json;
#  2. a write that fails (a file size limit: EFBIG; /dev/full: ENOSPC) gives exit 2 and one line
#     naming the path, and leaves the old file or none (no truncated file, no temporary);
#  3. a path longer than the old fixed buffers (1024 bytes) is written where it says;
#  4. memory does not grow with simulated time (latency and occupancy samples), and the bounded
#     summaries keep the printed numbers: occupancy percentiles equal the ones computed from
#     queues.csv, and the digest of a run whose latency series are counted in buckets is the
#     same with 2 threads and stepping every cycle;
#  5. a fabric too large for the memory limit is refused at once (exit 2, one line with the
#     estimate and the limit), --max-memory-mb is checked, the estimate is near the peak RSS,
#     and progress on a terminal covers the set-up;
#  6. --plot-window N draws window means, checked against flows.csv.
set -u
SIM=$1
OUT=$2
CHK=${3:-$1}
DIR=$(cd "$(dirname "$0")/../scenarios" && pwd)
rm -rf "$OUT"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
case "$SIM" in /*) ;; *) SIM=$(pwd)/$SIM ;; esac
case "$CHK" in /*) ;; *) CHK=$(pwd)/$CHK ;; esac
fail=0
ok() { echo "  ok   $*"; }
bad() { echo "  FAIL $*"; fail=1; }
# one line on stderr, naming $2, exit status 2
one_line() { # name rc errfile what
  n=$(wc -l < "$3")
  if [ "$2" -eq 2 ] && [ "$n" -eq 1 ] && grep -qF -- "$4" "$3"; then ok "$1: exit 2: $(cat "$3")"
  else bad "$1: exit $2, $n lines on stderr (want 2, one line naming $4): $(head -3 "$3")"; fi
}

# --- 1. --plot directory names are data ------------------------------------------------
mkdir -p "$OUT/inj"
nl='
'
i=0
for d in "q'; touch PWNED1; '${nl}x" 'q$(touch PWNED2)`touch PWNED3`' "|touch PWNED4;#" "<touch PWNED5;#"; do
  i=$((i + 1))
  rc=0
  (cd "$OUT/inj" && "$SIM" "$DIR/ring_deadlock_pfc.ini" --no-progress --plot "$d" \
      >"$OUT/inj.$i.out" 2>"$OUT/inj.$i.err") || rc=$?
  pw=$(find "$OUT" / -maxdepth 1 -name 'PWNED*' 2>/dev/null; find "$OUT/inj" -name 'PWNED*')
  if [ -n "$pw" ]; then bad "plot dir $i: a command ran from the name: $pw"
  elif [ $rc -eq 0 ] && [ -s "$OUT/inj/$d/occupancy.png" ] && [ -s "$OUT/inj/$d/deadlock.png" ]; then
    ok "plot dir $i: nothing ran, plots drawn"
  elif [ $rc -eq 2 ]; then ok "plot dir $i: nothing ran, refused: $(cat "$OUT/inj.$i.err")"
  else bad "plot dir $i: exit $rc: $(head -3 "$OUT/inj.$i.err")"; fi
done
rm -f /PWNED1 /PWNED2 /PWNED3 /PWNED4 /PWNED5 2>/dev/null
# --plot-window N: throughput.png's rates are means over windows of N samples. The curves the
# script draws (gnuplot's own table of them) against the same means computed here from
# flows.csv: per flow, and the total (a last window of fewer samples included: 29 samples, N 4).
rc=0
"$SIM" "$DIR/pfc_incast.ini" --no-progress --plot "$OUT/win" --plot-window 4 \
  >/dev/null 2>"$OUT/win.err" || rc=$?
if [ $rc -ne 0 ] || [ ! -s "$OUT/win/throughput.png" ]; then
  bad "--plot-window 4: exit $rc: $(head -3 "$OUT/win.err")"
else
  { echo "set datafile separator ','"; echo "csv = '$OUT/win'"
    grep -E "^(W|S|N|flows) = |^(win|cnt)\(" "$OUT/win/plots.gp"
    echo "set table '$OUT/win.table'"
    grep "^plot csv.'/flows.csv' every ::1 using (win(" "$OUT/win/plots.gp"; } > "$OUT/win.gp"
  if ! gnuplot "$OUT/win.gp" 2>"$OUT/win.gperr" || [ ! -s "$OUT/win.table" ]; then
    bad "--plot-window 4: no windowed plot in plots.gp, or it does not run: $(head -2 "$OUT/win.gperr")"
  else
    # gnuplot's curves: "# Curve i", then "x y type" rows; curve 0 the total, then the flows
    # in the order of `flows`. Ours: window k = floor((sample - 1) / 4), at (k + 1) * 4 * S.
    verdict=$(awk -v W=4 -v flows="$(sed -n 's/^flows = "\(.*\)"$/\1/p' "$OUT/win/plots.gp")" '
      FNR == 1 { file++ }
      file == 1 && FNR > 1 { split($0, c, ","); if (!(c[1] in sno)) { sno[c[1]] = ++ns }
        k = int((sno[c[1]] - 1) / W); fsum[c[2], k] += c[4]; tsum[k] += c[4]; cnt[c[2], k]++
        if (sno[c[1]] % W == 1 || W == 1) nk[k]++; next }
      file == 2 && /^# Curve [0-9]/ { curve = $3; next }
      file == 2 && NF >= 2 && $1 !~ /^#/ { got[curve, row[curve]++] = $2 }
      END { n = split(flows, fl, " "); bad = 0; checked = 0
        for (k = 0; (k in nk); k++) {
          m = 0; for (s = k * W + 1; s <= k * W + W && s <= ns; s++) m++
          want = tsum[k] / m; g = got[0, k]; checked++
          if ((g - want) ^ 2 > (0.001 * (want + 1)) ^ 2) { bad++; print "total window " k ": " g " != " want }
          for (i = 1; i <= n; i++) { w = fl[i]; want = fsum[w, k] / cnt[w, k]; g = got[i, k]; checked++
            if ((g - want) ^ 2 > (0.001 * (want + 1)) ^ 2) { bad++; print "flow " w " window " k ": " g " != " want } } }
        print (bad ? "BAD " : "OK ") checked " points" }' "$OUT/win/flows.csv" "$OUT/win.table")
    case "$verdict" in
      OK*) ok "--plot-window 4: every flow's and the total's window means as computed from flows.csv (${verdict#OK })" ;;
      *) bad "--plot-window 4: $(echo "$verdict" | head -3)" ;;
    esac
  fi
fi
rc=0
"$SIM" "$DIR/pfc_incast.ini" --no-progress --plot-window 4 >/dev/null 2>"$OUT/win2.err" || rc=$?
one_line "--plot-window without --plot" $rc "$OUT/win2.err" "only with --plot DIR"
rc=0
"$SIM" "$DIR/pfc_incast.ini" --no-progress --plot "$OUT/win3" --plot-window 0 >/dev/null \
  2>"$OUT/win3.err" || rc=$?
one_line "--plot-window 0" $rc "$OUT/win3.err" "--plot-window 0"

# a plot of its own CSV directory (--csv A --plot B): gnuplot reads the series where they are
rc=0
"$SIM" "$DIR/victim.ini" --no-progress --csv "$OUT/both.csv" --plot "$OUT/both.plot" \
  >/dev/null 2>"$OUT/both.err" || rc=$?
if [ $rc -eq 0 ] && [ -s "$OUT/both.plot/throughput.png" ] && [ -s "$OUT/both.csv/flows.csv" ]; then
  ok "--csv A --plot B: plots in B drawn from A"
else bad "--csv A --plot B: exit $rc: $(head -3 "$OUT/both.err")"; fi

# --- 2. failed writes ------------------------------------------------------------------
# A file size limit makes write() fail with EFBIG (SIGXFSZ ignored); stdout goes to /dev/null,
# which has no size. 4 blocks (2 or 4 KiB) hold neither victim.ini's flows.csv nor its JSON.
limited() { (trap '' XFSZ; ulimit -f 4; exec "$@"); }
rc=0
limited "$SIM" "$DIR/victim.ini" --no-progress --csv "$OUT/full" >/dev/null 2>"$OUT/full.err" || rc=$?
one_line "--csv over the file size limit" $rc "$OUT/full.err" "$OUT/full/"
left=$(ls -A "$OUT/full")
[ -z "$left" ] && ok "--csv over the limit: no file left behind" || bad "--csv over the limit left: $left"
echo '{"old": true}' > "$OUT/old.json"
rc=0
limited "$SIM" "$DIR/victim.ini" --no-progress --json "$OUT/old.json" >/dev/null 2>"$OUT/oldjson.err" || rc=$?
one_line "--json over the file size limit" $rc "$OUT/oldjson.err" "$OUT/old.json"
if [ "$(cat "$OUT/old.json")" = '{"old": true}' ] && [ "$(ls "$OUT" | grep -c 'old.json')" -eq 1 ]; then
  ok "--json over the limit: the old file kept whole, no temporary left"
else bad "--json over the limit: old.json is now $(head -c 60 "$OUT/old.json"); $(ls "$OUT" | grep old.json)"; fi
rc=0
limited "$SIM" "$DIR/ring_deadlock_pfc.ini" --no-progress --plot "$OUT/fullplot" >/dev/null \
  2>"$OUT/fullplot.err" || rc=$?
one_line "--plot over the file size limit" $rc "$OUT/fullplot.err" "$OUT/fullplot"
left=$(ls -A "$OUT/fullplot" | grep -v '^gnuplot.log$')
[ -z "$left" ] && ok "--plot over the limit: no CSV, script or PNG left" || bad "--plot over the limit left: $left"
# (only if /dev/full is the device: a program that renamed a file onto it made it a file)
if [ -c /dev/full ]; then
  rc=0
  "$SIM" "$DIR/victim.ini" --no-progress --json /dev/full >/dev/null 2>"$OUT/devfull.err" || rc=$?
  one_line "--json /dev/full" $rc "$OUT/devfull.err" "/dev/full: write failed: No space left on device"
  [ -c /dev/full ] && ok "/dev/full is still the device" || bad "--json /dev/full replaced the device"
  rc=0
  "$SIM" "$DIR/victim.ini" --no-progress >/dev/full 2>"$OUT/stdout.err" || rc=$?
  one_line "stdout on /dev/full" $rc "$OUT/stdout.err" "standard output: write failed"
else bad "/dev/full is not a character device here (ls: $(ls -l /dev/full 2>&1)): not tested"; fi

# a scenario path with a quote and a backslash is a JSON string in --json, not its end
q="$OUT/we\"ird\\name.ini"
cp "$DIR/victim.ini" "$q"
rc=0
"$SIM" "$q" --no-progress --json "$OUT/weird.json" >/dev/null 2>&1 || rc=$?
if [ $rc -eq 0 ] && python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["scenario"]["file"] != sys.argv[2])' "$OUT/weird.json" "$q" 2>/dev/null; then
  ok "--json of a scenario named with \" and \\: valid JSON, the name as it is"
else bad "--json of a scenario named with \" and \\: exit $rc, not valid JSON or the name changed"; fi

# --- 3. a long path --------------------------------------------------------------------
# 1015 bytes: with "/queues.csv" it overran the old 1024-byte buffers, which cut the name
# ("queues.") and wrote the file under it.
long=$OUT/long
while [ ${#long} -lt 960 ]; do long=$long/dddddddddddddddddddddddddddddddddddddddddddddddddd; done
while [ ${#long} -lt 1015 ]; do long=${long}d; done
mkdir -p "$long"
rc=0
"$SIM" "$DIR/ring_deadlock_pfc.ini" --no-progress --csv "$long" >/dev/null 2>"$OUT/long.err" || rc=$?
got=$(ls "$long" | tr '\n' ' ')
if [ $rc -eq 0 ] && [ "$got" = "deadlock.dot flows.csv queues.csv " ]; then
  ok "--csv in a ${#long}-byte directory: $got"
else bad "--csv in a ${#long}-byte directory: exit $rc, files: $got $(head -2 "$OUT/long.err")"; fi

# --- 4. bounded memory, same numbers ----------------------------------------------------
# An 8-host star at 90 % load of 64-byte packets: about 50,000 packets per flow in 2 ms. Every
# latency and occupancy sample was kept (about 6 MB per simulated ms here); now the peak RSS of
# 2 ms is that of 0.5 ms.
cat > "$OUT/star.ini" <<'EOF'
[sim]
duration_us = 500
[topology]
kind = star
hosts_per_switch = 8
[switch]
mode = pfc
classes = 1
[traffic.all]
pattern = uniform
src = 0-7
load = 0.9
packet_bytes = 64
EOF
rss() { "$SIM" "$OUT/star.ini" --no-progress "$@" | sed -n 's/.*peak_rss_mb \([0-9.]*\),.*/\1/p'; }
r1=$(rss)
r4=$(rss --set sim.duration_us=2000)
if [ -n "$r1" ] && [ -n "$r4" ] && awk -v a="$r1" -v b="$r4" 'BEGIN { exit !(b - a < 2.0) }'; then
  ok "peak RSS of 2 ms simulated ${r4} MB, of 0.5 ms ${r1} MB: no growth with time"
else bad "peak RSS grows with simulated time: 0.5 ms ${r1} MB, 2 ms ${r4} MB"; fi
# short of memory, samples were dropped without a word (exit 0, other results); now the run
# needs no more memory for a longer time: under a 20 MB address-space limit it gives the same
# digest as without one
dfree=$("$SIM" "$OUT/star.ini" --no-progress --digest --set sim.duration_us=2000 | sed -n 's/^digest //p')
rc=0
dlim=$( (ulimit -v 20000; exec "$SIM" "$OUT/star.ini" --no-progress --digest --set sim.duration_us=2000) \
  2>"$OUT/ulimit.err" | sed -n 's/^digest //p') || rc=$?
if [ -n "$dfree" ] && [ "$dfree" = "$dlim" ]; then
  ok "2 ms under a 20 MB address-space limit: the same digest as without ($dfree)"
else bad "2 ms under a 20 MB limit: digest $dlim, without the limit $dfree: $(head -2 "$OUT/ulimit.err")"; fi
# the latency series past LATSUM_RAW samples (counted in buckets): same digest stepped and on
# 2 threads as skip-ahead on one
d1=$("$SIM" "$OUT/star.ini" --no-progress --digest --set sim.duration_us=100 | sed -n 's/^digest //p')
d2=$("$SIM" "$OUT/star.ini" --no-progress --digest --set sim.duration_us=100 --threads 2 | sed -n 's/^digest //p')
ds=$("$CHK" "$OUT/star.ini" --no-progress --digest --set sim.duration_us=100 --step-all | sed -n 's/^digest //p')
if [ -n "$d1" ] && [ "$d1" = "$d2" ] && [ "$d1" = "$ds" ]; then
  ok "counted latency series: skip-ahead == 2 threads == stepped (digest $d1)"
else bad "counted latency series: digests $d1, 2 threads $d2, stepped $ds"; fi
# occupancy percentiles of --json == nearest rank over the samples in queues.csv (a queue
# missing from a sample's rows was empty then)
"$SIM" "$DIR/fat_tree_mix.ini" --no-progress --json "$OUT/occ.json" --csv "$OUT/occ" >/dev/null
if python3 - "$OUT/occ.json" "$OUT/occ" <<'PY'
import collections, json, math, sys
j = json.load(open(sys.argv[1]))
times = sorted({r.split(",")[0] for r in open(sys.argv[2] + "/flows.csv").read().split("\n")[1:] if r})
n = len(times)
q = collections.defaultdict(list)
for r in open(sys.argv[2] + "/queues.csv").read().split("\n")[1:]:
    if r:
        t, s, p, c, qlen = r.split(",")[:5]
        if int(qlen) > 0:
            q[(int(s), int(p), int(c))].append(int(qlen))
names = {}  # the ports are listed by switch number: the n-th name seen is switch n
bad = 0
checked = 0
for port in j["ports"]:
    sw = names.setdefault(port["switch"], len(names))
    v = sorted(q.get((sw, port["port"], port["class"]), []))
    v = [0] * (n - len(v)) + v
    for p, key in ((50, "occupancy_p50"), (99, "occupancy_p99")):
        rank = min(max(int(p / 100.0 * n + 0.999999), 1), n)
        want = v[rank - 1] if n else 0
        checked += 1
        if port[key] != want:
            bad += 1
            print("   ", port["switch"], port["port"], port["class"], key, port[key], "want", want)
print("    %d percentiles over %d samples checked, %d differ" % (checked, n, bad))
sys.exit(1 if bad or len({port["occupancy_p50"] for port in j["ports"]}) < 3 else 0)
PY
then ok "occupancy p50/p99 in --json == nearest rank over the samples in queues.csv"
else bad "occupancy percentiles differ from the samples"; fi

# --- 5. size: estimated, refused at once above the limit ------------------------------
# A k = 62 fat tree has 59,582 hosts: about 3.5 GB. It was built for minutes, then failed.
t0=$(date +%s)
rc=0
timeout 60 "$SIM" "$DIR/../tests/fat_tree_k8.ini" --no-progress --set topology.k=62 \
  --max-memory-mb 2000 >/dev/null 2>"$OUT/big.err" || rc=$?
t1=$(date +%s)
one_line "k = 62 fat tree, --max-memory-mb 2000" $rc "$OUT/big.err" "above the limit of 2000 MiB"
[ $((t1 - t0)) -le 5 ] && ok "refused in $((t1 - t0)) s" || bad "refused after $((t1 - t0)) s"
# an all-to-all over them: 3.5e9 flows, above any memory (the default limit)
printf '[sim]\nduration_us = 10\n[topology]\nkind = fat_tree\nk = 62\n[switch]\nmode = pfc\n[traffic.a2a]\npattern = all_to_all\nsrc = 0-59581\nbytes = 4096\n' > "$OUT/a2a.ini"
rc=0
timeout 60 "$SIM" "$OUT/a2a.ini" --no-progress >/dev/null 2>"$OUT/a2a.err" || rc=$?
one_line "all-to-all of 59,582 hosts, default limit" $rc "$OUT/a2a.err" "flows: about"
rc=0
"$SIM" "$DIR/victim.ini" --no-progress --max-memory-mb 0 >/dev/null 2>"$OUT/mm0.err" || rc=$?
one_line "--max-memory-mb 0" $rc "$OUT/mm0.err" "--max-memory-mb 0: out of range; allowed: an integer 1.."
# the estimate against the peak RSS of a run: not below it, not twice it
est=$("$SIM" "$DIR/../tests/fat_tree_k8.ini" --estimate | sed -n 's/.*about \([0-9]*\) MiB.*/\1/p')
peak=$("$SIM" "$DIR/../tests/fat_tree_k8.ini" --no-progress | sed -n 's/.*peak_rss_mb \([0-9.]*\),.*/\1/p')
if [ -n "$est" ] && [ -n "$peak" ] && awk -v e="$est" -v p="$peak" 'BEGIN { exit !(e >= p * 0.9 && e <= p * 2) }'; then
  ok "fat tree k = 8: estimate $est MiB, peak RSS $peak MB"
else bad "fat tree k = 8: estimate '$est' MiB, peak RSS $peak MB"; fi

# progress on a terminal covers the set-up (a large fabric spent minutes there in silence)
if command -v script >/dev/null 2>&1; then
  tty=$(script -qec "'$SIM' '$DIR/victim.ini' --json /dev/null" /dev/null 2>&1 | tr '\r' '\n')
  notty=$("$SIM" "$DIR/victim.ini" --json /dev/null 2>&1 >/dev/null)
  if echo "$tty" | grep -q "building the fabric" && ! echo "$notty" | grep -q "building"; then
    ok "on a terminal the set-up is shown, off one nothing"
  else bad "progress: on a terminal: $(echo "$tty" | grep -v '^ *$' | head -2); off: $notty"; fi
else echo "  skip progress on a terminal: no script(1)"; fi

[ $fail -eq 0 ] && echo "test-sim-outputs: all passed" || echo "test-sim-outputs: FAILED"
exit $fail
