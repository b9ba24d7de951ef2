#!/usr/bin/env bash
# test_abi_users.sh - the library's users outside cmodel/ call only what liblfc.so exports. The
# co-simulation, lfc-sim and the tools link liblfc.a, where the library's internal functions
# still link, so a call of one would build here and fail for anyone linking the installed
# liblfc.so; the Python package and cocotb load liblfc.so by name through ctypes, so a hidden
# name fails only when it is looked up. Under a second.
#
#   scripts/test_abi_users.sh LIB ARCHIVE DIR...
#
# The internal functions are the global symbols ARCHIVE (liblfc.a) defines and LIB (liblfc.so)
# does not export (nm); every C, C++, Python, SystemVerilog and Verilog file under each DIR is
# searched for them as whole words (comments too: a comment naming an internal function in a
# user of the library is out of date, or a call in waiting). Prints one line per use, FILE:LINE
# and the name. The tests of the model (cmodel/tests) and the fuzz targets (tb/fuzz), which
# compile or link the model's internals on purpose, are not users.
#
# Exit status: 0 no user names an internal function, 1 one does, 2 bad arguments or nm failing.
set -uo pipefail
export LC_ALL=C
if [ $# -lt 3 ]; then
  echo "usage: $0 LIB ARCHIVE DIR..." >&2
  exit 2
fi
lib="$1" archive="$2"
shift 2
for f in "$lib" "$archive"; do
  [ -f "$f" ] || { echo "test_abi_users: $f: no such file (build it with make all)" >&2; exit 2; }
done
for d in "$@"; do
  [ -d "$d" ] || { echo "test_abi_users: $d: no such directory" >&2; exit 2; }
done

exported="$(nm -D --defined-only "$lib" 2>/dev/null | awk 'NF >= 3 { print $3 }' | sort -u)" ||
  { echo "test_abi_users: nm -D $lib failed" >&2; exit 2; }
defined="$(nm -g --defined-only "$archive" 2>/dev/null | awk 'NF >= 3 { print $3 }' | sort -u)" ||
  { echo "test_abi_users: nm $archive failed" >&2; exit 2; }
[ -n "$exported" ] && [ -n "$defined" ] ||
  { echo "test_abi_users: no symbols in $lib or $archive (nm)" >&2; exit 2; }
hidden="$(comm -13 <(printf '%s\n' "$exported") <(printf '%s\n' "$defined"))"
if [ -z "$hidden" ]; then
  echo "test_abi_users: FAIL: $archive defines nothing that $lib hides: is $lib built from" \
       "the same objects with -fvisibility=hidden?" >&2
  exit 1
fi

mapfile -t files < <(find "$@" -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' \
  -o -name '*.py' -o -name '*.sv' -o -name '*.v' -o -name '*.vh' \) | sort)
uses=""
if [ "${#files[@]}" -gt 0 ]; then
  uses="$(grep -n -o -w -F -f <(printf '%s\n' "$hidden") "${files[@]}" /dev/null)"
fi
if [ -n "$uses" ]; then
  while IFS= read -r u; do
    echo "  FAIL: ${u%:*}: ${u##*:} is internal to liblfc (not exported by $lib): use the" \
         "public API of cmodel/include/lfc/, or declare it there with LFC_API"
  done <<<"$uses"
  echo "test_abi_users: FAIL: $(printf '%s\n' "$uses" | wc -l) use(s) of internal functions" >&2
  exit 1
fi
echo "test_abi_users: ok, ${#files[@]} files in $* name none of the" \
     "$(printf '%s\n' "$hidden" | wc -l) functions liblfc.so hides"
