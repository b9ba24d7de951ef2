#!/bin/bash
# tb/fuzz/selftest.sh - the fuzz targets must catch a broken RTL / model (`make fuzz-selftest`).
#
# Each RTL mutant is one sed change to a copy of rtl/ in $TBFUZZ_BUILD/selftest/<name>/rtl; the
# IB fuzz target is built against it and run for at most SELFTEST_SECONDS; it must stop with a
# MISMATCH line. Each model mutant is one sed change to a copy of cmodel/src; the model-only
# target built from it must stop with an INVARIANT line. One line per mutant, then a count.
set -u
: "${TBFUZZ_BUILD:?}" "${MAKE:=make}" "${SELFTEST_SECONDS:=120}" "${TBFUZZ_CC:=clang-14}"
: "${TBFUZZ_SAN:?}"
# The flags of tb/fuzz/fuzz.mk's model build, with a fixed version string.
cflags=(-std=c11 -O1 -g -Icmodel/include -Itb/common -Itb/fuzz -DLFC_VERSION_STRING='"selftest"')
here=$(cd "$(dirname "$0")" && pwd)

# name | file | sed expression | what it breaks
MUTANTS=(
  "mtu_boundary|lfc_rx_framing.v|s/\\(nblk_i <= MTU\\)/(nblk_i < MTU)/|SPEC §7.2: a packet of exactly mtu_blocks is well formed"
  "send_rule_window|lfc_credit_tx.v|s/\\(diff <= 12'd2048\\)/(diff <= 12'd1024)/|SPEC §5.3: the 2048-block window of the send rule"
)

# SELFTEST_ONLY=rtl|model runs one half (the other counts as passed).
only=${SELFTEST_ONLY:-}
[ "$only" = model ] && MUTANTS=()
caught=0
for m in "${MUTANTS[@]}"; do
  IFS='|' read -r name file expr what <<<"$m"
  dir="$TBFUZZ_BUILD/selftest/$name"
  rm -rf "$dir/rtl" "$dir/crashes" "$dir/corpus"
  mkdir -p "$dir/crashes" "$dir/corpus"
  cp -r rtl "$dir/rtl"
  sed -i -E "$expr" "$dir/rtl/$file"
  if cmp -s "rtl/$file" "$dir/rtl/$file"; then
    echo "MUTANT $name: the sed changed nothing in rtl/$file (the RTL changed?)"
    continue
  fi
  if ! $MAKE --no-print-directory RTL_DIR="$dir/rtl" TBFUZZ_BUILD="$dir" \
      "$dir/cosim-ib/fuzz-cosim" > "$dir/build.log" 2>&1; then
    echo "MUTANT $name: build failed ($dir/build.log)"
    continue
  fi
  nice -n 10 "$dir/cosim-ib/fuzz-cosim" -max_len=4096 -max_total_time="$SELFTEST_SECONDS" \
    -artifact_prefix="$dir/crashes/" "$dir/corpus" "$here/corpus/ib" > "$dir/run.log" 2>&1
  line=$(grep -m1 '^MISMATCH' "$dir/run.log")
  if [ -n "$line" ]; then
    caught=$((caught + 1))
    echo "MUTANT $name ($what): caught: $line"
  else
    echo "MUTANT $name ($what): NOT caught in $SELFTEST_SECONDS s ($dir/run.log)"
  fi
done
# The model-only target: mutants of a copy of cmodel/src (a quoted #include finds the copy's
# private headers first), each must end in an INVARIANT line.
# name | file | sed expression | what it breaks
MODEL_MUTANTS=(
  "send_rule_lax|lfc_rules.h|s/<= LFC_CREDIT_WINDOW;/<= LFC_CREDIT_WINDOW + 512u;/|SPEC §5.3: the switch sends beyond the window"
  "shared_not_freed|buffer.c|s/^  sw->shared_used -= s;/  (void)s;/|SPEC §6.3: shared_used = sum of pg_shared"
)
[ "$only" = rtl ] && MODEL_MUTANTS=()
mcaught=0
for m in "${MODEL_MUTANTS[@]}"; do
  IFS='|' read -r name file expr what <<<"$m"
  dir="$TBFUZZ_BUILD/selftest/model-$name"
  rm -rf "$dir"
  mkdir -p "$dir/src" "$dir/obj" "$dir/crashes" "$dir/corpus"
  cp cmodel/src/*.c cmodel/src/*.h "$dir/src/"
  sed -i -E "$expr" "$dir/src/$file"
  if cmp -s "cmodel/src/$file" "$dir/src/$file"; then
    echo "MODEL MUTANT $name: the sed changed nothing in cmodel/src/$file (the model changed?)"
    continue
  fi
  ok=1
  for c in "$dir"/src/*.c tb/fuzz/fuzz_input.c tb/fuzz/fuzz_model.c; do
    o="$dir/obj/$(basename "$c" .c).o"
    $TBFUZZ_CC "${cflags[@]}" $TBFUZZ_SAN -c -o "$o" "$c" >> "$dir/build.log" 2>&1 || ok=0
  done
  [ $ok = 1 ] && $TBFUZZ_CC -fsanitize=fuzzer,address,undefined -o "$dir/fuzz-model" \
    "$dir"/obj/*.o -lm >> "$dir/build.log" 2>&1 || ok=0
  if [ $ok = 0 ]; then
    echo "MODEL MUTANT $name: build failed ($dir/build.log)"
    continue
  fi
  nice -n 10 "$dir/fuzz-model" -max_len=4096 -max_total_time="$SELFTEST_SECONDS" \
    -artifact_prefix="$dir/crashes/" "$dir/corpus" "$here/corpus/model" > "$dir/run.log" 2>&1
  line=$(grep -m1 '^INVARIANT' "$dir/run.log")
  if [ -n "$line" ]; then
    mcaught=$((mcaught + 1))
    echo "MODEL MUTANT $name ($what): caught: $line"
  else
    echo "MODEL MUTANT $name ($what): NOT caught in $SELFTEST_SECONDS s ($dir/run.log)"
  fi
done
echo "fuzz-selftest: $caught of ${#MUTANTS[@]} RTL mutants, $mcaught of ${#MODEL_MUTANTS[@]} model mutants caught"
[ "$caught" -eq "${#MUTANTS[@]}" ] && [ "$mcaught" -eq "${#MODEL_MUTANTS[@]}" ]
