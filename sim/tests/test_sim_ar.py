#!/usr/bin/env python3
"""test_sim_ar.py LFC_SIM LFC_SIM_CHECK WORKDIR - adaptive routing (docs/sim.md "Adaptive
routing", `make test-sim-ar`, about 3 s):

  1. sim/scenarios/permutation_ar.ini (a permutation of a k = 8 fat tree at full load), PFC and
     IB: adaptive routing delivers at least AR_MIN_GAIN times what per-flow ECMP delivers, with
     packets out of order (summary.out_of_order > 0) where ECMP has none; the per-flow counts sum
     to the summary, and the report on stdout says the same;
  2. the same digest with adaptive routing on 1, 2 and 3 threads, and stepping every cycle with
     the model's assertions on (lfc-sim-check --step-all, no link mismatch);
  3. the feature off leaves every digest of sim/tests/ar_off_digests.txt (recorded before adaptive
     routing existed) as it was, and `--set routing.adaptive=0` is the default; on, the digest
     changes (it sees the feature);
  4. a fabric with one path per destination (a star) has nothing to choose: no packet out of order;
  5. a bad value is refused in one line, exit 2.

Exit status 0 all held, 1 a check failed, 2 bad usage.
"""
import json
import os
import re
import subprocess
import sys

from tally import Tally

AR_MIN_GAIN = 1.3  # measured 1.69 (PFC) and 1.74 (IB) at 20 us: docs/sim.md "Adaptive routing"

if len(sys.argv) != 4:
    sys.stderr.write("usage: test_sim_ar.py LFC_SIM LFC_SIM_CHECK WORKDIR\n")
    sys.exit(2)
SIM, CHK, WORK = sys.argv[1:4]
HERE = os.path.dirname(os.path.abspath(__file__))
SCEN = os.path.join(HERE, "..", "scenarios")
PERM = os.path.join(SCEN, "permutation_ar.ini")
os.makedirs(WORK, exist_ok=True)
T = Tally()
ok = T.ok


