#!/usr/bin/env bash
# test_golden_write.sh - `scripts/golden.sh record` when writing fails: it must exit 2 naming
# the file and leave every old trace as it was (no truncated reference trace, no temporary file
# left), and when writing succeeds it must give the committed bytes. Records into a copy of
# cmodel/tests/golden (GOLDEN_DIR), never into the tree. About 20 s.
#
#   scripts/test_golden_write.sh WORKDIR
#
# Failures simulated: a gzip on PATH that writes part of its output and fails as on a full disk
# (first for the first trace, then for the third, after two traces were already written), and a
# file-size limit (ulimit -f) under which the real gzip is killed by SIGXFSZ. Also that `check`
# refuses a truncated recorded trace (exit 2, naming it).
#
# Environment: BUILD (default build). Exit status: 0 every check held, 1 one failed, 2 bad
# arguments.
set -uo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 WORKDIR" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$1"
rm -rf "$work" && mkdir -p "$work" && work="$(cd "$work" && pwd)"
export BUILD="${BUILD:-build}"
golden="$root/cmodel/tests/golden"
# Under this limit (ulimit -f counts 1024-byte blocks) the first trace, 285 KB compressed, does
# not fit.
ULIMIT_BLOCKS=64
fails=0 checks=0
fail() { echo "  FAIL: $*"; fails=$((fails + 1)); }

# The fake gzip: compression (-9) number FAIL_AT writes its first 1000 bytes and fails as gzip
# does on a full disk; everything else (the other compressions, zcat's gzip -cd, gzip -t) is
# the real gzip.
real_gzip="$(command -v gzip)"
mkdir -p "$work/bin"
cat >"$work/bin/gzip" <<FAKE
#!/usr/bin/env bash
if [ "\$1" = -9 ]; then
  n=\$((\$(cat "$work/count" 2>/dev/null || echo 0) + 1))
  echo "\$n" >"$work/count"
  if [ "\$n" -eq "\$FAIL_AT" ]; then
    "$real_gzip" "\$@" | head -c 1000
    echo "gzip: stdout: No space left on device" >&2
    exit 1
  fi
fi
exec "$real_gzip" "\$@"
FAKE
chmod +x "$work/bin/gzip"

# A golden directory whose traces are not what record writes, so that a replaced one shows.
fresh() {
  rm -rf "$work/golden" "$work/before" && mkdir -p "$work/golden"
  local f
  for f in "$golden"/*.trace.gz; do
    echo "old $(basename "$f")" | "$real_gzip" -9 -n >"$work/golden/$(basename "$f")"
  done
  cp -a "$work/golden" "$work/before"
  rm -f "$work/count"
}

# untouched WHAT: the copy holds the old traces, byte for byte, and nothing else.
untouched() {
  checks=$((checks + 1))
  local left
  left="$(diff -r "$work/before" "$work/golden" 2>&1)"
  [ -z "$left" ] || fail "$1: the old traces changed: $(head -n 3 <<<"$left")"
}

# refused WHAT RC PATTERN: RC is 2 and the last stderr line names PATTERN.
refused() {
  checks=$((checks + 1))
  [ "$2" -eq 2 ] && grep -q -- "$3" "$work/err" ||
    fail "$1: exit $2, stderr '$(cat "$work/err")'; want exit 2 and a line naming $3"
}

# 1. gzip fails on the first trace: exit 2 naming the file, nothing replaced.
fresh
PATH="$work/bin:$PATH" FAIL_AT=1 GOLDEN_DIR="$work/golden" "$root/scripts/golden.sh" record \
  >/dev/null 2>"$work/err"
refused "gzip failing on trace 1" $? "cannot write $work/golden/\.ib_4p_uniform\.trace\.gz\.tmp"
untouched "gzip failing on trace 1"

# 2. gzip fails on the third trace, after two were written: still none of them replaced.
fresh
PATH="$work/bin:$PATH" FAIL_AT=3 GOLDEN_DIR="$work/golden" "$root/scripts/golden.sh" record \
  >/dev/null 2>"$work/err"
refused "gzip failing on trace 3" $? "cannot write $work/golden/\.pfc_4p_incast\.trace\.gz\.tmp"
untouched "gzip failing on trace 3"

# 3. A file-size limit: the real gzip is killed with SIGXFSZ.
fresh
(ulimit -f $ULIMIT_BLOCKS; GOLDEN_DIR="$work/golden" "$root/scripts/golden.sh" record \
  >/dev/null 2>"$work/err")
refused "ulimit -f $ULIMIT_BLOCKS" $? "cannot write $work/golden/"
untouched "ulimit -f $ULIMIT_BLOCKS"

# 4. Nothing failing: exit 0, every trace the committed one (gzip -n gives the same bytes), no
#    temporary file left.
fresh
GOLDEN_DIR="$work/golden" "$root/scripts/golden.sh" record >/dev/null 2>"$work/err"
rc=$?
checks=$((checks + 1))
[ "$rc" -eq 0 ] || fail "record: exit $rc: $(cat "$work/err")"
checks=$((checks + 1))
left="$(diff -r "$golden" "$work/golden" 2>&1)"
[ -z "$left" ] || fail "record did not write the committed traces: $(head -n 3 <<<"$left")"

# 5. check: a recorded trace cut short (a truncated file from before this fix) is named and
#    refused (2), not reported as a difference of the model or as zcat's own status.
head -c 1000 "$golden/ib_4p_incast.trace.gz" >"$work/golden/ib_4p_incast.trace.gz"
GOLDEN_DIR="$work/golden" "$root/scripts/golden.sh" check >/dev/null 2>"$work/err"
refused "check of a truncated trace" $? "$work/golden/ib_4p_incast.trace.gz: not a complete gzip"

echo "test_golden_write: $checks checks, $fails failed"
[ "$fails" -eq 0 ]
