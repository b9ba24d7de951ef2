#!/usr/bin/env bash
# tb/dpi/mutants.sh - proof that the DPI-C checker catches RTL bugs (make dpi-mutants).
#
# Each mutant is one change (sed) to a copy of rtl/ in $BUILD/dpi-mutants/<name>/rtl; the DPI-C
# testbench built on it must stop with a MISMATCH $error. rtl/ is never touched.
#
# Environment: BUILD, MAKE, DPI_CYCLES.
set -uo pipefail
: "${BUILD:=build}" "${MAKE:=make}" "${DPI_CYCLES:=5000}"

# name | file | sed expression | what it breaks
MUTANTS=(
  "fccl_plus_one|lfc_credit_rx.v|s/assign fccl_o = abr_q \\+ grant;/assign fccl_o = abr_q + grant + 12'd1;/|SPEC §5.4: the advertised credit limit (IB switch)"
  "xon_hysteresis|lfc_pfc_gen.v|s/\\+ XON_OFFSET/+ XON_OFFSET + 21'd1/|SPEC §6.5: the XON offset (PFC switch)"
)

# shellcheck source=tb/scripts/mutant_verdict.sh
. "$(dirname "$0")/../scripts/mutant_verdict.sh"
for m in "${MUTANTS[@]}"; do
  IFS='|' read -r name file expr what <<<"$m"
  if [ "$#" -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then continue; fi
  dir="$BUILD/dpi-mutants/$name"
  mutant_prepare "DPI-C mutant" "$name" rtl "$dir" "$file" "$expr" "$what" || continue
  $MAKE --no-print-directory dpi DPI_RTL_DIR="$dir/rtl" DPI_BUILD="$dir/dpi" \
    DPI_CYCLES="$DPI_CYCLES" >"$dir/make.log" 2>&1
  rc=$?
  line="$(grep -m1 -o 'MISMATCH .*' "$dir/dpi/log.txt" 2>/dev/null || true)"
  mutant_verdict "$rc" "$line" "$dir/make.log" "$DPI_CYCLES cycles"
done
mutant_summary "dpi mutants"
