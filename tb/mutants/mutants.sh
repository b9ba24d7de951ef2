#!/usr/bin/env bash
# make mutants: Yosys `mutate` mutants of the switch RTL, each run through the co-simulation.
# See tb/mutants/README.md.
#
# Per build configuration C of tb/mutants/plan.txt (default: all of them):
#   1. Yosys elaborates rtl/*.v as lfc_switch with C's parameters (tb-params, -G flags turned
#      into `hierarchy -chparam`; `prep`, not flattened) and lists every candidate mutation of
#      each RTL module of C's plan (mutate -list, selection *lfc_<module>): each changes one
#      bit of one cell port of one module, so, like a change of the module's source, it is in
#      every instance of that module;
#   2. pick.py samples the plan's number of them per module, by a hash of the seed and of what
#      identifies each candidate apart from the rest of the design, so a module's mutants depend
#      only on its own source and parameters: a change of one RTL file leaves the other
#      modules' mutants, and the arguments for them in explained.txt, alone (Yosys's own
#      sampling, mutate -list N, does not: its order and its random control bits depend on the
#      whole design);
#   3. Yosys puts all of them into ONE netlist (mutate -ctrl mutsel W k: mutant k is active when
#      the extra input mutsel equals k; 0 is the unmutated design), wires every mutated
#      instance's new mutsel input to a new top-level input mutsel, flattens the design and
#      writes it as Verilog;
#   4. ONE Verilator co-simulation is built from it (the shim built with -DTB_MUTSEL=W reads
#      mutsel from $LFC_MUTSEL);
#   5. every mutant runs (JOBS at a time, tb/mutants/runs.sh): first the run `make test-cosim`
#      makes of C (seed 1, C's test_cycles), then, if that passed, MUT_SEEDS more seeds of C's
#      full [run] cycles, then the same runs on each stimulus variant of C (tb/mutants/
#      variants.txt: other tb/configs with C's RTL parameters, checked below).
#      Killed: a run exits non-zero (MISMATCH, scoreboard error, crash, timeout).
#      mutsel=0 must pass every run, or the netlist is not the RTL and the result is void.
# Then equiv.sh tries to prove each survivor equivalent (Yosys equiv_*, module by module), and
# report.py writes OUT/summary.json, OUT/survivors.txt and OUT/mutants.tsv.
#
# Environment: BUILD (build), JOBS (2), MUT_CONFIGS (the plan's), MUT_SEEDS (3), MUT_LIST_SEED
# (1), MUT_LIST_ONLY (0; 1: steps 1-2 only, then the check of explained.txt, make mutants-list), MUT_TIMEOUT (seconds per run, 120), MUT_EQUIV_TIMEOUT (seconds per proof, 60),
# VERILATOR_JOBS (2), VERILATOR (verilator),
# YOSYS (yosys).
set -uo pipefail

: "${BUILD:=build}" "${JOBS:=2}" "${MUT_SEEDS:=3}" "${MUT_LIST_SEED:=1}" "${MUT_TIMEOUT:=120}"
: "${VERILATOR_JOBS:=2}" "${VERILATOR:=verilator}" "${YOSYS:=yosys}"
HERE=tb/mutants
PLAN=$HERE/plan.txt
VARIANTS=$HERE/variants.txt
OUT="$BUILD/mutants"
PARAMS="$BUILD/tb/tb-params"
# mutate -list with more than any module has: every candidate.
LIST_ALL=100000000
# mutsel width: up to 2^9 - 1 mutants per netlist.
CTRL_WIDTH=9
PLAN_CONFIGS="$(awk '!/^#/ && NF == 3 && !seen[$1]++ {print $1}' "$PLAN" | tr '\n' ' ')"
: "${MUT_CONFIGS:=$PLAN_CONFIGS}"

die() { echo "mutants: $*" >&2; exit 2; }
source tb/scripts/yosys_chparam.sh
# shellcheck source=tb/scripts/args.sh
source tb/scripts/args.sh
args_uint mutants JOBS "$JOBS" 1
args_uint mutants MUT_SEEDS "$MUT_SEEDS" 1
args_uint mutants MUT_LIST_SEED "$MUT_LIST_SEED" 0
args_uint mutants MUT_TIMEOUT "$MUT_TIMEOUT" 1
args_uint mutants VERILATOR_JOBS "$VERILATOR_JOBS" 1
for c in $MUT_CONFIGS; do
  [ -f "tb/configs/$c.ini" ] || die "MUT_CONFIGS: there is no tb/configs/$c.ini"
  grep -q "^$c[[:space:]]" "$PLAN" || die "MUT_CONFIGS: $PLAN has no mutants for '$c'"
