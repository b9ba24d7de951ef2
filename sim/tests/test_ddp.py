#!/usr/bin/env python3
"""test_ddp.py LFC_SIM OUTDIR - training steps with overlap and noisy neighbours (`make test-ddp`,
docs/sim.md "Training steps with overlap", "Noisy neighbours"), from lfc-sim's --json:

 1. overlap: for each collective of sim/scenarios/ddp_overlap.ini and each step, the step time
    with buckets released during backward is below compute + the communication of the same
    step run after backward (overlap = 0), and at least max(compute, that communication);
    with overlap = 0 the step is compute + communication (within 3 %: NO_OVERLAP_TOL);
 2. in-network aggregation gives a higher MFU than ring (and than tree) for the same buckets,
    per step and over the group;
 3. MFU = compute / step time per step, and steps x compute / group time over the group; the
    step times add up to the group's time;
 4. the noisy neighbour of sim/scenarios/noisy_neighbour.ini raises job A's p99 step time (by
    10 % or more) and its p50; without it every step takes the same time (within 1 %);
 5. the stdout report's step lines and percentiles say what --json says;
 6. both scenarios give the same digest and the same groups on 1 and 2 threads;
 7. the checks can fail: each is run on a deliberately wrong input and must reject it;
 8. bad input (pattern ddp's keys): one line naming file:line and key, exit status 2.
Exit status 0 all pass, 1 a check failed, 2 bad usage.
"""
import copy
import json
import os
import re
import subprocess
import sys

from tally import Tally

# Without overlap a step is compute + communication, up to the time by which some ranks begin
# the next step before the slowest rank has ended this one (docs/sim.md: a step ends with its
# slowest rank; each rank goes on when its own part is done): 0.3 % for ring, 2 % for the tree,
# whose root is done well before its leaves.
NO_OVERLAP_TOL = 0.03
HERE = os.path.dirname(os.path.abspath(__file__))
SCEN = os.path.join(HERE, "..", "scenarios")
T = Tally()
ok = T.ok


def run(sim, out, name, scenario, *args):
    """lfc-sim SCENARIO --json OUT/NAME.json [args]; returns (json, digest)."""
    path = os.path.join(out, name + ".json")
    p = subprocess.run([sim, os.path.join(SCEN, scenario), "--no-progress", "--digest",
                        "--json", path] + list(args), capture_output=True, text=True)
    if p.returncode != 0:
        print("  FAIL %s: lfc-sim exited %d: %s" % (name, p.returncode, p.stderr.strip()[-300:]))
        sys.exit(1)
    digest = [l.split()[1] for l in p.stdout.splitlines() if l.startswith("digest ")]
    open(os.path.join(out, name + ".txt"), "w").write(p.stdout)
    return json.load(open(path)), digest[0] if digest else None


def check_stdout(text, g):
    """The group's step lines and percentiles on stdout say what the JSON says."""
    lines = text.splitlines()
    at = [i for i, l in enumerate(lines) if re.match(r"^  group %s +ddp, " % re.escape(g["name"]), l)]
    if not at:
        return ["no line for group %s" % g["name"]]
    bad, i, d = [], at[0] + 1, g["ddp"]
    m = re.search(r"MFU ([0-9.]+) \((\d+) steps of ([0-9.]+) us compute", lines[at[0]])
    if not m or abs(float(m.group(1)) - g["mfu"]) > 5e-4 or int(m.group(2)) != d["steps"]:
        bad.append("group line %r" % lines[at[0]])
    for s in d["per_step"]:
        m = re.match(r"^    step (\d+) +([0-9.]+) us, communication ([0-9.]+) us, exposed "
                     r"(-?[0-9.]+) us, MFU ([0-9.]+)$", lines[i])
        if not m or int(m.group(1)) != s["step"] or any(
                abs(float(m.group(k + 2)) - s[x]) > 5e-4
                for k, x in enumerate(("time_us", "comm_us", "exposed_us", "mfu"))):
            bad.append("step line %r" % lines[i])
        i += 1
    m = re.match(r"^    step time p50 ([0-9.]+) us, p99 ([0-9.]+) us, max ([0-9.]+) us over "
                 r"(\d+) complete steps$", lines[i])
    if not m or any(abs(float(m.group(k + 1)) - d[x]) > 5e-4 for k, x in enumerate(
            ("step_time_us_p50", "step_time_us_p99", "step_time_us_max"))):
        bad.append("percentile line %r" % lines[i])
    return bad


def groups(d):
    return {g["name"]: g for g in d["groups"]}


# ---- the checks, each a function of the JSON so that it can be run on wrong input ----

