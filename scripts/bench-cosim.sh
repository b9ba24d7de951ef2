#!/usr/bin/env bash
# Co-simulation speed: cycles per second of the lockstep co-simulation
# (tb/) on Verilator and on Icarus, for a 4-port and a 16-port configuration, with the C side
# alone beside them (the same binary with +model_only=1: stimulus, link partners, model,
# scoreboard and coverage, no RTL and no comparison).
#
# Every figure is measured in this one run, on this machine, and reported two ways:
#   cps      simulated cycles per wall-clock second (what a user waits for)
#   cpu_cps  simulated cycles per CPU second of the process (steadier on a shared machine;
#            the targets are judged on it)
# Runs:
#   model        +model_only=1 (Verilator binary; no RTL)
#   verilator    lockstep at the configuration's dbg_per_cycle (registers read per cycle); the
#                C side runs ahead on a thread of its own (tb/common/tb_main.c), so on two free
#                cores cps is above cpu_cps (which counts both threads)
#   verilator_k1 lockstep reading one register per cycle (the least the checker allows)
#   verilator_1t, verilator_k1_1t: the same on one thread (+threads=1)
#   verilator_pgo, verilator_k1_pgo: verilator and verilator_k1 with the Verilated model and the
#                shim built by gcc with profile-guided optimisation (4 ports or fewer; see below)
#   icarus       lockstep through the VPI module, at the configuration's dbg_per_cycle
#   icarus_k1    the same with one register per cycle
#   icarus_netlist, icarus_netlist_k1: the same on the configuration's flat Yosys netlist
#                (SIM=icarus-netlist, tb/scripts/netlist.sh) instead of the RTL source
#   icarus_bare  vvp clocking the same RTL from a Verilog clock, inputs idle, no VPI and no C:
#                the most any Icarus co-simulation of this RTL could reach (an upper bound;
#                traffic makes vvp slower still)
# and, on 4 ports, instructions per simulated cycle (callgrind; two runs of N and 2N cycles, so
# that start-up cancels): a figure that does not depend on the machine's load. For Icarus it
# also gives the budget the target leaves: vvp's instructions per CPU second (icarus_bare's
# instructions per cycle times its CPU cycles per second) divided by 50,000 is the most a cycle
# may cost vvp on this machine; cosim.json compares the lockstep, the netlist and the idle RTL
# with it (icarus_budget).
#
# Writes $BUILD/bench/cosim.json and prints a table. Targets: Verilator lockstep
# >= 1,000,000 cycles/s on 4 ports, Icarus >= 50,000 cycles/s.
#
# Environment: BUILD (default build); BENCH_COSIM_QUICK=1 runs shorter; BENCH_COSIM_CONFIGS
# (default "pfc_basic pfc_16p_forward": the 4-port and the 16-port configuration);
# BENCH_COSIM_CXX_OPT: the C++ optimisation of the Verilated model (default -O2 for the hot code,
# as for long runs; `make cosim` builds at -O1, see docs/perf-log.md), built apart from the
# other co-simulation builds, in $BUILD/bench/cosim-<the flags> (make does not rebuild when only
# the flags change); BENCH_COSIM_PGO=0 skips the profile-guided builds; BENCH_COSIM_REPEAT
# (default 3, 1 to 99): how many times each timed co-simulation runs, the best kept (run_tb).
#
# Profile-guided optimisation (the _pgo runs): Verilator's manual recommends compiler PGO for the
# fastest model ("Compiler Profile-Guided Optimization" in
# https://verilator.org/guide/latest/simulating.html: build with -fprofile-generate, run a
# representative workload, rebuild with -fprofile-use). For each configuration of 4 ports or
# fewer: a build with -fprofile-generate (gcc instruments the Verilated C++ and the shim, not the
# gcc-built C side), a training run with another seed (2) than the measured runs (1), and a
# rebuild in the same directory (gcc finds a profile by the object's path) with -fprofile-use.
# No -march=native: the binary must not depend on the machine that built it.
#
# No arguments. Exit status: 0 ok (a target missed is reported in cosim.json, not an error); 1 a
# finding: a co-simulation (or the PGO training run) that did not pass, with the end of its log;
# 2 an argument or a bad environment value (one line naming it, tb/scripts/args.sh), a build that
# fails (its log printed) or a file that cannot be written (cosim.json is written to a temporary
# name and renamed).
set -euo pipefail

