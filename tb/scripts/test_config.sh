#!/usr/bin/env bash
# The reading of tb/configs/*.ini (tb/common/tb_config.c through libinih): every configuration
# of the repository loads, and each defect an audit found stays fixed: a leading zero read as
# octal, a key given twice silently last-wins, a line longer than libinih's buffer cut in two,
# a continuation line replacing the value instead of extending it, errors about two keys
# without a line, a directory accepted as an empty configuration.
#
#   tb/scripts/test_config.sh TB_PARAMS   (build/tb/tb-params)
#
# Run by tb/scripts/test_args.sh (make test-cosim-args). Prints one line per check and
# `test-config: N checks passed` or exits 1 at the first that fails.
set -uo pipefail
[ $# -eq 1 ] || { echo "usage: $0 TB_PARAMS" >&2; exit 2; }
params="$1"
[ -x "$params" ] || { echo "$0: $params is not an executable" >&2; exit 2; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
n=0

fail() { echo "FAIL: $*"; exit 1; }

# ini NAME LINE...: write $tmp/NAME.ini, one argument per line.
ini() {
  local name="$1"; shift
  printf '%s\n' "$@" >"$tmp/$name.ini"
}

# prints WHAT EXPECTED MODE NAME: `tb-params MODE $tmp/NAME.ini` succeeds and prints EXPECTED
# (for verilator: contains it).
prints() {
  local what="$1" want="$2" mode="$3" out rc
  out="$("$params" "$mode" "$tmp/$4.ini" 2>&1)"
  rc=$?
  [ $rc -eq 0 ] || fail "$what: exit status $rc: $out"
  case "$mode" in
    verilator) [[ " $out " == *" $want "* ]] || fail "$what: no '$want' in: $out" ;;
    *) [ "$out" = "$want" ] || fail "$what: printed '$out', expected '$want'" ;;
  esac
  echo "ok: $what"
  n=$((n + 1))
}

# refused WHAT EXPECTED PATH: `tb-params check PATH` exits 2 with exactly the line EXPECTED.
refused() {
  local what="$1" want="$2" out rc
  out="$("$params" check "$3" 2>&1)"
  rc=$?
  [ $rc -eq 2 ] || fail "$what: exit status $rc, not 2: $out"
  [ "$out" = "$want" ] || fail "$what: printed
  $out
expected
  $want"
  echo "ok: $what is refused: $out"
  n=$((n + 1))
}

