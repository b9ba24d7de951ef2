#!/usr/bin/env bash
# make test-cosim-args: a wrong value given to the co-simulation (make cosim / regress / soak /
# mutants / mutants-smoke / coverage, and the test's +arguments) must stop it at once, with exit
# status 2 and a line that names the value and what is allowed; a right one must pass. Before
# these checks CYCLES=-5 ran for hours, SEED=abc died on an "unbound variable" and SEEDS=abc
# ended "0 passed, 0 failed". Also: another RTL tree (RTL_DIR=) is never run on the simulator
# built from the previous one (section 7).
#
#   tb/scripts/test_args.sh VCOSIM   (a built Verilator co-simulation binary)
#
# Environment from tb/tb.mk: BUILD (tb-params for tb/scripts/test_config.sh and
# test_netlist.sh), COSIM_BUILD, MAKE, TB_VPI, VVP. Prints one line per check and
# `test-cosim-args: N checks passed` or exits 1 at the first that fails.
set -uo pipefail
[ $# -eq 1 ] || { echo "usage: $0 VCOSIM" >&2; exit 2; }
vcosim="$1"
: "${COSIM_BUILD:?}" "${MAKE:=make}" "${TB_VPI:?}"
# A check that hangs is a failed one (CYCLES=-5 once ran for hours).
LIMIT=60
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
n=0

fail() { echo "FAIL: $*"; exit 1; }

# refused WHAT PATTERN CMD...: CMD exits 2 within LIMIT seconds and prints PATTERN.
refused() {
  local what="$1" pattern="$2" rc; shift 2
  timeout "$LIMIT" "$@" >"$tmp/out" 2>&1
  rc=$?
  [ $rc -eq 2 ] || { cat "$tmp/out"; fail "$what: exit status $rc, not 2"; }
  grep -qF -- "$pattern" "$tmp/out" ||
    { cat "$tmp/out"; fail "$what: no '$pattern' in the output"; }
  echo "ok: $what is refused: $(grep -m1 -F -- "$pattern" "$tmp/out" | cut -c1-100)"
  n=$((n + 1))
}

# 1. tb/scripts/args.sh itself: right values pass, the edges are where they are said to be.
# shellcheck source=tb/scripts/args.sh
. tb/scripts/args.sh
( args_uint t SEED 0 0 4294967295 && args_uint t SEED 4294967295 0 4294967295 &&
  args_uint t SEED 007 0 4294967295 && args_cycles t CYCLES "" && args_cycles t CYCLES 1 &&
  args_sims t SIMS "verilator icarus icarus-netlist" &&
  args_configs t CONFIGS "pfc_basic ib_basic" &&
  args_flag t WAVES 0 && args_flag t WAVES 1 ) 2>"$tmp/out" ||
  { cat "$tmp/out"; fail "args.sh refuses a right value"; }
echo "ok: args.sh takes 0, 4294967295, 007, empty CYCLES, the three simulators, two configurations"
n=$((n + 1))
refused "args_uint above its maximum" "from 0 to 4294967295" \
  bash -c '. tb/scripts/args.sh; args_uint t SEED 4294967296 0 4294967295'
refused "args_uint of 19 digits" "SEED='1000000000000000000'" \
  bash -c '. tb/scripts/args.sh; args_uint t SEED 1000000000000000000 0'

# 2. make cosim, regress, test-cosim, soak, mutants, mutants-smoke: every value is checked when
# tb/tb.mk is read (tb/scripts/make_args.sh), before anything is built: nothing appears in the
# BUILD directory. (SEED=4294967296 passed make's check of the digits and was refused by
# cosim.sh only after the simulator was built; make regress built the whole tree first.)
for bad in "cosim SEED=abc|SEED='abc': a whole number" \
           "cosim SEED=4294967296|SEED='4294967296': a whole number from 0 to 4294967295" \
           "cosim CYCLES=-5|CYCLES='-5': a number of cycles" \
           "cosim CYCLES=0|CYCLES='0': a number of cycles" \
           "cosim CYCLES=1000000000000000000|CYCLES='1000000000000000000'" \
           "cosim WAVES=yes|WAVES='yes': 0 or 1" \
           "cosim PCAP=2|PCAP='2': 0 or 1" \
           "cosim COMPARE=2|COMPARE='2': 0 or 1" \
           "cosim CONFIG=nope|there is no tb/configs/nope.ini" \
           "cosim SIM=vcs|SIM='vcs': one of: verilator icarus icarus-netlist" \
           "cosim COSIM_TIMEOUT=abc|COSIM_TIMEOUT='abc'" \
           "regress SEEDS=abc|SEEDS='abc'" "regress JOBS=0|JOBS='0'" \
           "regress CONFIGS=nope|no tb/configs/nope.ini" "regress ICARUS_PCT=0|ICARUS_PCT='0'" \
           "test-cosim TEST_COSIM_SEEDS=0|TEST_COSIM_SEEDS='0'" \
           "soak HOURS=abc|HOURS='abc'" "soak SOAK_SEED=-1|SOAK_SEED='-1'" \
           "mutants MUT_SEEDS=0|MUT_SEEDS='0'" "mutants MUT_CONFIGS=nope|no tb/configs/nope.ini" \
           "mutants-smoke MUTANT_SIM=foo|MUTANT_SIM='foo'"; do
  args="${bad%%|*}" pattern="${bad#*|}"
  # shellcheck disable=SC2086  # $args is a goal and an assignment
  refused "make $args" "$pattern" "$MAKE" -s --no-print-directory BUILD="$tmp/b" $args
  [ ! -e "$tmp/b" ] || fail "make $args built something before refusing it: $(ls "$tmp/b")"
done
echo "ok: none of these built anything"
n=$((n + 1))

# 3. cosim.sh, as regress.sh calls it.
refused "cosim.sh SEED abc" "SEED='abc'" tb/scripts/cosim.sh verilator pfc_basic abc "" 0 "$tmp/c"
refused "cosim.sh SEED 2^32" "SEED='4294967296'" \
  tb/scripts/cosim.sh verilator pfc_basic 4294967296 "" 0 "$tmp/c"
refused "cosim.sh CYCLES -5" "CYCLES='-5'" tb/scripts/cosim.sh verilator pfc_basic 1 -5 0 "$tmp/c"
refused "cosim.sh CONFIG nope" "there is no tb/configs/nope.ini" \
  tb/scripts/cosim.sh verilator nope 1 "" 0 "$tmp/c"
refused "cosim.sh PCAP=yes" "PCAP='yes': 0 or 1" \
  env PCAP=yes tb/scripts/cosim.sh verilator pfc_basic 1 "" 0 "$tmp/c"
refused "cosim.sh COMPARE=no" "COMPARE='no': 0 or 1" \
  env COMPARE=no tb/scripts/cosim.sh verilator pfc_basic 1 "" 0 "$tmp/c"
refused "test_seam.sh without arguments" "usage: " tb/scripts/test_seam.sh
refused "test_seam.sh CONFIG nope" "there is no tb/configs/nope.ini" \
  tb/scripts/test_seam.sh nope 100 "$tmp/seam"
refused "test_seam.sh CYCLES 0" "CYCLES='0'" tb/scripts/test_seam.sh pfc_basic 0 "$tmp/seam"

# 4. regress.sh: nothing is built, no run.
for bad in "SEEDS=abc|SEEDS='abc'" "SEEDS=0|SEEDS='0'" "JOBS=0|JOBS='0'" \
           "CYCLES=-3|CYCLES='-3'" "SIMS=foo|SIMS='foo'" "CONFIGS=nope|no tb/configs/nope.ini" \
           "ICARUS_PCT=101|from 1 to 100" "SIMS=|SIMS=''" "CONFIGS=|CONFIGS=''"; do
  assign="${bad%%|*}" pattern="${bad#*|}"
  refused "regress.sh $assign" "$pattern" env SEEDS=1 SIMS=verilator CONFIGS=pfc_basic \
    OUT="$tmp/regress" "$assign" tb/scripts/regress.sh
  [ ! -e "$tmp/regress/build.log" ] || fail "regress.sh $assign started a build"
done

# 5. soak.sh, tb/mutants/mutants.sh, mutant_smoke.sh, make coverage.
refused "soak.sh HOURS=abc" "HOURS='abc'" \
  env OUT="$tmp/soak" CONFIGS=pfc_basic HOURS=abc tb/scripts/soak.sh
refused "soak.sh SOAK_SEED=-1" "SOAK_SEED='-1'" \
  env OUT="$tmp/soak" CONFIGS=pfc_basic SECONDS_LIMIT=1 SOAK_SEED=-1 tb/scripts/soak.sh
refused "mutants.sh MUT_SEEDS=0" "MUT_SEEDS='0'" env MUT_SEEDS=0 bash tb/mutants/mutants.sh
refused "mutant_smoke.sh MUTANT_SIM=foo" "MUTANT_SIM='foo'" \
  env MUTANT_SIM=foo tb/scripts/mutant_smoke.sh
refused "mutant_smoke.sh nosuch" "NAME='nosuch'" tb/scripts/mutant_smoke.sh nosuch
refused "make coverage COVERAGE_SEEDS=abc" "COVERAGE_SEEDS=abc: a whole number" \
  "$MAKE" -s --no-print-directory coverage COVERAGE_SEEDS=abc
refused "make coverage COVERAGE_CONFIGS=nope" "no tb/configs/nope.ini" \
  "$MAKE" -s --no-print-directory coverage COVERAGE_CONFIGS=nope

# 6. The test's own +arguments (tb_main.c), which a user may give the binary directly.
for bad in +cycles=-5 +cycles=99999999999999999999999 "+cycles= 5" +cycles=0x10 +seed=-1 \
           +seed=4294967296 +threads=3 +model_only=2 +pcap= +compare=2; do
  refused "the test's $bad" "bad argument '$bad'" \
    "$vcosim" +config=tb/configs/pfc_basic.ini "$bad"
done

# +compare=0 (tb_free.c) runs no model: not with +model_only=1 (no RTL either), nor on a
# configuration whose stimulus aims FCPs from the model's registers.
refused "+model_only=1 +compare=0" "+model_only=1 runs no RTL and +compare=0 no model" \
  "$vcosim" +config=tb/configs/pfc_basic.ini +model_only=1 +compare=0
refused "+compare=0 on ib_send_edge" "[misbehave] edge_fcp_* aims its FCPs from the model's" \
  "$vcosim" +config=tb/configs/ib_send_edge.ini +compare=0

# A misspelt argument of the test is refused, naming the allowed ones (+sed=3 ran seed 1 and
# passed); the simulator's own (+verilator+...) are not the test's and pass.
for bad in +sed=3 +cycle=100 --seeds=2 +model_only; do
  refused "the test's unknown $bad" "unknown argument '$bad' (allowed: +config=, +seed=," \
    "$vcosim" +config=tb/configs/pfc_basic.ini +cycles=50 "$bad"
done
"$vcosim" +config=tb/configs/pfc_basic.ini +cycles=50 +verilator+seed+5 +verilator+rand+reset+2 \
  >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "Verilator's own +verilator+ arguments refused"; }
