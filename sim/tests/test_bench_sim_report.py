#!/usr/bin/env python3
"""test_bench_sim_report.py WORKDIR - the parts of `make bench-sim`'s callgrind run
(bench_sim_report.py, docs/sim.md "Speed"), on listings and runs made up here:

  - every function's own instructions land in the part of the file they come from (the
    engine, the switch's step, its blocks, the nodes, latency series, set-up and reports, the
    C library), with callgrind_annotate's spacing and thousands separators;
  - a listing that does not sum to the run's total is refused (the parts would not add up);
  - the JSON carries `instructions_by_part` and the run's device steps, the table prints each
    part and the steps per packet-hop, and a sim.json of before them still prints its goals
    table;
  - without the listing, or without the report's "device steps" line: one line, exit 2, no
    sim.json;
  - with today's code run in each pair (baseline.rev, base_I): its CPU seconds over this
    code's in the JSON (`baseline`, each pair's `cpu_ratio`) and a row of the goals table,
    its other results not compared with this code's; without it, neither; a baseline run
    missing: one line, exit 2, no sim.json;
  - a baseline commit given in BENCH_SIM_BASELINE that the checkout lacks: the bench stops
    before any run (one line naming it, exit 2, no sim.json); none asked for: none built;
    today's code built into a directory named as make bench-sim names it (relative), and
    reused by the next call.
"""
import json
import os
import subprocess
import sys

import bench_sim_report as report
from tally import Tally

HERE = os.path.dirname(os.path.abspath(__file__))
WORK = sys.argv[1]
os.makedirs(WORK, exist_ok=True)
T = Tally()
ok = T.ok


# One function of each part, as callgrind_annotate prints them (inlined code under the file it
# is written in, the caller's name after the colon), and the lines around the table.
LISTING = """--------------------------------------------------------------------------------
Profile data file 'x.callgrind' (creator: callgrind-3.19.0)
Events recorded:  Ir
--------------------------------------------------------------------------------
Ir
--------------------------------------------------------------------------------
1,111,000 (100.0%)  PROGRAM TOTALS

--------------------------------------------------------------------------------
Ir                   file:function
--------------------------------------------------------------------------------
500,000 (45.00%)  /b/sim/src/engine.c:process.lto_priv.0 [/b/lfc-sim]
200,000 (18.00%)  /b/cmodel/src/switch.c:lfc_switch_step_ports [/b/lfc-sim]
 90,000 ( 8.10%)  /b/cmodel/src/port_tx.c:lfc_switch_step_ports
 60,000 ( 5.40%)  /b/cmodel/src/lfc_internal.h:process.lto_priv.0
 50,000 ( 4.50%)  /b/cmodel/src/nic.c:lfc_nic_step [/b/lfc-sim]
 40,000 ( 3.60%)  /b/sim/src/latsum.c:latsum_add [/b/lfc-sim]
  1,000 ( 0.09%)  /b/sim/src/latsum.h:process.lto_priv.0
 30,000 ( 2.70%)  /b/sim/src/output_json.c:results_json [/b/lfc-sim]
 20,000 ( 1.80%)  /b/sim/src/routing.c:sim_create.constprop.0
100,000 ( 9.00%)  ./stdio-common/./stdio-common/vfprintf-internal.c:__vfprintf_internal [/lib/libc.so.6]
 19,999 ( 1.80%)  ???:(below main) [/b/lfc-sim]
      1 ( 0.00%)  ???:0x000000000010c540 [???]
"""
TOTAL = 1111000
WANT = {"engine": 500000, "switch_step": 200000, "switch_blocks": 150000, "node": 50000,
        "latency_series": 41000, "setup_reports": 50000, "libc": 120000}
STEPS = 1530  # the runs below: over 510 packet-hops 3 a packet-hop, over 1 000 cycles 1.5 a cycle

listing = os.path.join(WORK, "listing.annotate")
with open(listing, "w") as f:
    f.write(LISTING)
got = report.instructions_by_part(listing, TOTAL)
ok(got == WANT, "each function's instructions in the part of its file: %s" % got)

try:
    report.instructions_by_part(listing, TOTAL + 1)
    ok(False, "a listing one instruction short of the total is refused")
except ValueError as e:
    ok("1111000" in str(e) and "1111001" in str(e),
       "a listing one instruction short of the total is refused, naming both: %s" % e)