# 0. Every configuration of the repository loads.
for f in tb/configs/*.ini; do
  out="$("$params" check "$f" 2>&1)" || fail "$f does not load: $out"
done
echo "ok: every tb/configs/*.ini loads"
n=$((n + 1))

# 1. Integers: decimal (a leading zero too), 0x hex, 0b binary, a sign; never octal.
ini octal "[switch]" "ports = 010"
prints "ports = 010 is 10, not octal 8" 10 ports octal
ini leading_nine "[traffic]" "load = 09"
prints "load = 09 is 9" "" check leading_nine
ini hex "[switch]" "ports = 0x0C"
prints "ports = 0x0C is 12" 12 ports hex
ini bin "[switch]" "ports = 0b110"
prints "ports = 0b110 is 6" 6 ports bin
ini plus "[switch]" "ports = +07"
prints "ports = +07 is 7" 7 ports plus

# 2. A key given twice in a section, both lines named.
ini twice "[traffic]" "load = 100" "pattern = uniform" "load = 900"
refused "a [traffic] key given twice" \
  "$tmp/twice.ini:4: [traffic] load = 900: given twice (first on line 2)" "$tmp/twice.ini"
ini twice_sw "[switch]" "mode = pfc" "ports = 4" "" "[pfc]" "xoff_th = 10" "[switch]" "ports = 8"
refused "a [switch] key given twice, in two [switch] sections" \
  "$tmp/twice_sw.ini:8: [switch] ports = 8: given twice (first on line 3)" "$tmp/twice_sw.ini"

# 3. A line longer than libinih's buffer is refused on its own line, not cut in two.
long="# $(printf 'x%.0s' {1..250})"
ini long "[traffic]" "load = 100" "$long" "pattern = uniform"
too_long="line longer than 199 characters (the limit of libinih); a list may go on over \
indented lines"
refused "a comment of 252 characters" "$tmp/long.ini:3: $too_long" "$tmp/long.ini"
# 199 characters is the longest line libinih reads whole.
ini longest "[traffic]" "# $(printf 'x%.0s' {1..197})" "load = 100"
prints "a comment of 199 characters" "" check longest

# 4. Continuation lines (indented) extend the key's value: a 64-entry VL arbitration table.
half="$(for i in $(seq 0 31); do printf '%d:%d, ' $((i % 2)) $((i + 1)); done)"
ini vlarb "[switch]" "mode = ib" "classes = 2" "[ib]" "vlarb_low = ${half%, }" "  ${half%, }" \
  "vlarb_high = 1:1," "  0:2"
prints "vlarb_low over two lines keeps 64 entries" -GVlarbLowLen=64 verilator vlarb
prints "vlarb_high continued after a trailing comma keeps 2 entries" -GVlarbHighLen=2 \
  verilator vlarb
ini cont_scalar "[traffic]" "pattern = uniform" "load = 100" "  200" "incast_dst = 1"
refused "a continuation of a key that is not a list" \
  "$tmp/cont_scalar.ini:3: [traffic] load = 100,200: expected an integer in 0..1000" \
  "$tmp/cont_scalar.ini"

# 5. Errors that involve two keys name the line of the key they blame.
ini minmax "[traffic]" "min_nblk = 8" "max_nblk = 4"
refused "min_nblk above max_nblk" \
  "$tmp/minmax.ini:2: [traffic] min_nblk = 8 is above max_nblk = 4" "$tmp/minmax.ini"
ini mask "[switch]" "classes = 2" "[traffic]" "class_mask = 0x4"
refused "class_mask beyond classes" \
  "$tmp/mask.ini:4: [traffic] class_mask = 0x4 names a class >= classes = 2" "$tmp/mask.ini"
ini classes9 "[switch]" "mode = pfc" "classes = 9"
refused "9 classes in PFC mode" \
  "$tmp/classes9.ini:3: [switch] classes = 9: allowed 1..8 in pfc mode" "$tmp/classes9.ini"
ini storm "[switch]" "mode = ib" "[misbehave]" "storm_port = 1"
refused "storm_port in IB mode" \
  "$tmp/storm.ini:4: [misbehave] storm_port needs [switch] mode = pfc" "$tmp/storm.ini"
rtl_ports="expected an integer in 2..16 (the RTL has 2..16 ports)"
ini ports1 "[switch]" "ports = 1"
refused "ports = 1" "$tmp/ports1.ini:2: [switch] ports = 1: $rtl_ports" "$tmp/ports1.ini"
ini ports17 "[switch]" "ports = 17"
refused "ports = 17" "$tmp/ports17.ini:2: [switch] ports = 17: $rtl_ports" "$tmp/ports17.ini"

# 6. A directory is not a configuration.
mkdir "$tmp/dir.ini"
refused "a directory" "$tmp/dir.ini: is a directory, not a configuration file" "$tmp/dir.ini"

# 7. [run] require names coverage points that exist (tb/common/tb_cov_points.h): a misspelt one
# was accepted by this check and refused only when a run started, after the build.
ini require_bad "[switch]" "mode = pfc" "[run]" "require = xoff, xonn"
refused "a required coverage point that does not exist" \
  "$tmp/require_bad.ini:4: [run] require = xoff, xonn: no coverage point 'xonn'; points: $(
    sed -nE 's/^ *X\(COV_[A-Z0-9_]+, "([a-z0-9_]+)"\).*/\1/p' tb/common/tb_cov_points.h |
    paste -sd, - | sed 's/,/, /g')" "$tmp/require_bad.ini"
ini require_ok "[switch]" "mode = pfc" "[run]" "require = xoff, xon"
prints "required coverage points that exist" "" check require_ok

echo "test-config: $n checks passed"
