#!/usr/bin/env python3
"""The JSON and the goals table of `make bench-sim` (sim/tests/bench_sim.sh, docs/sim.md "Speed").

  bench_sim_report.py TMPDIR US CALLGRIND_US TUNABLES PAIRS THREADS OUT.json
                                         assemble OUT.json from the runs
  bench_sim_report.py --table OUT.json   print the goals table

Exit status: 0 written or printed; 1 the fat tree's results differ between its runs (they must
not: docs/sim.md "Threads"); 2 OUT.json not written or not readable, the callgrind run's
functions (TMPDIR/ft8.annotate) not readable or not summing to its total, its report on
stdout (TMPDIR/ft8.out) not readable or without its "device steps" line, or a run of today's
code (TMPDIR/base_I, when TMPDIR/baseline.rev says it ran) not readable.
"""
import json
import os
import re
import statistics
import sys

EXIT_FINDING = 1
EXIT_BAD = 2
KB_PER_MB = 1024.0
US_PER_MS = 1000.0

# The speed goals (docs/sim.md "Speed"), each with the figures docs/sim.md records for the
# code before them (the 1 ms fat tree, "threads take their own lanes first", load 1.7-1.9;
# the instruction count as measured when this bench first counted it).
TODAY_CPU_S_1_THREAD_PER_MS = 25.8
CPU_GOAL_FRACTION = 1.0 / 5.0
GOAL_INSTR_PER_HOP = 3000
TODAY_INSTR_PER_HOP = "7 710"
# The goal is "<= 75 MB (<= 70 KB per host)" for the 1024 hosts; peak_rss_mb is MiB, so the
# per-host reading, 70 KiB x 1024 = 70 MiB, is the stricter: it is the one checked here.
GOAL_PEAK_RSS_KIB_PER_HOST = 70
TODAY_PEAK_RSS_MB = "214-229"
GOAL_SPEEDUP_2_THREADS = 1.8
TODAY_SPEEDUP_2_THREADS = "1.23-1.87 (load 1.7-1.9); 1.06 (load 5.6)"

# Fields of lfc-sim's --json that must not depend on the number of threads (a sample of them:
# docs/sim.md "Threads" says the whole JSON but its timing fields).
THREAD_INDEPENDENT = ("sim_cycles", "delivered_bytes", "drops", "pause_frames")


def run_entry(tmp, name, label, tunables):
    d = json.load(open(os.path.join(tmp, name + ".json")))
    run = open(os.path.join(tmp, name + ".run")).read().split()
    rss_kb, cpu, load, threads, alone, cycles = run
    s, sc = d["summary"], d["scenario"]
    w = s["wall_seconds"]
    return d, {"name": label, "hosts": sc["hosts"], "links": sc["links"],
               "sim_cycles": s["sim_cycles"], "sim_us": s["sim_us"], "wall_seconds": w,
               "peak_rss_mb": round(int(rss_kb) / KB_PER_MB, 1),
               "eq_port_cycles_per_s": round(sc["links"] * s["sim_cycles"] / w) if w > 0 else None,
               "cpu_seconds": float(cpu), "load_average_1min": float(load),
               "glibc_tunables": tunables, "threads": int(threads),
               "cycles_alone_pct": (round(100.0 * int(alone) / int(cycles), 1) if int(cycles)
                                    else None),
               "delivered_bytes": s["delivered_bytes"], "drops": s["drops"],
               "pause_frames": s["pause_frames"]}


def packet_hops(d):
    """Delivered packet-hops: each flow's delivered packets times the switches on its path
    (flows[].hops has one element per switch; with ECMP a flow keeps one path). Packets still
    in flight at the end are not counted, though their hops so far cost instructions."""
    return sum(f["delivered_packets"] * len(f["hops"]) for f in d["flows"])


# Where the callgrind run's instructions go, by the source file each instruction comes from
# (code inlined elsewhere counts where it is written): the first part whose test a file's path
# passes. Paths are the build's absolute ones, so they are matched by what they end with or
# hold.
PARTS = (
    ("engine", "engine (engine.c: inputs, outputs, wake-ups, words, records, sources)",
     lambda f: f.endswith("sim/src/engine.c")),
    ("switch_step", "switch step (switch.c: its own code, next event, skip-ahead)",
     lambda f: f.endswith("cmodel/src/switch.c")),
    ("switch_blocks", "switch blocks A..H (the other cmodel/src files)",
     lambda f: "cmodel/src/" in f and not f.endswith("cmodel/src/nic.c")),
    ("node", "end nodes (nic.c)", lambda f: f.endswith("cmodel/src/nic.c")),
    ("latency_series", "latency series (latsum.c, latsum.h)", lambda f: "sim/src/latsum." in f),
    ("setup_reports", "set-up and reports (the other sim/src files)", lambda f: "sim/src/" in f),
    ("libc", "C library and loader (the rest)", lambda f: True),
)


