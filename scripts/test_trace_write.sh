#!/usr/bin/env bash
# test_trace_write.sh - lfc_trace (lfc-trace) on a standard output it cannot write: a full
# device (/dev/full, every write fails with ENOSPC) and a closed descriptor (>&-, EBADF). Each
# must exit 2 with one line on stderr naming standard output and the error, never 0 with a lost
# trace; a long trace must stop at the first failed write. About 1 s.
#
#   scripts/test_trace_write.sh LFC_TRACE
#
# Exit status: 0 every check held, 1 one failed, 2 bad arguments.
set -uo pipefail
if [ $# -ne 1 ] || [ ! -x "$1" ]; then
  echo "usage: $0 LFC_TRACE (the built build/tools/lfc_trace)" >&2
  exit 2
fi
trace="$1"
err="$(mktemp)"
trap 'rm -f "$err"' EXIT
# A trace of 10^9 cycles takes hours; one that stops at the first failed write, a moment.
STOP_TIMEOUT_S=30
fails=0 checks=0
fail() { echo "  FAIL: $*"; fails=$((fails + 1)); }

# refused WHAT WANT_ERROR RC: the last command exited RC; it must be 2 with one stderr line
# naming standard output and WANT_ERROR.
refused() {
  checks=$((checks + 1))
  if [ "$3" -ne 2 ] || [ "$(wc -l <"$err")" -ne 1 ] || ! grep -q "standard output: $2" "$err"; then
    fail "$1: exit $3 and stderr '$(cat "$err")'; want exit 2 and one line naming" \
      "standard output: $2"
  fi
}

# /dev/full must be the device: were it a regular file, the redirections below would write
# traces into it and the checks would test nothing.
if [ ! -c /dev/full ]; then
  echo "test_trace_write: /dev/full is not a character device on this machine" >&2
  exit 2
fi

# A good run still writes the whole trace and exits 0.
checks=$((checks + 1))
lines="$("$trace" ib_4p_incast 2000 2>"$err" | wc -l)"
[ "${PIPESTATUS[0]}" -eq 0 ] && [ "$lines" -gt 100 ] && [ ! -s "$err" ] ||
  fail "ib_4p_incast 2000 to a pipe: exit ${PIPESTATUS[0]}, $lines lines, stderr $(cat "$err")"

"$trace" ib_4p_incast 2000 >/dev/full 2>"$err"
refused "trace >/dev/full" "No space left on device" $?
"$trace" ib_4p_incast 2000 >&- 2>"$err"
refused "trace >&-" "Bad file descriptor" $?
"$trace" --list >/dev/full 2>"$err"
refused "--list >/dev/full" "No space left on device" $?
"$trace" --help >&- 2>"$err"
refused "--help >&-" "Bad file descriptor" $?
"$trace" --version >/dev/full 2>"$err"
refused "--version >/dev/full" "No space left on device" $?
timeout "$STOP_TIMEOUT_S" "$trace" ib_4p_uniform 1000000000 >/dev/full 2>"$err"
refused "a 10^9-cycle trace >/dev/full (stops at the first failed write, in ${STOP_TIMEOUT_S}s)" \
  "No space left on device" $?

echo "test_trace_write: $checks checks, $fails failed"
[ "$fails" -eq 0 ]
