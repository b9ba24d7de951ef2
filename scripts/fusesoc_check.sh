#!/usr/bin/env bash
# scripts/fusesoc_check.sh - make test-fusesoc: lfc.core as FuseSoC reads it.
#
#   fusesoc_check.sh OUTDIR VERSION
#
# Run from the top of the tree, with FUSESOC = the fusesoc program (make fusesoc-venv).
#  1. FuseSoC parses lfc.core and lists it as lfc:lfc:switch:VERSION (VERSION = the file VERSION).
#  2. lfc.core names every file of rtl/ and every rtl/ file it names exists.
#  3. Its lint target (Verilator --lint-only -Wall) passes on the RTL, for the defaults (IB) and
#     for a PFC configuration with every PFC block built.
#  4. The same lint target fails on a copy of the RTL with one lint error added (a wire that
#     nothing reads), so that step 3 can fail.
# Logs in OUTDIR. Exit status 0 when all hold, 1 when one does not, 2 for bad arguments.
set -uo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 OUTDIR VERSION" >&2
  exit 2
fi
OUT=$1
VERSION=$2
: "${FUSESOC:?FUSESOC must name the fusesoc program (make fusesoc-venv)}"
VLNV=lfc:lfc:switch
CORE=lfc.core
# A PFC build close to rtl/rtl.mk's "pfc": dynamic threshold, watchdog, cut-through. (EcnMask is
# a vector parameter that lfc.core does not expose.)
PFC_PARAMS=(--Mode=1 --Classes=2 --Latency=4 --CutThrough=1 --WdEnable=1 --DynamicTh=1
            --AlphaLog2=-1)

mkdir -p "$OUT"
# FuseSoC scans the cores root recursively; the exported copies of lfc.core that its runs leave
# under OUTDIR must not be found as second cores.
touch "$OUT/FUSESOC_IGNORE"

fail() {
  echo "fusesoc: FAIL $*" >&2
  exit 1
}

# ---- 1. parse ----
"$FUSESOC" --cores-root . core list > "$OUT/core-list.log" 2>&1 ||
  { cat "$OUT/core-list.log" >&2; fail "fusesoc core list failed"; }
grep -q "failed to parse\|Parse error" "$OUT/core-list.log" &&
  { cat "$OUT/core-list.log" >&2; fail "$CORE does not parse"; }
grep -q "^$VLNV:$VERSION " "$OUT/core-list.log" ||
  { cat "$OUT/core-list.log" >&2
    fail "core list has no $VLNV:$VERSION (the name in lfc.core must carry VERSION $VERSION)"; }
"$FUSESOC" --cores-root . core show "$VLNV" > "$OUT/core-show.log" 2>&1 ||
  { cat "$OUT/core-show.log" >&2; fail "fusesoc core show $VLNV failed"; }
for t in default lint sim; do
  grep -q "^$t *:" "$OUT/core-show.log" || fail "$CORE has no target '$t'"
done
echo "  parsed: $VLNV:$VERSION, targets default lint sim"

# ---- 2. the file list ----
n=0
for f in rtl/*.v rtl/*.vh; do
  grep -q "^ *- $f\b" "$CORE" || fail "$CORE does not list $f (add it to the rtl fileset)"
  n=$((n + 1))
done
# shellcheck disable=SC2013  # the names are rtl/*.v, without spaces
for f in $(sed -n 's/^ *- \(rtl\/[A-Za-z0-9_]*\.v[h]*\).*/\1/p' "$CORE"); do
  [ -f "$f" ] || fail "$CORE lists $f, which does not exist"
done
echo "  rtl fileset: all $n files of rtl/"

# ---- 3. lint ----
lint() { # NAME CORES_ROOT [PARAMS...]: the lint target, log in OUT/lint-NAME.log
  local name=$1 root=$2
  shift 2
  "$FUSESOC" --cores-root "$root" run --build-root "$OUT/build-$name" --target=lint "$VLNV" "$@" \
    > "$OUT/lint-$name.log" 2>&1
}
lint default . || { cat "$OUT/lint-default.log" >&2; fail "lint target, defaults (IB)"; }
grep -q "verilator -f" "$OUT/lint-default.log" || fail "lint target did not run verilator"
lint pfc . "${PFC_PARAMS[@]}" || { cat "$OUT/lint-pfc.log" >&2; fail "lint target, PFC"; }
grep -q -- "-GMode=1" "$OUT"/build-pfc/*/lint/*.vc || fail "lint target ignored --Mode=1"
echo "  lint target (verilator --lint-only -Wall): clean for the defaults (IB) and for PFC"

# ---- 4. the lint target can fail ----
bad=$OUT/broken-tree
rm -rf "$bad"
mkdir -p "$bad"
cp -r rtl "$CORE" "$bad/"
# After the port list of lfc_switch: a wire that nothing drives or reads.
sed -i '0,/^);/s//);\n  wire lint_probe;/' "$bad/rtl/lfc_switch.v"
grep -q "wire lint_probe;" "$bad/rtl/lfc_switch.v" || fail "could not make the broken copy"
if lint broken "$bad"; then
  fail "lint target passed RTL with an unused wire ($bad/rtl/lfc_switch.v)"
fi
grep -q "lint_probe" "$OUT/lint-broken.log" ||
  { cat "$OUT/lint-broken.log" >&2
    fail "lint target failed on the broken copy, but not on its wire"; }
echo "  lint target fails on a copy with an unused wire: $(grep -o '%Warning-[A-Z]*' \
  "$OUT/lint-broken.log" | sort -u | tr '\n' ' ')"
echo "fusesoc: PASS $VLNV:$VERSION: parse, file list, lint (IB, PFC), lint catches an unused wire"