done
[ -x "$PARAMS" ] || die "$PARAMS is missing (make tb-params first)"
# A variant runs on its configuration's netlist: its RTL parameters must be the same.
for c in $MUT_CONFIGS; do
  for v in $(awk -v c="$c" '!/^#/ && $1 == c {print $2}' "$VARIANTS"); do
    [ -f "tb/configs/$v.ini" ] || die "$VARIANTS: there is no tb/configs/$v.ini"
    [ "$("$PARAMS" verilator "tb/configs/$v.ini")" = "$("$PARAMS" verilator "tb/configs/$c.ini")" ] ||
      die "$VARIANTS: $v's RTL parameters ([switch], [ib], [pfc]) differ from $c's"
  done
done
command -v "$YOSYS" >/dev/null || die "no $YOSYS (Debian package yosys)"

t0=$(date +%s)
# Keep the netlists and Verilator builds of an earlier run: Verilator redoes only what changed
# (below, the netlist file is replaced only when its text changed); drop every earlier result.
mkdir -p "$OUT"
rm -rf "$OUT"/*/runs "$OUT"/*/equiv "$OUT"/summary.json "$OUT"/survivors.txt "$OUT"/mutants.tsv
echo "== make mutants: configurations" $MUT_CONFIGS "(output $OUT)"

