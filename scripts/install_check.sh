#!/usr/bin/env bash
# scripts/install_check.sh - check an installed lfc the way a user would use it
# (make test-install).
#
#   install_check.sh DIR VERSION "PROGRAMS"
#
# DIR/prefix is a `make install PREFIX=DIR/prefix`, DIR/stage a `make install PREFIX=/opt/lfc
# DESTDIR=DIR/stage`. Both trees: every file in place (headers equal to the sources), the
# library links and soname, each program with a man page that renders without a groff warning
# and names every option of its --help, lfc(3), the documentation, lfc.pc naming the PREFIX
# (not the staging directory), the example scenarios, the Python package lfc with its link to
# the installed library (scripts/python_dir.py says where). The prefix tree is then used: scripts/install_check.c compiled
# with `pkg-config --cflags --libs lfc` (must load the installed liblfc.so.MAJOR, run with
# LD_LIBRARY_PATH) and with `-static` and `pkg-config --static`, each run and checked to
# report VERSION; pkg-config --modversion and every program's --version report VERSION;
# `import lfc` from the installed package loads the installed library and runs the model, and
# the installed lfc-sim runs an installed scenario.
#
# Then the check must catch broken installs: copies of the prefix tree with one part removed
# (a header, the static library, a library link, lfc.pc, a program, a man page, a scenario, the
# Python package or its library link) or damaged
# (lfc.pc without Libs, the archive without the object of lfc_version) must each fail.
#
# Environment: CC (default gcc), PKG_CONFIG (default pkg-config). Exit status 0 when every
# check holds, 1 when one fails (a finding: the install is wrong, or a broken one passed), 2 for
# bad arguments (one line: the argument, what is wrong and what is allowed): DIR not a directory,
# VERSION not MAJOR.MINOR.PATCH, a program name that is not a plain command name.
set -u

