#!/usr/bin/env python3
"""lfc-sim beside ns-3 on the speed bench's fat tree (`make bench-sim-ns3`, docs/sim.md
"Beside ns-3").

  bench_ns3.py LFC_SIM BENCH_NS3 OUT.json

BENCH_NS3 is sim/tests/bench_ns3.cc built against Debian's ns-3. Both programs run the fat tree
of bench_fat_tree.sh (BENCH_NS3_K, default 16, for BENCH_NS3_US microseconds, default 1000) in
BENCH_NS3_PAIRS pairs (default 3), ns-3 first, then lfc-sim on one thread, with the same heap
settings (BENCH_SIM_TUNABLES, as `make bench-sim`), so that the machine's load falls on both
runs of a pair. Each pair's figure is the ratio of their CPU time a packet crossing a switch:
lfc-sim's delivered packet-hops (bench_sim_report.packet_hops), ns-3's packets that reached a
switch (`switch_arrivals`: forwarded or dropped there, also those dropped further on, which
favours ns-3). Then callgrind counts both programs' instructions (the whole program) on a
smaller tree (BENCH_NS3_CALLGRIND_K, default 8, for BENCH_NS3_CALLGRIND_US, default 200): a
figure this shared machine's load does not move. OUT.json gets every run and the medians; a
table follows on stdout.

Exit status: 0 written; 2 a bad BENCH_NS3_* value (one line naming it), valgrind missing, a run
failing or its output unreadable (one line naming the run), OUT.json not written.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench_sim_report import callgrind_total, packet_hops  # noqa: E402

EXIT_BAD = 2
TIME = "/usr/bin/time"  # GNU time (make deps-sim)
KB_PER_MB = 1024.0
US_PER_S = 1e6
SETTINGS = (("BENCH_NS3_K", 16), ("BENCH_NS3_US", 1000), ("BENCH_NS3_PAIRS", 3),
            ("BENCH_NS3_CALLGRIND_K", 8), ("BENCH_NS3_CALLGRIND_US", 200),
            ("BENCH_NS3_SEED", 1))


class Failed(Exception):
    pass


def settings(env):
    got = {}
    for name, default in SETTINGS:
        v = env.get(name, str(default))
        if not v.isdigit() or (v.startswith("0") and name != "BENCH_NS3_SEED"):
            raise Failed(f"{name}='{v}': must be a positive integer")
        got[name] = int(v)
    for name in ("BENCH_NS3_K", "BENCH_NS3_CALLGRIND_K"):
        if got[name] % 2 or not 4 <= got[name] <= 64:
            raise Failed(f"{name}={got[name]}: a fat tree's k is even, 4 to 64")
    return got


def timed(cmd, env, what, work):
    """Runs cmd under GNU time (as bench_sim.sh does: a child's own peak RSS, which getrusage
    would mix with this Python's at the fork); its stdout, CPU seconds (user + system) and
    peak RSS in MiB."""
    tf = os.path.join(work, "time")
    p = subprocess.run([TIME, "-o", tf, "-f", "%M %U %S"] + cmd, capture_output=True, text=True,
                       env=env)
    if p.returncode != 0:
        raise Failed(f"{what} exited {p.returncode}: {p.stderr.strip()[:300]}")
    try:
        rss_kb, user, system = open(tf).read().split()[-3:]
        return p.stdout, float(user) + float(system), round(int(rss_kb) / KB_PER_MB, 1)
    except (OSError, ValueError) as e:
        raise Failed(f"{what}: GNU time's figures not readable: {e}")


NS3_FIELDS = ("sent_packets", "delivered_packets", "dropped_packets", "dropped_at_hosts",
              "misrouted_packets", "packet_hops", "switch_forwards", "switch_arrivals")


def ns3_json(text, what):
    try:
        d = json.loads(text)
    except ValueError:
        raise Failed(f"{what}: its output is not one JSON object: {text.strip()[:200]}")
    missing = [k for k in NS3_FIELDS if not isinstance(d.get(k), int)]
    if missing:
        raise Failed(f"{what}: its output lacks {', '.join(missing)}")
    return d


def lfc_json(path, what):
    """lfc-sim's --json (docs/sim-json.md), with the fields read here present."""
    try:
        d = json.load(open(path))
        ok = (all(k in d["summary"] for k in ("pause_frames", "drops")) and
              all("delivered_packets" in f and "hops" in f for f in d["flows"]))
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise Failed(f"{what}: its --json {path} is not readable: {e!r}")
    if not ok:
        raise Failed(f"{what}: its --json {path} lacks summary.pause_frames, summary.drops or "
                     "a flow's delivered_packets or hops")
    return d


def pair(lfc_sim, ns3, s, ini, work, env, i):
    what = f"ns-3 (pair {i})"
    text, cpu, rss = timed([ns3, str(s["BENCH_NS3_K"]), str(s["BENCH_NS3_US"]),
                            str(s["BENCH_NS3_SEED"])], env, what, work)
    n = ns3_json(text, what)
    if n["misrouted_packets"] != 0:
        raise Failed(f"{what}: {n['misrouted_packets']} packets reached the wrong host")
    ns = {"cpu_seconds": round(cpu, 2), "peak_rss_mb": rss}
    ns.update({k: n[k] for k in NS3_FIELDS if k != "misrouted_packets"})
    what = f"lfc-sim (pair {i})"
    js = os.path.join(work, f"lfc_{i}.json")
    _, cpu, rss = timed([lfc_sim, ini, "--no-progress", "--threads", "1", "--json", js], env, what, work)
    d = lfc_json(js, what)
    lf = {"cpu_seconds": round(cpu, 2), "peak_rss_mb": rss,
          "delivered_packets": sum(f["delivered_packets"] for f in d["flows"]),
          "packet_hops": packet_hops(d), "pause_frames": d["summary"]["pause_frames"],
          "drops": d["summary"]["drops"]}
    for r, hops, who in ((ns, ns["switch_arrivals"], "ns-3"), (lf, lf["packet_hops"], "lfc-sim")):
        if hops == 0 or r["cpu_seconds"] == 0:
            raise Failed(f"pair {i}: {who}'s run too short to compare ({hops} packets crossed a "
                         f"switch in {r['cpu_seconds']} CPU-s): raise BENCH_NS3_US")
        r["cpu_us_per_hop"] = round(cpu_per_hop(r["cpu_seconds"], hops), 3)
    return {"ns3": ns, "lfc_sim": lf, "ratio": round(ns["cpu_us_per_hop"] / lf["cpu_us_per_hop"], 3)}


def cpu_per_hop(cpu_seconds, hops):
    return cpu_seconds * US_PER_S / hops


def instructions(lfc_sim, ns3, s, work, env):
    k, us = s["BENCH_NS3_CALLGRIND_K"], s["BENCH_NS3_CALLGRIND_US"]
    ini = os.path.join(work, "cg.ini")
    with open(ini, "w") as f:
        f.write(subprocess.run([os.path.join(HERE, "bench_fat_tree.sh"), str(k), str(us)],
                               check=True, capture_output=True, text=True).stdout)
    vg = ["valgrind", "--tool=callgrind"]
    cg_n, cg_l, js = (os.path.join(work, x) for x in ("ns3.cg", "lfc.cg", "cg.json"))
    text, _, _ = timed(vg + [f"--callgrind-out-file={cg_n}", ns3, str(k), str(us),
                             str(s["BENCH_NS3_SEED"])], env, "ns-3 under callgrind", work)
    n = ns3_json(text, "ns-3 under callgrind")
    timed(vg + [f"--callgrind-out-file={cg_l}", lfc_sim, ini, "--no-progress", "--threads",
                "1", "--json", js], env, "lfc-sim under callgrind", work)
    hops_l = packet_hops(lfc_json(js, "lfc-sim under callgrind"))
    try:
        i_n, i_l = callgrind_total(cg_n), callgrind_total(cg_l)
    except (OSError, ValueError) as e:
        raise Failed(f"the callgrind runs: {e}")
    if hops_l == 0 or n["switch_arrivals"] == 0:
        raise Failed("the callgrind runs: no packet crossed a switch")
    per_n, per_l = i_n / n["switch_arrivals"], i_l / hops_l
    return {"k": k, "sim_us": us,
            "ns3": {"instructions": i_n, "switch_arrivals": n["switch_arrivals"],
                    "per_hop": round(per_n)},
            "lfc_sim": {"instructions": i_l, "packet_hops": hops_l, "per_hop": round(per_l)},
            "ratio": round(per_n / per_l, 3)}


def table(r):
    sc, cg = r["scenario"], r["instructions"]
    rows = [("", "ns-3", "lfc-sim", "ns-3 / lfc-sim"),
            (f"CPU us a packet-hop, k={sc['k']} {sc['sim_us']} us (median pair)",
             r["median"]["ns3_cpu_us_per_hop"], r["median"]["lfc_sim_cpu_us_per_hop"],
             r["cpu_ratio"]),
            (f"instructions a packet-hop, k={cg['k']} {cg['sim_us']} us (callgrind)",
             cg["ns3"]["per_hop"], cg["lfc_sim"]["per_hop"], cg["ratio"]),
            ("peak RSS MiB (largest run)", r["peak_rss_mb"]["ns3"], r["peak_rss_mb"]["lfc_sim"],
             round(r["peak_rss_mb"]["ns3"] / r["peak_rss_mb"]["lfc_sim"], 2))]
    for row in rows:
        print(f"{row[0]:<48} {row[1]!s:>10} {row[2]!s:>10} {row[3]!s:>15}")
    print("pairs (ns-3 / lfc-sim CPU a packet-hop): " +
          ", ".join(str(p["ratio"]) for p in r["pairs"]))


def main(argv):
    if len(argv) != 4:
        print("usage: bench_ns3.py LFC_SIM BENCH_NS3 OUT.json", file=sys.stderr)
        return EXIT_BAD
    lfc_sim, ns3, out = argv[1:]
    try:
        s = settings(os.environ)
        for prog in (lfc_sim, ns3):
            if not os.access(prog, os.X_OK):
                raise Failed(f"{prog}: not an executable file")
        if not shutil.which("valgrind"):
            raise Failed("valgrind not found (make deps-minimal)")
        if not os.access(TIME, os.X_OK):
            raise Failed(f"{TIME} not found (GNU time: make deps-sim)")
        env = dict(os.environ)
        tunables = env.get("BENCH_SIM_TUNABLES", "glibc.malloc.hugetlb=1")
        if tunables:
            env["GLIBC_TUNABLES"] = tunables
        with tempfile.TemporaryDirectory() as work:
            ini = os.path.join(work, "ft.ini")
            with open(ini, "w") as f:
                f.write(subprocess.run([os.path.join(HERE, "bench_fat_tree.sh"),
                                        str(s["BENCH_NS3_K"]), str(s["BENCH_NS3_US"])],
                                       check=True, capture_output=True, text=True).stdout)
            pairs = [pair(lfc_sim, ns3, s, ini, work, env, i)
                     for i in range(1, s["BENCH_NS3_PAIRS"] + 1)]
            cg = instructions(lfc_sim, ns3, s, work, env)
    except Failed as e:
        print(f"bench_ns3.py: {e}", file=sys.stderr)
        return EXIT_BAD
    # the median pair by its ratio (of an even count the lower middle), as bench-sim does
    mid = sorted(pairs, key=lambda p: p["ratio"])[(len(pairs) - 1) // 2]
    r = {"scenario": {"k": s["BENCH_NS3_K"], "hosts": s["BENCH_NS3_K"] ** 3 // 4,
                      "sim_us": s["BENCH_NS3_US"], "ns3_seed": s["BENCH_NS3_SEED"],
                      "glibc_tunables": tunables},
         "pairs": pairs, "cpu_ratio": mid["ratio"],
         "median": {"ns3_cpu_us_per_hop": mid["ns3"]["cpu_us_per_hop"],
                    "lfc_sim_cpu_us_per_hop": mid["lfc_sim"]["cpu_us_per_hop"]},
         "peak_rss_mb": {"ns3": max(p["ns3"]["peak_rss_mb"] for p in pairs),
                         "lfc_sim": max(p["lfc_sim"]["peak_rss_mb"] for p in pairs)},
         "instructions": cg}
    try:
        with open(out + ".tmp", "w") as f:
            json.dump(r, f, indent=1)
            f.write("\n")
        os.replace(out + ".tmp", out)
    except OSError as e:
        print(f"bench_ns3.py: {out}: not written: {e}", file=sys.stderr)
        return EXIT_BAD
    table(r)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