# `  1,234 ( 5.67%)  file:function [object]`, and the `PROGRAM TOTALS` line in that form
COST_LINE = re.compile(r"^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(.*)$")


def part_of(path):
    return next(key for key, _, test in PARTS if test(path))


def instructions_by_part(annotate, total):
    """Instructions of each part of PARTS, from `callgrind_annotate --auto=no --inclusive=no
    --threshold=100` (every function's own cost as `N (P%)  file:function [object]`). Their sum
    must be the run's total: else the listing was cut or misread (ValueError)."""
    parts = dict((key, 0) for key, _, _ in PARTS)
    for line in open(annotate):
        m = COST_LINE.match(line)
        if m is None or m.group(2).startswith("PROGRAM TOTALS"):
            continue
        parts[part_of(m.group(2).split(":", 1)[0])] += int(m.group(1).replace(",", ""))
    if sum(parts.values()) != total:
        raise ValueError("%s: its functions sum to %d instructions, the run counted %d"
                         % (annotate, sum(parts.values()), total))
    return parts


# lfc-sim's last report line: `  peak_rss_mb 7.1, device steps 241727, eq_port_...`
DEVICE_STEPS = re.compile(r"\bdevice steps (\d+)\b")


def device_steps(path):
    """The device steps (switches' and nodes' together) of lfc-sim's report on stdout: with
    skip-ahead a device is stepped only in the cycles where it has an event (docs/sim.md "How it
    runs"), so steps per packet-hop say whether the cost is per event or per cycle."""
    for line in open(path):
        m = DEVICE_STEPS.search(line)
        if m is not None:
            return int(m.group(1))
    raise ValueError(path + ": no \"device steps\" line")


def callgrind_total(path):
    for line in open(path):
        if line.startswith("summary:") or line.startswith("totals:"):
            return int(line.split()[1])
    raise ValueError(path + ": no summary: line")


def speedup(pair):
    w1, w2 = pair[0]["wall_seconds"], pair[1]["wall_seconds"]
    return w1 / w2 if w2 > 0 else 0.0


def unreadable(e):
    """A run's file that could not be read (OSError e): one line, exit 2."""
    print("bench_sim_report.py: %s: not readable (%s)" % (e.filename, e.strerror),
          file=sys.stderr)
    sys.exit(EXIT_BAD)


def baseline(tmp, tunables, pairs, ft):
    """Today's code run first in each pair (bench_sim.sh: TMPDIR/baseline.rev and base_I), if
    it ran: each pair's CPU seconds of it on one thread over this code's (`cpu_ratio` under
    `pairs`), and `baseline` with its rev, the median of its CPU seconds and of those ratios
    (of an even count the lower middle one, as the speed-up's). Its results are not compared
    with this code's: it is another model (docs/sim.md "Speed")."""
    rev_file = os.path.join(tmp, "baseline.rev")
    if not os.path.exists(rev_file):
        return
    try:
        base = [run_entry(tmp, "base_%d" % i, "fat_tree_k16_permutation_baseline", tunables)[1]
                for i in range(1, len(pairs) + 1)]
    except OSError as e:
        unreadable(e)
    ratios = [b["cpu_seconds"] / p[0]["cpu_seconds"] if p[0]["cpu_seconds"] > 0 else 0.0
              for b, p in zip(base, pairs)]
    for entry, b, r in zip(ft["pairs"], base, ratios):
        entry["cpu_seconds_baseline"] = b["cpu_seconds"]
        entry["cpu_ratio"] = round(r, 3)
    ft["baseline"] = {"rev": open(rev_file).read().strip(),
                      "cpu_seconds_1_thread": statistics.median_low(b["cpu_seconds"] for b in base),
                      "cpu_ratio": round(statistics.median_low(ratios), 3)}