cd "$(dirname "$0")/.."
if [ $# -ne 0 ]; then
  echo "bench-cosim: usage: scripts/bench-cosim.sh (no arguments; environment: BUILD," \
       "BENCH_COSIM_QUICK, BENCH_COSIM_CONFIGS, BENCH_COSIM_CXX_OPT, BENCH_COSIM_PGO," \
       "BENCH_COSIM_REPEAT)" >&2
  exit 2
fi
BUILD="${BUILD:-build}"
OUT="$BUILD/bench"
CXX_OPT="${BENCH_COSIM_CXX_OPT:-OPT_FAST=-O2 OPT_SLOW=-O0 OPT_GLOBAL=-O1}"
COSIM_BUILD="$OUT/cosim-$(printf '%s' "$CXX_OPT" | tr -c 'A-Za-z0-9=' '_' | tr '=' '-')"
VPI="$BUILD/tb/lfc_cosim.vpi"
CONFIGS="${BENCH_COSIM_CONFIGS:-pfc_basic pfc_16p_forward}"
TARGET_VERILATOR=1000000
TARGET_ICARUS=50000
# Each timed co-simulation is run this many times and the best kept (run_tb).
REPEAT="${BENCH_COSIM_REPEAT:-3}"
# Cycles per run: long enough for a second or more of Verilator, a few seconds of Icarus on the
# RTL, about a second of Icarus on the netlist (N_: at the RTL's count, 4,000 cycles on 4 ports,
# a netlist run lasts a tenth of a second, too short to time on a shared machine: the same run
# measured 28,000 to 43,000 cycles/s in one hour, 40,000 cycles 41,000 to 42,000).
if [ "${BENCH_COSIM_QUICK:-0}" = 1 ]; then
  V_CYCLES_4=50000 V_CYCLES_16=10000 I_CYCLES_4=1000 I_CYCLES_16=200 N_CYCLES_4=10000
  N_CYCLES_16=400
else
  V_CYCLES_4=300000 V_CYCLES_16=40000 I_CYCLES_4=4000 I_CYCLES_16=600 N_CYCLES_4=40000
  N_CYCLES_16=2400
fi

# shellcheck source=tb/scripts/args.sh
. tb/scripts/args.sh
args_configs bench-cosim BENCH_COSIM_CONFIGS "$CONFIGS"
args_flag bench-cosim BENCH_COSIM_QUICK "${BENCH_COSIM_QUICK:-0}"
args_flag bench-cosim BENCH_COSIM_PGO "${BENCH_COSIM_PGO:-1}"
args_uint bench-cosim BENCH_COSIM_REPEAT "$REPEAT" 1 99
REPEAT=$((10#$REPEAT))

mkdir -p "$OUT"
echo "== bench-cosim: building $CONFIGS for Verilator ($CXX_OPT) and Icarus (RTL and netlist)"
MAKEFLAGS='' make -s --no-print-directory BUILD="$BUILD" COSIM_BUILD="$COSIM_BUILD" \
  VERILATOR_CXX_OPT="$CXX_OPT" cosim-build SIMS="verilator icarus icarus-netlist" \
  CONFIGS="$CONFIGS" >"$OUT/cosim-build.log" 2>&1 ||
  { cat "$OUT/cosim-build.log"; echo "bench-cosim: the build failed ($OUT/cosim-build.log)" >&2
    exit 2; }

# The profile-guided builds (see the top), in PGO_BUILD; USER_CPPFLAGS and USER_LDFLAGS reach
# the Verilated model's makefile (verilated.mk) through the environment.
PGO="${BENCH_COSIM_PGO:-1}"
PGO_BUILD="$COSIM_BUILD-pgo"
PGO_PROFILE="$(pwd)/$PGO_BUILD/profile"
PGO_TRAIN_SEED=2
pgo_configs=""
if [ "$PGO" = 1 ]; then
  for config in $CONFIGS; do
    [ "$("$BUILD/tb/tb-params" ports "tb/configs/$config.ini")" -le 4 ] &&
      pgo_configs="$pgo_configs $config"
  done
fi
# pgo_build FLAGS: the Verilator builds of pgo_configs in PGO_BUILD, compiled with gcc FLAGS.
pgo_build() {
  USER_CPPFLAGS="$1" USER_LDFLAGS="$1" MAKEFLAGS='' make -s --no-print-directory \
    BUILD="$BUILD" COSIM_BUILD="$PGO_BUILD" VERILATOR_CXX_OPT="$CXX_OPT" cosim-build \
    SIMS=verilator CONFIGS="$pgo_configs" >>"$OUT/cosim-build-pgo.log" 2>&1 ||
    { cat "$OUT/cosim-build-pgo.log"
      echo "bench-cosim: the PGO build failed ($OUT/cosim-build-pgo.log)" >&2; exit 2; }
}
if [ -n "$pgo_configs" ]; then
  echo "== bench-cosim: profile-guided builds of$pgo_configs"
  rm -rf "$PGO_BUILD" "$OUT/cosim-build-pgo.log"
  pgo_build "-fprofile-generate=$PGO_PROFILE"
  for config in $pgo_configs; do
    "$PGO_BUILD/verilator/$config/obj/Vcosim" +config="tb/configs/$config.ini" \
      +seed=$PGO_TRAIN_SEED +cycles=$V_CYCLES_4 >"$OUT/cosim-$config-pgo-training.log" 2>&1 ||
      { echo "bench-cosim: the training run of $config failed:" >&2;
        tail -n 5 "$OUT/cosim-$config-pgo-training.log" >&2; exit 1; }
    # Compile again with the profile: the objects and the executable are removed, since neither
    # make (tb/tb.mk, the Verilated makefile) knows that the flags changed.
    find "$PGO_BUILD/verilator/$config/obj" \( -name '*.o' -o -name '*.a' -o -name Vcosim \) \
      -delete
  done
  pgo_build "-fprofile-use=$PGO_PROFILE -fprofile-correction -fprofile-partial-training \
    -Wno-missing-profile"
fi

# field NAME LINE: the value of NAME=... on a PASS line.
field() { sed -nE "s/.* $1=([0-9.]+).*/\1/p" <<<"$2"; }

# run_tb LABEL CONFIG CYCLES SIM ARGS...: one co-simulation, run REPEAT times; prints
# "cps cpu_cps two_core_cps" of the run with the highest cpu_cps (the last figure from the
# `threads:` line of a two-thread run: the rate the busier thread sets when each has a core, from
# their CPU times; "null" for one thread) or fails. The best of a few runs, as timing tools take
# it: on a shared machine another process only ever slows a run down (the same 40,000-cycle
# Icarus netlist run measured 37,600 and, a minute later, 47,000 cycles/s).
run_tb() {
  local label="$1" config="$2" cycles="$3" sim="$4"; shift 4
  local log="$OUT/cosim-$config-$label.log" line best="" best_cpu=0 k
  local args=(+config="tb/configs/$config.ini" +seed=1 +cycles="$cycles" "$@")
  for ((k = 0; k < REPEAT; k++)); do
    if [ "$sim" = verilator ]; then
      "$COSIM_BUILD/verilator/$config/obj/Vcosim" "${args[@]}" >"$log.run" 2>&1 || true
    elif [ "$sim" = verilator_pgo ]; then
      "$PGO_BUILD/verilator/$config/obj/Vcosim" "${args[@]}" >"$log.run" 2>&1 || true
    else
      vvp -n -M "$(dirname "$VPI")" -m "$(basename "$VPI" .vpi)" \
        "$COSIM_BUILD/$sim/$config/sim.vvp" "${args[@]}" >"$log.run" 2>&1 || true
    fi
    line="$(grep -m1 '^PASS ' "$log.run" || true)"
    if [ -z "$line" ]; then
      mv "$log.run" "$log"
      echo "bench-cosim: $label on $config did not pass; see $log" >&2
      tail -n 5 "$log" >&2
      exit 1
    fi
    local cpu two
    cpu="$(field cpu_cycles_per_second "$line")"
    if [ -z "$best" ] || awk -v a="$cpu" -v b="$best_cpu" 'BEGIN { exit !(a > b) }'; then
      two="$(sed -nE 's/^threads: .* on two free cores ([0-9]+) cycles\/s$/\1/p' "$log.run")"
      best="$(field cycles_per_second "$line") $cpu ${two:-null}" best_cpu="$cpu"
      mv "$log.run" "$log"
    fi
  done
  rm -f "$log.run"
  echo "$best"
}

# bare_vvp CONFIG NAME CYCLES: builds $OUT/icarus-bare-CONFIG/NAME.vvp, vvp clocking the RTL of
# CONFIG for CYCLES cycles from a Verilog clock with the inputs idle.
bare_vvp() {
  local config="$1" name="$2" n="$3" dir params
  dir="$OUT/icarus-bare-$config"
  mkdir -p "$dir"
  params="$("$BUILD/tb/tb-params" icarus "tb/configs/$config.ini")"
  cat >"$dir/$name.v" <<EOF
// Generated by scripts/bench-cosim.sh: tb_top's clock from Verilog, inputs idle, $n cycles.
\`timescale 1ps / 1ps
module bench_bare;
  initial begin
    #150 tb_top.rst_ni = 1'b1;
    #(100 * $n);
    \$finish;
  end
  always #50 tb_top.clk_i = ~tb_top.clk_i;
endmodule
EOF
  # shellcheck disable=SC2086  # params is a list of -P flags
  iverilog -g2005 -Irtl -s tb_top -s bench_bare $params -o "$dir/$name.vvp" \
    tb/vpi/tb_top.v "$dir/$name.v" rtl/*.v
}

# bare_icarus CONFIG CYCLES: vvp alone on the RTL (idle inputs, Verilog clock). Two runs of N
# and 2N cycles; their difference in CPU time is N cycles without vvp's start-up.
bare_icarus() {
  local config="$1" n="$2" dir t1 t2 w1 w2
  dir="$OUT/icarus-bare-$config"
  bare_vvp "$config" bare_1 "$n"
  bare_vvp "$config" bare_2 $((2 * n))
  # user+sys CPU seconds and wall seconds of each run
  local TIMEFORMAT='%U %S %R'
  { time vvp -n "$dir/bare_1.vvp" >/dev/null; } 2>"$dir/time1"
  { time vvp -n "$dir/bare_2.vvp" >/dev/null; } 2>"$dir/time2"
  read -r u1 s1 w1 <"$dir/time1"
  read -r u2 s2 w2 <"$dir/time2"
  t1=$(awk -v u="$u1" -v s="$s1" 'BEGIN { print u + s }')
  t2=$(awk -v u="$u2" -v s="$s2" 'BEGIN { print u + s }')
  awk -v n="$n" -v t1="$t1" -v t2="$t2" -v w1="$w1" -v w2="$w2" 'BEGIN {
    dc = t2 - t1; dw = w2 - w1
    printf "%.0f %.0f\n", (dw > 0 ? n / dw : 0), (dc > 0 ? n / dc : 0) }'
}

# cg_total CMD...: the instructions callgrind counts in one run of CMD (all threads).
cg_total() {
  valgrind --tool=callgrind --callgrind-out-file="$OUT/cg-cosim.out" "$@" >/dev/null 2>&1
  awk '/^totals:/ { print $2 }' "$OUT/cg-cosim.out"
  rm -f "$OUT/cg-cosim.out"
}
# per_cycle A B N: instructions per cycle from runs of N (A) and 2N (B) cycles, start-up cancelled.
per_cycle() { awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN { printf "%.0f", (b - a) / n }'; }

# ipc DIR CONFIG ARGS...: instructions per cycle of the Verilator binary of the build DIR
# (CG_CYCLES).
ipc() {
  local dir="$1" config="$2" k t=(); shift 2
  for k in 1 2; do
    t+=("$(cg_total "$dir/verilator/$config/obj/Vcosim" +config="tb/configs/$config.ini" +seed=1 \
      +cycles=$((k * CG_CYCLES)) "$@")")
  done
  per_cycle "${t[0]}" "${t[1]}" "$CG_CYCLES"
}
CG_CYCLES=5000

# ipc_vvp CONFIG SIM ARGS...: the same for the Icarus lockstep (SIM icarus or icarus-netlist) on
# one thread, all of vvp, the VPI module and the C side counted. vvp executes a few million
# instructions per cycle here, so N is small.
ipc_vvp() {
  local config="$1" sim="$2" k t=(); shift 2
  for k in 1 2; do
    t+=("$(cg_total vvp -n -M "$(dirname "$VPI")" -m "$(basename "$VPI" .vpi)" \
      "$COSIM_BUILD/$sim/$config/sim.vvp" +config="tb/configs/$config.ini" +seed=1 \
      +cycles=$((k * CG_CYCLES_VVP)) +threads=1 "$@")")
  done
  per_cycle "${t[0]}" "${t[1]}" "$CG_CYCLES_VVP"
}
CG_CYCLES_VVP=200

# ipc_bare CONFIG: the same for icarus_bare.
ipc_bare() {
  local config="$1" k t=()
  for k in 1 2; do
    bare_vvp "$config" "cg_$k" $((k * CG_CYCLES_BARE))
    t+=("$(cg_total vvp -n "$OUT/icarus-bare-$config/cg_$k.vvp")")
  done
  per_cycle "${t[0]}" "${t[1]}" "$CG_CYCLES_BARE"
}
CG_CYCLES_BARE=2000

rows=()
printf '%-16s %5s %-15s %9s %12s %12s %10s\n' config ports run cycles cycles/s cpu-cycles/s vs-model
v4=0 v4w=0 v4two=null two_k1=null v4pgo=null two_k1_pgo=null i4=0 in4=0 in4two=null ib4=0 m4=0
ii4=null iin4=null iib4=null
for config in $CONFIGS; do
  ports="$("$BUILD/tb/tb-params" ports "tb/configs/$config.ini")"
  if [ "$ports" -le 4 ]; then vc=$V_CYCLES_4 ic=$I_CYCLES_4 nc=$N_CYCLES_4
  else vc=$V_CYCLES_16 ic=$I_CYCLES_16 nc=$N_CYCLES_16; fi
  declare -A cps=() cpu=() cyc=()
  runs="model verilator verilator_k1 verilator_1t verilator_k1_1t"
  case " $pgo_configs " in *" $config "*) runs="$runs verilator_pgo verilator_k1_pgo" ;; esac
  for run in $runs icarus icarus_k1 icarus_netlist icarus_netlist_k1 icarus_bare; do
    case "$run" in
      model)        r="$(run_tb "$run" "$config" "$vc" verilator +model_only=1)"; cyc[$run]=$vc ;;
      verilator)    r="$(run_tb "$run" "$config" "$vc" verilator)"; cyc[$run]=$vc ;;
      verilator_k1) r="$(run_tb "$run" "$config" "$vc" verilator +dbg_per_cycle=1)"; cyc[$run]=$vc ;;
      verilator_1t) r="$(run_tb "$run" "$config" "$vc" verilator +threads=1)"; cyc[$run]=$vc ;;
      verilator_k1_1t)
        r="$(run_tb "$run" "$config" "$vc" verilator +dbg_per_cycle=1 +threads=1)"; cyc[$run]=$vc ;;
      verilator_pgo) r="$(run_tb "$run" "$config" "$vc" verilator_pgo)"; cyc[$run]=$vc ;;
      verilator_k1_pgo)
        r="$(run_tb "$run" "$config" "$vc" verilator_pgo +dbg_per_cycle=1)"; cyc[$run]=$vc ;;
      icarus)       r="$(run_tb "$run" "$config" "$ic" icarus)"; cyc[$run]=$ic ;;
      icarus_k1)    r="$(run_tb "$run" "$config" "$ic" icarus +dbg_per_cycle=1)"; cyc[$run]=$ic ;;
      icarus_netlist) r="$(run_tb "$run" "$config" "$nc" icarus-netlist)"; cyc[$run]=$nc ;;
      icarus_netlist_k1)
        r="$(run_tb "$run" "$config" "$nc" icarus-netlist +dbg_per_cycle=1)"; cyc[$run]=$nc ;;
      icarus_bare)  r="$(bare_icarus "$config" $((ic * 4)))"; cyc[$run]=$((ic * 4)) ;;
    esac
    read -r cps[$run] cpu[$run] two <<<"$r"
    two="${two:-null}"
    ratio="$(awk -v a="${cpu[$run]}" -v m="${cpu[model]}" 'BEGIN { printf "%.4f", (m > 0 ? a / m : 0) }')"
    printf '%-16s %5s %-15s %9s %12s %12s %10s\n' "$config" "$ports" "$run" "${cyc[$run]}" \
      "${cps[$run]}" "${cpu[$run]}" "$ratio"
    ins=null
    if [ "$ports" -le 4 ]; then  # valgrind: scripts/bench.sh requires it (deps-minimal)
      case "$run" in
        model) ins="$(ipc "$COSIM_BUILD" "$config" +model_only=1)" ;;
        verilator) ins="$(ipc "$COSIM_BUILD" "$config")" ;;
        verilator_k1) ins="$(ipc "$COSIM_BUILD" "$config" +dbg_per_cycle=1)" ;;
        verilator_1t) ins="$(ipc "$COSIM_BUILD" "$config" +threads=1)" ;;
        verilator_k1_1t) ins="$(ipc "$COSIM_BUILD" "$config" +dbg_per_cycle=1 +threads=1)" ;;
        verilator_pgo) ins="$(ipc "$PGO_BUILD" "$config")" ;;
        verilator_k1_pgo) ins="$(ipc "$PGO_BUILD" "$config" +dbg_per_cycle=1)" ;;
        icarus_k1) ins="$(ipc_vvp "$config" icarus +dbg_per_cycle=1)" ;;
        icarus_netlist_k1) ins="$(ipc_vvp "$config" icarus-netlist +dbg_per_cycle=1)" ;;
        icarus_bare) ins="$(ipc_bare "$config")" ;;
      esac
    fi
    [ "$ins" != null ] && echo "                       $run: $ins instructions per cycle (callgrind)"
    [ "$two" != null ] && echo "                       $run: $two cycles/s on two free cores"
    [ "$run" = verilator_k1 ] && two_k1="$two"
    [ "$run" = verilator_k1_pgo ] && two_k1_pgo="$two"
    [ "$run" = icarus_netlist_k1 ] && [ "$ports" -le 4 ] && in4two="$two"
    [ "$ports" -le 4 ] && case "$run" in
      icarus_k1) ii4="$ins" ;; icarus_netlist_k1) iin4="$ins" ;; icarus_bare) iib4="$ins" ;;
    esac
    rows+=("$(printf '{"config": "%s", "ports": %s, "run": "%s", "cycles": %s, ' \
      "$config" "$ports" "$run" "${cyc[$run]}")$(printf \
      '"cycles_per_second": %s, "cpu_cycles_per_second": %s, "cpu_ratio_to_model": %s, ' \
      "${cps[$run]}" "${cpu[$run]}" "$ratio")$(printf \
      '"two_core_cycles_per_second": %s, "instructions_per_cycle": %s}' "$two" "$ins")")
  done
  if [ "$ports" -le 4 ]; then
    v4="${cpu[verilator_k1]}" i4="${cpu[icarus_k1]}" ib4="${cpu[icarus_bare]}" m4="${cpu[model]}"
    in4="${cpu[icarus_netlist_k1]}"
    v4w="${cps[verilator_k1]}" v4two="$two_k1" v4pgo="$two_k1_pgo"
  fi
  unset cps cpu cyc
done

# What 50,000 cycles/s leaves vvp per cycle on this machine (see the top).
budget=null
[ "$iib4" != null ] && budget="$(awk -v i="$iib4" -v c="$ib4" -v t=$TARGET_ICARUS \
  'BEGIN { printf "%.0f", i * c / t }')"
# The JSON is built in memory and written at once, checked, to a temporary name renamed into
# place: a full disk leaves the old file, never half of one.
json_text="$({
  echo "{"
  printf '  "targets": {"verilator_4port_cycles_per_second": %s, "icarus_cycles_per_second": %s},\n' \
    $TARGET_VERILATOR $TARGET_ICARUS
  printf '  "verilator_4port_met": %s, "verilator_4port_two_core_met": %s,' \
    "$([ "${v4%.*}" -ge $TARGET_VERILATOR ] && echo true || echo false)" \
    "$([ "$v4two" != null ] && [ "$v4two" -ge $TARGET_VERILATOR ] && echo true || echo false)"
  printf ' "verilator_4port_pgo_two_core_met": %s,' \
    "$([ "$v4pgo" != null ] && [ "$v4pgo" -ge $TARGET_VERILATOR ] && echo true || echo false)"
  printf ' "icarus_4port_met": %s, "icarus_netlist_4port_met": %s,' \
    "$([ "${i4%.*}" -ge $TARGET_ICARUS ] && echo true || echo false)" \
    "$([ "${in4%.*}" -ge $TARGET_ICARUS ] && echo true || echo false)"
  printf ' "icarus_netlist_4port_two_core_met": %s,\n' \
    "$([ "$in4two" != null ] && [ "$in4two" -ge $TARGET_ICARUS ] && echo true || echo false)"
  printf '  "icarus_budget": {"vvp_instructions_per_cpu_second": %s,' \
    "$([ "$iib4" != null ] && awk -v i="$iib4" -v c="$ib4" 'BEGIN { printf "%.0f", i * c }' ||
      echo null)"
  printf ' "instructions_per_cycle_at_target": %s, "lockstep": %s, "netlist": %s,' \
    "$budget" "$ii4" "$iin4"
  printf ' "idle_rtl": %s},\n' "$iib4"
  printf '  "verilator_cxx_opt": "%s",\n' "$CXX_OPT"
  echo '  "runs": ['
  for i in "${!rows[@]}"; do
    sep=","
    [ "$i" -eq $((${#rows[@]} - 1)) ] && sep=""
    echo "    ${rows[$i]}$sep"
  done
  echo "  ]"
  echo "}"
})"
if ! { printf '%s\n' "$json_text" >"$OUT/cosim.json.tmp" &&
       mv -f "$OUT/cosim.json.tmp" "$OUT/cosim.json"; } 2>/dev/null; then
  rm -f "$OUT/cosim.json.tmp"
  echo "bench-cosim: cannot write $OUT/cosim.json" >&2
  exit 2
fi
echo "4 ports, CPU time: model alone $m4, Verilator lockstep $v4 (target $TARGET_VERILATOR;" \
  "two threads: $v4w by the wall clock, $v4two on two free cores, $v4pgo built with PGO)," \
  "Icarus lockstep $i4, on the Yosys netlist $in4 ($in4two on two free cores)" \
  "(target $TARGET_ICARUS; vvp alone on the idle RTL: $ib4) cycles/s"
[ "$budget" != null ] && echo "Icarus, 4 ports: 50,000 cycles/s leaves vvp $budget instructions" \
  "per cycle on this machine; it executes $ii4 on the RTL, $iin4 on the netlist and $iib4 on" \
  "the idle RTL (callgrind)"
echo "bench-cosim: wrote $OUT/cosim.json"
