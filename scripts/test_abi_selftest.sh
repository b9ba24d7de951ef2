#!/usr/bin/env bash
# test_abi_selftest.sh - the ABI checks of make test-abi fail on what they are there to catch:
#   1. a liblfc.so with one file compiled without -fvisibility=hidden (event_log.c: its internal
#      functions leak into the exports) - scripts/test_abi.sh must exit 1 naming lfc_event_push;
#   2. a liblfc.so without version.c (lfc_version, declared in lfc/version.h, is not exported, as
#      when its LFC_API is forgotten) - test_abi.sh must exit 1 naming lfc_version;
#   3. a user of the library outside cmodel/ that calls an internal function -
#      scripts/test_abi_users.sh must exit 1 naming the file, the line and the function.
# Each broken library is linked from the real objects in OBJDIR, so the checks see the library as
# built but for the one thing changed. A few seconds.
#
#   scripts/test_abi_selftest.sh OBJDIR ARCHIVE WORKDIR
#
# OBJDIR: the library's objects (build/obj/src); ARCHIVE: liblfc.a, for test_abi_users.sh.
# Exit status: 0 every broken input was caught, 1 one was not, 2 bad arguments or a build failed.
set -uo pipefail
export LC_ALL=C
if [ $# -ne 3 ]; then
  echo "usage: $0 OBJDIR ARCHIVE WORKDIR" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
objdir="$1" archive="$2" work="$3"
cc="${CC:-gcc}"
[ -f "$objdir/event_log.o" ] && [ -f "$objdir/version.o" ] ||
  { echo "test_abi_selftest: $objdir: not the library's objects (build them with make all)" >&2
    exit 2; }
[ -f "$archive" ] || { echo "test_abi_selftest: $archive: no such file" >&2; exit 2; }
rm -rf "$work" && mkdir -p "$work" ||
  { echo "test_abi_selftest: $work: cannot create the directory" >&2; exit 2; }
fails=0
fail() { echo "  FAIL: $*"; fails=$((fails + 1)); }

# expect NAME WANT CMD...: CMD exits 1 and its output holds the line WANT (a fixed string).
expect() {
  local name="$1" want="$2" rc
  shift 2
  "$@" >"$work/$name.out" 2>&1
  rc=$?
  if [ "$rc" -ne 1 ]; then
    fail "$name: $* exited $rc, not 1: $(tail -n 1 "$work/$name.out")"
  elif ! grep -Fq -- "$want" "$work/$name.out"; then
    fail "$name: $* exited 1 without naming: $want"
  else
    echo "  ok: $name: caught ($(grep -F -m 1 -- "$want" "$work/$name.out" | sed 's/^ *//' |
      cut -c1-100)...)"
  fi
}

mapfile -t objs < <(ls "$objdir"/*.o)

# 1. event_log.c without -fvisibility=hidden.
if ! "$cc" -std=c11 -O2 -fPIC -I"$root/cmodel/include" -c -o "$work/event_log_leak.o" \
       "$root/cmodel/src/event_log.c" 2>"$work/cc.err"; then
  echo "test_abi_selftest: cannot compile event_log.c: $(head -n 1 "$work/cc.err")" >&2
  exit 2
fi
leak=()
for o in "${objs[@]}"; do
  case "$o" in */event_log.o) leak+=("$work/event_log_leak.o") ;; *) leak+=("$o") ;; esac
done
"$cc" -shared -o "$work/leak.so" "${leak[@]}" -lm 2>"$work/ld.err" ||
  { echo "test_abi_selftest: cannot link: $(head -n 1 "$work/ld.err")" >&2; exit 2; }
expect leaked "exports lfc_event_push, which no header" \
  "$root/scripts/test_abi.sh" "$work/leak.so" "$work/abi-leak"

# 2. lfc_version not exported.
missing=()
for o in "${objs[@]}"; do
  case "$o" in */version.o) ;; *) missing+=("$o") ;; esac
done
"$cc" -shared -o "$work/missing.so" "${missing[@]}" -lm 2>"$work/ld.err" ||
  { echo "test_abi_selftest: cannot link: $(head -n 1 "$work/ld.err")" >&2; exit 2; }
expect missing "lfc_version, declared in lfc/version.h" \
  "$root/scripts/test_abi.sh" "$work/missing.so" "$work/abi-missing"

# 3. a user calling an internal function (liblfc.so as built: the objects are unchanged).
mkdir -p "$work/user"
"$cc" -shared -o "$work/real.so" "${objs[@]}" -lm 2>"$work/ld.err" ||
  { echo "test_abi_selftest: cannot link: $(head -n 1 "$work/ld.err")" >&2; exit 2; }
printf '#include "lfc/switch.h"\n/* a block of the model, called from outside */\nvoid f(void *log) {\n  lfc_event_push(log, 0, 0, 0, 0, 0);\n}\n' >"$work/user/user.c"
expect user "user.c:4: lfc_event_push is internal" \
  "$root/scripts/test_abi_users.sh" "$work/real.so" "$archive" "$work/user"

if [ "$fails" -ne 0 ]; then
  echo "test_abi_selftest: FAIL: $fails broken input(s) not caught" >&2
  exit 1
fi
echo "test_abi_selftest: ok, a leaked internal function, a missing public one and a user of an" \
     "internal one are each caught"
