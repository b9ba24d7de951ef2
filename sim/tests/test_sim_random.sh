#!/bin/sh
# test_sim_random.sh LFC_SIM LFC_SIM_CHECK OUTDIR - the checks of `make test-sim-random`
# (docs/sim.md "Tests"):
#  1. SIM_RANDOM_CASES (default 300) random scenarios from SIM_RANDOM_SEED (default 1), each
#     run five ways by sim_random.py (stepped, checked skip-ahead, fast, 2 and 3 threads): one
#     digest each; and 3 from a seed as large as make soak-sim's default (the time in seconds);
#  2. bad arguments: one line, exit status 2, nothing written;
#  3. it finds what test-sim does not: three mutants of the skip-ahead, each one cycle off in a
#     next event (a watchdog storm's discard, a parked port's wake-up, the end of a pause that
#     was not refreshed in time), which change no fixed scenario's digest or time series, and
#     one of the sampling, whose samples see the devices one cycle short of the sample's time,
#     which changes no digest and, on the k = 8 tree test-sim samples, the same series on 1 and
#     2 threads (the count of fixed scenarios as before is printed). The first three must make
#     digests differ here, the last the time series (sim_random.py compares both). A mutant is
#     the fast lfc-sim compiled (CC, CPPFLAGS, LDLIBS from make; -O1 for a quick build) with one
#     source file edited, run against the unedited LFC_SIM_CHECK; the first scenario it fails
#     on, as kept, fails again.
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
HERE=$(dirname "$0")
TOP=$HERE/../..
SEED=${SIM_RANDOM_SEED:-1}
CASES=${SIM_RANDOM_CASES:-300}
CC=${CC:-cc}
rm -rf "$OUT" && mkdir -p "$OUT" || exit 2
fail=0
summary() { grep '^sim_random: [0-9]* passed'; } # the closing line of sim_random.py
ok() { echo "  ok   $*"; }
bad() { echo "  FAIL $*"; fail=1; }

# --- 1. random scenarios, five ways ------------------------------------------------------
if r=$(python3 "$HERE/sim_random.py" "$SIM" "$CHK" "$OUT/cases" --seed "$SEED" --cases "$CASES"); then
  ok "$(echo "$r" | summary)"
else
  bad "random scenarios: $(echo "$r" | tail -4)"
fi

# ... and from a seed as large as make soak-sim's default (the time in seconds), fixed here
big=1800000000
if r=$(python3 "$HERE/sim_random.py" "$SIM" "$CHK" "$OUT/big" --seed "$big" --cases 3); then
  ok "$(echo "$r" | summary)"
else
  bad "random scenarios from seed $big: $(echo "$r" | tail -4)"
fi

# --- 2. bad arguments --------------------------------------------------------------------
refused() { # refused WHAT ARGS...: one line on stderr, exit 2, no OUT written
  what=$1; shift
  rm -rf "$OUT/bad"
  python3 "$HERE/sim_random.py" "$@" >"$OUT/bad.out" 2>"$OUT/bad.err"
  st=$?
  if [ $st -eq 2 ] && [ "$(wc -l <"$OUT/bad.err")" -eq 1 ] && [ ! -s "$OUT/bad.out" ] &&
    [ ! -e "$OUT/bad" ]; then
    ok "refused, $what: $(cat "$OUT/bad.err")"
  else
    bad "$what: exit $st, stderr $(wc -l <"$OUT/bad.err") lines, out dir $(ls -d "$OUT/bad" 2>/dev/null)"
  fi
}
refused "too few arguments" "$SIM" "$CHK"
refused "an unknown option" "$SIM" "$CHK" "$OUT/bad" --case 3
refused "a seed that is not a number" "$SIM" "$CHK" "$OUT/bad" --seed x
refused "no cases" "$SIM" "$CHK" "$OUT/bad" --cases 0
refused "negative seconds" "$SIM" "$CHK" "$OUT/bad" --seconds -1
refused "an option without its value" "$SIM" "$CHK" "$OUT/bad" --seed
refused "a simulator that is not a program" "$OUT/nothing-here" "$CHK" "$OUT/bad"
refused "an output directory under a file" "$SIM" "$CHK" "$OUT/bad.err/cases"

