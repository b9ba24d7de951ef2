#!/usr/bin/env bash
# test_no_tracker_refs.sh - no code or documentation cites an issue tracker by number (the word
# followed by "4 §7" or "#3", or a tracker's URL): a reader without the tracker cannot follow
# it, so each place says what it refers to instead (a SPEC section, docs/sim.md, a README). Only
# CHANGELOG.md, which is history, may name them. Under a second.
#
#   scripts/test_no_tracker_refs.sh [BUILD]
#
# Scans every text file of the tree (the top of it is this script's parent directory) but .git,
# build/ and BUILD (a relative path), and CHANGELOG.md; a reference may be split over two
# lines. Prints FILE:LINE: TEXT for each one found.
#
# Exit status: 0 none found, 1 references found, 2 bad arguments.
set -uo pipefail
if [ $# -gt 1 ]; then
  echo "usage: $0 [BUILD]" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-build}"
cd "$root" || exit 2

# The pattern is written so that this file does not match it: "iss" "ue", optional "s", then
# a number with or without "#"; or a tracker's URL path.
find . \( -path ./.git -o -path ./build -o -path "./${build#./}" -o -name __pycache__ \) -prune \
  -o -type f ! -name CHANGELOG.md -print0 |
  perl -0 -ne '
    chomp; my $f = $_; next unless -T $f;
    open(my $h, "<", $f) or next; local $/; my $t = <$h>; close $h;
    while ($t =~ /\b(iss(?:ue)s?[ \t]*\n?[ \t]*#?[0-9]+|\/iss(?:ue)s\/[0-9]+)/gi) {
      my $line = 1 + (substr($t, 0, $-[0]) =~ tr/\n//);
      (my $m = $1) =~ s/\s+/ /g;
      print substr($f, 2), ":$line: $m\n"; $n++;
    }
    END { exit($n ? 1 : 0) }'
rc=$?
if [ "$rc" -ne 0 ]; then
  echo "test_no_tracker_refs: FAIL: references to an issue tracker above; say what they refer to" \
       "instead (CHANGELOG.md may keep them)" >&2
  exit 1
fi
echo "test_no_tracker_refs: no reference to an issue tracker outside CHANGELOG.md"
