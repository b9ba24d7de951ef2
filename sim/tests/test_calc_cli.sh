#!/usr/bin/env bash
# test_calc_cli.sh - the command line of the calculators (sim/src/calc.c, docs/calculators.md).
#
#   sim/tests/test_calc_cli.sh BIN [PREFIX...]
#
# BIN PREFIX... headroom|credits OPTIONS is the command under test: `build/lfc-sim` or the
# stand-alone driver `build/calc/lfc-calc`. Checks the printed figures against the hand
# derivations below (docs/SPEC.md §11, §5.3), --help, and that every bad input gives exactly one
# line on stderr, nothing on stdout and exit status 2.
set -uo pipefail

if [ $# -lt 1 ] || [ ! -x "$1" ]; then
  echo "usage: $0 BIN (an lfc-sim or lfc-calc executable)" >&2
  exit 2
fi
cmd=("$@")
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fails=0
checks=0

fail() { echo "  FAIL: $*"; fails=$((fails + 1)); }

# run ARGS...: runs the command, leaving stdout, stderr and status in $tmp/out, $tmp/err, $rc.
run() {
  "${cmd[@]}" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
}

# ok ARGS... -- PATTERN...: exit 0, empty stderr, and each extended regex found in stdout.
ok() {
  local args=() pat
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do args+=("$1"); shift; done
  shift
  checks=$((checks + 1))
  run "${args[@]}"
  [ "$rc" -eq 0 ] || { fail "${args[*]}: exit $rc, want 0: $(cat "$tmp/err")"; return; }
  [ -s "$tmp/err" ] && fail "${args[*]}: unexpected stderr: $(cat "$tmp/err")"
  for pat in "$@"; do
    grep -Eq -- "$pat" "$tmp/out" || fail "${args[*]}: output lacks /$pat/"
  done
}

# bad ARGS... -- PATTERN: exit 2, nothing on stdout, exactly one stderr line matching PATTERN.
bad() {
  local args=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do args+=("$1"); shift; done
  shift
  checks=$((checks + 1))
  run "${args[@]}"
  [ "$rc" -eq 2 ] || fail "${args[*]}: exit $rc, want 2"
  [ -s "$tmp/out" ] && fail "${args[*]}: printed on stdout: $(head -c 200 "$tmp/out")"
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "${args[*]}: want one stderr line, got: $(cat "$tmp/err")"
  grep -Eq -- "$1" "$tmp/err" || fail "${args[*]}: stderr '$(cat "$tmp/err")' lacks /$1/"
}

# 100 Gb/s, 100 m, MTU 9216: cycle 5.12 ns, D = ceil(500 / 5.12) = 98, mtu 144 blocks,
# R = 394 (Annex 31B default, flagged unverified): 144 + 143 + 196 + 394 + 2 = 879 blocks =
# 56,256 bytes; with 96-byte cells ceil(56256 / 96) = 586 cells.
ok headroom --speed-gbps 100 --cable-m 100 --mtu 9216 -- \
  'D = 98 cycles' \
  'MTU, our side.* 144 +9216 ' \
  'MTU, peer side.* 143 +9152 ' \
  'cable round trip.* 196 +12544 ' \
  'peer response time.* 394 +25216 ' \
  'XOFF decision.* 2 +128 ' \
  '^  headroom: 879 blocks = 56256 bytes = 879 cells of 64 bytes' \
  'UNVERIFIED' \
  'headroom_blocks = 879'
ok headroom --speed-gbps=100 --cable-m=100 --mtu=9216 --cell=96 -- \
  '879 blocks = 56256 bytes = 586 cells of 96 bytes'
# A given response is not flagged: 10 Gb/s, 2.5 m, 1500 B, R 60: cycle 51.2 ns, D = 1,
# mtu 24: 24 + 23 + 2 + 60 + 2 = 111 blocks = 7104 bytes.
ok headroom --speed-gbps 10 --cable-m 2.5 --mtu 1500 --response-quanta 60 -- \
  'peer response: 60 quanta \(--response-quanta\)' '111 blocks = 7104 bytes'
run headroom --speed-gbps 10 --cable-m 2.5 --mtu 1500 --response-quanta 60
grep -q UNVERIFIED "$tmp/out" && fail "a given response time is flagged UNVERIFIED"

# Credits. 100 Gb/s, 100 m, default MTU (65 blocks): end node 198 + 65 = 263 credits; an lfc
# switch (store-and-forward, latency 0 -> 1 cycle) 263 + 1 + 65 + 65 = 394; not limited.
ok credits --speed-gbps 100 --cable-m 100 -- \
  'credit round trip.* 198 ' 'end node.* 263 +16832 ' 'lfc switch ingress.* 394 +25216 ' \
  '263 credits \(16832 bytes\) at an end node' '394 credits \(25216 bytes\) at an lfc switch' \
  'does not limit' 'vl_blocks = 394$'
# Cut-through, latency 500 ns = ceil(500 / 5.12) = 98 cycles: 263 + 98 + 0 + 65 = 426.
ok credits --speed-gbps 100 --cable-m 100 --cut-through --latency-ns 500 -- \
  'pipeline latency.* 98 ' 'store-and-forward: no.* 0 ' 'lfc switch ingress.* 426 '
# 400 Gb/s, 300 m: D = ceil(1500 / 1.28) = 1172, 2346 + 65 = 2411 > 2048: limited to at most
# 2048 / 2346 = 87.3 % of line rate.
ok credits --speed-gbps 400 --cable-m 300 --mtu 4160 -- \
  'end node.* 2411 ' 'LIMITS this link: at most 87\.3% of line rate'

# Help: exit 0, every option listed.
ok headroom --help -- '--speed-gbps' '--cable-m' '--mtu' '--response-quanta' '--cell' '--help'
ok credits --help -- '--speed-gbps' '--cable-m' '--mtu' '--latency-ns' '--cut-through' '--help'

# Bad input: one line, exit 2.
bad headroom --cable-m 1 --mtu 1500 -- '--speed-gbps is required'
bad headroom --speed-gbps 100 --mtu 1500 -- '--cable-m is required'
bad headroom --speed-gbps 100 --cable-m 1 -- '--mtu is required'
bad headroom --speed-gbps 1x --cable-m 1 --mtu 1500 -- "--speed-gbps '1x' is not allowed"
bad headroom --speed-gbps 0 --cable-m 1 --mtu 1500 -- "--speed-gbps '0' is not allowed"
bad headroom --speed-gbps 1.0001 --cable-m 1 --mtu 1500 -- 'up to 3 decimals'
bad headroom --speed-gbps -5 --cable-m 1 --mtu 1500 -- "'-5' is not allowed"
bad headroom --speed-gbps 100 --cable-m 10001 --mtu 1500 -- "--cable-m '10001'"
bad headroom --speed-gbps 100 --cable-m 1 --mtu 63 -- "--mtu '63' is not allowed: .*64\.\.16320"
bad headroom --speed-gbps 100 --cable-m 1 --mtu 1500 --response-quanta 65536 -- 'quanta, 0\.\.65535'
bad headroom --speed-gbps 100 --cable-m 1 --mtu 1500 --cell 0 -- "--cell '0'"
bad headroom --speed-gbps 100 --cable-m 1 --mtu -- '--mtu needs a value'
bad headroom --speed-gbps 100 --speed-gbps 100 --cable-m 1 --mtu 1500 -- 'given twice'
bad headroom --speed-gbps 100 --cable-m 1 --mtu 1500 --bogus -- "unknown option '--bogus'"
# A speed without an Annex 31B row takes the longer time of its neighbours, and says so.
ok headroom --speed-gbps 56 --cable-m 1 --mtu 1500 -- \
  'peer response 221 quanta' 'DERIVED: the Annex 31B table .* has no row for 56 Gb/s' \
  'the 100 Gb/s row.s time \(394 quanta there\)' 'UNVERIFIED'
ok headroom --speed-gbps 1600 --cable-m 1 --mtu 1500 -- \
  'peer response 1810 quanta' 'extrapolated past the table.s end'
run headroom --speed-gbps 400 --cable-m 1 --mtu 1500
grep -q DERIVED "$tmp/out" && fail "a speed with its own row is called DERIVED"
bad headroom --speed-gbps 3200.001 --cable-m 1 --mtu 1500 -- "0.001..3200, up to 3 decimals"
bad credits --speed-gbps 100 --cable-m 1 --cell 64 -- "unknown option '--cell'"
bad credits --cable-m 1 -- '--speed-gbps is required'
bad credits --speed-gbps 100 --cable-m 1 --cut-through=1 -- "--cut-through takes no value"
bad credits --speed-gbps 100 --cable-m 1 --latency-ns 100001 -- "--latency-ns '100001' is not allowed"

# An MTU beyond InfiniBand's (4096 bytes of payload, 4162 with every header) is said; 4160 not.
ok credits --speed-gbps 100 --cable-m 1 --mtu 8192 -- "note: 8192 bytes is beyond InfiniBand's largest packet"
checks=$((checks + 1))
run credits --speed-gbps 100 --cable-m 1 --mtu 4162
grep -q 'beyond InfiniBand' "$tmp/out" && fail "credits --mtu 4162: called beyond InfiniBand's"

# 800 Gb/s has a default (SONiC's 905 quanta, the library's one table, lfc/check.h).
ok headroom --speed-gbps 800 --cable-m 1 --mtu 4096 -- 'peer response: 905 quanta'

# The scenario lines printed are lfc-sim's own keys and its figures hold there: pasted into a
# scenario they load without a warning that the buffer is below the calculator's figure, and
# one block less draws that warning (docs/sim.md "Warnings").
if [ "$(basename "${cmd[0]}")" = lfc-sim ] && [ ${#cmd[@]} -eq 1 ]; then
  paste_case() { # name mode key calculator-args...
    local name=$1 mode=$2 key=$3
    shift 3
    checks=$((checks + 1))
    run "$@"
    sed -n '/^  for lfc-sim/,$p' "$tmp/out" | sed '1d; /^  not included/d; s/^  //' >"$tmp/$name.lines"
    local fig
    fig=$(awk -F' = ' -v k="$key" '$1 == k { print $2 }' "$tmp/$name.lines" | cut -d' ' -f1)
    [ -n "$fig" ] || { fail "$name: no '$key = ' among the printed lines"; return; }
    { printf '[sim]\nduration_us = 1\n[topology]\nkind = star\nhosts_per_switch = 2\n'
      cat "$tmp/$name.lines"
      printf '[switch]\nmode = %s\n[traffic.a]\npattern = flow\nsrc = 0\ndst = 1\n' "$mode"
    } >"$tmp/$name.ini"
    "${cmd[0]}" "$tmp/$name.ini" >"$tmp/$name.out" 2>"$tmp/$name.err" ||
      { fail "$name: the pasted lines do not load: $(head -1 "$tmp/$name.err")"; return; }
    grep -q 'below' "$tmp/$name.err" && fail "$name: warned at the figure: $(head -1 "$tmp/$name.err")"
    sed "s/^$key = .*/$key = $((fig - 1))/" "$tmp/$name.ini" >"$tmp/$name-1.ini"
    "${cmd[0]}" "$tmp/$name-1.ini" >/dev/null 2>"$tmp/$name-1.err"
    grep -q "$key" "$tmp/$name-1.err" ||
      fail "$name: $key = $((fig - 1)) drew no warning: $(head -1 "$tmp/$name-1.err")"
  }
  paste_case headroom pfc headroom_blocks headroom --speed-gbps 400 --cable-m 500 --mtu 4096
  paste_case credits ib vl_blocks credits --speed-gbps 100 --cable-m 100
fi

echo "test_calc_cli: $checks checks, $fails failed (${cmd[*]})"
[ "$fails" -eq 0 ]
