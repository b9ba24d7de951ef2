#!/usr/bin/env bash
# test_no_conflict_markers.sh - no file tracked by git holds a merge's conflict markers (a line
# that is "<<<<<<< NAME", "=======" or ">>>>>>> NAME" exactly, as git writes them): a merge
# resolved by hand must not leave one behind. Under a second.
#
#   scripts/test_no_conflict_markers.sh
#
# Exit status: 0 none found, 1 markers found (FILE:LINE: TEXT each), 2 not in a git work tree.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root" || exit 2
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || { echo "$0: not a git work tree" >&2; exit 2; }
# The markers are assembled so that this file does not hold them.
lt=$(printf '<%.0s' 1 2 3 4 5 6 7)
gt=$(printf '>%.0s' 1 2 3 4 5 6 7)
eq=$(printf '=%.0s' 1 2 3 4 5 6 7)
found=$(git grep -n -I -E "^($lt [^ ]|$gt [^ ]|$eq\$)" -- . ':!*.md' ; \
        git grep -n -I -E "^($lt [^ ]|$gt [^ ])" -- '*.md')
if [ -n "$found" ]; then
  echo "$found"
  echo "test_no_conflict_markers: merge conflict markers left in the files above" >&2
  exit 1
fi
echo "test_no_conflict_markers: none"
