#!/usr/bin/env bash
# test_help.sh - `make help` lists every public target: each .PHONY target of the Makefile and
# of the part files it includes has a line "make TARGET  ..." (a line "make lint-<config>" covers
# lint-default, lint-ib, ...), and each line names a target that exists. Targets whose names
# begin with a word and "_" (tb_regress_clear) are internal. Also: every part makefile
# (*.mk) of the tree is read by make, each with a plain `include` (not -include, sinclude or a
# wildcard, which would hide a renamed part), and every step of make check (CHECK_STEPS) is a
# step of make test (TEST_STEPS). Under a second.
#
#   scripts/test_help.sh
#
# Runs make from PATH without the flags of a make that runs this (MAKEFLAGS: -n, -j, ...), so
# that `make -n test` does not feed it dry-run output.
#
# Exit status: 0 every check held, 1 a target is missing from help or help names one that does
# not exist, 2 bad arguments or make failing.
set -uo pipefail
if [ $# -ne 0 ]; then
  echo "usage: $0 (no arguments)" >&2
  exit 2
fi
cd "$(dirname "$0")/.." || exit 2
unset MAKEFLAGS MFLAGS MAKELEVEL

help="$(make -s --no-print-directory help)" ||
  { echo "test_help: FAIL: make help failed" >&2; exit 2; }
# make's database (-p) without running anything (-q); its exit status is 1 when help is not
# up to date, which it never is (a phony target).
db="$(make -pq --no-print-directory help 2>/dev/null)"
# Tokens with a '$' or a parenthesis come from the text of a `define` (a template whose .PHONY line
# make prints as a variable's value), not from a rule: the rules it makes are listed expanded.
phony="$(printf '%s\n' "$db" | sed -n 's/^\.PHONY: //p' | tr ' ' '\n' | grep -v -E '^[a-z0-9]+_' |
         grep -v -E '[$()]' |
         grep . | sort -u)"
[ -n "$phony" ] || { echo "test_help: FAIL: no .PHONY targets in make's database" >&2; exit 2; }
listed="$(printf '%s\n' "$help" | sed -n -E 's/^ +make ([^ ]+).*/\1/p' | sort -u)"

fails=0
# Each listed name as a shell pattern: <anything> stands for any text.
mapfile -t names <<<"$listed"
mapfile -t globs < <(printf '%s\n' "$listed" | sed -E 's/<[^>]*>/*/g')
mapfile -t targets <<<"$phony"

for t in "${targets[@]}"; do
  found=0
  for g in "${globs[@]}"; do
    # shellcheck disable=SC2053  # the right side is a pattern on purpose
    if [[ "$t" == $g ]]; then found=1; break; fi
  done
  if [ $found -eq 0 ]; then
    echo "  FAIL: .PHONY target '$t' has no line in make help (a '## ' line in the Makefile)"
    fails=$((fails + 1))
  fi
done

for i in "${!globs[@]}"; do
  found=0
  for t in "${targets[@]}"; do
    # shellcheck disable=SC2053
    if [[ "$t" == ${globs[$i]} ]]; then found=1; break; fi
  done
  if [ $found -eq 0 ]; then
    echo "  FAIL: make help lists 'make ${names[$i]}', which is no .PHONY target"
    fails=$((fails + 1))
  fi
done

# Every part makefile of the tree is read (a new one not included would drop its steps): the
# files git tracks, or outside git every *.mk but under build*/ (Verilator writes .mk files).
read_mk="$(printf '%s\n' "$db" | sed -n 's/^MAKEFILE_LIST := //p' | tr ' ' '\n' | grep '\.mk$')"
while read -r mk; do
  if ! grep -qxF "$mk" <<<"$read_mk"; then
    echo "  FAIL: $mk is not included by the Makefile (its targets and steps are lost)"
    fails=$((fails + 1))
  fi
done < <(if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then git ls-files -- '*.mk'
         else find . \( -path ./.git -o -path './build*' \) -prune -o -name '*.mk' -print |
           sed 's|^\./||'; fi)

# A part makefile is included plainly: `-include`, `sinclude` or an include of a wildcard would
# make a renamed or missing part silently drop its targets and steps (dependency files, *.d,
# are the one thing read with -include).
makefiles="$(printf '%s\n' "$db" | sed -n 's/^MAKEFILE_LIST := //p' | tr ' ' '\n' |
             grep -E '(^|/)Makefile$|\.mk$' | sort -u)"
while IFS= read -r line; do
  [ -n "$line" ] || continue
  echo "  FAIL: $line: a part makefile must be included with a plain 'include FILE.mk'"
  fails=$((fails + 1))
done < <(printf '%s\n' "$makefiles" | tr '\n' '\0' |
         xargs -0 grep -HnE \
           '^[[:space:]]*(-include|sinclude|include)[[:space:]].*(\.mk\b|wildcard)' |
         grep -vE ':[[:space:]]*include[[:space:]]+[^$*?[:space:]]+\.mk[[:space:]]*$')

# make test runs every step of make check: moving a step out of the everyday loop must not drop
# it.
check_steps="$(printf '%s\n' "$db" | sed -n 's/^CHECK_STEPS :\{0,1\}= //p' | tail -n 1)"
test_steps="$(printf '%s\n' "$db" | sed -n 's/^TEST_STEPS :\{0,1\}= //p' | tail -n 1)"
[ -n "$check_steps" ] && [ -n "$test_steps" ] ||
  { echo "test_help: FAIL: no CHECK_STEPS or TEST_STEPS in make's database" >&2; exit 2; }
for s in $check_steps; do
  case " $test_steps " in
    *" $s "*) ;;
    *) echo "  FAIL: $s is a step of make check (CHECK_STEPS) but not of make test (TEST_STEPS)"
       fails=$((fails + 1)) ;;
  esac
done

echo "test_help: ${#targets[@]} public targets, ${#names[@]} lines in make help, $fails failed"
[ $fails -eq 0 ]
