#!/usr/bin/env bash
# tb/cocotb/run.sh - run the cocotb tests (tb/cocotb/test_lfc_switch.py) on configurations of
# tb/configs, or prove on mutated RTL copies that they fail. Called by tb/cocotb/cocotb.mk.
#
#   run.sh run     CONFIG...   every configuration on RTL_DIR; last line "cocotb: N passed, M failed"
#   run.sh mutants [NAME...]   each mutant of MUTANTS below must fail with a MISMATCH line
#
# Environment (from cocotb.mk): BUILD, VENV, LFC_LIB, TB_PARAMS, RTL_DIR, SIM (icarus|verilator),
# SEED, CYCLES, MAKE.
set -uo pipefail
: "${BUILD:=build}" "${VENV:=$BUILD/venv}" "${RTL_DIR:=rtl}" "${SIM:=icarus}" "${SEED:=1}"
: "${CYCLES:=1500}" "${MAKE:=make}" "${TB_PARAMS:=$BUILD/tb/tb-params}" "${LFC_LIB:=$BUILD/liblfc.so}"

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
OUT="$BUILD/cocotb"

# One configuration on one RTL tree. $1 config name, $2 RTL dir, $3 output dir. Exit status 0
# when the cocotb test passed; the log is $3/log.txt.
run_one() {
  local config="$1" rtl="$2" out="$3"
  local ini="$root/tb/configs/$config.ini"
  if [ ! -f "$ini" ]; then
    echo "cocotb: there is no tb/configs/$config.ini" >&2
    return 2
  fi
  mkdir -p "$out"
  # The RTL parameters of the configuration, for the top-level lfc_switch itself (Icarus -P
  # needs the instance path; tb-params writes it for tb/vpi/tb_top.v). A quote (32'h1) is
  # escaped: cocotb's makefiles paste the arguments into a shell command line.
  "$TB_PARAMS" "$SIM" "$ini" | sed -e 's/-Ptb_top\./-Plfc_switch./g' -e "s/'/\\\\'/g" \
    >"$out/params.new" || return 2
  # Which RTL tree: a run on another tree (a mutant) must rebuild, and so must the next run on
  # rtl/ after it, although no source is newer than the simulator then.
  realpath "$rtl" >"$out/rtl_dir.new"
  # Rebuild the simulator only when the parameters or the tree changed (both are dependencies of
  # the simulator in Makefile.sim).
  for f in params rtl_dir; do
    if ! cmp -s "$out/$f.new" "$out/$f"; then mv "$out/$f.new" "$out/$f"; fi
    rm -f "$out/$f.new"
  done
  rm -f "$out/results.xml"
  (
    export PATH="$VENV/bin:$PATH"
    # The test module and partner.py for cocotb's MODULE; the model is the lfc package
    # installed in the venv (lfc.flat), which loads $LFC_LIB.
    export PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}"
    export LFC_LIB="$(realpath "$LFC_LIB")" LFC_CONFIG="$ini" LFC_SEED="$SEED"
    export LFC_CYCLES="$CYCLES" LFC_SIM="$SIM" LFC_RTL_DIR="$rtl"
    # A fresh make: not the jobserver or flags of the make that called us.
    unset MAKEFLAGS MFLAGS MAKELEVEL
    make --no-print-directory -f "$here/Makefile.sim" SIM="$SIM" \
      SIM_BUILD="$(realpath -m "$out/sim")" RTL_DIR="$(realpath "$rtl")" \
      LFC_PARAMS="$(realpath "$out/params")" LFC_RTL_STAMP="$(realpath "$out/rtl_dir")" \
      COCOTB_RESULTS_FILE="$(realpath -m "$out/results.xml")"
  ) >"$out/log.txt" 2>&1
  # cocotb's makefile succeeds whether the tests passed or not: the results file decides.
  [ -f "$out/results.xml" ] && grep -q '<testcase' "$out/results.xml" &&
    ! grep -q '<failure' "$out/results.xml"
}

cmd="${1:-run}"
shift || true
case "$cmd" in
run)
  passed=0; failed=0
  for config in "$@"; do
    out="$OUT/run/$SIM/$config"
    t0=$(date +%s)
    if run_one "$config" "$RTL_DIR" "$out"; then
      echo "PASS cocotb sim=$SIM config=$config seed=$SEED cycles=$CYCLES ($(($(date +%s) - t0)) s)" \
        "$(grep -o 'packets_sent=[0-9]* packets_delivered=[0-9]*' "$out/log.txt" | head -1)"
      passed=$((passed + 1))
    else
      line="$(grep -m1 -o 'MISMATCH .*' "$out/log.txt" || true)"
      echo "FAIL cocotb sim=$SIM config=$config seed=$SEED: ${line:-see $out/log.txt}"
      # The report: the MISMATCH line and its context, or the end of the log.
      if [ -n "$line" ]; then
        sed -n '/MISMATCH /,/reproduce:/{p;/reproduce:/q}' "$out/log.txt" |
          sed -e 's/^ \{20,\}/    /' -e 's/^/  | /'
      else
        tail -n 20 "$out/log.txt" | sed 's/^/  | /'
      fi
      failed=$((failed + 1))
    fi
  done
  echo "cocotb: $passed passed, $failed failed (logs in $OUT/run/$SIM/)"
  [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
  ;;
mutants)
  # name | file | sed expression | configuration | what it breaks
  MUTANTS=(
    "fccl_plus_one|lfc_credit_rx.v|s/assign fccl_o = abr_q \\+ grant;/assign fccl_o = abr_q + grant + 12'd1;/|ib_basic|SPEC §5.4: the advertised credit limit"
    "pause_plus_one|lfc_pfc_rx.v|s/\\* \\{16'd0, K\\};/* {16'd0, K} + 21'd1;/|pfc_basic|SPEC §6.7: a pause of q quanta lasts q*k cycles"
  )
  want=("$@")
  # shellcheck source=tb/scripts/mutant_verdict.sh
  . "$root/tb/scripts/mutant_verdict.sh"
  for m in "${MUTANTS[@]}"; do
    IFS='|' read -r name file expr config what <<<"$m"
    if [ ${#want[@]} -gt 0 ] && ! printf '%s\n' "${want[@]}" | grep -qx "$name"; then continue; fi
    dir="$OUT/mutants/$name"
    mutant_prepare "cocotb mutant" "$name" "$RTL_DIR" "$dir" "$file" "$expr" "$what" || continue
    run_one "$config" "$dir/rtl" "$dir/$SIM"
    rc=$?
    line="$(grep -m1 -o 'MISMATCH .*' "$dir/$SIM/log.txt" || true)"
    mutant_verdict "$rc" "$line" "$dir/$SIM/log.txt" "$config ran $CYCLES cycles"
  done
  mutant_summary "cocotb mutants"
  ;;
*)
  echo "usage: $0 run CONFIG... | mutants [NAME...]" >&2
  exit 2
  ;;
esac
