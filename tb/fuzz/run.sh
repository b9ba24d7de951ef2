#!/bin/bash
# tb/fuzz/run.sh - run the fuzz targets (called by tb/fuzz/fuzz.mk; see docs/fuzzing.md).
#
#   run.sh cosim MODE...   libFuzzer on build/.../cosim-MODE/fuzz-cosim, FUZZ_SECONDS split
#   run.sh model MODE...   libFuzzer on the model-only target (ASan + UBSan), FUZZ_SECONDS
#   run.sh replay MODE...  every committed seed and regression input once through each target
#   run.sh parser NAME...  libFuzzer on build/.../fuzz_NAME (a parser target, ASan + UBSan),
#                          FUZZ_SECONDS each, with tb/fuzz/NAME.dict if there is one
#   run.sh parser-replay NAME...  the seeds (corpus/NAME) and regressions (regress/NAME) once
#
# Prints per target "fuzz-<target> <mode>: N executions in S s, ..." and fails on the first
# difference / invariant violation / broken property or sanitizer finding (its input is saved
# under $TBFUZZ_BUILD/crashes/, and the line "input: FILE" names it).
set -u
what=$1
shift
modes=("$@")
: "${TBFUZZ_BUILD:?}" "${FUZZ_SECONDS:=60}"
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$TBFUZZ_BUILD/crashes"

# libFuzzer's options: inputs up to 4 KiB (a few thousand cycles), no leak check at exit of the
# Verilated model (its context is a process-lifetime singleton).
opts=(-max_len=4096 -print_final_stats=1)
# FUZZ_SEED (set by the brief run of `make test`): the same inputs first on every machine.
if [ -n "${FUZZ_SEED:-}" ]; then opts+=("-seed=$FUZZ_SEED"); fi

run_fuzz() { # name binary seconds corpus-dir [-option...] seed-dirs...
  local name=$1 bin=$2 secs=$3 work=$4
  shift 4
  rm -f "$TBFUZZ_BUILD/crashes/$name-"*
  mkdir -p "$work"
  local log="$TBFUZZ_BUILD/$name.log"
  echo "== $name: $secs s ($bin)"
  nice -n 10 "$bin" "${opts[@]}" -max_total_time="$secs" \
    -artifact_prefix="$TBFUZZ_BUILD/crashes/$name-" "$work" "$@" > "$log" 2>&1
  local rc=$?
  local execs
  execs=$(grep -a -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' |
    tail -1)
  local cov
  cov=$(grep -a -o 'cov: [0-9]*' "$log" | tail -1)
  grep -a -E '^(MISMATCH|INVARIANT|PROPERTY)' "$log" | head -1
  # libFuzzer's exit status, or an input it saved: either is a finding.
  local found
  found=$(find "$TBFUZZ_BUILD/crashes" -maxdepth 1 -name "$name-*" -type f | head -1)
  if [ $rc -ne 0 ] || [ -n "$found" ]; then
    grep -a -E '^(MISMATCH|INVARIANT|PROPERTY)|ERROR|SUMMARY|Test unit written' "$log" | head -8
    [ -n "$found" ] && echo "input: $found"
    echo "$name: FAILED after ${execs:-?} executions (log $log)"
    return 1
  fi
  echo "$name: ${execs:-0} executions in $secs s, $cov, no finding (log $log)"
}

replay() { # name binary files...
  local name=$1 bin=$2
  shift 2
  [ $# -gt 0 ] || { echo "$name: no inputs"; return 0; }
  local log="$TBFUZZ_BUILD/$name-replay.log"
  if "$bin" "$@" > "$log" 2>&1; then
    echo "$name: replayed $# inputs, all pass"
  else
    grep -a -E '^(MISMATCH|INVARIANT|PROPERTY)|ERROR|SUMMARY|Running:' "$log" | tail -6
    echo "$name: replay FAILED (log $log)"
    return 1
  fi
}

# Seeds of a parser target kept elsewhere in the tree: the shipped co-simulation configurations
# are tb_config's (and every one of them must keep passing its checks).
shared_seeds() { # name
  case $1 in
    tb_config) echo "$here/../configs" ;;
  esac
}

fail=0
n=${#modes[@]}
case $what in
  cosim)
    per=$(( FUZZ_SECONDS / n )); [ $per -ge 1 ] || per=1
    for m in "${modes[@]}"; do
      run_fuzz "fuzz-cosim-$m" "$TBFUZZ_BUILD/cosim-$m/fuzz-cosim" $per \
        "$TBFUZZ_BUILD/corpus-cosim-$m" "$here/corpus/$m" || fail=1
    done ;;
  model)
    run_fuzz fuzz-model "$TBFUZZ_BUILD/fuzz-model" "$FUZZ_SECONDS" "$TBFUZZ_BUILD/corpus-model" \
      "$here/corpus/model" || fail=1 ;;
  replay)
    for m in "${modes[@]}"; do
      if [ -n "${TBFUZZ_INPUT:-}" ]; then files=("$TBFUZZ_INPUT"); else
        mapfile -t files < <(find "$here/corpus/$m" "$here/regress/$m" -type f 2>/dev/null | sort)
      fi
      replay "fuzz-cosim-$m" "$TBFUZZ_BUILD/cosim-$m/fuzz-cosim" "${files[@]}" || fail=1
    done
    if [ -n "${TBFUZZ_INPUT:-}" ]; then files=("$TBFUZZ_INPUT"); else
      mapfile -t files < <(find "$here/corpus/model" "$here/regress/model" -type f 2>/dev/null | sort)
    fi
    replay fuzz-model "$TBFUZZ_BUILD/fuzz-model" "${files[@]}" || fail=1 ;;
  parser)
    for p in "${modes[@]}"; do
      dict=()
      [ -f "$here/$p.dict" ] && dict=(-dict="$here/$p.dict")
      # -timeout: an input that takes 10 s is a hang.
      run_fuzz "fuzz-${p//_/-}" "$TBFUZZ_BUILD/fuzz_$p" "$FUZZ_SECONDS" \
        "$TBFUZZ_BUILD/corpus-$p" -timeout=10 "${dict[@]}" "$here/corpus/$p" $(shared_seeds "$p") \
        $([ -d "$here/regress/$p" ] && echo "$here/regress/$p") \
        || fail=1
    done ;;
  parser-replay)
    for p in "${modes[@]}"; do
      if [ -n "${TBFUZZ_INPUT:-}" ]; then files=("$TBFUZZ_INPUT"); else
        mapfile -t files < <(find "$here/corpus/$p" "$here/regress/$p" $(shared_seeds "$p") \
          -type f 2>/dev/null | sort)
      fi
      replay "fuzz-${p//_/-}" "$TBFUZZ_BUILD/fuzz_$p" "${files[@]}" || fail=1
    done ;;
  *) echo "run.sh: cosim | model | replay | parser NAME... | parser-replay NAME..." >&2; exit 2 ;;
esac
exit $fail
