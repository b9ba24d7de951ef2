#!/bin/sh
# bench_fat_tree.sh K US - the scenario of the speed benches (bench_sim.sh, bench_ns3.py;
# docs/sim.md "Speed"): a k-ary fat tree (k^3/4 hosts), 100 Gb/s links of 2 m, PFC with one
# class, every host sending 4 KB packets to its partner of a permutation, for US microseconds.
# Prints the scenario file. Exit 2 on bad arguments.
set -eu
EXIT_BAD=2
if [ $# -ne 2 ]; then
  echo "usage: bench_fat_tree.sh K US" >&2
  exit $EXIT_BAD
fi
for v in "$1" "$2"; do
  case $v in
    ''|*[!0-9]*|0*) echo "bench_fat_tree.sh: '$v': must be a positive integer" >&2
                    exit $EXIT_BAD ;;
  esac
done
cat <<INI
[sim]
duration_us = $2
sample_us = 1000000
[topology]
kind = fat_tree
k = $1
[link]
speed_gbps = 100
cable_m = 2
[switch]
mode = pfc
classes = 1
[traffic.perm]
pattern = permutation
src = 0-$(($1 * $1 * $1 / 4 - 1))
packet_bytes = 4096
INI