echo "ok: Verilator's own +verilator+seed+5 +verilator+rand+reset+2 are passed on"
n=$((n + 1))

# 6b. A file of the run that cannot be written fails the run with status 2 and one line naming
# it, even when the run passed (a coverage file that could not be written was reported and the
# run passed, its points missing from the regression's sum); nothing half-written is left.
refused "coverage to a full device" "cosim: cannot write /dev/full: No space left on device" \
  "$vcosim" +config=tb/configs/pfc_basic.ini +cycles=50 +cov=/dev/full
refused "coverage into a directory that does not exist" "cosim: cannot write $tmp/none/c.json" \
  "$vcosim" +config=tb/configs/pfc_basic.ini +cycles=50 +cov="$tmp/none/c.json"
refused "the result file into a directory that does not exist" "cosim: cannot write $tmp/none/r" \
  "$vcosim" +config=tb/configs/pfc_basic.ini +cycles=50 +result="$tmp/none/r"
refused "pcap files into a directory that does not exist" \
  "cosim: +pcap: $tmp/none/port0.pcap: cannot create a temporary file beside it" \
  "$vcosim" +config=tb/configs/pfc_basic.ini +cycles=50 +pcap="$tmp/none"
[ ! -e "$tmp/none" ] || fail "+pcap into a directory that does not exist made it"
timeout "$LIMIT" "$vcosim" +config=tb/configs/pfc_basic.ini +cycles=50 >/dev/full 2>"$tmp/out"
rc=$?
[ $rc -eq 2 ] && grep -qF "cosim: cannot write the log (standard output)" "$tmp/out" ||
  { cat "$tmp/out"; fail "a log to a full device: exit status $rc, not 2 with the line"; }
