#!/usr/bin/env bash
# Try to prove the surviving mutants of one configuration equivalent to the RTL (make mutants).
#
#   tb/mutants/equiv.sh CONFIG        (environment: OUT, JOBS, YOSYS, MUT_EQUIV_TIMEOUT)
#
# A mutant changes one module (every instance of it). If the mutated module is sequentially
# equivalent to the original one for ANY input sequence, the whole switch is too, whatever drives
# the module: that is what Yosys proves here, on the module alone (small, unlike the flattened
# switch, on which the same proof did not finish in minutes): gold = the module, gate = a copy
# with the mutation applied for good, memories mapped to flip-flops, then equiv_make (pairs the
# signals of the same name), equiv_simple and equiv_induct (temporal induction: every pair equal
# in SEQ steps implies equal in the next, from equal initial states) and equiv_status -assert.
# If that fails, a second try pairs the module's ports only (the internal wires' names hidden
# with rename -hide): a mutant may change an internal signal in a way no output ever shows (a
# bit that is only read together with a valid bit that is 0, for example), and pairing it makes
# equiv_status fail on a difference that does not matter. (The modules expose most of their
# state registers as outputs for the debug port, so the induction still sees them.)
# A mutant that is harmless only because of how the rest of the switch drives the module is NOT
# proved here: it stays a survivor and needs a hand-written reason (tb/mutants/explained.txt).
# Mutants of lfc_switch's own logic are not tried (the module is the whole switch).
#
# Writes OUT/CONFIG/equiv/<id>.result: "equivalent HOW" or "unproven WHY" (+ the Yosys scripts
# and logs <id>.names.ys/.log, <id>.ports.ys/.log).
set -uo pipefail
[ $# -eq 1 ] || { echo "usage: $0 CONFIG" >&2; exit 2; }
c="$1"
: "${OUT:?}" "${JOBS:=2}" "${YOSYS:=yosys}" "${MUT_EQUIV_TIMEOUT:=60}"
d="$OUT/$c"
mkdir -p "$d/equiv"
# Induction depth (cycles).
SEQ=4

equiv_one() {
  local k="$1" d="$2" ymod mod cmd e="$2/equiv/$1"
  ymod="$(awk -F'\t' -v k="$k" '$1 == k {print $5}' "$d/chosen.tsv")"
  mod="$(awk -F'\t' -v k="$k" '$1 == k {print $3}' "$d/chosen.tsv")"
  if [ "$ymod" = lfc_switch ]; then
    echo "unproven a mutant of lfc_switch's own logic (no module-level proof)" >"$e.result"
    return 0
  fi
  # The k-th mutate command of apply.ys, applied for good to the copy "gate".
  cmd="$(grep '^mutate ' "$d/apply.ys" | sed -n "${k}p" |
         sed -E 's/ -ctrl mutsel [0-9]+ [0-9]+$//; s/ -module [^ ]+ / -module gate /')"
  # Two tries: first every signal of the same name paired (the internal pairs help the
  # induction), then, if that fails on a difference, the ports only (see the top).
  local try rc=1 hide n
  for try in names ports; do
    hide=""
    [ "$try" = ports ] && hide="rename -hide gold/w:* gold/x:* %d
rename -hide gate/w:* gate/x:* %d"
    cat >"$e.$try.ys" <<EOF
read_rtlil $d/design.il
hierarchy -top $ymod
rename $ymod gold
copy gold gate
$cmd
memory_map
$hide
opt_clean
equiv_make gold gate equiv
hierarchy -top equiv
equiv_simple -seq $SEQ
equiv_induct -seq $SEQ
equiv_status -assert
EOF
    timeout "$MUT_EQUIV_TIMEOUT" "$YOSYS" -q -l "$e.$try.log" "$e.$try.ys" >/dev/null 2>&1
    rc=$?
    [ $rc -eq 0 ] && break
    [ $rc -eq 124 ] && break  # a timeout would time out again
  done
  if [ $rc -eq 0 ]; then
    echo "equivalent lfc_$mod with the mutation = lfc_$mod (Yosys equiv_simple/equiv_induct -seq $SEQ, signals paired: $try, $e.$try.ys)" >"$e.result"
  elif [ $rc -eq 124 ]; then
    echo "unproven the proof timed out after ${MUT_EQUIV_TIMEOUT}s" >"$e.result"
  else
    n="$(grep -m1 -oE 'Of those cells [0-9]+ are proven and [0-9]+ are unproven' "$e.ports.log" || true)"
    echo "unproven lfc_$mod alone differs from the mutant (ports only: ${n:-yosys failed, see $e.ports.log})" >"$e.result"
  fi
}
export -f equiv_one
export YOSYS MUT_EQUIV_TIMEOUT SEQ

survivors=()
for r in "$d"/runs/*/result; do
  k="$(basename "$(dirname "$r")")"
  [ "$k" = 0 ] && continue
  [ "$(cut -d' ' -f1 "$r")" = survived ] && survivors+=("$k")
done
echo "   $c: ${#survivors[@]} survivors; proving equivalence (module by module)"
[ ${#survivors[@]} -eq 0 ] && exit 0
printf '%s\n' "${survivors[@]}" | xargs -P "$JOBS" -I{} bash -c 'equiv_one "$0" "$1"' {} "$d"
proved=$(cat "$d"/equiv/*.result 2>/dev/null | grep -c '^equivalent' || true)
echo "   $c: $proved of ${#survivors[@]} survivors proved equivalent"
