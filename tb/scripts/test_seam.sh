#!/usr/bin/env bash
# test_seam.sh - the speed seam of the co-simulation (tb/common/tb_fast.c; tb/README.md "The
# speed seam") changes no result: the same run through every combination of its two paths, the
# C side on a thread of its own or not (+threads=2 / +threads=1) and the ports packed (Verilator)
# or moved field by field (Icarus, whose adapter has no packed interface), prints the same log
# line for line but for the speeds; and so does a run that fails, where the threaded run reports
# through its replay of the C side on one thread. Seconds once the simulators are built.
#
#   tb/scripts/test_seam.sh CONFIG CYCLES OUTDIR
#
# 1. CONFIG on the RTL of rtl/: verilator and icarus, each with +threads=2 and +threads=1: four
#    passing logs, equal once the speeds, the simulator's name and the waves' file type are set
#    aside;
# 2. the same on Icarus with the RTL mutant xoff_compare of tb/scripts/mutant_smoke.sh
#    (lfc_pfc_gen.v, `>` for `>=` in XOFF; CONFIG must reach an XOFF): both runs fail with the
#    same MISMATCH line and the same report.
# Environment: as tb/scripts/cosim.sh (BUILD, MAKE, COSIM_BUILD...; tb/tb.mk sets them).
# Exit status: 0 the logs agree, 1 they differ (the first difference is printed), 2 bad
# arguments or a run that could not be made.
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: $0 CONFIG CYCLES OUTDIR" >&2; exit 2; }
config="$1" cycles="$2" out="$3"
: "${BUILD:=build}" "${MAKE:=make}"
# shellcheck source=tb/scripts/args.sh
. "$(dirname "$0")/args.sh"
args_configs test-cosim-seam CONFIG "$config"
args_cycles test-cosim-seam CYCLES "$cycles"
rm -rf "$out" && mkdir -p "$out" ||
  { echo "test_seam: $out: cannot create the directory" >&2; exit 2; }
fails=0

# run NAME WANT_RC SIM THREADS [make arguments...]: one make cosim, its log kept as OUT/NAME.log
# and, normalised, OUT/NAME.norm. WANT_RC is make's exit status (0 pass, 2 a failed run).
run() {
  local name="$1" want="$2" sim="$3" threads="$4" rc
  shift 4
  TB_PLUSARGS="+threads=$threads" $MAKE --no-print-directory cosim SIM="$sim" CONFIG="$config" \
    SEED=1 CYCLES="$cycles" "$@" >"$out/$name.make.log" 2>&1
  rc=$?
  local dir="${COSIM_BUILD:-$BUILD/cosim}" a
  for a in "$@"; do
    case "$a" in COSIM_BUILD=*) dir="${a#COSIM_BUILD=}" ;; esac
  done
  local log="$dir/run/$sim/$config/seed1/log.txt"
  if [ "$rc" -ne "$want" ] || [ ! -f "$log" ]; then
    echo "test_seam: $name: make cosim exited $rc (wanted $want); its output: $out/$name.make.log" >&2
    tail -n 5 "$out/$name.make.log" | sed 's/^/  | /' >&2
    exit 2
  fi
  cp "$log" "$out/$name.log"
  # Set aside what may differ: the speeds, the two-thread line, the simulator and its waves.
  sed -E -e '/^threads: /d' \
    -e 's/ cycles_per_second=[0-9]+ cpu_cycles_per_second=[0-9]+//' \
    -e 's/icarus|verilator/SIM/g' -e 's/waves\.(fst|vcd)/waves.W/g' \
    "$out/$name.log" >"$out/$name.norm"
}

# same A B: the normalised logs of A and B are equal.
same() {
  if cmp -s "$out/$1.norm" "$out/$2.norm"; then
    echo "  ok: $1 = $2 ($(wc -l <"$out/$1.norm") lines)"
  else
    echo "  FAIL: $1 and $2 differ (logs in $out):"
    diff "$out/$1.norm" "$out/$2.norm" | head -n 6 | sed 's/^/    /'
    fails=$((fails + 1))
  fi
}

echo "== $config, $cycles cycles: the C side threaded or not, ports packed or not"
run verilator-t2 0 verilator 2
run verilator-t1 0 verilator 1
run icarus-t2 0 icarus 2
run icarus-t1 0 icarus 1
grep -q '^PASS ' "$out/icarus-t1.log" || { echo "test_seam: no PASS line in icarus-t1.log" >&2; exit 2; }
same icarus-t1 icarus-t2
same icarus-t1 verilator-t1
same icarus-t1 verilator-t2

echo "== the mutant xoff_compare: a failing run, reported through the replay or not"
mut="$out/mutant"
mkdir -p "$mut" && cp -r rtl "$mut/rtl" ||
  { echo "test_seam: cannot copy rtl/ to $mut" >&2; exit 2; }
sed -i -E 's/\(sh >= th_i\)/(sh > th_i)/' "$mut/rtl/lfc_pfc_gen.v"
if cmp -s rtl/lfc_pfc_gen.v "$mut/rtl/lfc_pfc_gen.v"; then
  echo "test_seam: the mutant changed nothing in rtl/lfc_pfc_gen.v (the RTL changed?)" >&2
  exit 2
fi
run mutant-t2 2 icarus 2 RTL_DIR="$mut/rtl" COSIM_BUILD="$mut/cosim"
run mutant-t1 2 icarus 1 RTL_DIR="$mut/rtl" COSIM_BUILD="$mut/cosim"
grep -q '^MISMATCH ' "$out/mutant-t1.log" ||
  { echo "test_seam: the mutant's run failed without a MISMATCH line ($out/mutant-t1.log)" >&2
    exit 2; }
same mutant-t1 mutant-t2

if [ "$fails" -ne 0 ]; then
  echo "test_seam: FAIL: $fails pair(s) of runs differ" >&2
  exit 1
fi
echo "test_seam: ok, the speed seam changes no line of the logs ($config, passing and failing)"