echo "ok: a log to a full device is refused: $(head -n 1 "$tmp/out")"
n=$((n + 1))
mkdir -p "$tmp/cov"
echo old >"$tmp/cov/c.json"
"$vcosim" +config=tb/configs/pfc_basic.ini +cycles=50 +cov="$tmp/cov/c.json" >"$tmp/out" 2>&1 ||
  { cat "$tmp/out"; fail "a run with coverage failed"; }
grep -q '"coverage": {' "$tmp/cov/c.json" && [ "$(ls "$tmp/cov")" = c.json ] ||
  fail "the coverage file was not replaced whole, or a temporary file was left: $(ls "$tmp/cov")"
echo "ok: the coverage file is written through a temporary name and renamed"
n=$((n + 1))
refused "cosim.sh into a directory it cannot make" "cosim: cannot write /dev/null/run" \
  tb/scripts/cosim.sh verilator pfc_basic 1 50 0 /dev/null/run
refused "regress.sh into a directory it cannot make" "regress: cannot write /dev/null/r/runs" \
  env SEEDS=1 SIMS=verilator CONFIGS=pfc_basic OUT=/dev/null/r tb/scripts/regress.sh
refused "soak.sh into a directory it cannot make" "soak: cannot write /dev/null/s/fail" \
  env OUT=/dev/null/s CONFIGS=pfc_basic SECONDS_LIMIT=1 tb/scripts/soak.sh

