#!/bin/sh
# test_dcqcn.sh LFC_SIM OUTDIR - DCQCN as deployed: N flows (2 to 16, together or staggered)
# into one 100 Gb/s bottleneck reach >= 90 % of it with fair shares (Jain >= 0.95) within a few
# ms, read from --json (test_dcqcn.py; docs/sim.md "DCQCN"). Exit 0 pass, 1 a check failed,
# 2 a run failed.
set -u
echo "DCQCN: N flows into one bottleneck (utilisation and Jain's index over the last ms)"
python3 "$(dirname "$0")/test_dcqcn.py" "$1" "$2"
rc=$?
[ $rc -eq 0 ] && echo "test_dcqcn: all passed" || echo "test_dcqcn: FAILED (exit $rc)"
exit $rc
