#!/usr/bin/env python3
"""test_sim_report.py LFC_SIM WORKDIR - the report lfc-sim prints on stdout (docs/sim.md "The
report") agrees with its own --json (docs/sim-json.md):

  - receivers: each host's delivered Gb/s over the run and its % of the host link, the busiest
    first, from the JSON's flows (delivered_bytes, dst) and the run's length;
  - fairness: Jain's index of the flows' throughput_gbps (Jain, Chiu and Hawe 1984);
  - groups: time and MFU as the JSON's groups[];
  - the flow table: host names, Gb/s and % of line as the JSON, `--sort` orders rows largest
    first, `--flows N` shows N rows and says how many more; a flow that never sent says
    "not started", one that sent and delivered nothing "nothing delivered" (not latency 0);
  - --plot: the rows of occupancy.png and pause_heatmap.png named by switch;
  - bad --sort and --flows values: one line, exit 2.
"""
import json
import os
import re
import subprocess
import sys

from tally import Tally

SIM, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)
T = Tally()
ok = T.ok


def run(ini, *args, name="run"):
    js = os.path.join(WORK, name + ".json")
    p = subprocess.run([SIM, ini, "--json", js, "--no-warnings", *args], capture_output=True,
                       text=True)
    if p.returncode != 0:
        print(p.stderr)
        sys.exit(1)
    return p.stdout, json.load(open(js))


# --- victim: 5 incast flows and a victim flow, 40 us, every host at 100 Gb/s ---
out, d = run("sim/scenarios/victim.ini", name="victim")
run_ns = d["summary"]["sim_cycles"] * d["cycle_ns"] if "cycle_ns" in d else None
if run_ns is None:
    run_ns = d["summary"]["sim_us"] * 1000.0
by_dst = {}
for f in d["flows"]:
    if f["dst"] >= 0:
        by_dst[f["dst"]] = by_dst.get(f["dst"], 0) + f["delivered_bytes"]
busiest = sorted(by_dst.items(), key=lambda kv: (-kv[1], kv[0]))
m = re.search(r"^  receivers   (.*)$", out, re.M)
ok(m is not None, "victim: a receivers line")
if m:
    shown = re.findall(r"h(\d+) ([0-9.]+) Gb/s \(([0-9.]+) % of 100\)", m.group(1))
    want = [(h, b * 8 / run_ns) for h, b in busiest if b > 0]
    ok([int(h) for h, _, _ in shown] == [h for h, _ in want],
       "victim: receivers busiest first: %s" % [h for h, _, _ in shown])
    ok(all(abs(float(g) - w) < 0.01 and abs(float(p) - w) < 0.1
           for (_, g, p), (_, w) in zip(shown, want)),
       "victim: receivers' Gb/s and %% of line = delivered bytes x 8 / run time (%s)" % shown)

x = [f["throughput_gbps"] for f in d["flows"]]
jain = sum(x) ** 2 / (len(x) * sum(v * v for v in x))
m = re.search(r"Jain's index ([0-9.]+) over the (\d+) flows", out)
ok(m is not None and abs(float(m.group(1)) - jain) < 0.0015 and int(m.group(2)) == len(x),
   "victim: Jain's index %.3f of the JSON's throughput_gbps (printed %s)"
   % (jain, m.group(1) if m else None))

rows = re.findall(r"^ +(\d+) (\S+) +h(\d+) -> h(\d+) +(\d+) +(\d+) +([0-9.]+) +([0-9.]+) ",
                  out, re.M)
ok(len(rows) == len(d["flows"]), "victim: a row per flow (%d)" % len(rows))
ok(all(abs(float(r[6]) - d["flows"][int(r[0])]["throughput_gbps"]) < 0.006 and
       int(r[2]) == d["flows"][int(r[0])]["src"] and int(r[3]) == d["flows"][int(r[0])]["dst"] and
       r[1] == d["flows"][int(r[0])]["group"] for r in rows),
   "victim: rows name the group and hosts and give the JSON's Gb/s")