def assemble(tmp, us, cg_us, tunables, npairs, threads, out):
    """The fat tree's entry from its pairs of runs (1 thread, then 2; bench_sim.sh): the median
    pair by speed-up gives `speedup_2_threads` and `scaling`, every pair is listed under `pairs`;
    the other fields are those of a run on `threads` threads (the median pair's if 1 or 2), with
    the largest peak RSS of all runs on that many threads."""
    pairs = [[run_entry(tmp, "ft_t%d_%d" % (t, i), "fat_tree_k16_permutation", tunables)[1]
              for t in (1, 2)] for i in range(1, npairs + 1)]
    runs = [e for p in pairs for e in p]
    if threads not in (1, 2):
        runs.append(run_entry(tmp, "ft", "fat_tree_k16_permutation", tunables)[1])
    for k in THREAD_INDEPENDENT:
        if len(set(e[k] for e in runs)) > 1:
            print("bench_sim_report.py: the fat tree's %s differs between its runs: %s"
                  % (k, ", ".join("%s on %d thread(s)" % (e[k], e["threads"]) for e in runs)),
                  file=sys.stderr)
            sys.exit(EXIT_FINDING)
    # of an even count the lower middle one: a goal is not met by chance
    mid = statistics.median_low([(speedup(p), i) for i, p in enumerate(pairs)])[1]
    ft = dict(pairs[mid][threads - 1] if threads in (1, 2) else runs[-1])
    ft["peak_rss_mb"] = max(e["peak_rss_mb"] for e in runs if e["threads"] == threads)
    ft["scaling"] = [{"threads": e["threads"], "wall_seconds": e["wall_seconds"],
                      "cpu_seconds": e["cpu_seconds"], "load_average_1min": e["load_average_1min"],
                      "cycles_alone_pct": e["cycles_alone_pct"]} for e in pairs[mid]]
    ft["speedup_2_threads"] = round(speedup(pairs[mid]), 3)
    ft["cpu_seconds_1_thread"] = statistics.median_low([p[0]["cpu_seconds"] for p in pairs])
    ft["pairs"] = [{"wall_seconds_1": p[0]["wall_seconds"], "wall_seconds_2": p[1]["wall_seconds"],
                    "cpu_seconds_1": p[0]["cpu_seconds"], "cpu_seconds_2": p[1]["cpu_seconds"],
                    "peak_rss_mb_2": p[1]["peak_rss_mb"],
                    "load_average_1min": p[1]["load_average_1min"],
                    "cycles_alone_pct_2": p[1]["cycles_alone_pct"],
                    "speedup": round(speedup(p), 3)} for p in pairs]
    baseline(tmp, tunables, pairs, ft)
    _, incast = run_entry(tmp, "incast", "incast_127_to_1", tunables)
    d8 = json.load(open(os.path.join(tmp, "ft8.json")))
    ir = callgrind_total(os.path.join(tmp, "ft8.callgrind"))
    hops = packet_hops(d8)
    try:
        by_part = instructions_by_part(os.path.join(tmp, "ft8.annotate"), ir)
        steps = device_steps(os.path.join(tmp, "ft8.out"))
    except OSError as e:
        unreadable(e)
    except ValueError as e:
        print("bench_sim_report.py: %s" % e, file=sys.stderr)
        sys.exit(EXIT_BAD)
    cg = {"name": "fat_tree_k8_permutation_callgrind", "hosts": d8["scenario"]["hosts"],
          "links": d8["scenario"]["links"], "sim_cycles": d8["summary"]["sim_cycles"],
          "sim_us": d8["summary"]["sim_us"], "threads": 1, "instructions": ir,
          "delivered_packets": sum(f["delivered_packets"] for f in d8["flows"]),
          "packet_hops": hops,
          "instructions_per_packet_hop": round(ir / hops) if hops else None,
          "instructions_by_part": by_part,
          "devices": d8["scenario"]["switches"] + d8["scenario"]["hosts"], "device_steps": steps,
          "device_steps_per_packet_hop": round(steps / hops, 3) if hops else None}
    try:
        with open(out, "w") as f:
            json.dump([ft, incast, cg], f, indent=1)
            f.write("\n")
    except OSError as e:
        print("bench_sim_report.py: %s: not written (%s)" % (out, e.strerror), file=sys.stderr)
        sys.exit(EXIT_BAD)


def fmt(x, spec):
    return "-" if x is None else format(x, spec)


