# tb/scripts/mutant_verdict.sh - the verdict on one run of a mutated RTL, shared by the mutant
# flows (tb/scripts/mutant_smoke.sh, tb/cocotb/run.sh mutants, tb/dpi/mutants.sh). Sourced.
#
# A mutant is caught only when the run fails AND says MISMATCH: a failure without that line is a
# broken flow (a build error, a crash), not evidence that the checker saw the mutation.
#
#   mutant_prepare LABEL NAME RTL DIR FILE EXPR WHAT
#     Copies the RTL tree RTL to DIR/rtl and applies the sed expression EXPR to FILE there.
#     Prints "== LABEL NAME: WHAT" and the changed lines; fails, counting the mutant broken,
#     when EXPR changed nothing (the RTL moved on and the mutant no longer applies).
#   mutant_verdict RC LINE LOG SURVIVED_TEXT
#     RC the run's exit status, LINE its first MISMATCH line (empty if none), LOG the file to
#     show when the run is broken, SURVIVED_TEXT what a clean run did ("pfc_basic ran 5000
#     cycles"). Prints one verdict and counts it in the caller's caught, survived, broken.
#   mutant_summary WHAT
#     Prints the totals; succeeds only if every mutant was caught and at least one ran.

caught=0
survived=0
broken=0

mutant_prepare() {
  local label="$1" name="$2" rtl="$3" dir="$4" file="$5" expr="$6" what="$7"
  rm -rf "$dir/rtl"
  mkdir -p "$dir"
  cp -r "$rtl" "$dir/rtl"
  sed -i -E "$expr" "$dir/rtl/$file"
  if cmp -s "$rtl/$file" "$dir/rtl/$file"; then
    echo "MUTANT $name: the sed '$expr' changed nothing in $rtl/$file (the RTL changed?)"
    broken=$((broken + 1))
    return 1
  fi
  echo "== $label $name: $what"
  # diff exits 1 when the files differ, which they do: under pipefail that is not a failure here.
  diff "$rtl/$file" "$dir/rtl/$file" | sed -n 's/^[<>].*/    &/p' || true
}

mutant_verdict() {
  if [ "$1" -ne 0 ] && [ -n "$2" ]; then
    echo "   caught: $2"
    caught=$((caught + 1))
  elif [ "$1" -eq 0 ]; then
    echo "   SURVIVED: $4 without a mismatch (log $3)"
    survived=$((survived + 1))
  else
    echo "   BROKEN: exit $1 without a MISMATCH line (log $3):"
    tail -n 8 "$3" | sed 's/^/     | /'
    broken=$((broken + 1))
  fi
}

mutant_summary() {
  echo "$1: $caught caught, $survived survived, $broken broken"
  [ "$survived" -eq 0 ] && [ "$broken" -eq 0 ] && [ "$caught" -gt 0 ]
}
