#!/usr/bin/env bash
# test_abi.sh - liblfc.so exports exactly the public API: every function declared in a header of
# cmodel/include/lfc/, and nothing else. The library is built with -fvisibility=hidden and each
# public function is marked LFC_API (lfc/export.h); a forgotten mark loses a function of the API,
# a missing -fvisibility=hidden exports the internal functions of the blocks, so that renaming
# one would change the ABI. Under a second.
#
#   scripts/test_abi.sh LIB WORKDIR
#
# The declarations come from the compiler (gcc -aux-info on a file including every header), not
# from a pattern over the text; the exports from nm -D --defined-only LIB. Prints one line per
# difference, naming the symbol (and the header and line of a declaration).
#
# Exit status: 0 the two sets are equal, 1 they differ, 2 bad arguments or a tool failed.
set -uo pipefail
export LC_ALL=C
if [ $# -ne 2 ]; then
  echo "usage: $0 LIB WORKDIR" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
lib="$1"
work="$2"
cc="${CC:-gcc}"
if [ ! -f "$lib" ]; then
  echo "test_abi: $lib: no such file (build it with make all)" >&2
  exit 2
fi
mkdir -p "$work" || { echo "test_abi: $work: cannot create the directory" >&2; exit 2; }

# Every public header, in one translation unit.
tu="$work/abi_headers.c"
: >"$tu" || { echo "test_abi: $tu: cannot write" >&2; exit 2; }
for h in "$root"/cmodel/include/lfc/*.h; do
  echo "#include \"lfc/$(basename "$h")\"" >>"$tu" ||
    { echo "test_abi: $tu: cannot write" >&2; exit 2; }
done

# -aux-info writes one line per function declared or defined in the unit:
#   /* DIR/cmodel/include/lfc/switch.h:139:NC */ extern lfc_switch_t *lfc_switch_create (...);
# NC = a declaration without a definition (a static inline of a header is not part of the ABI).
aux="$work/abi_aux.txt"
if ! "$cc" -std=c11 -I"$root/cmodel/include" -fsyntax-only -aux-info "$aux" "$tu" \
       2>"$work/abi_cc.err"; then
  echo "test_abi: $cc cannot compile the public headers: $(head -n 1 "$work/abi_cc.err")" >&2
  exit 2
fi
declared="$work/abi_declared.txt"
grep -F '/cmodel/include/lfc/' "$aux" | grep -E ':NC \*/ extern ' |
  sed -E 's|^/\* .*/cmodel/include/lfc/([^:]+):([0-9]+):NC \*/ .*[ *]([A-Za-z_][A-Za-z0-9_]*) \(.*$|\3 lfc/\1:\2|' |
  sort -u -k1,1 >"$declared"
if [ ! -s "$declared" ]; then
  echo "test_abi: found no function declared in cmodel/include/lfc/*.h (gcc -aux-info)" >&2
  exit 2
fi

# The dynamic symbols LIB defines, but those the linker adds to every shared object.
exported="$work/abi_exported.txt"
if ! nm -D --defined-only "$lib" >"$work/abi_nm.txt" 2>"$work/abi_nm.err"; then
  echo "test_abi: nm -D $lib failed: $(head -n 1 "$work/abi_nm.err")" >&2
  exit 2
fi
awk 'NF >= 3 { print $3 }' "$work/abi_nm.txt" |
  grep -vxE '_init|_fini|_edata|_end|__bss_start' | sort -u >"$exported"

fails=0
# Exported but declared in no public header: an internal function leaked into the ABI.
while read -r sym; do
  echo "  FAIL: $lib exports $sym, which no header of cmodel/include/lfc/ declares" \
       "(internal: compile with -fvisibility=hidden; public: declare it with LFC_API)"
  fails=$((fails + 1))
done < <(join -v 2 "$declared" "$exported")
# Declared in a public header but not exported: a program using it would not link.
while read -r sym where; do
  echo "  FAIL: $sym, declared in $where, is not exported by $lib (mark it LFC_API)"
  fails=$((fails + 1))
done < <(join -v 1 "$declared" "$exported")

if [ "$fails" -ne 0 ]; then
  echo "test_abi: FAIL: $fails difference(s) between $lib and the public headers" >&2
  exit 1
fi
echo "test_abi: ok, $lib exports the $(wc -l <"$exported") functions of cmodel/include/lfc/*.h"