# 7. Another RTL tree (RTL_DIR=) is built from its own files, never from the dates alone: a
# mutant copied with old dates into a build directory that holds rtl/'s simulator must be
# rebuilt and caught, and rtl/ rebuilt and passing after it (both were wrong before, silently).
mut="$tmp/rtl-mutant"
cp -rp rtl "$mut"
sed -i 's/(sh >= th_i)/(sh > th_i)/' "$mut/lfc_pfc_gen.v"
grep -qF '(sh > th_i)' "$mut/lfc_pfc_gen.v" || fail "the mutant of lfc_pfc_gen.v was not made"
touch -d 2020-01-01 "$mut"/*
# runs WHAT PATTERN STATUS ARGS...: make cosim (Icarus, pfc_small_buffer) exits STATUS and
# prints PATTERN.
runs() {
  local what="$1" pattern="$2" want="$3" rc; shift 3
  timeout "$LIMIT" "$MAKE" -s --no-print-directory cosim SIM=icarus CONFIG=pfc_small_buffer \
    CYCLES=1000 COSIM_BUILD="$tmp/cosim" "$@" >"$tmp/out" 2>&1
  rc=$?
  [ $rc -eq "$want" ] || { cat "$tmp/out"; fail "$what: exit status $rc, not $want"; }
  grep -qF -- "$pattern" "$tmp/out" ||
    { cat "$tmp/out"; fail "$what: no '$pattern' in the output"; }
  echo "ok: $what: $(grep -m1 -F -- "$pattern" "$tmp/out" | cut -c1-100)"
  n=$((n + 1))
}
runs "rtl/ passes" "PASS sim=icarus" 0
runs "an older mutant tree in the same build directory is rebuilt and caught" \
  "MISMATCH cycle=55 port=2 signal=stat_xoff_o" 2 RTL_DIR="$mut"
runs "rtl/ is rebuilt after it and passes" "PASS sim=icarus" 0

# 8. A simulator run by hand with another configuration than its own (other RTL parameters)
# is refused as a configuration error, not run and reported as RTL mismatches.
refused "Verilator's pfc_basic simulator given ib_basic" "built for other RTL parameters" \
  "$vcosim" +config=tb/configs/ib_basic.ini +cycles=100
refused "Icarus's pfc_small_buffer simulation given pfc_basic" "compiled for other RTL parameters" \
  "${VVP:-vvp}" -n -M "$(dirname "$TB_VPI")" -m "$(basename "$TB_VPI" .vpi)" \
  "$tmp/cosim/icarus/pfc_small_buffer/sim.vvp" +config=tb/configs/pfc_basic.ini +cycles=100 \
  +result="$tmp/result"
# Icarus goes on without waves it cannot open ("VCD Error"): the test refuses to run.
refused "Icarus's waves into a directory that does not exist" \
  "cosim: icarus: cannot write the waves $tmp/none/w.vcd" \
  "${VVP:-vvp}" -n -M "$(dirname "$TB_VPI")" -m "$(basename "$TB_VPI" .vpi)" \
  "$tmp/cosim/icarus/pfc_small_buffer/sim.vvp" +config=tb/configs/pfc_small_buffer.ini \
  +cycles=100 +waves="$tmp/none/w.vcd" +result="$tmp/result"

# 9. regress.sh: a name given twice runs once (twice, the runs wrote one directory at once); the
# coverage check is a testcase of junit.xml and counts in the last line (junit.xml read
# "0 failures" when it failed). (Section 4: an empty SIMS or CONFIGS is refused; SIMS= once ran
# the whole default regression.)
env SEEDS=1 SIMS="icarus icarus" CONFIGS="pfc_basic pfc_basic" CYCLES=100 JOBS=2 \
  OUT="$tmp/regress" COVER_STRICT=1 tb/scripts/regress.sh >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 1 ] || { cat "$tmp/out"; fail "regress with a coverage hole: exit status $rc, not 1"; }
tail -n 1 "$tmp/out" | grep -qx 'cosim: 1 passed, 1 failed' ||
  { cat "$tmp/out"; fail "regress: not 'cosim: 1 passed, 1 failed' (one run, the coverage check)"; }
python3 - "$tmp/regress/junit.xml" <<'PY' || fail "regress: junit.xml is not one run and a failed coverage case"
import sys, xml.etree.ElementTree as E
root = E.parse(sys.argv[1]).getroot()
cases = [(c.get("classname"), c.find("failure") is not None) for c in root.iter("testcase")]
sys.exit(0 if cases == [("cosim.icarus.pfc_basic", False), ("cosim.coverage", True)]
         and root.get("failures") == "1" else 1)
PY
echo "ok: regress runs a name given twice once, and junit.xml has the failed coverage check"
n=$((n + 1))

# 10. A run that hangs is stopped at COSIM_TIMEOUT and fails (a zero-delay loop in an RTL under
# test hung make cosim and make regress for ever).
loop="$tmp/rtl-loop"
cp -r rtl "$loop"
sed -i 's/^endmodule/  reg osc_q = 1'"'"'b0;\n  always @(osc_q) osc_q <= ~osc_q;\nendmodule/' \
  "$loop/lfc_port_tx.v"
grep -qF 'always @(osc_q)' "$loop/lfc_port_tx.v" || fail "the looping tree was not made"
runs "a simulation that hangs is stopped" "stopped after COSIM_TIMEOUT=3 s" 2 RTL_DIR="$loop" \
  COSIM_TIMEOUT=3

# 11. Coverage counts what happened to the switch: in fewer than 4096 cycles no 12-bit credit
# counter can wrap (a partner sends at most a block a cycle from 0), so credit_wrap must stay 0
# while partners inject stale and wild FCPs (their FCTBS going down once counted as wraps: 1298
# in 4000 cycles). The C side alone (+model_only=1) counts the same points.
"$vcosim" +config=tb/configs/ib_credit_stress_wild_fcp.ini +model_only=1 +cycles=4000 \
  +cov="$tmp/cov.json" >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "the wild-FCP run failed"; }
grep -q '"mis_fcp_wild": [1-9]' "$tmp/cov.json" || fail "the wild-FCP run injected no wild FCP"
grep -q '"credit_wrap": 0,' "$tmp/cov.json" ||
  fail "credit_wrap counted in 4000 cycles: $(grep credit_wrap "$tmp/cov.json")"
echo "ok: stale and wild FCPs are not counted as credit wraps"
n=$((n + 1))

# 12. The configuration files themselves (tb/common/tb_config.c): tb/scripts/test_config.sh.
: "${BUILD:=build}"
tb/scripts/test_config.sh "$BUILD/tb/tb-params" || fail "tb/scripts/test_config.sh"
n=$((n + 1))

# 13. The rewriting of the Yosys netlist for SIM=icarus-netlist: tb/scripts/test_netlist.sh.
tb/scripts/test_netlist.sh "$BUILD/tb/tb-params" || fail "tb/scripts/test_netlist.sh"
n=$((n + 1))

echo "test-cosim-args: $n checks passed"
