#!/bin/sh
# doc-figures.sh - regenerate the figures of docs/mechanisms/ from the project's own tools, or
# (--check) regenerate only their data and check the facts the pages state.
#
#   scripts/doc-figures.sh [--check] [--built] BUILD
#
#   BUILD    the build directory (make BUILD=...), e.g. build/docs
#   --built  the programs are already built (the make targets pass it); otherwise this script
#            runs `make BUILD=BUILD doc-figures-progs` first
#   --check  write the CSV data under BUILD/doc-figures/ and check the facts; draw nothing
#
# Data come from docs/mechanisms/src/*.c (liblfc through its public API; fixed seeds) and from
# lfc-sim on sim/scenarios/ring_deadlock_*.ini and ring_updown.ini. Figures are drawn with
# gnuplot (pngcairo) and Graphviz (lfc-sim --plot) into docs/mechanisms/figures/*.png, each to a
# temporary name renamed into place when complete. Every run gives the same files. Exit status:
# 0 all good, 1 a check (a fact, the self-test, a figure's size) failed, 2 bad arguments (one
# line naming the argument) or a figure that cannot be written; a tool that fails (the programs,
# lfc-sim, make) stops the script with its own status.
# The awk programs are in single quotes on purpose: awk, not the shell, expands their $n.
# shellcheck disable=SC2016
set -eu

usage() { # what is wrong
  echo "doc-figures: $1; usage: $0 [--check] [--built] BUILD" >&2
  exit 2
}

check=0
built=0
build=
while [ $# -gt 0 ]; do
  case "$1" in
    --check) check=1 ;;
    --built) built=1 ;;
    -*) usage "unknown option '$1' (allowed: --check, --built)" ;;
    *) [ -z "$build" ] || usage "one BUILD directory only (have '$build', then '$1')"; build=$1 ;;
  esac
  shift
done
[ -n "$build" ] || usage "no BUILD directory given"

figs=docs/mechanisms/figures
data=$build/doc-figures/data
sim=$build/doc-figures/sim
progs=$build/doc-figures/bin
if [ ! -f docs/mechanisms/src/fig.h ]; then
  echo "$0: run from the top of the lfc repository" >&2
  exit 2
fi

if [ "$built" = 0 ]; then
  make -s BUILD="$build" doc-figures-progs
fi

rm -rf "$data" "$sim"
mkdir -p "$data" "$sim" "$figs"

# ---- data -----------------------------------------------------------------------------------

for p in credits pfc ecn watchdog; do
  "$progs/$p" "$data"
done

# Deadlock: the ring of sim/scenarios with the fourth flow (c, host 2 -> host 0) starting late,
# so that traffic flows first and the figure shows it stop when the cycle closes. The plain
# scenario (all flows from t = 0) gives the wait-for graph.
DL_LATE_US=10
run_sim() { # name scenario extra-args...
  name=$1 scen=$2
  shift 2
  mkdir -p "$sim/$name"
  "$build/lfc-sim" "$scen" --no-progress --csv "$sim/$name" "$@" >"$sim/$name/stdout.txt"
}
run_sim ring_pfc sim/scenarios/ring_deadlock_pfc.ini --set traffic.c.start_us=$DL_LATE_US
run_sim ring_ib sim/scenarios/ring_deadlock_ib.ini --set traffic.c.start_us=$DL_LATE_US
run_sim updown sim/scenarios/ring_updown.ini --set traffic.c.start_us=$DL_LATE_US
# Total delivered Gb/s per sample, and the deadlock time (us; empty if none).
for r in ring_pfc ring_ib updown; do
  {
    echo "t_us,gbps"
    awk -F, 'NR > 1 { s[$1] += $4 } END { for (t in s) printf "%s,%.3f\n", t, s[t] }' \
      "$sim/$r/flows.csv" | sort -t, -k1,1g
  } >"$data/deadlock_$r.csv"
  sed -n 's/.*DEADLOCK formed at cycle [0-9]* (\([0-9.]*\) us).*/\1/p' "$sim/$r/stdout.txt" \
    >"$data/deadlock_$r.at"
done

# ---- checks ---------------------------------------------------------------------------------

# checks DIR: check the facts on the data in DIR; sets fail=1 when one does not hold.
# quiet=1 prints nothing (the self-test below).
quiet=0
bad() {
  [ "$quiet" = 1 ] || echo "doc-figures: FAIL: $*" >&2
  fail=1
}
ok() { [ "$quiet" = 1 ] || echo "doc-figures: ok: $*"; }

