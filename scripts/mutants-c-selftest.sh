#!/usr/bin/env bash
# scripts/mutants-c-selftest.sh - `make test-mutants-c-changed` (scripts/mutants-c.py --changed
# auto) must fail on a commit that adds an untested line to cmodel/src (docs/fuzzing.md §3).
#
# In a scratch clone of the tree as it is now (uncommitted edits included, committed there as
# "main"), a throwaway commit adds to lfc_drop_cause_name a branch no test reaches. The check
# then runs twice, once for each way auto chooses its base:
#   1. on a branch "change" off main: the merge base with main;
#   2. on main itself, as a fresh clone on CI sees it: the parent of the last commit that changed
#      cmodel/src;
# and each must fail (the step exits 1) naming a surviving mutant of the new line. Then, on main
# with nothing of cmodel/src changed since a given base (MUTANTS_BASE=HEAD), it must pass without
# building anything.
# Exit 0 if all that holds, 1 if not; the scratch clone is removed either way.
# Environment: BUILD (default build), for the scratch's build directory under it.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
case "$BUILD" in /*) ;; *) BUILD="$ROOT/$BUILD" ;; esac
mkdir -p "$BUILD"
SCRATCH=$(mktemp -d "$BUILD/mutants-c-selftest.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
REPO="$SCRATCH/repo"
LOG="$SCRATCH/log"

fail() {
  echo "mutants-c-selftest: FAIL: $*" >&2
  exit 1
}

# The tree as it is now: its tracked files (edits included) over a clone of its history.
git clone -q --no-hardlinks "$ROOT" "$REPO"
git -C "$ROOT" ls-files -z |
  (cd "$ROOT" && tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -C "$REPO" -xf -
cd "$REPO"
git remote remove origin # no upstream: auto's merge base is with main
git config user.name "mutants-c selftest"
git config user.email "selftest@localhost"
git checkout -q -B main
git add -A
git commit -q -m "the tree under test" --allow-empty

# The untested line: a cause value no test passes gets its own name.
FILE=cmodel/src/types.c
ANCHOR='  return (unsigned)cause < LFC_DROP_CAUSES ? names\[cause\] : "unknown";'
grep -q "^$ANCHOR\$" "$FILE" || fail "$FILE: the line to put the untested branch before is gone"
sed -i "s/^$ANCHOR\$/  if (cause == (lfc_drop_cause_t)77) return \"selftest\";\n&/" "$FILE"
LINE=$(grep -n '(lfc_drop_cause_t)77' "$FILE" | cut -d: -f1)

run_check() { # $1: what; the rest: make arguments. Sets RC.
  echo "mutants-c-selftest: $1"
  set +e
  make -s --no-print-directory BUILD="$SCRATCH/build" test-mutants-c-changed "${@:2}" >"$LOG" 2>&1
  RC=$?
  set -e
  sed 's/^/    /' "$LOG"
}

# make stops with its own status 2; the step's (the script's) must be 1, a finding.
expect_survivor() {
  [ "$RC" -ne 0 ] || fail "$1: exit 0, expected a failure (a surviving mutant of $FILE:$LINE)"
  grep -q "test-mutants-c-changed\] Error 1\$" "$LOG" ||
    fail "$1: the step did not exit 1 (a finding)"
  grep -q "^SURVIVED $FILE:$LINE:" "$LOG" || fail "$1: no SURVIVED line for $FILE:$LINE"
}

git checkout -q -b change
git commit -q -am "an untested branch"
run_check "1. a branch adds an untested line (base: the merge base with main)"
expect_survivor "1. branch"

git checkout -q main
git merge -q --ff-only change
run_check "2. main, as a fresh clone sees it (base: before the last change of cmodel/src)"
expect_survivor "2. main"

run_check "3. nothing changed since the base" MUTANTS_BASE=HEAD
[ "$RC" -eq 0 ] || fail "3. nothing changed: exit $RC, expected 0"
grep -q "nothing to check" "$LOG" || fail "3. nothing changed: no 'nothing to check' line"

echo "mutants-c-selftest: ok (an untested line of cmodel/src fails the check," \
  "on a branch and on main)"