# --sort bytes: the largest first; --flows 2: two rows and the rest counted
out2, _ = run("sim/scenarios/victim.ini", "--sort", "bytes", "--flows", "2", name="victim2")
rows2 = re.findall(r"^ +(\d+) \S+ +h\d+ -> h\d+ +\d+ +(\d+) ", out2, re.M)
top = sorted(d["flows"], key=lambda f: (-f["delivered_bytes"], f["id"]))[:2]
ok([int(r[0]) for r in rows2] == [f["id"] for f in top],
   "--sort bytes --flows 2: flows %s, the two largest" % [r[0] for r in rows2])
ok(re.search(r"\.\.\. %d more flows" % (len(d["flows"]) - 2), out2) is not None,
   "--flows 2: the other %d flows counted" % (len(d["flows"]) - 2))

# groups: allreduce's two collectives, times as the JSON's
out3, d3 = run("sim/scenarios/allreduce.ini", "--flows", "1", name="allreduce")
for g in d3["groups"]:
    m = re.search(r"^  group %s +\S+, (\d+) flows, complete in ([0-9.]+) us" % re.escape(g["name"]),
                  out3, re.M)
    ok(m is not None and int(m.group(1)) == g["flows"] and g["time_us"] is not None and
       abs(float(m.group(2)) - g["time_us"]) < 0.001,
       "allreduce: group %s: %s flows, %s us as the JSON" % (g["name"], g["flows"], g["time_us"]))

# a flow cut off by the end of the run before anything arrives: no latency printed
ini = os.path.join(WORK, "idle.ini")
with open(ini, "w") as f:
    f.write("[sim]\nduration_us = 2\n[topology]\nkind = star\nhosts_per_switch = 3\n"
            "[traffic.a]\npattern = flow\nsrc = 0\ndst = 1\nbytes = 4096\n"
            "[traffic.cut]\npattern = flow\nsrc = 2\ndst = 1\nstart_us = 1.99\n")
out4, d4 = run(ini, name="idle")
cut = d4["flows"][1]
ok(cut["delivered_packets"] == 0 and
   re.search(r"^ +1 cut .* (nothing delivered|not started)$", out4, re.M) is not None,
   "a flow that delivered nothing: said so, no latency printed")
ok(re.search(r"^ +0 a .* [0-9.]+ +[0-9.]+$", out4, re.M) is not None,
   "a flow that delivered: its latencies")

# --plot: the occupancy rows and the heat map named by switch, not by index arithmetic
plot = os.path.join(WORK, "plot")
subprocess.run([SIM, "sim/scenarios/victim.ini", "--plot", plot, "--no-warnings"],
               capture_output=True, check=True)
gp = open(os.path.join(plot, "plots.gp")).read()
ok('set ytics ("leaf0" 0, "leaf1" 5, "spine0" 10)' in gp and
   'set ytics ("leaf0" 0, "leaf1" 1, "spine0" 2)' in gp and "array base[3] = [0, 5, 10]" in gp,
   "--plot: occupancy rows under each switch's name (5 ports x 1 class each), heat map rows named")
want = " ".join(str(f["id"]) for f in sorted(d["flows"], key=lambda f: (-f["delivered_bytes"],
                                                                       f["id"]))[:16])
ok('flows = "%s"' % want in gp and "smooth frequency" in gp,
   "--plot: throughput.png draws the flows that delivered most (%s) and their total" % want)
ok("set cblabel 'queue length (64-byte blocks)'" in gp and "'stopped' 2" in gp,
   "--plot: colour bars say what the colour is")
ok(all(os.path.getsize(os.path.join(plot, n)) > 0
       for n in ("occupancy.png", "throughput.png", "pause_heatmap.png")),
   "--plot: gnuplot drew the three plots from that script")

for args, word in ((["--sort", "speed"], "--sort speed: not a column; allowed: id, bytes"),
                   (["--flows", "-1"], "--flows -1: out of range")):
    p = subprocess.run([SIM, "sim/scenarios/victim.ini", *args], capture_output=True, text=True)
    ok(p.returncode == 2 and p.stdout == "" and p.stderr.count("\n") == 1 and word in p.stderr,
       "%s: exit 2, one line: %s" % (" ".join(args), p.stderr.strip()))

print("test_sim_report: %d checks, %d failed" % (T.checks, T.fails))
sys.exit(1 if T.fails else 0)
