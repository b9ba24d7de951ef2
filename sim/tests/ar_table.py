#!/usr/bin/env python3
"""ar_table.py LFC_SIM WORKDIR - the table of docs/sim.md "Adaptive routing": per-flow ECMP
against adaptive routing on a permutation, an incast with a victim and a ring all-reduce, each
number from the runs' --json. Prints Markdown on stdout (about 10 s). Exit 0, 2 bad usage or a
run that failed.
"""
import json
import os
import subprocess
import sys

if len(sys.argv) != 3:
    sys.stderr.write("usage: ar_table.py LFC_SIM WORKDIR\n")
    sys.exit(2)
SIM, WORK = sys.argv[1:3]
HERE = os.path.dirname(os.path.abspath(__file__))
PERM = os.path.join(HERE, "..", "scenarios", "permutation_ar.ini")
os.makedirs(WORK, exist_ok=True)
BITS = 8.0
HOSTS, LINE_GBPS = 128, 100.0


def run(name, ini, *sets):
    js = os.path.join(WORK, name + ".json")
    args = [SIM, ini, "--no-progress", "--no-warnings", "--json", js]
    for s in sets:
        args += ["--set", s]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write("ar_table.py: %s: exit %d: %s\n" % (name, p.returncode, p.stderr))
        sys.exit(2)
    return json.load(open(js))


def ooo(d):
    s = d["summary"]
    return "%d in %d of %d flows" % (s["out_of_order"], s["out_of_order_flows"], s["flows"])


print("| traffic (k = 8 fat tree, 100 Gb/s) | measure | ECMP per flow | adaptive | adaptive's "
      "out-of-order packets |")
print("| --- | --- | --- | --- | --- |")
for mode in ("pfc", "ib"):
    r = {}
    for ar in (0, 1):
        for us in (20, 40, 80):
            r[ar, us] = run("perm_%s_%d_%d" % (mode, ar, us), PERM, "switch.mode=" + mode,
                            "routing.adaptive=%d" % ar, "sim.duration_us=%d" % us)
    cells = []
    for ar in (0, 1):
        d = r[ar, 20]["summary"]["delivered_bytes"]
        pct = 100.0 * d * BITS / (HOSTS * LINE_GBPS * 1e3 * 20)
        cells.append("%d bytes (%.1f %% of line)" % (d, pct))
    print("| permutation, %s, 20 µs (permutation_ar.ini) | delivered | %s | %s | %s |"
          % (mode.upper(), cells[0], cells[1], ooo(r[1, 20])))
    cells = []
    for ar in (0, 1):
        d = r[ar, 80]["summary"]["delivered_bytes"] - r[ar, 40]["summary"]["delivered_bytes"]
        cells.append("%.1f %%" % (100.0 * d * BITS / (HOSTS * LINE_GBPS * 1e3 * 40)))
    print("| the same, 40 to 80 µs | delivered, %% of line | %s | %s | %s |"
          % (cells[0], cells[1], ooo(r[1, 80]) + " (0 to 80 µs)"))

inc = {ar: run("incast_%d" % ar, os.path.join(HERE, "ar_incast.ini"), "routing.adaptive=%d" % ar)
       for ar in (0, 1)}


def flow_gbps(d, group):
    return sum(f["throughput_gbps"] for f in d["flows"] if f["group"] == group)


print("| 32:1 incast into h0 and a victim h49 → h4, PFC, 40 µs (ar_incast.ini) | incast, victim "
      "Gb/s | %.1f, %.1f | %.1f, %.1f | %s |"
      % (flow_gbps(inc[0], "incast"), flow_gbps(inc[0], "victim"), flow_gbps(inc[1], "incast"),
         flow_gbps(inc[1], "victim"), ooo(inc[1])))
ring = {ar: run("ring_%d" % ar, os.path.join(HERE, "ar_ring.ini"), "routing.adaptive=%d" % ar)
        for ar in (0, 1)}
g = {ar: ring[ar]["groups"][0]["time_us"] for ar in (0, 1)}
print("| ring all-reduce of 4 MiB over 32 hosts in 8 pods, PFC (ar_ring.ini) | time, pause "
      "frames | %.1f µs, %d | %.1f µs, %d | %s |"
      % (g[0], ring[0]["summary"]["pause_frames"], g[1], ring[1]["summary"]["pause_frames"],
         ooo(ring[1])))
