#!/usr/bin/env python3
"""make test-bench-ns3: the comparison of lfc-sim with ns-3 (bench_ns3.cc, bench_ns3.py) on a
k = 4 fat tree for a few microseconds.

  test_bench_ns3.py LFC_SIM BENCH_NS3 WORKDIR      (CXX and NS3_LIBS from the Makefile)

Checks: bench_ns3 refuses bad arguments with one line; its run accounts for its packets
(none misrouted, hops between one and five a delivered packet, forwards at least the hops) and
is the same from the same seed; an ns-3 fabric changed to deliver to the wrong host, and an
output without the figures, are refused by bench_ns3.py; bench_ns3.py's JSON carries each figure and its ratios as computed from
the runs; bad settings are refused with one line and no file. Exit 0 every check held, 1 one
failed, 2 bad arguments.
"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CPU_FIELDS = ("cpu_seconds_setup", "cpu_seconds_run")
# The edge switch's port down to a host of its own (bench_ns3.cc, Switch::out_port), and a
# mutant of it that sends each packet to the host beside its destination.
DOWN = "return edge == index ? dst % HALF"
DOWN_WRONG = "return edge == index ? (dst + 1) % HALF"

fails = checks = 0


def check(ok, what):
    global fails, checks
    checks += 1
    if not ok:
        fails += 1
        print(f"  FAIL: {what}")


def run(cmd, env=None):
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)


def main(argv):
    if len(argv) != 4:
        print("usage: test_bench_ns3.py LFC_SIM BENCH_NS3 WORKDIR", file=sys.stderr)
        return 2
    lfc_sim, ns3, work = argv[1:]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    # bench_ns3's arguments
    for bad in ([], ["3", "10", "1"], ["4", "x", "1"], ["4", "0", "1"], ["66", "10", "1"]):
        p = run([ns3] + bad)
        check(p.returncode == 2 and p.stdout == "" and len(p.stderr.splitlines()) == 1,
              f"bench_ns3 {' '.join(bad)}: exit {p.returncode}, {p.stderr!r}; want 2 and one line")

    # one run's accounting, and the same run again
    outs = []
    for _ in range(2):
        p = run([ns3, "4", "30", "7"])
        check(p.returncode == 0, f"bench_ns3 4 30 7: exit {p.returncode}: {p.stderr[:300]}")
        outs.append(json.loads(p.stdout) if p.returncode == 0 else {})
    n = outs[0]
    if n:
        check(n["hosts"] == 16 and n["switches"] == 20, f"k = 4: 16 hosts, 20 switches: {n}")
        check(n["misrouted_packets"] == 0, f"packets at the wrong host: {n}")
        check(n["delivered_packets"] > 0, f"nothing delivered: {n}")
        check(n["delivered_packets"] <= n["packet_hops"] <= 5 * n["delivered_packets"],
              f"hops not 1 to 5 a delivered packet: {n}")
        check(n["switch_forwards"] >= n["packet_hops"], f"fewer forwards than hops: {n}")
        check(n["switch_arrivals"] == n["switch_forwards"] + n["dropped_packets"]
              - n["dropped_at_hosts"], f"arrivals not forwards and drops at switches: {n}")
        check(n["sent_packets"] >= n["delivered_packets"] + n["dropped_packets"],
              f"more packets delivered and dropped than sent: {n}")
        same = [{k: v for k, v in o.items() if k not in CPU_FIELDS} for o in outs]
        check(same[0] == same[1], f"two runs from seed 7 differ: {same}")

    # a fabric that delivers to the wrong host must be refused
    src = open(os.path.join(HERE, "bench_ns3.cc")).read()
    check(src.count(DOWN) == 1, f"bench_ns3.cc: the edge's down port '{DOWN}' not found once")
    mutant_src, mutant = os.path.join(work, "mutant.cc"), os.path.join(work, "bench_ns3_mutant")
    with open(mutant_src, "w") as f:
        f.write(src.replace(DOWN, DOWN_WRONG))
    cxx = os.environ.get("CXX", "g++")
    libs = os.environ.get("NS3_LIBS", "-lns3-point-to-point -lns3-network -lns3-core").split()
    p = run([cxx, "-std=c++17", "-O1", "-o", mutant, mutant_src] + libs)
    check(p.returncode == 0, f"the mutant did not build: {p.stderr[:300]}")
    env = dict(os.environ, BENCH_NS3_K="4", BENCH_NS3_US="300", BENCH_NS3_PAIRS="1",
               BENCH_NS3_CALLGRIND_K="4", BENCH_NS3_CALLGRIND_US="20", BENCH_SIM_TUNABLES="")
    if p.returncode == 0:
        out = os.path.join(work, "mutant.json")
        p = run([sys.executable, os.path.join(HERE, "bench_ns3.py"), lfc_sim, mutant, out], env)
        check(p.returncode == 2 and "wrong host" in p.stderr and not os.path.exists(out),
              f"a misrouting ns-3 fabric: exit {p.returncode}, {p.stderr!r}; want 2, refused")

    # an ns-3 program whose output lacks the figures, or is not JSON
    for name, text in (("lacks", '{"k": 4}'), ("garbled", "not json")):
        fake = os.path.join(work, f"ns3_{name}")
        with open(fake, "w") as f:
            f.write(f"#!/bin/sh\necho '{text}'\n")
        os.chmod(fake, 0o755)
        out = os.path.join(work, f"{name}.json")
        p = run([sys.executable, os.path.join(HERE, "bench_ns3.py"), lfc_sim, fake, out], env)
        check(p.returncode == 2 and len(p.stderr.splitlines()) == 1 and not os.path.exists(out),
              f"an ns-3 output that {name}: exit {p.returncode}, {p.stderr!r}; want 2, one line")

    # the comparison itself, small
    out = os.path.join(work, "sim_ns3.json")
    p = run([sys.executable, os.path.join(HERE, "bench_ns3.py"), lfc_sim, ns3, out], env)
    check(p.returncode == 0, f"bench_ns3.py: exit {p.returncode}: {p.stderr[:300]}")
    if p.returncode == 0:
        r = json.load(open(out))
        pr = r["pairs"][0]
        ns, lf = pr["ns3"], pr["lfc_sim"]
        check(len(r["pairs"]) == 1 and r["cpu_ratio"] == pr["ratio"], f"the median pair: {r}")
        check(abs(ns["cpu_us_per_hop"] - ns["cpu_seconds"] * 1e6 / ns["switch_arrivals"]) < 1e-2
              and abs(lf["cpu_us_per_hop"] - lf["cpu_seconds"] * 1e6 / lf["packet_hops"]) < 1e-2,
              f"CPU a packet-hop not the run's CPU over its hops: {pr}")
        check(abs(pr["ratio"] - ns["cpu_us_per_hop"] / lf["cpu_us_per_hop"]) < 1e-2,
              f"the pair's ratio: {pr}")
        check(lf["packet_hops"] > 0 and lf["drops"] == 0 and lf["pause_frames"] >= 0,
              f"lfc-sim's run: hops, and no drop under PFC: {lf}")
        cg = r["instructions"]
        check(cg["ns3"]["per_hop"] == round(cg["ns3"]["instructions"] / cg["ns3"]["switch_arrivals"])
              and cg["lfc_sim"]["per_hop"] == round(cg["lfc_sim"]["instructions"]
                                                    / cg["lfc_sim"]["packet_hops"]),
              f"instructions a packet-hop: {cg}")
        check(r["peak_rss_mb"]["ns3"] > 0 and r["peak_rss_mb"]["lfc_sim"] > 0, f"RSS: {r}")
        check("instructions a packet-hop" in p.stdout and "pairs" in p.stdout,
              f"the table: {p.stdout!r}")

    # bad settings: one line, exit 2, no file
    for name, value in (("BENCH_NS3_K", "5"), ("BENCH_NS3_PAIRS", "0"), ("BENCH_NS3_US", "1e3"),
                        ("BENCH_NS3_CALLGRIND_K", "2")):
        out = os.path.join(work, "bad.json")
        p = run([sys.executable, os.path.join(HERE, "bench_ns3.py"), lfc_sim, ns3, out],
                dict(env, **{name: value}))
        check(p.returncode == 2 and len(p.stderr.splitlines()) == 1 and name in p.stderr
              and not os.path.exists(out),
              f"{name}={value}: exit {p.returncode}, {p.stderr!r}; want 2, one line, no file")

    print(f"test_bench_ns3: {checks - fails} passed, {fails} failed")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