def check_overlap(g_ov, g_no):
    """Per step: max(compute, comm_no) <= time_ov < compute + comm_no; time_no = compute +
    comm_no within 0.1 %. Returns a list of failures."""
    bad = []
    c = g_ov["compute_us"]
    for so, sn in zip(g_ov["ddp"]["per_step"], g_no["ddp"]["per_step"]):
        t, comm = so["time_us"], sn["comm_us"]
        if not (max(c, comm) <= t < c + comm):
            bad.append("step %d: %.3f us not in [max(%.3f, %.3f), %.3f)" % (so["step"], t, c, comm,
                                                                          c + comm))
        if abs(sn["time_us"] - (c + comm)) > NO_OVERLAP_TOL * (c + comm):
            bad.append("step %d without overlap: %.3f us is not compute %.3f + communication "
                       "%.3f" % (sn["step"], sn["time_us"], c, comm))
    return bad


def check_mfu(g):
    """MFU = compute / time per step and steps x compute / time over the group."""
    bad = []
    c, steps = g["compute_us"], g["ddp"]["per_step"]
    for s in steps:
        if abs(s["mfu"] - c / s["time_us"]) > 1e-5:
            bad.append("step %d: mfu %.6f, compute / time %.6f" % (s["step"], s["mfu"],
                                                                   c / s["time_us"]))
    total = sum(s["time_us"] for s in steps)
    if abs(total - g["time_us"]) > 1e-4:
        bad.append("step times add up to %.6f us, the group's time is %.6f" % (total, g["time_us"]))
    if abs(g["mfu"] - len(steps) * c / g["time_us"]) > 1e-5:
        bad.append("group mfu %.6f, steps x compute / time %.6f" % (g["mfu"], len(steps) * c /
                                                                     g["time_us"]))
    return bad


def check_ina_beats(g_ina, g_other):
    bad = []
    if not g_ina["mfu"] > g_other["mfu"]:
        bad.append("group MFU %.3f not above %.3f" % (g_ina["mfu"], g_other["mfu"]))
    for a, b in zip(g_ina["ddp"]["per_step"], g_other["ddp"]["per_step"]):
        if not a["mfu"] > b["mfu"]:
            bad.append("step %d: MFU %.3f not above %.3f" % (a["step"], a["mfu"], b["mfu"]))
    return bad


def check_noisy(g_with, g_without):
    bad = []
    w, wo = g_with["ddp"], g_without["ddp"]
    if not w["step_time_us_p99"] >= 1.1 * wo["step_time_us_p99"]:
        bad.append("p99 %.3f us with the neighbour, not 10 %% above %.3f without" %
                   (w["step_time_us_p99"], wo["step_time_us_p99"]))
    if not w["step_time_us_p50"] > wo["step_time_us_p50"]:
        bad.append("p50 %.3f us with the neighbour, not above %.3f without" %
                   (w["step_time_us_p50"], wo["step_time_us_p50"]))
    t = [s["time_us"] for s in wo["per_step"]]
    if max(t) > 1.01 * min(t):
        bad.append("alone, steps take %.3f to %.3f us" % (min(t), max(t)))
    return bad


