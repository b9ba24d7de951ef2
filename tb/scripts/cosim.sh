#!/usr/bin/env bash
# One co-simulation run (called by `make cosim` and tb/scripts/regress.sh).
#
#   tb/scripts/cosim.sh SIM CONFIG SEED CYCLES WAVES OUTDIR
#
# SIM verilator|icarus|icarus-netlist (Icarus on the configuration's Yosys netlist,
# tb/scripts/netlist.sh); CYCLES empty for the configuration's [run] cycles; WAVES 1 to trace the
# whole run. Writes OUTDIR/log.txt (everything the test printed), OUTDIR/coverage.json and
# OUTDIR/rc. On a mismatch without WAVES=1, reruns the same seed with tracing from 2000 cycles
# before the mismatch to the mismatch (the simulation is deterministic), so the waves are there
# when the log is read: OUTDIR/waves.fst (Verilator) or OUTDIR/waves.vcd (Icarus). The rerun has
# the same CYCLES (the stimulus depends on the run length: traffic stops at [traffic] stop_pct)
# and ends at the mismatch. Verilator runs start every register at a value drawn from the seed.
#
# Environment (set by tb/tb.mk): COSIM_BUILD, TB_VPI, VVP, TB_MAKE_EXTRA; TB_PLUSARGS, more
# arguments for the test (tb/scripts/regress.sh: +threads=1); COSIM_TIMEOUT, the seconds a run
# may take (below); PCAP=1, the words into and out of every port as pcap files in OUTDIR/pcap/
# (tb/common/tb_pcap.c; not rewritten by the rerun after a mismatch); COMPARE=0, the RTL without
# the cycle compare against the model (tb/common/tb_free.c, tb/README.md "Without the model").
# Exit status: the test's (0 pass, 1 mismatch, 2 configuration, 3 simulator), 4 for a crash or
# a run stopped at COSIM_TIMEOUT.
set -uo pipefail

[ $# -eq 6 ] || { echo "usage: $0 SIM CONFIG SEED CYCLES WAVES OUTDIR" >&2; exit 2; }
sim="$1" config="$2" seed="$3" cycles="$4" waves="$5" out="$6"
: "${COSIM_BUILD:?}" "${TB_VPI:=build/tb/lfc_cosim.vpi}" "${VVP:=vvp}" "${TB_MAKE_EXTRA:=}"
: "${MAKE:=make}"
WINDOW=2000

case "$sim" in
  verilator) ext=fst ;;
  icarus|icarus-netlist) ext=vcd ;;
  *) echo "cosim: SIM must be verilator, icarus or icarus-netlist, not '$sim'" >&2; exit 2 ;;