def table(path):
    try:
        ft, _, cg = json.load(open(path))
    except (OSError, ValueError) as e:
        print("bench_sim_report.py: %s: not readable (%s)" % (path, e), file=sys.stderr)
        sys.exit(EXIT_BAD)
    per_ms = US_PER_MS / ft["sim_us"] if ft["sim_us"] > 0 else None
    # a sim.json of before the pairs has one pair, in `scaling`
    cpu_1 = ft.get("cpu_seconds_1_thread", ft["scaling"][0]["cpu_seconds"])
    cpu_ms = cpu_1 * per_ms if per_ms else None
    n = len(ft.get("pairs", [None]))
    of = "" if n == 1 else ", median of %d" % n
    scaled = "" if abs(ft["sim_us"] - US_PER_MS) < 1 else " (scaled from %.0f us)" % ft["sim_us"]
    rows = [
        ("CPU s per simulated ms, 1 thread%s%s" % (scaled, of), fmt(cpu_ms, ".2f"),
         "<= %.2f (1/5 of today's)" % (TODAY_CPU_S_1_THREAD_PER_MS * CPU_GOAL_FRACTION),
         "%.1f" % TODAY_CPU_S_1_THREAD_PER_MS),
    ]
    base = ft.get("baseline")  # run with today's code, or a sim.json of before it
    if base is not None:
        rows.append(("CPU s of today's code (%s) / this, 1 thread, same run%s"
                     % (base["rev"], of), "%.2f" % base["cpu_ratio"],
                     ">= %.0f (a fifth)" % (1.0 / CPU_GOAL_FRACTION), "1"))
    two = ft["scaling"][1]
    # the share of the two-thread run's cycles one thread stepped alone (crew.h; none before it)
    alone = ("" if two.get("cycles_alone_pct") is None
             else ", %.1f %% of its cycles alone" % two["cycles_alone_pct"])
    rows += [
        ("instructions per packet-hop (k=8, %.0f us)" % cg["sim_us"],
         fmt(cg["instructions_per_packet_hop"], ","), "<= %d" % GOAL_INSTR_PER_HOP,
         TODAY_INSTR_PER_HOP),
        ("peak RSS MiB, %d thread(s)%s" % (ft["threads"], "" if n == 1 else ", largest"),
         fmt(ft["peak_rss_mb"], ".1f"),
         "<= %.0f (%d KB a host)" % (GOAL_PEAK_RSS_KIB_PER_HOST * ft["hosts"] / KB_PER_MB,
                                     GOAL_PEAK_RSS_KIB_PER_HOST), TODAY_PEAK_RSS_MB),
        ("speed-up wall(1)/wall(2)%s, load %.1f%s" % (of, two["load_average_1min"], alone),
         fmt(ft["speedup_2_threads"], ".2f"), ">= %.1f on two free cores" % GOAL_SPEEDUP_2_THREADS,
         TODAY_SPEEDUP_2_THREADS),
    ]
    head = ("figure (fat tree k=16 unless said)", "measured", "goal", "today (docs/sim.md)")
    print_rows([head] + rows)
    # a sim.json of before the parts has none
    by_part, hops = cg.get("instructions_by_part"), cg["packet_hops"]
    if by_part and hops:
        print()
        print_rows([("instructions per packet-hop (k=8, %.0f us), by source" % cg["sim_us"],
                     "measured")] +
                   [(text, format(round(by_part[key] / hops), ","))
                    for key, text, _ in PARTS if key in by_part])
    # a sim.json of before the step count has none
    per_hop = cg.get("device_steps_per_packet_hop")
    if per_hop is not None and cg["sim_cycles"] > 0:
        print()
        print("device steps per packet-hop (k=8): %.2f; %.1f of the %d devices stepped a cycle"
              % (per_hop, cg["device_steps"] / cg["sim_cycles"], cg["devices"]))


def print_rows(rows):
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print("  ".join(c.ljust(widths[i]) for i, c in enumerate(r)).rstrip())


def main(argv):
    if len(argv) == 3 and argv[1] == "--table":
        table(argv[2])
    elif len(argv) == 8:
        assemble(argv[1], float(argv[2]), float(argv[3]), argv[4], int(argv[5]), int(argv[6]),
                 argv[7])
    else:
        print("usage: " + " ".join(__doc__.strip().splitlines()[2].split()), file=sys.stderr)
        sys.exit(EXIT_BAD)


if __name__ == "__main__":
    main(sys.argv)