# ---- 1..4: one netlist and one simulator per configuration ----
build_config() {
  local c="$1" d="$OUT/$c" ports params
  mkdir -p "$d"
  params="$("$PARAMS" verilator "tb/configs/$c.ini")" || return 1
  ports="$("$PARAMS" ports "tb/configs/$c.ini")" || return 1
  local chparam
  chparam="$(yosys_chparam "$params")"
  {
    echo "read_verilog -Irtl $(ls rtl/*.v | tr '\n' ' ')"
    echo "hierarchy -check -top lfc_switch $chparam"
    echo "prep -top lfc_switch"
    # lfc_ib_port and lfc_pfc_port are lfc_switch's per-port wiring of the mode's blocks, in
    # files of their own to be read: inlined here, every block's instance is a cell of
    # lfc_switch itself again (pick.py wires mutsel there) and their logic is "switch"'s.
    echo "setattr -mod -set keep_hierarchy 1 *"
    echo "setattr -mod -unset keep_hierarchy *lfc_ib_port *lfc_pfc_port"
    echo "flatten"
    echo "setattr -mod -unset keep_hierarchy *"
    echo "hierarchy -top lfc_switch"
    echo "write_rtlil $d/design.il"
    # Every candidate, module by module (the selection *lfc_<module> is every parameter set
    # of it, as one source edit would be; "switch" is lfc_switch's own logic with its ports').
    awk -v c="$c" -v n="$LIST_ALL" -v d="$d" '!/^#/ && NF == 3 && $1 == c {
      printf "mutate -list %d -o %s/list.%s.txt *lfc_%s\n", n, d, $2, $2 }' "$PLAN"
  } >"$d/elab.ys"
  rm -f "$d"/list.*.txt
  echo "   $c: yosys: elaborate, list the candidate mutations module by module"
  $YOSYS -q -l "$d/elab.log" "$d/elab.ys" >/dev/null 2>&1 ||
    { echo "   $c: yosys failed, see $d/elab.log"; return 1; }
  python3 "$HERE/pick.py" "$PLAN" "$c" "$d" "$d/design.il" "$MUT_LIST_SEED" \
    "$d/chosen.tsv" "$d/apply.ys" "$CTRL_WIDTH" || return 1
  # MUT_LIST_ONLY=1: the choice only (make mutants-list), no netlist, no runs.
  [ "${MUT_LIST_ONLY:-0}" = 1 ] && return 0
  rm -f "$d"/list.*.txt  # up to 80 MB each; elab.ys makes them again
  { echo "read_rtlil $d/design.il"; cat "$d/apply.ys"; echo "hierarchy -top lfc_switch"
    echo "flatten"; echo "opt_clean"; echo "write_verilog -noattr $d/mutated.new.v"; } >"$d/mutate.ys"
  echo "   $c: yosys: $(grep -c '^mutate' "$d/apply.ys") mutants into one netlist"
  $YOSYS -q -l "$d/mutate.log" "$d/mutate.ys" >/dev/null 2>&1 ||
    { echo "   $c: yosys failed, see $d/mutate.log"; return 1; }
  if cmp -s "$d/mutated.new.v" "$d/mutated.v"; then rm -f "$d/mutated.new.v"
  else mv "$d/mutated.new.v" "$d/mutated.v"; fi
  # Verilator's makefile does not relink when only the test's objects changed: link always.
  rm -f "$d/obj/Vcosim"
  echo "   $c: verilator build ($ports ports)"
  # The shim and the test exactly as tb/tb.mk builds them, but the RTL is the netlist (its
  # parameters are already applied: no -G flags) and -DTB_MUTSEL gives the shim mutsel.
  # Lint warnings of the generated netlist are not the RTL's: only errors matter here.
  $VERILATOR --cc --exe --build -O2 -Wno-fatal -Wno-lint -Wno-style \
    -MAKEFLAGS "OPT_FAST=-O1 OPT_SLOW=-O0 OPT_GLOBAL=-O1" -j "$VERILATOR_JOBS" \
    --top-module lfc_switch -Mdir "$d/obj" -o Vcosim \
    -CFLAGS "-DTB_PORTS=$ports -DTB_MUTSEL=$CTRL_WIDTH -I$PWD/tb/common -I$PWD/cmodel/include" \
    "$PWD/$d/mutated.v" "$PWD/tb/verilator/dut_verilator.cpp" \
    $(ls "$PWD/$BUILD"/tb/obj/common/*.o) "$PWD/$BUILD/liblfc.a" -LDFLAGS "-linih -lm" \
    >"$d/verilator.log" 2>&1 ||
    { echo "   $c: verilator failed, see $d/verilator.log"; tail -n 5 "$d/verilator.log"; return 1; }
}

for c in $MUT_CONFIGS; do
  build_config "$c" || die "building the mutants of $c failed"
done
if [ "${MUT_LIST_ONLY:-0}" = 1 ]; then
  # Every explained.txt entry of these configurations must still name its mutant's source
  # line (report.py --explained): a change of rtl/ that moved an argued line shows here,
  # in minutes, instead of at the end of a run of hours.
  python3 "$HERE/report.py" --explained "$OUT" $MUT_CONFIGS
  exit $?
fi
t_built=$(date +%s)
echo "   built in $((t_built - t0)) s"

# ---- 5: the runs ----
# run_mutant CONFIG ID (tb/mutants/runs.sh): writes OUT/CONFIG/runs/ID/result.
source "$HERE/runs.sh"
export -f run_mutant
# A run per core: each keeps its C side on its own thread (see tb/scripts/regress.sh).
MUT_THREADS=""
[ "$JOBS" -ge "$(nproc 2>/dev/null || echo 1)" ] && MUT_THREADS="+threads=1"
export OUT PARAMS MUT_SEEDS MUT_TIMEOUT VARIANTS MUT_THREADS

jobs="$OUT/jobs.txt"
: >"$jobs"
for c in $MUT_CONFIGS; do
  echo "$c 0" >>"$jobs"
  awk -v c="$c" '!/^#/ {print c, $1}' "$OUT/$c/chosen.tsv" >>"$jobs"
done
echo "== running $(wc -l <"$jobs") mutants (mutsel 0 of each configuration too), $JOBS at a time"
xargs -P "$JOBS" -L 1 bash -c 'run_mutant "$0" "$1"' <"$jobs"
t_run=$(date +%s)
echo "   ran in $((t_run - t_built)) s"

sane=1
for c in $MUT_CONFIGS; do
  if [ "$(cut -d' ' -f1 "$OUT/$c/runs/0/result")" != survived ]; then
    echo "mutants: the UNMUTATED netlist of $c (mutsel=0) fails: $(cat "$OUT/$c/runs/0/result")"
    sane=0
  fi
done
[ "$sane" = 1 ] || die "the netlist differs from the RTL; no result (see $OUT/<config>/runs/0/)"

# ---- 6: equivalence of the survivors, then the report ----
for c in $MUT_CONFIGS; do
  JOBS="$JOBS" YOSYS="$YOSYS" OUT="$OUT" bash "$HERE/equiv.sh" "$c" ||
    die "equiv.sh $c failed"
done
t_eq=$(date +%s)
echo "   equivalence checks in $((t_eq - t_run)) s"
# report.py's status is make mutants' status: 1 below the target (or a survivor not explained,
# or fewer mutants than the whole plan must make), 2 a stale explained.txt.
full_plan=0
read -ra given <<<"$MUT_CONFIGS"
read -ra planned <<<"$PLAN_CONFIGS"
[ "${given[*]}" = "${planned[*]}" ] && full_plan=1
MUT_FULL_PLAN=$full_plan python3 "$HERE/report.py" "$OUT" $MUT_CONFIGS
rc=$?
echo "   make mutants took $(( $(date +%s) - t0 )) s"
exit $rc