# --- 3. mutants the fixed scenarios miss -------------------------------------------------
# mutant NAME FILE OLD NEW: FILE (cmodel/src/... or sim/src/...) with OLD replaced by NEW,
# built as lfc-sim.
mutant() {
  name=$1; file=$2; old=$3; new=$4
  dir=$OUT/mutant-$name
  mkdir -p "$dir"
  python3 - "$TOP/$file" "$dir/$(basename "$file")" "$old" "$new" <<'PY' || return 1
import sys
src, dst, old, new = sys.argv[1:]
text = open(src).read()
if text.count(old) != 1:
    sys.exit(f"{src}: the line to change is not there once: {old}")
open(dst, "w").write(text.replace(old, new))
PY
  srcs=""
  for f in "$TOP"/cmodel/src/*.c "$TOP"/sim/src/*.c; do
    [ "$f" -ef "$TOP/$file" ] && srcs="$srcs $dir/$(basename "$file")" || srcs="$srcs $f"
  done
  # shellcheck disable=SC2086 # CPPFLAGS and LDLIBS are word lists
  $CC ${CPPFLAGS:--I$TOP/cmodel/include} -I"$TOP/cmodel/src" -I"$TOP/sim/src" -std=c11 -O1 \
    -DNDEBUG -DLFC_VERSION_STRING="\"$(cat "$TOP/VERSION")\"" -o "$dir/lfc-sim" $srcs \
    -linih -pthread ${LDLIBS:--lm} 2>"$dir/build.log" || { echo "build failed: $dir/build.log"; return 1; }
}
# outcome BIN INI DIR [ARGS]: the run's digest, then a checksum of each time series file
outcome() {
  bin=$1; ini=$2; csv=$3; shift 3
  rm -rf "$csv" && mkdir -p "$csv"
  "$bin" "$ini" --no-progress --digest --csv "$csv/s" "$@" 2>/dev/null | sed -n 's/^digest //p'
  cksum "$csv"/s/* 2>/dev/null | awk '{print $1, $2}'
}
# The unedited build's outcome of each fixed scenario, once for every mutant.
mkdir -p "$OUT/fixed"
total=0
for f in "$TOP"/sim/scenarios/*.ini; do
  total=$((total + 1))
  outcome "$SIM" "$f" "$OUT/fixed/csv" >"$OUT/fixed/$(basename "$f" .ini).txt"
done
# caught NAME KIND: the mutant, on the fixed scenarios (their digests and time series as the
# unedited build's: counted), and here, where it must fail with KIND (digests or time series);
# the first scenario it fails on, as kept, fails again.
caught() {
  name=$1; kind=$2; dir=$OUT/mutant-$name
  same=0
  for f in "$TOP"/sim/scenarios/*.ini; do
    a=$(outcome "$dir/lfc-sim" "$f" "$dir/fixed")
    [ -n "$a" ] && [ "$a" = "$(cat "$OUT/fixed/$(basename "$f" .ini).txt")" ] && same=$((same + 1))
  done
  r=$(python3 "$HERE/sim_random.py" "$dir/lfc-sim" "$CHK" "$dir/cases" --seed "$SEED" --cases "$CASES")
  st=$?
  first=$(echo "$r" | sed -n "s/^  FAIL \([^:]*\): $kind differ.*/\1/p" | head -1)
  if [ $st -ne 1 ] || [ -z "$first" ]; then
    bad "mutant $name: not caught by its $kind (exit $st): $(echo "$r" | summary)"
    return
  fi
  a=$(outcome "$dir/lfc-sim" "$first" "$dir/again-a")
  b=$(outcome "$CHK" "$first" "$dir/again-b" --step-all)
  if [ -n "$a" ] && [ -n "$b" ] && [ "$a" != "$b" ]; then
    ok "mutant $name: caught by its $kind ($(echo "$r" | summary | sed 's/ (.*//')), its first" \
      "kept scenario fails again; the fixed scenarios: $same of $total as before"
  else
    bad "mutant $name: the kept scenario $first does not fail again"
  fi
}
# try NAME KIND FILE OLD NEW
try() {
  if mutant "$1" "$3" "$4" "$5"; then caught "$1" "$2"; else bad "mutant $1 could not be made"; fi
}
try wd_discard digests cmodel/src/watchdog.c \
  "if (lfc_wd_drop_mask(sw, p) & pp->nonempty) return sw->now;" \
  "if (lfc_wd_drop_mask(sw, p) & pp->nonempty) return sw->now + 1u;"
try unpark digests cmodel/src/port_tx.c \
  "if (sw->tx_wake[p] <= sw->now) {" "if (sw->tx_wake[p] < sw->now) {"
try pause_lapse digests cmodel/src/sched.c \
  "m = lfc_min_u64(m, pp->pc[c].pause_until);" "m = lfc_min_u64(m, pp->pc[c].pause_until + 1u);"
# a sample taken with the devices one cycle short of its time: the end is as before
try sample_sync "time series" sim/src/engine.c \
  "sync_all(s, *next_sample);" "sync_all(s, *next_sample - 1u);"

[ $fail -eq 0 ] && echo "test_sim_random: all checks passed" || echo "test_sim_random: FAILED"
exit $fail
