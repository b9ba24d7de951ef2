#!/usr/bin/env bash
# Install the Debian packages that lfc needs, or print the one command that would.
#
#   scripts/deps.sh            same as DEPS=all
#   DEPS=minimal scripts/deps.sh   only what the C model needs (build, test, memcheck)
#   DEPS=all     scripts/deps.sh   also co-simulation, synthesis and the simulator
#
# A machine may come without these, so `make test`, `make run` and CI call this first.
# Exits 0 when everything is installed (one line of output), 1 when packages are
# missing and this user cannot install them.
set -euo pipefail

# Build and test the C model: cmocka unit tests, valgrind memcheck, compressed golden vectors.
PKGS_MINIMAL="libcmocka-dev valgrind pkg-config zstd gzip"
# For co-simulation and synthesis.
PKGS_HDL="verilator iverilog yosys ccache"
# For the simulator. gnuplot-nox is gnuplot without the Qt/X11 front ends: the plain
# "gnuplot" package pulls in about 30 Qt packages on a headless machine.
PKGS_SIM="libinih-dev gnuplot-nox graphviz"
# Coverage reports (make coverage), fuzzing (make fuzz, make fuzz-cosim), formal (make formal),
# C-model mutants (make mutants-c links the tests with LeakSanitizer: liblsan0), the wire-format
# cross-check (make test-wire-tshark: tshark).
PKGS_VERIFY="lcov clang-14 libclang-rt-14-dev liblsan0 tshark"
# scripts/sweep: GNU parallel on one machine, or a single-node Slurm (started by its test; ss from
# iproute2 finds free ports).
PKGS_SWEEP="parallel munge slurmctld slurmd slurm-client iproute2"
# make install and its test: man pages from --help (help2man), checked with groff and col;
# Python virtual environments for FuseSoC and cocotb from PyPI (cocotb embeds libpython).
PKGS_PACKAGING="help2man groff-base bsdextrautils python3-venv python3-pip libpython3.11"

DEPS="${DEPS:-all}"
case "$DEPS" in
  minimal) read -r -a wanted <<<"$PKGS_MINIMAL" ;;
  all)     read -r -a wanted <<<"$PKGS_MINIMAL $PKGS_HDL $PKGS_SIM $PKGS_VERIFY $PKGS_PACKAGING $PKGS_SWEEP" ;;
  *) echo "deps.sh: DEPS must be 'minimal' or 'all', not '$DEPS'" >&2; exit 2 ;;
esac

is_installed() {
  [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" = "install ok installed" ]
}

# Sets the array `missing` to the wanted packages that are not installed.
find_missing() {
  local p
  missing=()
  for p in "${wanted[@]}"; do
    is_installed "$p" || missing+=("$p")
  done
}

find_missing
if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all ${#wanted[@]} packages installed (DEPS=$DEPS)"
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo=(sudo -n)
else
  echo "deps: missing Debian packages: ${missing[*]}" >&2
  echo "deps: install them with:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt=("${sudo[@]}" apt-get -q -o DPkg::Lock::Timeout=300 -o Dpkg::Use-Pty=0)

# Refresh the package lists only when there are none, or they are over a week old.
lists_usable() {
  compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null &&
    [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*_Packages*' -mtime +7 -print -quit)" ]
}

echo "deps: installing missing Debian packages: ${missing[*]}"
if ! lists_usable; then
  "${apt[@]}" update
fi
if ! "${apt[@]}" install -y --no-install-recommends "${missing[@]}"; then
  # The lists may name versions the mirror no longer has: refresh them once and retry.
  echo "deps: install failed; refreshing package lists and retrying once"
  "${apt[@]}" update
  "${apt[@]}" install -y --no-install-recommends "${missing[@]}"
fi

find_missing
if [ ${#missing[@]} -ne 0 ]; then
  echo "deps: still missing after apt-get install: ${missing[*]}" >&2
  exit 1
fi
echo "deps: all ${#wanted[@]} packages installed (DEPS=$DEPS)"