# A fact is an awk program that prints nothing when it holds, or what is wrong. Columns are
# named after the CSV header: v("drops") is the value of column "drops" in the current row.
# Rows are the data rows only (the header is consumed before the program runs).
fact() { # description file awk-program
  prologue='NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
            function v(name) { if (!(name in col)) { print "no column " name; exit 1 }
                               return $(col[name]) + 0 }'
  msg=$(awk -F, "$prologue $3" "$2") || { bad "$1: awk failed on $2: $msg"; return 0; }
  if [ -n "$msg" ]; then bad "$1: $msg"; else ok "$1"; fi
}

checks() {
  d=$1

  # credits.md
  fact "credits: no packet is dropped (IB is lossless, SPEC §5.4)" "$d/credits.csv" '
    v("drops") != 0 { print "cycle " v("cycle") ": " v("drops") " drops"; exit }'
  fact "credits: FCCL - FCTBS stays within 0..rx_blocks of the receiver (SPEC §5.3, §5.4)" \
    "$d/credits.csv" '
    v("credits_p0") < 0 || v("credits_p0") > v("rx_blocks") {
      print "cycle " v("cycle") ": " v("credits_p0"); exit }'
  fact "credits: ingress occ never exceeds vl_blocks" "$d/credits.csv" '
    v("occ_p1") > v("vl_blocks") || v("occ_p2") > v("vl_blocks") ||
    v("occ_p3") > v("vl_blocks") { print "cycle " v("cycle") ": occ over vl_blocks"; exit }'
  fact "credits: the switch runs out of credit (< 16) and is blocked > 1000 cycles" \
    "$d/credits.csv" '
    v("credits_p0") < 16 { low = 1 }
    { blocked = v("credit_blocked_p0") }
    END { if (!low || blocked < 1000) print "low=" low ", blocked " blocked " cycles" }'
  fact "credits: the ingress buffers fill to vl_blocks, then all drain to 0" "$d/credits.csv" '
    v("occ_p1") == v("vl_blocks") { full = 1 }
    { held = v("qlen_p0") + v("occ_p1") + v("occ_p2") + v("occ_p3") }
    END { if (!full || held != 0) print "full=" full ", blocks held at the end " held }'
  fact "credits: throughput rises with vl_blocks; full and no drops from the SPEC §11 bound" \
    "$d/credits_sweep.csv" '
    NR == 2 { smallest = v("blocks_per_cycle") }
    v("drops") { print "drops at vl_blocks " v("vl_blocks") }
    v("blocks_per_cycle") < prev { print "throughput falls at vl_blocks " v("vl_blocks") }
    { prev = v("blocks_per_cycle") }
    v("vl_blocks") >= v("bound_blocks") { n++; if (!top) top = prev
      if (prev != top) print "below the plateau at vl_blocks " v("vl_blocks") }
    END { if (!n) print "no point at or above the bound"
          if (smallest * 2 > top) print "the smallest buffer is not starved: " smallest }'

  # pfc.md
  fact "pfc: the PG never exceeds reserve + xoff_th + headroom, and never drops" "$d/pfc.csv" '
    v("pg_total") > v("reserve") + v("xoff_th") + v("headroom") || v("drops") != 0 {
      print "cycle " v("cycle") ": pg " v("pg_total") ", drops " v("drops"); exit }'
  fact "pfc: headroom is used, and stays within the SPEC §11 bound" "$d/pfc.csv" '
    v("pg_hdrm") > peak { peak = v("pg_hdrm") }
    { bound = 2 * v("mtu") - 1 + 2 * v("delay") + 2 }
    END { if (peak == 0 || peak > bound) print "peak pg_hdrm " peak ", bound " bound }'
  fact "pfc: XOFF frames are sent while xoff=1, XON frames while xoff=0 (SPEC §6.5, §6.6)" \
    "$d/pfc.csv" '
    (v("frame") == 1 && v("xoff") != 1) || (v("frame") == 2 && v("xoff") != 0) {
      print "cycle " v("cycle") ": frame " v("frame") " with xoff " v("xoff"); exit }
    v("frame") == 1 { xoffs++ }
    v("frame") == 2 { xons++ }
    END { if (xoffs < 3 || xons < 3) print xoffs " XOFF and " xons " XON frames" }'
  fact "pfc: xoff turns on only with pg_shared >= xoff_th or headroom in use (SPEC §6.5)" \
    "$d/pfc.csv" '
    NR > 2 && v("xoff") == 1 && was == 0 && !(shared >= v("xoff_th") || hdrm > 0) {
      print "cycle " v("cycle"); exit }
    { was = v("xoff"); shared = v("pg_shared"); hdrm = v("pg_hdrm") }'

  # ecn.md
  fact "ecn: no packet is marked at qlen <= kmin" "$d/ecn_pkts.csv" '
    v("qlen") <= v("kmin") && v("marked") { print "marked at qlen " v("qlen"); exit }'
  fact "ecn: every packet is marked at qlen > kmax" "$d/ecn_pkts.csv" '
    v("qlen") > v("kmax") { n++; if (!v("marked")) { print "unmarked at qlen " v("qlen"); exit } }
    END { if (n < 100) print "only " n " packets above kmax" }'
  fact "ecn: the marked fraction of each bin is within 4 sigma (+0.01) of SPEC §9.2" \
    "$d/ecn.csv" '
    v("started") >= 100 { n++; p = v("expected"); d = v("fraction") - p; if (d < 0) d = -d
      if (d > 4 * sqrt(p * (1 - p) / v("started")) + 0.01)
        print "qlen " v("qlen_lo") ".." v("qlen_hi") ": " v("fraction") ", expected " p }
    END { if (n < 15) print "only " n " bins with 100 packets" }'

  # watchdog.md
  fact "watchdog: trips once, wd_detect cycles after the pause begins (SPEC §6.8)" \
    "$d/watchdog.csv" '
    v("pause_timer") > 0 && !paused { paused = v("cycle") }
    v("trip") { if (trip) print "a second trip at " v("cycle"); trip = v("cycle") }
    { detect = v("wd_detect") }
    END { if (!trip || trip != paused + detect - 1) print "paused from " paused ", trip " trip }'
  fact "watchdog: restores wd_restore cycles after the last pause frame (SPEC §6.8)" \
    "$d/watchdog.csv" '
    v("rx_pause") { last = v("cycle") }
    v("restore") { restore = v("cycle") }
    { wait = v("wd_restore") }
    END { if (!restore || restore != last + wait) print "last frame " last ", restore " restore }'
  fact "watchdog: drops only in the storm and only with cause WATCHDOG" "$d/watchdog.csv" '
    v("other_drops") { print "a drop of another cause at " v("cycle"); exit }
    v("wd_drops") > dropped && !v("wd_storm") && !storm {
      print "drop outside the storm at " v("cycle"); exit }
    { dropped = v("wd_drops"); storm = v("wd_storm") }
    END { if (dropped == 0) print "no watchdog drops" }'
  fact "watchdog: the pause backs up into the sender (xoff) until the trip empties the queue" \
    "$d/watchdog.csv" '
    v("xoff") == 1 && !v("wd_storm") { xoff = 1 }
    v("trip") { trip = v("cycle") }
    trip && v("wd_storm") && v("qlen") > 0 && v("cycle") > trip + 100 {
      print "queue not emptied in the storm at " v("cycle"); exit }
    END { if (!xoff) print "no xoff before the trip" }'
  fact "watchdog: traffic flows again after the restore" "$d/watchdog.csv" '
    v("restore") { restore = v("cycle"); sent = v("tx_blocks") }
    { last = v("tx_blocks") }
    END { if (!restore || last <= sent) print "no blocks sent after the restore" }'

  # deadlock.md
  for r in ring_pfc ring_ib; do
    at=$(cat "$d/deadlock_$r.at")
    if [ -z "$at" ]; then
      bad "deadlock: $r: lfc-sim reported no deadlock"
      continue
    fi
    fact "deadlock: $r: traffic flows before flow c starts, and is 0 from the deadlock on" \
      "$d/deadlock_$r.csv" "
      v(\"t_us\") < $DL_LATE_US && v(\"gbps\") > 0 { before = 1 }
      v(\"t_us\") > $at + 1 && v(\"gbps\") > 0 { print v(\"gbps\") \" Gb/s at \" v(\"t_us\"); exit }
      END { if (!before) print \"nothing delivered before flow c\" }"
  done
  if [ -n "$(cat "$d/deadlock_updown.at")" ]; then
    bad "deadlock: up*/down* routing deadlocked"
  else
    fact "deadlock: up*/down* never deadlocks and keeps delivering" "$d/deadlock_updown.csv" '
      v("t_us") > 2 && v("gbps") == 0 { print "0 Gb/s at " v("t_us") " us"; exit }'
  fi
}

fail=0
checks "$data"
facts_failed=$fail

# Self-test: each of these corruptions of the data must make the checks fail, so that a check
# that cannot fail is noticed. Each is an awk edit of one file in a copy of the data; $c("x") is
# column "x" of the CSV header.
selftest_one() { # name file awk-program
  rm -rf "$data.mut"
  cp -r "$data" "$data.mut"
  prologue='NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; print; next }
            function c(name) { return col[name] }'
  awk -F, -v OFS=, "$prologue $3" "$data/$2" >"$data.mut/$2"
  fail=0
  quiet=1
  checks "$data.mut"
  quiet=0
  if [ "$fail" = 0 ]; then
    bad "self-test: the checks did not notice: $1"
    selftest_failed=1
  fi
}
selftest_failed=0
selftest_one "a credit drop" credits.csv 'NR == 500 { $c("drops") = 1 } { print }'
selftest_one "credits above rx_blocks" credits.csv \
  'NR == 500 { $c("credits_p0") = $c("rx_blocks") + 1 } { print }'
selftest_one "a PG over its limit" pfc.csv \
  'NR == 300 { $c("pg_total") = $c("reserve") + $c("xoff_th") + $c("headroom") + 1 } { print }'
selftest_one "an XON frame while xoff" pfc.csv \
  '$c("frame") == 1 && !done { $c("frame") = 2; done = 1 } { print }'
selftest_one "a mark below kmin" ecn_pkts.csv \
  '$c("qlen") <= $c("kmin") && !done { $c("marked") = 1; done = 1 } { print }'
selftest_one "a bin off the line" ecn.csv \
  '$c("qlen_lo") > $c("kmin") && !done { $c("fraction") += 0.1; done = 1 } { print }'
selftest_one "a trip one cycle late" watchdog.csv \
  'late == 1 { $c("trip") = 1; late = 2 }
   $c("trip") && !late { $c("trip") = 0; late = 1 }
   { print }'
selftest_one "traffic after the deadlock" deadlock_ring_pfc.csv \
  '$c("t_us") > 25 { $c("gbps") = 10 } { print }'
selftest_one "up*/down* stalling" deadlock_updown.csv '$c("t_us") > 25 { $c("gbps") = 0 } { print }'
rm -rf "$data.mut"
fail=$((facts_failed | selftest_failed))
if [ "$selftest_failed" = 0 ]; then
  echo "doc-figures: ok: self-test: every corruption of the data was caught"
fi

if [ "$fail" != 0 ]; then
  echo "doc-figures: some facts of docs/mechanisms/ no longer hold (data in $data)" >&2
  exit 1
fi
[ "$check" = 1 ] && exit 0

# ---- figures --------------------------------------------------------------------------------

if gnuplot -e 'set terminal pngcairo' </dev/null 2>/dev/null; then
  term="pngcairo font 'DejaVu Sans,10'"
else
  term="png"
fi
# put TMP FINAL: renames a complete TMP to FINAL, or exits 2 naming FINAL (TMP removed).
put() {
  if [ ! -s "$1" ] || ! mv -f "$1" "$2"; then
    rm -f "$1"
    echo "doc-figures: cannot write $2" >&2
    exit 2
  fi
}
plot() { # output.png WIDTH,HEIGHT script.gp (in docs/mechanisms/src)
  gnuplot -e "set terminal $term size $2; set output '$figs/.$1.tmp'" \
    -e "set datafile separator ','; d = '$data'" \
    "docs/mechanisms/src/$3"
  put "$figs/.$1.tmp" "$figs/$1"
}
plot credits-incast.png 800,560 credits-incast.gp
plot credits-sweep.png 720,420 credits-sweep.gp
plot pfc-pg.png 800,560 pfc-pg.gp
plot ecn-wred.png 720,460 ecn-wred.gp
plot watchdog-storm.png 780,800 watchdog-storm.gp
plot deadlock-throughput.png 760,500 deadlock-throughput.gp

# The wait-for graph exactly as lfc-sim draws it (Graphviz) for the scenario as committed.
mkdir -p "$sim/plain"
"$build/lfc-sim" sim/scenarios/ring_deadlock_pfc.ini --no-progress --plot "$sim/plain" \
  >"$sim/plain/stdout.txt"
for ext in png dot; do
  cp "$sim/plain/deadlock.$ext" "$figs/.deadlock-waitfor.$ext.tmp" ||
    { rm -f "$figs/.deadlock-waitfor.$ext.tmp"; echo "doc-figures: cannot write" \
        "$figs/deadlock-waitfor.$ext" >&2; exit 2; }
  put "$figs/.deadlock-waitfor.$ext.tmp" "$figs/deadlock-waitfor.$ext"
done

# Figures are committed: keep each one small.
FIG_MAX_BYTES=100000
for f in "$figs"/*.png; do
  size=$(wc -c <"$f")
  if [ "$size" -gt "$FIG_MAX_BYTES" ]; then
    echo "doc-figures: $f is $size bytes, more than $FIG_MAX_BYTES: make it smaller" >&2
    exit 1
  fi
done
ls -l "$figs"