def main():
    if len(sys.argv) != 3:
        sys.stderr.write("usage: test_ddp.py LFC_SIM OUTDIR\n")
        return 2
    sim, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)

    ov, dov = run(sim, out, "ddp_overlap", "ddp_overlap.ini")
    # after backward the tree takes longer: in-network aggregation later, the run longer
    no, _ = run(sim, out, "ddp_no_overlap", "ddp_overlap.ini", "--set", "sim.duration_us=1200",
                "--set", "traffic.sharp.start_us=850", *sum(
                    (["--set", "traffic.%s.overlap=0" % c] for c in ("ring", "tree", "sharp")), []))
    G, N = groups(ov), groups(no)
    for c in ("ring", "tree", "sharp"):
        g = G[c]
        ok(g["complete"] and g["ddp"]["steps_complete"] == g["ddp"]["steps"],
           "ddp_overlap %s: every step complete" % c)
        bad = check_overlap(g, N[c])
        ok(not bad, "%s: max(compute, communication) <= step time < compute + communication "
           "after backward (%s)" % (c, "; ".join(bad) if bad else ", ".join(
               "step %d %.3f us vs %.3f + %.3f" % (s["step"], s["time_us"], g["compute_us"],
                                                   n["comm_us"])
               for s, n in zip(g["ddp"]["per_step"], N[c]["ddp"]["per_step"]))))
        for d, label in ((g, "overlap"), (N[c], "no overlap")):
            bad = check_mfu(d)
            ok(not bad, "%s, %s: MFU %.3f = compute / step time per step and over the group%s" %
               (c, label, d["mfu"], ": " + "; ".join(bad) if bad else ""))
    for other in ("ring", "tree"):
        bad = check_ina_beats(G["sharp"], G[other])
        ok(not bad, "in-network aggregation MFU %.3f > %s %.3f, every step%s" %
           (G["sharp"]["mfu"], other, G[other]["mfu"], ": " + "; ".join(bad) if bad else ""))
    print("  MFU with overlap: ring %.3f, tree %.3f, sharp %.3f; after backward: ring %.3f, "
          "tree %.3f, sharp %.3f" % tuple(x[c]["mfu"] for x in (G, N)
                                          for c in ("ring", "tree", "sharp")))

    wi, dwi = run(sim, out, "noisy", "noisy_neighbour.ini")
    wo, _ = run(sim, out, "noisy_alone", "noisy_neighbour.ini", "--set",
                "traffic.neighbour.stop_us=0.001")
    A, A0 = groups(wi)["job_a"], groups(wo)["job_a"]
    bad = check_noisy(A, A0)
    ok(not bad, "noisy neighbour: job A's step time p50 %.3f -> %.3f us, p99 %.3f -> %.3f us%s" %
       (A0["ddp"]["step_time_us_p50"], A["ddp"]["step_time_us_p50"],
        A0["ddp"]["step_time_us_p99"], A["ddp"]["step_time_us_p99"],
        ": " + "; ".join(bad) if bad else ""))
    bad = check_mfu(A)
    ok(not bad, "noisy neighbour: MFU = compute / step time" + (": " + "; ".join(bad) if bad
                                                                else ""))

    # stdout
    for name, g in (("ddp_overlap", G["sharp"]), ("ddp_overlap", G["ring"]), ("noisy", A)):
        bad = check_stdout(open(os.path.join(out, name + ".txt")).read(), g)
        ok(not bad, "%s: group %s's step lines on stdout = --json%s" %
           (name, g["name"], ": " + "; ".join(bad) if bad else ""))

    # threads: the same digest and groups
    for name, sc, d1, dg in (("ddp_overlap", "ddp_overlap.ini", ov, dov),
                             ("noisy", "noisy_neighbour.ini", wi, dwi)):
        d2, dg2 = run(sim, out, name + "_t2", sc, "--threads", "2")
        ok(dg is not None and dg == dg2 and d1["groups"] == d2["groups"],
           "%s: 1 thread == 2 threads (digest %s, groups equal)" % (name, dg))

    # the checks can fail
    wrong = copy.deepcopy(G["ring"])
    wrong["ddp"]["per_step"][0]["mfu"] *= 1.01
    ok(check_mfu(wrong), "a step MFU 1 % off is caught")
    ok(check_overlap(N["ring"], N["ring"]), "a step without overlap fails the overlap check")
    ok(check_ina_beats(G["ring"], G["sharp"]), "ring in place of in-network aggregation is caught")
    ok(check_noisy(A0, A), "without and with the neighbour swapped is caught")
    ok(check_stdout(open(os.path.join(out, "ddp_overlap.txt")).read(), wrong),
       "a step line that differs from --json is caught")

    # bad input
    base = open(os.path.join(SCEN, "ddp_overlap.ini")).read()
    cases = [
        ("bucket_bytes = 65536\n", "", "bucket_bytes", "missing"),
        ("collective = ring\n", "collective = ring\nbytes = 100\n", "bytes", "bucket_bytes"),
        ("collective = ring\n", "collective = banana\n", "collective", "ring, tree, sharp"),
        ("steps = 2\nbuckets = 4\n", "steps = 2\nbuckets = 4000\n", "buckets",
         "at most 4096"),
        ("collective = ring\n", "collective = ring\ncompute_us = 5\n", "compute_us",
         "forward_us"),
    ]
    for old, new, key, says in cases:
        p = os.path.join(out, "bad.ini")
        open(p, "w").write(base.replace(old, new, 1))
        r = subprocess.run([sim, p, "--no-progress"], capture_output=True, text=True)
        line = r.stderr.strip()
        ok(r.returncode == 2 and len(line.splitlines()) == 1 and p + ":" in line and
           key in line and says in line, "bad input refused: %s" % line)
    p = os.path.join(out, "bad.ini")
    open(p, "w").write(open(os.path.join(SCEN, "allreduce.ini")).read() + "steps = 3\n")
    r = subprocess.run([sim, p, "--no-progress"], capture_output=True, text=True)
    ok(r.returncode == 2 and "only with pattern ddp" in r.stderr,
       "steps with pattern tree_allreduce refused: %s" % r.stderr.strip())
    return 1 if T.fails else 0


if __name__ == "__main__":
    sys.exit(main())
