#!/usr/bin/env bash
# Install the Debian packages that lfc needs, or print the one command that would.
#
#   scripts/deps.sh [GROUP...]     the packages of each GROUP (default: $DEPS, else all)
#
# Groups (each make target asks only for the groups it needs: `make deps-hdl`, ...):
#   minimal    the C model: cmocka unit tests, valgrind memcheck, compressed golden traces;
#              python3 for the scripts that check the tree
#   hdl        co-simulation, lint, synthesis and formal proofs of the RTL
#   sim        lfc-sim and its plots, the figures of docs/mechanisms/
#   verify     coverage reports, libFuzzer targets, C-model mutants
#   sweep      scripts/sweep on GNU parallel or a single-node Slurm
#   packaging  make install's man pages, the Python environments of FuseSoC and cocotb
#   waves      GTKWave, to open the waves a co-simulation writes (README.md); make run installs it
#   compare    ns-3, the packet-level simulator that make bench-sim-ns3 runs beside lfc-sim
#   all        every group above (what `make test` needs)
#
# A machine may come without these, so the make targets and CI call this first. Runs of this
# script at the same time (make -j) take turns to install, so apt-get never races itself.
#
# Exit status: 0 every package of the groups is installed (one line of output); 2 an unknown
# group (one line naming it), or packages missing that this user cannot install or that
# apt-get did not install (the command to install them is printed).
set -euo pipefail

EXIT_REFUSED=2

# Build and test the C model: cmocka unit tests, valgrind memcheck, compressed golden vectors;
# python3 runs the scripts of make check (mutation reports, argument checks, lfc-sim's tests).
PKGS_MINIMAL="libcmocka-dev valgrind pkg-config zstd gzip python3"
# For co-simulation and synthesis. The test reads tb/configs/*.ini with libinih.
PKGS_HDL="verilator iverilog yosys ccache libinih-dev"
# For the simulator. gnuplot-nox is gnuplot without the Qt/X11 front ends: the plain
# "gnuplot" package pulls in about 30 Qt packages on a headless machine. python3: lfc-sim's
# tests, scripts/sweep and scripts/plot-sweep are Python (it is in minimal too). GNU time: the
# speed benches read each run's peak RSS and CPU seconds from it.
PKGS_SIM="libinih-dev gnuplot-nox graphviz python3 time"
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
# The waveform viewer for the FST and VCD files of `make cosim WAVES=1` (README.md, "Open waves
# in GTKWave"): the one program a user runs by hand, so `make run` installs it with the demo.
PKGS_WAVES="gtkwave"
# ns-3's libraries and headers, and the C++ compiler they need, for the same fat tree written
# for ns-3 (sim/tests/bench_ns3.cc, docs/sim.md "Beside ns-3").
PKGS_COMPARE="libns3-dev g++"

GROUPS_ALL="minimal hdl sim verify sweep packaging waves compare"

if [ $# -gt 0 ]; then
  groups=("$@")
else
  read -r -a groups <<<"${DEPS:-all}"
fi
[ ${#groups[@]} -gt 0 ] || groups=(all)

# The packages of every group asked for, each once, in the order of the groups.
wanted=()
add_group() {
  local list p
  case "$1" in
    minimal)   list="$PKGS_MINIMAL" ;;
    hdl)       list="$PKGS_HDL" ;;
    sim)       list="$PKGS_SIM" ;;
    verify)    list="$PKGS_VERIFY" ;;
    sweep)     list="$PKGS_SWEEP" ;;
    packaging) list="$PKGS_PACKAGING" ;;
    waves)     list="$PKGS_WAVES" ;;
    compare)   list="$PKGS_COMPARE" ;;
    *)
      echo "deps.sh: unknown group '$1'; allowed: $GROUPS_ALL all (arguments or DEPS)" >&2
      exit $EXIT_REFUSED ;;
  esac
  for p in $list; do
    case " ${wanted[*]-} " in *" $p "*) ;; *) wanted+=("$p") ;; esac
  done
}
for g in "${groups[@]}"; do
  if [ "$g" = all ]; then
    for a in $GROUPS_ALL; do add_group "$a"; done
  else
    add_group "$g"
  fi
done
label="${groups[*]}"

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

installed_line() {
  echo "deps: all ${#wanted[@]} packages installed ($label)"
}

find_missing
if [ ${#missing[@]} -eq 0 ]; then
  installed_line
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
  exit $EXIT_REFUSED
fi

# One installer at a time: another run (another group under make -j) may be installing now.
# When it is done, look again: it may have installed what this run wanted.
lock="${TMPDIR:-/tmp}/lfc-deps.lock"
if { exec 9>>"$lock"; } 2>/dev/null && command -v flock >/dev/null 2>&1; then
  flock 9
  find_missing
  if [ ${#missing[@]} -eq 0 ]; then
    installed_line
    exit 0
  fi
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
  "${apt[@]}" update || true
fi
if ! "${apt[@]}" install -y --no-install-recommends "${missing[@]}"; then
  # The lists may name versions the mirror no longer has: refresh them once and retry.
  echo "deps: install failed; refreshing package lists and retrying once"
  "${apt[@]}" update || true
  "${apt[@]}" install -y --no-install-recommends "${missing[@]}" || true
fi

find_missing
if [ ${#missing[@]} -ne 0 ]; then
  echo "deps: still missing after apt-get install: ${missing[*]}" >&2
  exit $EXIT_REFUSED
fi
installed_line
