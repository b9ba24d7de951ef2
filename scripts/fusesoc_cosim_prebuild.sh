#!/bin/sh
# scripts/fusesoc_cosim_prebuild.sh - pre_build hook of the sim target of lfc.core.
#
# Runs in FuseSoC's work directory with FILES_ROOT = the lfc source tree. Builds the C side of
# the co-simulation with gcc through the project's Makefile (make fusesoc-cosim-c): the model
# (lfc-c/liblfc.a) and the test (lfc-c/tb/libtb_common.a), which the target links into the
# Verilated model; and links tb/configs here, so that +config=tb/configs/NAME.ini resolves.
# Verilator would compile .c files as C++, which the C sources are not (STYLE.md).
set -eu
# FuseSoC puts FILES_ROOT in the hook's environment, but Edalize's flow API (0.6) does not pass
# it on (a FIXME in edalize/flows/edaflow.py); the EDAM file in this directory records it.
if [ -z "${FILES_ROOT:-}" ]; then
  FILES_ROOT="$(sed -n 's/^ *FILES_ROOT: *//p' ./*.eda.yml 2>/dev/null | head -n 1)"
fi
if [ -z "$FILES_ROOT" ]; then
  echo "lfc.core sim target: FILES_ROOT is neither set nor in an .eda.yml here:" \
       "run this as the FuseSoC hook of lfc.core" >&2
  exit 2
fi
if [ ! -f "$FILES_ROOT/Makefile" ] || [ ! -d "$FILES_ROOT/tb/configs" ]; then
  echo "lfc.core sim target: $FILES_ROOT is not the lfc source tree (no Makefile or" \
       "tb/configs); run it with fusesoc run --no-export --target=sim" >&2
  exit 2
fi
root="$(cd "$FILES_ROOT" && pwd)"
work="$(pwd)"
make -C "$root" --no-print-directory BUILD="$work/lfc-c" fusesoc-cosim-c
mkdir -p tb
ln -sfn "$root/tb/configs" tb/configs