# A bench run's files, made up: one pair of fat-tree runs, the incast, the callgrind run.
def run_files(tmp, hops_flows):
    os.makedirs(tmp, exist_ok=True)
    summary = {"sim_cycles": 1000, "sim_us": 5.12, "wall_seconds": 1.0, "delivered_bytes": 7,
               "drops": 0, "pause_frames": 3}
    for name, threads, alone in (("ft_t1_1", 1, "0 0"), ("ft_t2_1", 2, "1536 97415"),
                                 ("incast", 2, "0 512")):
        with open(os.path.join(tmp, name + ".json"), "w") as f:
            json.dump({"summary": summary, "scenario": {"hosts": 1024, "links": 3072}}, f)
        with open(os.path.join(tmp, name + ".run"), "w") as f:
            f.write("70000 10.5 0.3 %d %s\n" % (threads, alone))
    with open(os.path.join(tmp, "ft8.json"), "w") as f:
        json.dump({"summary": summary, "scenario": {"hosts": 128, "switches": 80, "links": 768},
                   "flows": [{"delivered_packets": n, "hops": [0] * h} for n, h in hops_flows]},
                  f)
    with open(os.path.join(tmp, "ft8.callgrind"), "w") as f:
        f.write("events: Ir\nsummary: %d\n" % TOTAL)
    with open(os.path.join(tmp, "ft8.annotate"), "w") as f:
        f.write(LISTING)
    with open(os.path.join(tmp, "ft8.out"), "w") as f:  # lfc-sim's report, its last lines
        f.write("  ... 112 more flows\n  peak_rss_mb 7.1, device steps %d, eq_port_cycles_per_s"
                " 2\n" % STEPS)


def assemble(tmp, out):
    return subprocess.run([sys.executable, os.path.join(HERE, "bench_sim_report.py"), tmp,
                           "1000", "500", "", "1", "2", out], capture_output=True, text=True)


def table(path):
    return subprocess.run([sys.executable, os.path.join(HERE, "bench_sim_report.py"), "--table",
                           path], capture_output=True, text=True)


tmp = os.path.join(WORK, "runs")
run_files(tmp, [(100, 5), (10, 1)])  # 510 packet-hops
out = os.path.join(WORK, "sim.json")
p = assemble(tmp, out)
ok(p.returncode == 0, "a bench's runs assembled (exit %d: %s)" % (p.returncode, p.stderr.strip()))
cg = json.load(open(out))[2] if p.returncode == 0 else {}
ok(cg.get("instructions_by_part") == WANT and cg.get("packet_hops") == 510,
   "the JSON's instructions_by_part: %s" % cg.get("instructions_by_part"))
t = table(out)
rows = {}
for key, text, _ in report.PARTS:
    for line in t.stdout.splitlines():
        if line.startswith(text):
            rows[key] = line[len(text):].strip()
ok(t.returncode == 0 and rows == {k: format(round(v / 510), ",") for k, v in WANT.items()},
   "the table's parts per packet-hop: %s" % rows)
ok("instructions per packet-hop (k=8" in t.stdout and "<= 3000" in t.stdout,
   "the goals table still comes first")
ft = json.load(open(out))[0]
row = [line for line in t.stdout.splitlines() if line.startswith("speed-up")]
ok(ft["scaling"][1]["cycles_alone_pct"] == 1.6 and ft["scaling"][0]["cycles_alone_pct"] is None
   and ft["pairs"][0]["cycles_alone_pct_2"] == 1.6 and len(row) == 1
   and "1.6 % of its cycles alone" in row[0],
   "the two-thread run's cycles stepped alone (1536 of 97415): %s, %s"
   % (ft["scaling"], row))
ok(cg.get("device_steps") == STEPS and cg.get("device_steps_per_packet_hop") == 3.0
   and cg.get("devices") == 208, "the JSON's device steps: %s, %s a packet-hop, %s devices"
   % (cg.get("device_steps"), cg.get("device_steps_per_packet_hop"), cg.get("devices")))
ok("device steps per packet-hop (k=8): 3.00; 1.5 of the 208 devices stepped a cycle"
   in t.stdout, "the table's device steps per packet-hop and per cycle")

old = os.path.join(WORK, "sim-before-parts.json")
d = json.load(open(out))
for key in ("instructions_by_part", "devices", "device_steps", "device_steps_per_packet_hop"):
    del d[2][key]
with open(old, "w") as f:
    json.dump(d, f)
t = table(old)
ok(t.returncode == 0 and "<= 3000" in t.stdout and "by source" not in t.stdout
   and "device steps" not in t.stdout,
   "a sim.json of before the parts and steps prints its goals and neither")

t = table(out)
ok(t.returncode == 0 and "today's code" not in t.stdout
   and "baseline" not in json.load(open(out))[0],
   "without a baseline run: no baseline in the JSON, no row for it")

# Today's code in the pair: 31.5 CPU-s against this code's 10.5 on one thread, 3 x; another
# model, so its results differ from this code's without making the runs differ.
base_tmp = os.path.join(WORK, "runs-baseline")
run_files(base_tmp, [(100, 5), (10, 1)])
with open(os.path.join(base_tmp, "baseline.rev"), "w") as f:
    f.write("eb8d2dd\n")
with open(os.path.join(base_tmp, "base_1.json"), "w") as f:
    json.dump({"summary": {"sim_cycles": 1000, "sim_us": 5.12, "wall_seconds": 3.0,
                           "delivered_bytes": 6, "drops": 1, "pause_frames": 9},
               "scenario": {"hosts": 1024, "links": 3072}}, f)
with open(os.path.join(base_tmp, "base_1.run"), "w") as f:
    f.write("230000 31.5 0.3 1 0 0\n")