def run(binary, ini, *args):
    p = subprocess.run([binary, ini, "--no-progress", "--no-warnings", *args],
                       capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def digest(binary, ini, *args):
    rc, out, err = run(binary, ini, "--digest", *args)
    m = re.search(r"^digest (\S+)$", out, re.M)
    if rc != 0 or not m:
        print("    %s %s %s: exit %d %s" % (os.path.basename(binary), os.path.basename(ini),
                                            " ".join(args), rc, err.strip()[-200:]))
        return None
    return m.group(1)


def json_run(name, *args):
    js = os.path.join(WORK, name + ".json")
    rc, out, err = run(SIM, PERM, "--json", js, *args)
    if rc != 0:
        print("    %s: exit %d %s" % (name, rc, err.strip()))
        return None, out
    return json.load(open(js)), out


# 1. adaptive beats ECMP on the permutation, and pays with packets out of order
for mode in ("pfc", "ib"):
    ecmp, ecmp_out = json_run("ecmp_" + mode, "--set", "switch.mode=" + mode,
                              "--set", "routing.adaptive=0")
    ar, ar_out = json_run("ar_" + mode, "--set", "switch.mode=" + mode)
    if ecmp is None or ar is None:
        ok(False, "%s: permutation_ar runs" % mode)
        continue
    e, a = ecmp["summary"], ar["summary"]
    ok(ecmp["scenario"]["adaptive"] is False and ar["scenario"]["adaptive"] is True,
       "%s: scenario.adaptive false with --set routing.adaptive=0, true as in the file" % mode)
    gain = a["delivered_bytes"] / max(e["delivered_bytes"], 1)
    ok(gain >= AR_MIN_GAIN,
       "%s: adaptive delivers %d bytes, ECMP %d: %.2f x (at least %.2f)"
       % (mode, a["delivered_bytes"], e["delivered_bytes"], gain, AR_MIN_GAIN))
    ok(e["out_of_order"] == 0 and e["out_of_order_flows"] == 0,
       "%s: ECMP delivers every flow in order (out_of_order %d)" % (mode, e["out_of_order"]))
    ok(a["out_of_order"] > 0 and a["out_of_order_flows"] > 0,
       "%s: adaptive delivers %d packets out of order in %d of %d flows"
       % (mode, a["out_of_order"], a["out_of_order_flows"], a["flows"]))
    for name, d in (("ECMP", ecmp), ("adaptive", ar)):
        per = [f["out_of_order"] for f in d["flows"]]
        ok(sum(per) == d["summary"]["out_of_order"] and
           sum(1 for x in per if x) == d["summary"]["out_of_order_flows"] and
           all(f["out_of_order"] < max(f["delivered_packets"], 1) for f in d["flows"]),
           "%s %s: flows[].out_of_order sum to the summary, each below the flow's packets"
           % (mode, name))
        ok(d["summary"]["drops"] == 0 and d["summary"]["scoreboard_errors"] == 0,
           "%s %s: no drop, no scoreboard error" % (mode, name))
    m = re.search(r"^  routing .*adaptive per packet.*; (\d+) packets delivered out of order "
                  r"\(in (\d+) flows\)$", ar_out, re.M)
    ok(m is not None and int(m.group(1)) == a["out_of_order"] and
       int(m.group(2)) == a["out_of_order_flows"],
       "%s: the report's routing line gives the JSON's out_of_order" % mode)

# 2. the same results on any number of threads and stepping every cycle
d1 = digest(SIM, PERM)
d2 = digest(SIM, PERM, "--threads", "2")
d3 = digest(SIM, PERM, "--threads", "3")
ok(d1 is not None and d1 == d2 == d3,
   "adaptive: 1 thread == 2 threads == 3 threads (digests %s %s %s)" % (d1, d2, d3))
rc, out, _ = run(CHK, PERM, "--digest", "--step-all")
ds = re.search(r"^digest (\S+)$", out, re.M)
ok(rc == 0 and ds is not None and ds.group(1) == d1,
   "adaptive: stepping every cycle with the model's assertions == skip-ahead (%s, exit %d)"
   % (ds.group(1) if ds else None, rc))
e1 = digest(SIM, PERM, "--set", "routing.adaptive=0")
e2 = digest(SIM, PERM, "--set", "routing.adaptive=0", "--threads", "2")
ok(e1 is not None and e1 == e2, "ECMP: 1 thread == 2 threads (digest %s)" % e1)

# 3. off: the digests recorded before the feature; on: a different digest
listed = 0
for line in open(os.path.join(HERE, "ar_off_digests.txt")):
    if not line.strip() or line.startswith("#"):
        continue
    name, want = line.split()
    ini = os.path.join(SCEN, name)
    if not os.path.exists(ini):
        ini = os.path.join(HERE, name)
    got = digest(SIM, ini)
    listed += 1
    if got != want:
        ok(False, "%s: digest %s, recorded %s (if on purpose: '%s %s' in ar_off_digests.txt)"
           % (name, got, want, name, got))
ok(listed > 0, "%d scenarios without adaptive routing: digests as before the feature" % listed)
k8 = os.path.join(HERE, "fat_tree_k8.ini")
off0 = digest(SIM, k8, "--set", "routing.adaptive=0")
on = digest(SIM, k8, "--set", "routing.adaptive=1")
ok(off0 is not None and off0 == digest(SIM, k8) and on is not None and on != off0,
   "fat_tree_k8: routing.adaptive=0 is the default (%s); adaptive gives another digest (%s)"
   % (off0, on))

# 4. one path per destination: nothing to choose, nothing out of order
star = os.path.join(WORK, "star.ini")
with open(star, "w") as fh:
    fh.write("[sim]\nduration_us = 10\n[topology]\nkind = star\nhosts_per_switch = 8\n"
             "[switch]\nmode = pfc\n[routing]\nadaptive = 1\n[traffic]\npattern = permutation\n"
             "src = 0-7\n")
js = os.path.join(WORK, "star.json")
rc, _, _ = run(SIM, star, "--json", js)
s = json.load(open(js))["summary"] if rc == 0 else None
ok(s is not None and s["delivered_bytes"] > 0 and s["out_of_order"] == 0,
   "star with adaptive routing: one path each, no packet out of order")

# 5. bad input
p = subprocess.run([SIM, PERM, "--set", "routing.adaptive=2"], capture_output=True, text=True)
ok(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and
   "[routing] adaptive = 2" in p.stderr and "allowed" in p.stderr,
   "routing.adaptive=2 refused in one line, exit 2: %s" % p.stderr.strip())

print("test-sim-ar: %s" % ("all passed" if T.fails == 0 else "%d FAILED" % T.fails))
sys.exit(1 if T.fails else 0)
