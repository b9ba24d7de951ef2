#!/usr/bin/env bash
# test_no_tracker_refs.sh - no code or documentation cites an issue tracker by number: a reader
# without the tracker cannot follow it, so each place says what it refers to instead (a SPEC
# section, docs/sim.md, a README). Only CHANGELOG.md, which is history, may name them. Under a
# second. The forms caught (a reference may be split over two lines):
#   - the word for a tracker's entry or a change request, then a number: "iss""ue 4 §""7",
#     "iss""ues 3 and 5", "iss""ue #""3", "P""R #""5", "pull req""uest 9", "tick""et 12",
#     "b""ug #""4";
#   - a bare "#""12" in prose ("(#""12)", "see #""12", "fixed in #""12."), but not a Verilog delay
#     ("#5 clk_i = 1;", "#1;"), a shell "${#x}" or "$#", a colour "#333" in quotes;
#   - a section of a numbered entry, "4 §""4", but not a cited standard's ("IBA vol. 1 §7.9",
#     "RFC 3168 §5", "Annex 31B §3");
#   - a tracker's URL (".../iss""ues/12", ".../pu""ll/12", ".../merge_requ""ests/12").
# (Words and numbers here are split by "" so that this file does not match itself.)
# Before scanning, it proves that it catches each form: a made-up tree with one reference of
# each form on its own line must give exactly those lines, and a file of lookalikes none.
#
#   scripts/test_no_tracker_refs.sh [BUILD]
#
# Scans every text file of the tree (the top of it is this script's parent directory) but .git,
# build/ and BUILD (a relative path), and CHANGELOG.md. Prints FILE:LINE: TEXT for each one
# found.
#
# Exit status: 0 none found, 1 references found (or the self-check failed), 2 bad arguments.
set -uo pipefail
if [ $# -gt 1 ]; then
  echo "usage: $0 [BUILD]" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-build}"
cd "$root" || exit 2

# The patterns are written so that this file does not match them (words split by "" above).
# shellcheck disable=SC2016  # perl code, not shell
scanner='
  chomp; my $f = $_; next unless -T $f;
  open(my $h, "<", $f) or next; local $/; my $t = <$h>; close $h;
  my $sp = qr/[ \t]*\n?[ \t]*/;
  my $cited = qr/(?:vol\.?|volume|RFC|Annex|Part|part|Clause|clause|Table|Figure)[ \t]*\z/;
  while ($t =~ /( \b(?:(?i:iss(?:ue)s?|pull${sp}req(?:uest)s?|merge${sp}req(?:uest)s?|tick(?:et)s?)
                     |PR|MR)${sp}\#?[0-9]+
                | \b(?i:bug)${sp}\#[0-9]+
                | \/(?:iss(?:ue)s|pu(?:ll)|merge_req(?:uest)s)\/[0-9]+
                | (?<![\w&\$\#{\/"\x27=])\#[0-9]+(?![\w])(?!\.[0-9])(?![ \t]*;)
                  (?![ \t]+[A-Za-z_][\w.\[\]]*[ \t]*<?=)
                | (?<![\w.§])[0-9]+${sp}§${sp}[0-9] )/gx) {
    my ($m, $at) = ($1, $-[0]);
    if ($m =~ /§/) {
      my $before = substr($t, $at > 16 ? $at - 16 : 0, $at > 16 ? 16 : $at);
      next if $before =~ $cited;
    }
    my $line = 1 + (substr($t, 0, $at) =~ tr/\n//);
    $m =~ s/\s+/ /g;
    print substr($f, 2), ":$line: $m\n"; $n++;
  }
  END { exit($n ? 1 : 0) }'

# scan DIR PRUNE...: the references in the text files under DIR (paths given relative to it).
scan() {
  local dir="$1" p prune=(); shift
  for p in "$@"; do prune+=(-o -path "./${p#./}"); done
  (cd "$dir" && find . \( -path ./.git -o -name __pycache__ "${prune[@]}" \) -prune \
      -o -type f ! -name CHANGELOG.md -print0 | perl -0 -ne "$scanner")
}

# ---- the self-check: each form caught, lookalikes not ----
self="$build/tracker-refs-selftest"
case "$self" in /*) ;; *) self="$root/$self" ;; esac
rm -rf "$self" && mkdir -p "$self/docs" || exit 2
# One reference per line, line N of bad.md; the words are split so that this file passes.
{
  printf '%s\n' "as iss""ue 4 §""4 asks" "see (#""12) for the list" "fixed in #""12." \
    "Iss""ue" "#""7 says so" "https://example.org/o/r/iss""ues/3" "merged with P""R #""5" \
    "pull req""uest 9 had it" "a tick""et 17 item" "b""ug #""4 again" "as 4 §""4 there asks" \
    "from iss""ues 3 and 5"
} >"$self/docs/bad.md"
want_lines="1 2 3 4 6 7 8 9 10 11 12"
{
  printf '%s\n' '  #5 clk_i = 1'"'"'b1;' '  #1;' '  always #50 tb_top.clk_i = ~tb_top.clk_i;' \
    'n=${#2}; [ $# -gt 1 ]' '#include <stdio.h>' 'fill="#333" color=#000' \
    'IBA vol. 1 §7.9, RFC 3168 §5, Annex 31B §3, SPEC §5.3' 'config item 2: unknown key' \
    'the 2 ports' '#12.5 delay' 'printf("#%u", n);'
} >"$self/docs/good.v.md"
printf 'iss''ue 4 is history\n' >"$self/CHANGELOG.md"
got="$(scan "$self")"
got_lines="$(printf '%s\n' "$got" | sed -n 's|^docs/bad\.md:\([0-9]*\):.*|\1|p' | tr '\n' ' ')"
if [ "${got_lines% }" != "$want_lines" ] || printf '%s\n' "$got" | grep -qv '^docs/bad\.md:'; then
  echo "test_no_tracker_refs: FAIL: the self-check wanted lines $want_lines of docs/bad.md" \
       "and nothing else; it found:" >&2
  printf '%s\n' "$got" >&2
  exit 1
fi

# ---- the tree ----
scan . build "$build"
rc=$?
if [ "$rc" -ne 0 ]; then
  echo "test_no_tracker_refs: FAIL: references to an issue tracker above; say what they refer to" \
       "instead (CHANGELOG.md may keep them)" >&2
  exit 1
fi
echo "test_no_tracker_refs: no reference to an issue tracker outside CHANGELOG.md (the" \
     "self-check caught $(echo $want_lines | wc -w) planted ones)"