if [ $# -ne 3 ]; then
  echo "usage: $0 DIR VERSION \"PROGRAMS\"" >&2
  exit 2
fi
DIR=$1
VERSION=$2
PROGRAMS=$3
if [ ! -d "$DIR" ]; then
  echo "install_check.sh: DIR '$DIR' is not a directory: give the directory holding prefix/" \
       "and stage/ (make test-install)" >&2
  exit 2
fi
DIGITS=0123456789 LETTERS=abcdefghijklmnopqrstuvwxyz  # spelled out: ranges vary with the locale
if ! [[ "$VERSION" =~ ^[$DIGITS]+\.[$DIGITS]+\.[$DIGITS]+(-[$DIGITS$LETTERS.]+)?$ ]]; then
  echo "install_check.sh: VERSION '$VERSION' is not allowed: give MAJOR.MINOR.PATCH[-SUFFIX]" \
       "(the file VERSION)" >&2
  exit 2
fi
for p in $PROGRAMS; do
  if ! [[ "$p" =~ ^[$LETTERS][$LETTERS${DIGITS}_-]*$ ]]; then
    echo "install_check.sh: PROGRAMS: '$p' is not allowed: give command names (lower-case" \
         "letters, digits, - and _)" >&2
    exit 2
  fi
done
CC=${CC:-gcc}
PKG_CONFIG=${PKG_CONFIG:-pkg-config}
SRC="$(cd "$(dirname "$0")" && pwd)/install_check.c"
HEADERS_DIR="$(cd "$(dirname "$0")/.." && pwd)/cmodel/include/lfc"
ROOT_DIR="$(cd "$(dirname "$0")/.." && pwd)"
# The scenario the installed lfc-sim runs (short), and where the package goes under a prefix.
SCENARIO=pfc_incast.ini
SCENARIO_US=5
python_rel() { local d; d="$(python3 "$ROOT_DIR/scripts/python_dir.py" "$1")" && echo "${d#"$1"/}"; }
MAJOR=${VERSION%%.*}

fail() {
  echo "install: FAIL $*" >&2
  return 1
}

# check_tree ROOT PREFIX LOG: the tree installed for PREFIX, found under ROOT (ROOT = PREFIX
# unless staged). Builds and runs only when ROOT = PREFIX. Messages go to LOG.
check_tree() {
  local root=$1 prefix=$2 log=$3 f p warn
  local lib=$root/lib pc=$root/lib/pkgconfig/lfc.pc
  {
    for f in "$lib/liblfc.a" "$lib/liblfc.so.$VERSION" "$pc"; do
      [ -f "$f" ] || { fail "$f: missing"; return 1; }
    done
    [ "$(readlink "$lib/liblfc.so.$MAJOR")" = "liblfc.so.$VERSION" ] ||
      { fail "$lib/liblfc.so.$MAJOR: not a link to liblfc.so.$VERSION"; return 1; }
    [ "$(readlink "$lib/liblfc.so")" = "liblfc.so.$MAJOR" ] ||
      { fail "$lib/liblfc.so: not a link to liblfc.so.$MAJOR"; return 1; }
    readelf -d "$lib/liblfc.so.$VERSION" | grep -q "Library soname: \[liblfc.so.$MAJOR\]" ||
      { fail "$lib/liblfc.so.$VERSION: soname is not liblfc.so.$MAJOR"; return 1; }
    for f in "$HEADERS_DIR"/*.h; do
      cmp -s "$f" "$root/include/lfc/$(basename "$f")" ||
        { fail "$root/include/lfc/$(basename "$f"): missing or not the source's"; return 1; }
    done
    for p in $PROGRAMS; do
      [ -x "$root/bin/$p" ] || { fail "$root/bin/$p: missing"; return 1; }
      [ -s "$root/share/man/man1/$p.1" ] || { fail "$root/share/man/man1/$p.1: missing"; return 1; }
      # groff -ww: every warning; the page must render without one (-k: UTF-8 input).
      local text opt
      warn="$(groff -k -man -Tutf8 -ww -z "$root/share/man/man1/$p.1" 2>&1)"
      [ -z "$warn" ] || { fail "$p.1 does not render cleanly: $warn"; return 1; }
      # Every option of the program's --help is in its man page.
      text="$(groff -k -man -Tascii "$root/share/man/man1/$p.1" 2>/dev/null | col -b)"
      for opt in $("$root/bin/$p" --help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u); do
        grep -q -- "$opt" <<< "$text" || { fail "$p.1 does not mention $opt"; return 1; }
      done
    done
    f=$root/share/man/man3/lfc.3
    [ -s "$f" ] || { fail "$f: missing"; return 1; }
    warn="$(groff -k -man -Tutf8 -ww -z "$f" 2>&1)"
    [ -z "$warn" ] || { fail "$f does not render cleanly: $warn"; return 1; }
    # A page per public function (scripts/man3.py), as man(1) finds them under MANDIR.
    n3=$(ls "$root/share/man/man3"/lfc_*.3 2>/dev/null | wc -l)
    [ "$n3" -ge 100 ] && [ -s "$root/share/man/man3/lfc_switch_step.3" ] ||
      { fail "$root/share/man/man3: $n3 function pages, lfc_switch_step.3 among them?"; return 1; }
    MANPATH="$root/share/man" man -w lfc_switch_step >/dev/null 2>&1 ||
      { fail "man -w lfc_switch_step does not find the installed page"; return 1; }
    for f in README.md CHANGELOG.md SPEC.md; do
      [ -s "$root/share/doc/lfc/$f" ] || { fail "$root/share/doc/lfc/$f: missing"; return 1; }
    done
    grep -qx "prefix=$prefix" "$pc" || { fail "$pc: prefix is not $prefix"; return 1; }
    for f in "$ROOT_DIR"/sim/scenarios/*.ini; do
      cmp -s "$f" "$root/share/lfc/scenarios/$(basename "$f")" ||
        { fail "$root/share/lfc/scenarios/$(basename "$f"): missing or not the source's"; return 1; }
    done
    local py
    py="$root/$(python_rel "$prefix")/lfc"
    for f in "$ROOT_DIR"/python/lfc/*.py; do
      cmp -s "$f" "$py/$(basename "$f")" ||
        { fail "$py/$(basename "$f"): missing or not the source's"; return 1; }
    done
    [ "$(readlink "$py/liblfc.so")" = "$prefix/lib/liblfc.so.$MAJOR" ] ||
      { fail "$py/liblfc.so: not a link to $prefix/lib/liblfc.so.$MAJOR"; return 1; }

    [ "$root" = "$prefix" ] || return 0

    local pcpath=$lib/pkgconfig out
    local modv
    modv="$(PKG_CONFIG_PATH=$pcpath $PKG_CONFIG --modversion lfc)" ||
      { fail "pkg-config finds no lfc in $pcpath"; return 1; }
    [ "$modv" = "$VERSION" ] ||
      { fail "pkg-config --modversion lfc is $modv, not $VERSION"; return 1; }

    # Shared: the program must load the installed liblfc.so.MAJOR (not the build's).
    # shellcheck disable=SC2046
    $CC -std=c11 -Wall -Wextra -Werror -o "$root/../check-shared" "$SRC" \
      $(PKG_CONFIG_PATH=$pcpath $PKG_CONFIG --cflags --libs lfc) ||
      { fail "shared: cc with pkg-config --cflags --libs lfc failed"; return 1; }
    readelf -d "$root/../check-shared" | grep -q "Shared library: \[liblfc.so.$MAJOR\]" ||
      { fail "shared: the program does not need liblfc.so.$MAJOR"; return 1; }
    out="$(LD_LIBRARY_PATH=$lib ldd "$root/../check-shared" | grep liblfc)"
    case "$out" in *"=> $lib/liblfc.so.$MAJOR "*) ;;
      *) fail "shared: liblfc resolves to '$out', not $lib/liblfc.so.$MAJOR"; return 1;; esac
    out="$(LD_LIBRARY_PATH=$lib "$root/../check-shared" "$VERSION")" ||
      { fail "shared: the program failed"; return 1; }
    echo "ok shared (pkg-config --cflags --libs lfc, LD_LIBRARY_PATH): $out"

    # Static: -static makes -llfc and Libs.private (-lm) come from the archives.
    # shellcheck disable=SC2046
    $CC -std=c11 -Wall -Wextra -Werror -static -o "$root/../check-static" "$SRC" \
      $(PKG_CONFIG_PATH=$pcpath $PKG_CONFIG --static --cflags --libs lfc) ||
      { fail "static: cc -static with pkg-config --static --cflags --libs lfc failed"; return 1; }
    if readelf -d "$root/../check-static" 2>/dev/null | grep -q NEEDED; then
      fail "static: the program needs shared libraries"; return 1
    fi
    out="$("$root/../check-static" "$VERSION")" || { fail "static: the program failed"; return 1; }
    echo "ok static (pkg-config --static, -static): $out"

    # The package, imported from the install (not from the source tree): it must load the
    # installed library through its link and run the model.
    out="$(cd / && PYTHONPATH="$(dirname "$py")" LFC_LIB= python3 -c 'import lfc, os
print(os.path.realpath(lfc.library()._name), lfc.Switch("pfc").buffer_blocks)')" ||
      { fail "python: import lfc from $(dirname "$py") failed"; return 1; }
    [ "${out% *}" = "$(realpath "$lib/liblfc.so.$VERSION")" ] ||
      { fail "python: lfc loaded '${out% *}', not $lib/liblfc.so.$VERSION"; return 1; }
    echo "ok python (PYTHONPATH=$(dirname "$py")): import lfc, $out"
    if [[ " $PROGRAMS " == *" lfc-sim "* ]]; then
      "$root/bin/lfc-sim" "$root/share/lfc/scenarios/$SCENARIO" \
        --set sim.duration_us=$SCENARIO_US > "$root/../scenario.out" ||
        { fail "lfc-sim on the installed $SCENARIO failed"; return 1; }
      echo "ok lfc-sim on share/lfc/scenarios/$SCENARIO"
    fi

    for p in $PROGRAMS; do
      out="$("$root/bin/$p" --version)" || { fail "$p --version failed"; return 1; }
      [ "$out" = "$p (lfc) $VERSION" ] ||
        { fail "$p --version printed '$out', not '$p (lfc) $VERSION'"; return 1; }
    done
  } > "$log" 2>&1
}

# ---- the real installs ----
rc=0
if check_tree "$DIR/prefix" "$DIR/prefix" "$DIR/check-prefix.log"; then
  sed -n 's/^ok /  /p' "$DIR/check-prefix.log"
else
  cat "$DIR/check-prefix.log" >&2
  rc=1
fi
if check_tree "$DIR/stage/opt/lfc" /opt/lfc "$DIR/check-stage.log"; then
  echo "  DESTDIR: every file under $DIR/stage/opt/lfc, lfc.pc names /opt/lfc"
else
  cat "$DIR/check-stage.log" >&2
  rc=1
fi
[ $rc -eq 0 ] || exit 1

# ---- broken installs: each must fail ----
# NAME:WHAT - rm:PATH removes PATH under the prefix; the others are named damages.
BROKEN="header:rm:include/lfc/switch.h static-lib:rm:lib/liblfc.a shared-link:rm:lib/liblfc.so"
BROKEN+=" soname-link:rm:lib/liblfc.so.$MAJOR pc:rm:lib/pkgconfig/lfc.pc"
BROKEN+=" pc-no-libs:pc-no-libs archive-no-version:archive-no-version man3:rm:share/man/man3/lfc.3"
BROKEN+=" scenario:rm:share/lfc/scenarios/$SCENARIO"
PYREL="$(python_rel "$DIR/prefix")"
BROKEN+=" python:rm:$PYREL/lfc/model.py python-lib-link:rm:$PYREL/lfc/liblfc.so"
for p in $PROGRAMS; do BROKEN+=" program-$p:rm:bin/$p man-$p:rm:share/man/man1/$p.1"; done
caught=0
total=0
for b in $BROKEN; do
  name=${b%%:*}
  what=${b#*:}
  copy=$DIR/broken/$name/prefix
  rm -rf "$DIR/broken/$name"
  mkdir -p "$copy"
  cp -a "$DIR/prefix/." "$copy/"
  # The copy's lfc.pc and the package's library link still name the real prefix: point them at
  # the copy.
  sed -i "s|^prefix=.*|prefix=$copy|" "$copy/lib/pkgconfig/lfc.pc"
  ln -sfn "$copy/lib/liblfc.so.$MAJOR" "$copy/$PYREL/lfc/liblfc.so"
  case "$what" in
    rm:*) rm -f "$copy/${what#rm:}" ;;
    pc-no-libs) sed -i '/^Libs:/d' "$copy/lib/pkgconfig/lfc.pc" ;;
    archive-no-version) ar d "$copy/lib/liblfc.a" version.o ;;
    *) echo "install_check.sh: unknown damage '$what'" >&2; exit 2 ;;
  esac
  total=$((total + 1))
  if check_tree "$copy" "$copy" "$DIR/broken/$name.log"; then
    echo "install: FAIL the check passed a broken install ($name: $what)" >&2
    rc=1
  else
    caught=$((caught + 1))
  fi
done
echo "  broken installs caught: $caught of $total (a part removed or damaged each)"
exit $rc
