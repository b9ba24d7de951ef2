#!/usr/bin/env bash
# test_deps.sh - scripts/deps.sh's exit statuses, with stand-ins for dpkg-query, apt-get, sudo
# and id first on PATH (nothing is installed or looked up for real). Under a second.
#   - every package installed: exit 0, one line naming the groups;
#   - an unknown group, as an argument or in DEPS: exit 2, one line naming it;
#   - packages missing that cannot be installed (apt-get fails, or no root and no sudo): exit 2,
#     a resource refusal, with the packages named.
#
#   scripts/test_deps.sh WORKDIR
#
# Exit status: 0 every check held, 1 one failed, 2 bad arguments.
set -uo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 WORKDIR" >&2
  exit 2
fi
deps="$(cd "$(dirname "$0")" && pwd)/deps.sh"
work="$1"
rm -rf "$work" && mkdir -p "$work/bin" && work="$(cd "$work" && pwd)"
fails=0 checks=0
fail() { echo "  FAIL: $*"; fails=$((fails + 1)); }

# A stand-in dpkg-query: every package installed when $work/installed exists, none otherwise.
cat >"$work/bin/dpkg-query" <<STANDIN
#!/bin/sh
[ -e "$work/installed" ] && printf 'install ok installed'
exit 0
STANDIN
# apt-get and sudo that always fail, as on a machine without network or rights.
printf '#!/bin/sh\necho "stand-in apt-get: no network" >&2\nexit 100\n' >"$work/bin/apt-get"
printf '#!/bin/sh\nexit 1\n' >"$work/bin/sudo"
chmod +x "$work/bin/"*

# expect RC WANT LINES CMD...: CMD exits RC; its output (stdout and stderr) holds WANT; with
# LINES > 0, stderr (or stdout for exit 0) has exactly that many lines.
expect() {
  local rc_want="$1" want="$2" lines="$3" rc out; shift 3
  checks=$((checks + 1))
  PATH="$work/bin:$PATH" TMPDIR="$work" timeout 60 "$@" >"$work/out" 2>"$work/err"
  rc=$?
  out="$work/err"; [ "$rc_want" -eq 0 ] && out="$work/out"
  if [ "$rc" -ne "$rc_want" ] || ! grep -Fq -- "$want" "$work/out" "$work/err" ||
     { [ "$lines" -gt 0 ] && [ "$(wc -l <"$out")" -ne "$lines" ]; }; then
    fail "$*: exit $rc, output: $(head -c 300 "$work/out" "$work/err" | tr '\n' ' ');" \
         "want exit $rc_want and $lines line(s) with: $want"
  fi
}

touch "$work/installed"
# The distinct packages of every group, counted from deps.sh itself, so that adding a package
# to a group does not break this test (libinih-dev stands in two groups).
all_pkgs=$(sed -n 's/^PKGS_[A-Z]*="\(.*\)"$/\1/p' "$deps" | tr ' ' '\n' | grep . | sort -u | wc -l)
expect 0 "deps: all $all_pkgs packages installed (all)" 1 "$deps"
expect 0 "deps: all 6 packages installed (minimal)" 1 "$deps" minimal
expect 0 "packages installed (hdl sim)" 1 "$deps" hdl sim
expect 0 "packages installed (minimal)" 1 env DEPS=minimal "$deps"
expect 2 "unknown group 'bogus'" 1 "$deps" bogus
expect 2 "unknown group '--all'" 1 "$deps" minimal --all
expect 2 "unknown group 'some'" 1 env DEPS=some "$deps"

rm -f "$work/installed"
# As root (a stand-in id): apt-get runs (the stand-in) and fails.
printf '#!/bin/sh\necho 0\n' >"$work/bin/id" && chmod +x "$work/bin/id"
expect 2 "deps: still missing after apt-get install: libcmocka-dev" 0 "$deps" minimal
# Another user, without sudo: the command that would install them is printed instead.
printf '#!/bin/sh\necho 1000\n' >"$work/bin/id"
expect 2 "apt-get install -y --no-install-recommends libcmocka-dev" 0 "$deps" minimal

echo "test_deps: $checks checks, $fails failed"
[ "$fails" -eq 0 ]
