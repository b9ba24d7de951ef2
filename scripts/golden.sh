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
# Environment: BUILD (default build), the Makefile's build directory.
set -euo pipefail

cd "$(dirname "$0")/.."
BUILD="${BUILD:-build}"
GOLDEN_DIR=cmodel/tests/golden
TRACE="$BUILD/tools/lfc_trace"

usage() {
  echo "usage: $0 record|check" >&2
  exit 2
}

[ $# -eq 1 ] || usage
mode="$1"
case "$mode" in record|check) ;; *) usage ;; esac

# The trace tool, built by the rule in cmodel/bench/bench.mk.
MAKEFLAGS= make -s BUILD="$BUILD" "$TRACE" >/dev/null

names="$("$TRACE" --list)"

if [ "$mode" = record ]; then
  mkdir -p "$GOLDEN_DIR"
  for n in $names; do
    tmp="$GOLDEN_DIR/.$n.trace.tmp"
    if ! "$TRACE" "$n" >"$tmp"; then
      rm -f "$tmp"
      echo "golden: $n: lfc_trace failed" >&2
      exit 1
    fi
    gzip -9 -n <"$tmp" >"$GOLDEN_DIR/$n.trace.gz"
    rm -f "$tmp"
    echo "golden: recorded $GOLDEN_DIR/$n.trace.gz ($(zcat "$GOLDEN_DIR/$n.trace.gz" | wc -l) lines)"
  done
  exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failed=0
for n in $names; do
  rec="$GOLDEN_DIR/$n.trace.gz"
  if [ ! -f "$rec" ]; then
    echo "golden: FAIL $n: no recorded trace $rec (run scripts/golden.sh record)" >&2
    failed=1
    continue
  fi
  new="$work/$n.trace"
  old="$work/$n.recorded"
  if ! "$TRACE" "$n" >"$new"; then
    echo "golden: FAIL $n: lfc_trace failed" >&2
    failed=1
    continue
  fi
  zcat "$rec" >"$old"
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
if [ "$failed" -ne 0 ]; then
  echo "golden: traces differ from the recorded ones; if the change is intended, run" \
       "scripts/golden.sh record and commit the new traces" >&2
  exit 1
fi