esac
# shellcheck source=tb/scripts/args.sh
. "$(dirname "$0")/args.sh"
args_configs cosim CONFIG "$config"
args_uint cosim SEED "$seed" 0 4294967295
args_cycles cosim CYCLES "$cycles"
args_flag cosim WAVES "$waves"
: "${PCAP:=0}"
args_flag cosim PCAP "$PCAP"
: "${COMPARE:=1}"
args_flag cosim COMPARE "$COMPARE"
seed=$(( 10#$seed ))  # the test reads it as decimal too
# A run that hangs is stopped and fails (a zero-delay loop in an RTL under test, a mutant or an
# edit, spins vvp or Verilator forever, and a regression with it). The default allows 300 s plus
# 0.1 s a cycle: 10 cycles/s, 7 times slower than the slowest run measured (Icarus on 16 ports,
# docs/perf-log.md). COSIM_TIMEOUT=0: no limit.
run_cycles="$cycles"
[ -n "$run_cycles" ] ||
  run_cycles="$("${BUILD:-build}/tb/tb-params" cycles "tb/configs/$config.ini" 2>/dev/null)" ||
  run_cycles=0
: "${COSIM_TIMEOUT:=$(( 300 + ${run_cycles:-0} / 10 ))}"
args_uint cosim COSIM_TIMEOUT "$COSIM_TIMEOUT" 0
# write_fail PATH: a file of the run could not be written: one line, exit 2 (a resource refusal,
# even for a run that passed: its log, coverage or status would be missing or cut short).
write_fail() {
  echo "cosim: cannot write $1" >&2
  exit 2
}
mkdir -p "$out" 2>/dev/null || write_fail "$out (the run's directory)"
rm -f "$out"/waves.* "$out"/rc "$out"/result "$out"/rerun.log
rm -rf "$out/pcap"
pcap_args=()
if [ "$PCAP" = 1 ]; then
  mkdir -p "$out/pcap" 2>/dev/null || write_fail "$out/pcap (the pcap files' directory)"
  pcap_args=(+pcap="$out/pcap")
fi
# COMPARE=0: the RTL drives the link partners and is not compared with the model
# (tb/common/tb_free.c); no MISMATCH line, so no rerun with waves.
[ "$COMPARE" = 0 ] && pcap_args+=(+compare=0)

# The command that runs a simulator within COSIM_TIMEOUT (timeout's status when it stops it).
limit=()
TIMEOUT_STATUS=124
[ "$COSIM_TIMEOUT" -gt 0 ] && limit=(timeout -k 10 "$COSIM_TIMEOUT")

# run LOG TRACED ARGS...: the simulator with the test's +arguments; its status in $status.
# TRACED=1 selects Verilator's build with tracing.
run() {
  local log="$1" traced="$2"; shift 2
  : 2>/dev/null >"$log" || write_fail "$log"
  local args=(+config="tb/configs/$config.ini" +seed="$seed" +sim="$sim"
              +cov="$out/coverage.json" +waves_path="$out/waves.$ext" "$@")
  [ -n "$cycles" ] && args+=(+cycles="$cycles")
  [ -n "$TB_MAKE_EXTRA" ] && args+=(+make="$TB_MAKE_EXTRA")
  # shellcheck disable=SC2206  # TB_PLUSARGS is a list of +key=value words
  [ -n "${TB_PLUSARGS:-}" ] && args+=($TB_PLUSARGS)
  if [ "$sim" = verilator ]; then
    local obj=obj
    [ "$traced" = 1 ] && obj="obj-trace"
    # Every register of the RTL starts at a value drawn from the seed (Verilator's default
    # --x-initial unique), not 0, which is the reset value of most: so a register the reset
    # forgets shows as a mismatch (SPEC §13: rst_ni sets the reset values of the spec). Verilator takes
    # seed 0 as "pick one at random", hence the + 1.
    args+=(+verilator+rand+reset+2 +verilator+seed+$(( seed % VERILATOR_SEED_MAX + 1 )))
    "${limit[@]}" "$COSIM_BUILD/verilator/$config/$obj/Vcosim" "${args[@]}" >"$log" 2>&1
    status=$?
  else
    rm -f "$out/result"
    "${limit[@]}" "$VVP" -n -M "$(dirname "$TB_VPI")" -m "$(basename "$TB_VPI" .vpi)" \
      "$COSIM_BUILD/$sim/$config/sim.vvp" "${args[@]}" +result="$out/result" >"$log" 2>&1
    status=$?
    # vvp passes the test's status on (vpip_set_return_value); the result file is the check
    # that the test ran to its end at all.
    if [ -f "$out/result" ]; then
      local r; r="$(cat "$out/result")"
      [ "$status" -eq 0 ] && status="$r"
    elif [ "$status" -eq 0 ]; then
      echo "cosim: vvp exited 0 but the test wrote no result (it did not finish)" >>"$log"
      status=4
    fi
  fi
  # Drop simulator chatter that is not the test's (Icarus announces its VCD file).
  sed -i '/^VCD info: dumpfile/d' "$log" 2>/dev/null || write_fail "$log"
  # vvp goes on without the VCD when it cannot open or write it, and reports nothing: the file
  # must reach the cycle the test ended at (cycle c starts at time (c + 2) x 100, tb/README.md
  # "Reading a mismatch"; a file cut short by a full disk ends earlier).
  local w vcd end last
  for w in "$@"; do
    case "$w" in
      +waves=*)
        vcd="${w#+waves=}"
        [ "$sim" != verilator ] && [ "$status" -le 1 ] || continue
        end="$(sed -nE 's/^PASS .* cycles=([0-9]+) .*/\1/p; s/^MISMATCH cycle=([0-9]+) .*/\1/p' \
               "$log" | head -n 1)"
        last="$(tail -c 1000000 "$vcd" 2>/dev/null | grep -a '^#[0-9]*$' | tail -n 1 | tr -d '#')"
        if [ ! -s "$vcd" ] || { [ -n "$end" ] && [ "${last:-0}" -lt $(( end * 100 )) ]; }; then
          echo "cosim: cannot write the waves $vcd (it ends before cycle ${end:-0})" >>"$log" ||
            write_fail "$log"
          status=2
        fi ;;
    esac
  done
  if [ "$status" -eq "$TIMEOUT_STATUS" ] && [ "$COSIM_TIMEOUT" -gt 0 ]; then
    echo "cosim: stopped after COSIM_TIMEOUT=$COSIM_TIMEOUT s: the simulation hung (or ran far" \
         "slower than it should); a longer run: COSIM_TIMEOUT=<seconds>, 0 for no limit" >>"$log"
  fi
  [ "$status" -gt 4 ] && status=4   # a signal or crash
}

if [ "$waves" = 1 ]; then
  run "$out/log.txt" 1 +waves="$out/waves.$ext" "${pcap_args[@]}"
else
  run "$out/log.txt" 0 "${pcap_args[@]}"
fi
cat "$out/log.txt"

mline="$(grep -m1 '^MISMATCH ' "$out/log.txt" || true)"
if [ "$status" -eq 1 ] && [ -n "$mline" ] && [ "$waves" != 1 ]; then
  c="$(sed -E 's/.* cycle=([0-9]+) .*/\1/' <<<"$mline")"
  from=$(( c > WINDOW ? c - WINDOW : 0 ))
  saved_status=$status
  cp "$out/coverage.json" "$out/coverage.first.json" 2>/dev/null || true
  if [ "$sim" = verilator ]; then
    # The build with tracing (made now if it is not there; minutes for a large configuration),
    # under a lock: two failing seeds of a regression must not build it at once.
    mkdir -p "$COSIM_BUILD/verilator/$config"
    # shellcheck disable=SC2086  # TB_MAKE_EXTRA is a list of VAR=value words
    flock "$COSIM_BUILD/verilator/$config/trace-build.lock" \
      $MAKE --no-print-directory -s "$COSIM_BUILD/verilator/$config/obj-trace/Vcosim" \
      COSIM_BUILD="$COSIM_BUILD" $TB_MAKE_EXTRA >"$out/rerun.log" 2>&1 ||
      echo "cosim: the build with tracing failed (above)" >>"$out/rerun.log"
  fi
  run "$out/rerun.log.tmp" 1 +waves="$out/waves.$ext" +waves_from="$from"
  cat "$out/rerun.log.tmp" >>"$out/rerun.log" && rm -f "$out/rerun.log.tmp"
  mv "$out/coverage.first.json" "$out/coverage.json" 2>/dev/null || true
  if grep -q '^cosim: the build with tracing failed' "$out/rerun.log"; then
    echo "  waves: the build with tracing failed; see $out/rerun.log" | tee -a "$out/log.txt"
  elif grep -qF "$mline" "$out/rerun.log"; then
    echo "  waves written: $out/waves.$ext (cycles $from..$c; the rerun reproduced the mismatch)" |
      tee -a "$out/log.txt"
  else
    echo "  waves: the rerun did not reproduce the mismatch; see $out/rerun.log" |
      tee -a "$out/log.txt"
  fi
  status=$saved_status
fi
echo "$status" >"$out/rc.tmp" && mv -f "$out/rc.tmp" "$out/rc" || write_fail "$out/rc"
exit "$status"
