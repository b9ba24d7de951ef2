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

caught=0; survived=0; broken=0
for m in "${MUTANTS[@]}"; do
  IFS='|' read -r name file expr what <<<"$m"
  if [ "$#" -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then continue; fi
  dir="$BUILD/dpi-mutants/$name"
  rm -rf "$dir/rtl"
  mkdir -p "$dir"
  cp -r rtl "$dir/rtl"
  sed -i -E "$expr" "$dir/rtl/$file"
  if cmp -s "rtl/$file" "$dir/rtl/$file"; then
    echo "MUTANT $name: the sed '$expr' changed nothing in rtl/$file (the RTL changed?)"
    broken=$((broken + 1))
    continue
  fi
  echo "== DPI-C mutant $name: $what"
  diff "rtl/$file" "$dir/rtl/$file" | sed -n 's/^[<>].*/    &/p'
  $MAKE --no-print-directory dpi DPI_RTL_DIR="$dir/rtl" DPI_BUILD="$dir/dpi" \
    DPI_CYCLES="$DPI_CYCLES" >"$dir/make.log" 2>&1
  rc=$?
  line="$(grep -m1 -o 'MISMATCH .*' "$dir/dpi/log.txt" 2>/dev/null || true)"
  if [ "$rc" -ne 0 ] && [ -n "$line" ]; then
    echo "   caught: $line"
    caught=$((caught + 1))
  elif [ "$rc" -eq 0 ]; then
    echo "   SURVIVED: $DPI_CYCLES cycles without a mismatch (log $dir/dpi/log.txt)"
    survived=$((survived + 1))
  else
    echo "   BROKEN: failed without a MISMATCH line (log $dir/make.log):"
    tail -n 8 "$dir/make.log" | sed 's/^/     | /'
    broken=$((broken + 1))
  fi
done
echo "dpi mutants: $caught caught, $survived survived, $broken broken"
[ "$survived" -eq 0 ] && [ "$broken" -eq 0 ] && [ "$caught" -gt 0 ]
