#!/bin/bash
# scripts/test_man3.sh LIB MAN3_DIR - the pages scripts/man3.py made from the headers:
#   - every function LIB exports has MAN3_DIR/NAME.3, and every page is of an exported function;
#   - each page's description comes from its header (no page falls back to "see the header");
#   - each renders with groff without a warning (-ww), its NAME line as whatis(1) reads it.
# Then the generator is shown to catch an undocumented function: a header without a comment
# above a declaration gets the fallback text, which this test refuses.
set -uo pipefail
lib=$1
dir=$2
fails=0
bad() { echo "  FAIL $*"; fails=$((fails + 1)); }
export LC_ALL=C.UTF-8
exported=$(nm -D --defined-only "$lib" | awk '$2 == "T" && $3 ~ /^lfc_/ { print $3 }' | sort)
pages=$(cd "$dir" && ls lfc_*.3 2>/dev/null | sed 's/\.3$//' | sort)
missing=$(comm -23 <(echo "$exported") <(echo "$pages"))
extra=$(comm -13 <(echo "$exported") <(echo "$pages"))
[ -z "$missing" ] || bad "exported without a page: $(echo $missing)"
[ -z "$extra" ] || bad "a page of no exported function: $(echo $extra)"
n=0
for p in "$dir"/lfc_*.3; do
  n=$((n + 1))
  name=$(basename "$p" .3)
  grep -q 'See the comments of' "$p" && bad "$name: no comment in its header above it"
  out=$(groff -man -ww -z -Tutf8 "$p" 2>&1) || bad "$name: groff failed"
  [ -z "$out" ] || bad "$name: groff: $(echo "$out" | head -1)"
  grep -Eq "^$name \\\\- .{8,}" "$p" || bad "$name: no NAME line with a description"
done
# The refusal works: a declaration without a comment.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/inc/lfc"
printf '/* x.h - a test header */\n#define LFC_API\n\n/* Documented. */\nLFC_API int lfc_x_a(void);\n\nLFC_API int lfc_x_b(void);\n' \
  >"$tmp/inc/lfc/x.h"
python3 "$(dirname "$0")/man3.py" "$tmp/inc" "$tmp/out" 0 >/dev/null
grep -q 'See the comments of' "$tmp/out/lfc_x_b.3" && ! grep -q 'See the comments of' "$tmp/out/lfc_x_a.3" ||
  bad "man3.py does not mark an undocumented function (lfc_x_b) apart from a documented one"
echo "test_man3: $n pages for $(echo "$exported" | wc -l) exported functions, $fails failed"
[ "$fails" -eq 0 ]
