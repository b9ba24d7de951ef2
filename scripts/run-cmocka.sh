#!/usr/bin/env bash
# Run cmocka test binaries and add up their results. Used by the Makefile.
#
#   scripts/run-cmocka.sh run LOGDIR BIN...
#       Runs each BIN (with CMOCKA_MESSAGE_OUTPUT=stdout), keeps its whole output in
#       LOGDIR/NAME.log and its exit status in LOGDIR/NAME.rc, prints one line per
#       binary and the whole log of every binary that failed. Runs all of them even
#       when one fails, then exits 1 if any failed.
#       Environment: TEST_WRAPPER, a command put in front of each binary (e.g. valgrind
#       and its options); TEST_TIMEOUT, seconds a binary may run (default 600).
#
#   scripts/run-cmocka.sh summary LOGDIR...
#       Adds up the "[  PASSED  ] N test(s)." and "[  FAILED  ] N test(s)" lines of the
#       logs in each LOGDIR and prints "cmocka: P passed, F failed". A binary that
#       exited non-zero without a FAILED line (a crash, a sanitizer or valgrind report)
#       counts as one failure. Exits 1 if anything failed or nothing passed.
set -uo pipefail

# count LOG WORD: the N of cmocka's "[  WORD  ] N test(s)" closing line, or 0.
count() {
  sed -n -E "s/^\[ +$2 +\] ([0-9]+) test\(s\).*/\1/p" "$1" | tail -n 1 | grep . || echo 0
}

cmd_run() {
  local logdir="$1"; shift
  if [ $# -eq 0 ]; then
    echo "run-cmocka: no test binaries given (are there cmodel/tests/test_*.c files?)" >&2
    exit 1
  fi
  rm -rf "$logdir"
  mkdir -p "$logdir"
  local bin name log rc failed=0
  for bin in "$@"; do
    name="$(basename "$bin")"
    log="$logdir/$name.log"
    # shellcheck disable=SC2086  # TEST_WRAPPER is a command line, split on purpose
    CMOCKA_MESSAGE_OUTPUT=stdout timeout "${TEST_TIMEOUT:-600}" \
      ${TEST_WRAPPER:-} "$bin" >"$log" 2>&1
    rc=$?
    echo "$rc" >"$logdir/$name.rc"
    if [ "$rc" -eq 0 ]; then
      printf '  PASS  %-40s %s test(s)\n' "$name" "$(count "$log" PASSED)"
    else
      failed=$((failed + 1))
      [ "$rc" -eq 124 ] && echo "  (timed out after ${TEST_TIMEOUT:-600} s)" >>"$log"
      printf '  FAIL  %-40s exit %s; log %s\n' "$name" "$rc" "$log"
      sed 's/^/    | /' "$log"
    fi
  done
  if [ "$failed" -ne 0 ]; then
    echo "run-cmocka: $failed of $# test binaries failed (${TEST_WRAPPER:-no wrapper}); logs in $logdir" >&2
    exit 1
  fi
}

cmd_summary() {
  local dir log rc p f s passed=0 failed=0 skipped=0
  for dir in "$@"; do
    for log in "$dir"/*.log; do
      [ -e "$log" ] || continue
      rc="$(cat "${log%.log}.rc" 2>/dev/null || echo 1)"
      p="$(count "$log" PASSED)"; f="$(count "$log" FAILED)"; s="$(count "$log" SKIPPED)"
      if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
      passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
    done
  done
  if [ "$skipped" -ne 0 ]; then
    echo "cmocka: $passed passed, $failed failed, $skipped skipped"
  else
    echo "cmocka: $passed passed, $failed failed"
  fi
  [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
}

case "${1:-}" in
  run)     shift; [ $# -ge 1 ] || { echo "usage: $0 run LOGDIR BIN..." >&2; exit 2; }; cmd_run "$@" ;;
  summary) shift; cmd_summary "$@" ;;
  *)       echo "usage: $0 run LOGDIR BIN... | summary LOGDIR..." >&2; exit 2 ;;
esac