out4 = os.path.join(WORK, "sim-baseline.json")
p = assemble(base_tmp, out4)
ft = json.load(open(out4))[0] if p.returncode == 0 else {}
ok(ft.get("baseline") == {"rev": "eb8d2dd", "cpu_seconds_1_thread": 31.5, "cpu_ratio": 3.0}
   and ft["pairs"][0].get("cpu_ratio") == 3.0
   and ft["pairs"][0].get("cpu_seconds_baseline") == 31.5,
   "today's code in the pair: its CPU seconds over this code's, %s (exit %d: %s)"
   % (ft.get("baseline"), p.returncode, p.stderr.strip()))
t = table(out4)
row = [line for line in t.stdout.splitlines() if line.startswith("CPU s of today's code")]
ok(len(row) == 1 and "(eb8d2dd)" in row[0] and " 3.00 " in row[0] and ">= 5 (a fifth)" in row[0],
   "the table's row for today's code: %s" % row)
os.remove(os.path.join(base_tmp, "base_1.run"))
out5 = os.path.join(WORK, "sim-baseline-missing.json")
p = assemble(base_tmp, out5)
ok(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and "base_1.run" in p.stderr
   and not os.path.exists(out5) and not os.path.exists(out5 + ".tmp"),
   "a baseline run missing: one line, exit 2, nothing written (%d: %s)"
   % (p.returncode, p.stderr.strip()))

with open(os.path.join(tmp, "ft8.out"), "w") as f:
    f.write("  peak_rss_mb 7.1, eq_port_cycles_per_s 2\n")
out3 = os.path.join(WORK, "sim-no-steps.json")
p = assemble(tmp, out3)
ok(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and "ft8.out" in p.stderr
   and "device steps" in p.stderr and not os.path.exists(out3)
   and not os.path.exists(out3 + ".tmp"),
   "a report without device steps: one line, exit 2, nothing written (%d: %s)"
   % (p.returncode, p.stderr.strip()))

os.remove(os.path.join(tmp, "ft8.annotate"))
out2 = os.path.join(WORK, "sim-no-listing.json")
p = assemble(tmp, out2)
ok(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and "ft8.annotate" in p.stderr
   and not os.path.exists(out2) and not os.path.exists(out2 + ".tmp"),
   "no listing: one line, exit 2, nothing written (%d: %s)" % (p.returncode, p.stderr.strip()))

# The bench's own input: a commit given in BENCH_SIM_BASELINE that this checkout lacks stops it
# before any run (one line naming it, exit 2, nothing written); empty, there is none to build.
out6 = os.path.join(WORK, "sim-bad-baseline.json")
p = subprocess.run([os.path.join(HERE, "bench_sim.sh"), os.path.join(WORK, "no-lfc-sim"), out6],
                   env=dict(os.environ, BENCH_SIM_BASELINE="no-such-commit"),
                   capture_output=True, text=True)
ok(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1
   and "BENCH_SIM_BASELINE=no-such-commit" in p.stderr and not os.path.exists(out6)
   and not os.path.exists(out6 + ".tmp"),
   "a baseline commit the checkout lacks: one line, exit 2, nothing written (%d: %s)"
   % (p.returncode, p.stderr.strip()))
p = subprocess.run([os.path.join(HERE, "bench_sim_baseline.sh"), "", os.path.join(WORK, "bl")],
                   capture_output=True, text=True)
ok(p.returncode == 3 and p.stdout == "" and len(p.stderr.strip().splitlines()) == 1
   and "empty" in p.stderr and not os.path.exists(os.path.join(WORK, "bl")),
   "no baseline asked for: none built, said in one line (%d: %s)"
   % (p.returncode, p.stderr.strip()))

# Today's code built as `make bench-sim` asks for it: into a directory named relative to the
# current one (build/bench/baseline), while its make runs in its own tree; a second call reuses
# it. Only where the checkout has that commit (not a shallow clone).
BASE_REV = "eb8d2dd"
have = subprocess.run(["git", "-C", HERE, "rev-parse", "--verify", "--quiet",
                       BASE_REV + "^{commit}"], capture_output=True).returncode == 0
if have:
    calls = [subprocess.run([os.path.join(HERE, "bench_sim_baseline.sh"), BASE_REV,
                             os.path.join("rel", "baseline")], cwd=WORK, capture_output=True,
                            text=True) for _ in range(2)]
    path = calls[0].stdout.strip()
    ok(all(c.returncode == 0 for c in calls) and os.path.isabs(path)
       and os.access(path, os.X_OK) and calls[1].stdout.strip() == path,
       "today's code built into a relative directory, then reused: %s (%s)"
       % (path, "; ".join(c.stderr.strip() for c in calls)))
else:
    print("  skip today's code built: %s is not in this checkout (a shallow clone?)" % BASE_REV)

print("test_bench_sim_report: %d checks, %d failed" % (T.checks, T.fails))
sys.exit(1 if T.fails else 0)
