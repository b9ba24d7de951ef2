#!/usr/bin/env bash
# test_deps_targets.sh - each make target asks for the package groups of scripts/deps.sh that it
# needs and no others: `make test-unit` must install cmocka, not Verilator, Slurm or clang.
# For each target in the table below, `make -n` in an empty build directory lists the
# `scripts/deps.sh GROUP` commands that the target would run (every prerequisite, however
# deep: deps-GROUP targets are phony, so make -n prints them even when the rest is up to date);
# the groups must be exactly those of the table. Nothing is built or installed. A few seconds.
#
# It first proves that it can fail: with a makefile that adds deps-hdl to test-unit's
# prerequisites (through MAKEFILES, read before the Makefile), test-unit must be reported.
#
#   scripts/test_deps_targets.sh WORKDIR
#
# Exit status: 0 every target asks for exactly its groups, 1 one does not, 2 bad arguments or
# make failing.
set -uo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 WORKDIR" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$1"
rm -rf "$work" && mkdir -p "$work" && work="$(cd "$work" && pwd)"
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEFILES

# TARGET: the groups it may ask for (none: "-"). The heavy groups (hdl, verify, sweep,
# packaging, waves) belong to the targets that run their tools, never to the everyday loop.
EXPECT="
all: -
test-unit: minimal
test-asan: minimal
test-asan-slow: minimal
test-golden: minimal
test-abi: minimal
memcheck: minimal
test-lfc-check: minimal
test-script-args: minimal
test-mutants-report: minimal
test-mutants-pick: minimal
test-sim-quick: minimal sim
test-sim-unit: minimal sim
test-calc: minimal sim
test-python: minimal sim
test-layers: minimal
check: minimal sim
run: minimal waves
lint: hdl
test-cosim: hdl
"

# groups TARGET: the sorted groups that `make -n TARGET` would install, "-" for none.
groups() {
  local out
  if ! out="$(make -n --no-print-directory -C "$root" BUILD="$work/build" "$1" 2>"$work/err")"; then
    echo "test_deps_targets: make -n $1 failed: $(head -c 300 "$work/err")" >&2
    exit 2
  fi
  printf '%s\n' "$out" | sed -n 's|.*scripts/deps\.sh\(\( [a-z]*\)*\).*|\1|p' | tr ' ' '\n' |
    grep . | sort -u | tr '\n' ' ' | sed 's/ $//' | grep . || echo -
}

fails=0 checks=0
# The check itself must catch a heavy group added to a light target.
printf 'test-unit: deps-hdl\n' >"$work/heavy.mk"
got="$(MAKEFILES="$work/heavy.mk" groups test-unit)"
checks=$((checks + 1))
if [ "$got" != "hdl minimal" ]; then
  echo "  FAIL: with deps-hdl added to test-unit, make -n showed groups '$got', not 'hdl minimal'"
  fails=$((fails + 1))
fi

while IFS=: read -r target want; do
  [ -n "$target" ] || continue
  want="$(echo $want)"
  got="$(groups "$target")"
  checks=$((checks + 1))
  if [ "$got" != "$want" ]; then
    echo "  FAIL: make $target asks for package groups '$got'; want '$want'" \
         "(the deps-GROUP prerequisites of it and of what it builds)"
    fails=$((fails + 1))
  fi
done <<<"$EXPECT"

echo "test_deps_targets: $checks checks, $fails failed"
[ "$fails" -eq 0 ]
