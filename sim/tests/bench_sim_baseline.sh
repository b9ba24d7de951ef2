#!/bin/sh
# bench_sim_baseline.sh REV DIR - lfc-sim as commit REV built it, so that `make bench-sim` can
# measure the CPU goal against "today's" code in the same run, on the same machine in the same
# minutes (docs/sim.md "Speed": a shared machine's CPU seconds compare only as a ratio). REV's
# tree comes from this checkout's git (git archive: nothing is downloaded) and is built with its
# own Makefile into DIR/<commit>, which the next bench reuses. Prints the binary's path.
# Exit status: 0 built or reused; 3 no baseline, said in one line on stderr (REV empty, no git,
# REV not a commit of this checkout): bench_sim.sh goes on without it if REV is its default, and
# stops if REV was given; 2 REV's tree did not build (one line naming its make's log).
set -eu
EXIT_BAD=2
EXIT_NONE=3
if [ $# -ne 2 ]; then
  echo "usage: bench_sim_baseline.sh REV DIR" >&2
  exit $EXIT_BAD
fi
REV=$1
DIR=$2
TOP=$(cd "$(dirname "$0")/../.." && pwd)
if [ -z "$REV" ]; then
  echo "bench_sim_baseline.sh: no baseline (BENCH_SIM_BASELINE is empty)" >&2
  exit $EXIT_NONE
fi
if ! command -v git > /dev/null || ! git -C "$TOP" rev-parse --git-dir > /dev/null 2>&1; then
  echo "bench_sim_baseline.sh: BENCH_SIM_BASELINE=$REV: $TOP is not a git checkout" >&2
  exit $EXIT_NONE
fi
if ! HASH=$(git -C "$TOP" rev-parse --verify --quiet "$REV^{commit}"); then
  echo "bench_sim_baseline.sh: BENCH_SIM_BASELINE=$REV: not a commit of $TOP (a shallow clone?)" >&2
  exit $EXIT_NONE
fi
mkdir -p "$DIR"
OUT=$(cd "$DIR" && pwd)/$HASH # absolute: REV's make runs in its own tree
# `built` is written last: a build cut short is done again, not reused
if [ ! -f "$OUT/built" ]; then
  rm -rf "$OUT"
  mkdir -p "$OUT/src"
  git -C "$TOP" archive "$HASH" | tar -x -C "$OUT/src"
  if ! make -C "$OUT/src" -s BUILD="$OUT/build" "$OUT/build/lfc-sim" > "$OUT/make.log" 2>&1
  then
    echo "bench_sim_baseline.sh: BENCH_SIM_BASELINE=$REV did not build (its make's output:" \
         "$OUT/make.log)" >&2
    exit $EXIT_BAD
  fi
  if [ ! -x "$OUT/build/lfc-sim" ]; then
    echo "bench_sim_baseline.sh: BENCH_SIM_BASELINE=$REV built no $OUT/build/lfc-sim" >&2
    exit $EXIT_BAD
  fi
  touch "$OUT/built"
fi
echo "$OUT/build/lfc-sim"
