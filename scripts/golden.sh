#!/usr/bin/env bash
# Golden traces of the C model: per-cycle switch link words and events of named
# configurations (cmodel/tools/lfc_trace.c), gzip-compressed under cmodel/tests/golden/.
# Format and configurations: docs/golden-traces.md.
#
#   scripts/golden.sh record   regenerate every trace into cmodel/tests/golden/ (review the
#                              diff before committing: a change means the model's behaviour
#                              changed)
#   scripts/golden.sh check    regenerate into a temporary directory and compare with the
#                              recorded traces; fails on the first differing line of each
#                              trace, or on a missing one
#
# record writes every trace to a temporary name beside it (.NAME.trace.gz.tmp) and renames them
# into place only after every trace was generated, compressed and verified (gzip -t): a full
# disk, a killed gzip or a failing lfc_trace leaves all the old traces as they were.
#
# Exit status: 0 ok (recorded, or every trace equal); 1 a finding (a trace differs or is
# missing, or lfc_trace's scoreboard found an error); 2 bad arguments, a file that cannot be
# written or read (full disk, a corrupt recorded trace), or the trace tool failing to build or
# run. Each failure is named on one line of stderr.
#
# Environment: BUILD (default build), the Makefile's build directory; GOLDEN_DIR (default
# cmodel/tests/golden, relative to the top of the tree), where the traces are.
set -euo pipefail

cd "$(dirname "$0")/.."
BUILD="${BUILD:-build}"
GOLDEN_DIR="${GOLDEN_DIR:-cmodel/tests/golden}"
TRACE="$BUILD/tools/lfc_trace"
EXIT_FINDING=1
EXIT_REFUSED=2

usage() {
  echo "usage: $0 record|check" >&2
  exit $EXIT_REFUSED
}

[ $# -eq 1 ] || usage
mode="$1"
case "$mode" in record|check) ;; *) usage ;; esac

# The trace tool, built by the rule in cmodel/bench/bench.mk.
MAKEFLAGS='' make -s BUILD="$BUILD" "$TRACE" >/dev/null ||
  { echo "golden: cannot build $TRACE" >&2; exit $EXIT_REFUSED; }

names="$("$TRACE" --list)" || { echo "golden: $TRACE --list failed" >&2; exit $EXIT_REFUSED; }

# trace_status NAME RC: the exit status golden.sh gives when lfc_trace NAME exited RC: a
# scoreboard error is a finding, anything else (its bad input, a write error, a crash) a refusal.
trace_status() {
  if [ "$2" -eq 1 ]; then
    echo "golden: FAIL $1: lfc_trace's scoreboard found an error" >&2
    return $EXIT_FINDING
  fi
  echo "golden: $1: lfc_trace exited $2" >&2
  return $EXIT_REFUSED
}

if [ "$mode" = record ]; then
  mkdir -p "$GOLDEN_DIR" || { echo "golden: cannot create $GOLDEN_DIR" >&2; exit $EXIT_REFUSED; }
  tmps=()
  # On any exit before the renames, remove what was written: the old traces stay.
  trap 'rm -f "${tmps[@]}"' EXIT
  for n in $names; do
    tmp="$GOLDEN_DIR/.$n.trace.gz.tmp"
    tmps+=("$tmp")
    # The tools' own messages go to stderr (3); bash's report of a killed member of the pipeline
    # ("File size limit exceeded", over several lines) does not: the line below names the file.
    set +e
    { "$TRACE" "$n" 2>&3 | gzip -9 -n 2>&3 >"$tmp"; st=("${PIPESTATUS[@]}"); } 3>&2 2>/dev/null
    set -e
    if [ "${st[0]}" -ne 0 ]; then
      rc=0
      trace_status "$n" "${st[0]}" || rc=$?
      echo "golden: $tmp not recorded; every trace in $GOLDEN_DIR is as it was" >&2
      exit $rc
    fi
    # gzip -t: a stream cut short by a write error that went unreported is caught here.
    if [ "${#st[@]}" -ne 2 ] || [ "${st[1]}" -ne 0 ] || ! gzip -t "$tmp" 2>/dev/null; then
      echo "golden: cannot write $tmp (gzip failed; full disk?); every trace in $GOLDEN_DIR" \
           "is as it was" >&2
      exit $EXIT_REFUSED
    fi
  done
  # Every trace is complete: now, and only now, replace the old ones.
  for n in $names; do
    if ! mv -f "$GOLDEN_DIR/.$n.trace.gz.tmp" "$GOLDEN_DIR/$n.trace.gz"; then
      echo "golden: cannot rename $GOLDEN_DIR/.$n.trace.gz.tmp to $GOLDEN_DIR/$n.trace.gz" >&2
      exit $EXIT_REFUSED
    fi
  done
  trap - EXIT
  for n in $names; do
    lines="$(zcat "$GOLDEN_DIR/$n.trace.gz" | wc -l)"
    echo "golden: recorded $GOLDEN_DIR/$n.trace.gz ($lines lines)"
  done
  exit 0
fi

work="$(mktemp -d)" ||
  { echo "golden: cannot create a temporary directory" >&2; exit $EXIT_REFUSED; }
trap 'rm -rf "$work"' EXIT
failed=0
# refused: a trace could not be generated or read; exit 2 at the end (after the others).
refused=0
for n in $names; do
  rec="$GOLDEN_DIR/$n.trace.gz"
  if [ ! -f "$rec" ]; then
    echo "golden: FAIL $n: no recorded trace $rec (run scripts/golden.sh record)" >&2
    failed=1
    continue
  fi
  new="$work/$n.trace"
  old="$work/$n.recorded"
  set +e
  "$TRACE" "$n" >"$new"
  st=$?
  set -e
  if [ "$st" -ne 0 ]; then
    rc=0
    trace_status "$n" "$st" || rc=$?
    if [ "$rc" -eq $EXIT_FINDING ]; then failed=1; else refused=1; fi
    continue
  fi
  if ! zcat "$rec" >"$old" 2>/dev/null; then
    echo "golden: $rec: not a complete gzip file (or $old cannot be written)" >&2
    refused=1
    continue
  fi
  if cmp -s "$old" "$new"; then
    echo "golden: ok   $n ($(wc -l <"$new") lines)"
    continue
  fi
  failed=1
  # The first line where the traces part: cmp names it ("... differ: byte B, line L") or says
  # one is a prefix of the other ("EOF on FILE after byte B, line L").
  how="$(cmp "$old" "$new" 2>&1 || true)"
  line="$(sed -n -E 's/.*line ([0-9]+).*/\1/p' <<<"$how" | head -n 1)"
  case "$how" in *EOF*) line=$((${line:-0} + 1)) ;; esac
  echo "golden: FAIL $n: first difference at line $line of the trace" >&2
  r="$(sed -n "${line}p" "$old")"
  m="$(sed -n "${line}p" "$new")"
  echo "  recorded: ${r:-<end of trace>}" >&2
  echo "  model:    ${m:-<end of trace>}" >&2
  echo "  (reproduce: $TRACE $n | diff <(zcat $rec) - | head)" >&2
done
if [ "$refused" -ne 0 ]; then
  exit $EXIT_REFUSED
fi
if [ "$failed" -ne 0 ]; then
  echo "golden: traces differ from the recorded ones; if the change is intended, run" \
       "scripts/golden.sh record and commit the new traces" >&2
  exit $EXIT_FINDING
fi
