#!/bin/sh
# study.sh LFC_SIM WORKDIR DOCDIR - `make study`: sim/tests/study.py runs the scenarios (at
# STUDY_SCALE times their duration, default 5) and the IB-vs-RoCEv2 comparisons, and writes
# DOCDIR/README.md with tables and PNG plots (docs/sim.md "Study").
set -eu
exec python3 "$(dirname "$0")/study.py" "$1" "$2" "$3" "${STUDY_SCALE:-5}"
