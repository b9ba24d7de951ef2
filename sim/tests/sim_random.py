#!/usr/bin/env python3
"""sim_random.py: random scenarios, each run five ways, whose digests and time series must agree.

lfc-sim's speed rests on two claims that the fixed scenarios of `make test-sim` check on
nineteen fabrics: skipping the cycles without an event gives the same run as stepping every
device in every cycle (`--step-all`, with the link words checked against the model's own links
in every cycle), and N threads give the same run as one. This script checks them on scenarios
it draws from a seed: small fabrics of every topology, both flow-control modes, mixed link
speeds and delays, wire time, cut-through, static and dynamic thresholds, tight buffers,
the PFC watchdog, ECN and DCQCN, class maps, adaptive routing, every traffic pattern with on/off
periods and start and stop times (docs/sim.md "Tests").

Each scenario is run by LFC_SIM_CHECK (the model with its assertions) with --step-all and
without, and by LFC_SIM (built for speed) on 1, 2 and 3 threads. A case fails when a run fails
(exit status, assertion, time limit), when the five digests are not all equal, or when the
five runs' time series (--csv) are not the same bytes; the scenario is kept in OUT as
case-SEED-I.ini with a line to rerun it. Exit status: 0 when every case
passed, 1 when one failed, 2 for bad arguments.

  sim_random.py LFC_SIM LFC_SIM_CHECK OUT [--seed S] [--cases N] [--seconds T]

--cases N (default 20) or, with --seconds T, as many as T seconds allow (at least one).
"""
import os
import random
import shutil
import subprocess
import sys
import time

SIM_SEEDS = 1 << 32  # a scenario's [sim] seed is below this
RUN_LIMIT_S = 120  # one run's time limit: some hundred times a case's usual time here
SPEEDS_GBPS = (25, 50, 100, 200, 400)  # every ratio of two of them is a whole speed_div
PATTERNS = ("flow", "uniform", "permutation", "incast", "all_to_all", "ring_allreduce",
            "tree_allreduce", "sharp", "ddp", "poisson")
COLLECTIVES = ("ring_allreduce", "tree_allreduce", "sharp", "ddp")
ROLES = {"line": ("sw",), "ring": ("sw",), "star": ("sw",), "leaf_spine": ("leaf", "spine"),
         "rail": ("leaf", "spine"), "fat_tree": ("edge", "agg", "core")}


def usage(msg):
    print(f"sim_random.py: {msg}; usage: sim_random.py LFC_SIM LFC_SIM_CHECK OUT "
          "[--seed S] [--cases N] [--seconds T]", file=sys.stderr)
    sys.exit(2)


def parse_args(argv):
    if len(argv) < 3:
        usage("three arguments needed")
    sim, chk, out = argv[:3]
    opts = {"--seed": 1, "--cases": 20, "--seconds": 0}
    rest = argv[3:]
    while rest:
        if rest[0] not in opts:
            usage(f"'{rest[0]}': not an option here (allowed: --seed, --cases, --seconds)")
        if len(rest) < 2:
            usage(f"{rest[0]}: its value is missing")
        try:
            v = int(rest[1])
        except ValueError:
            usage(f"{rest[0]} '{rest[1]}': not a whole number")
        if v < 0 or (rest[0] == "--cases" and v < 1):
            usage(f"{rest[0]} {v}: out of range (--seed and --seconds >= 0, --cases >= 1)")
        opts[rest[0]] = v
        rest = rest[2:]
    for b in (sim, chk):
        if not os.access(b, os.X_OK):
            usage(f"'{b}': not an executable")
    return sim, chk, out, opts["--seed"], opts["--cases"], opts["--seconds"]


# ---- The scenario --------------------------------------------------------------------------

def topology(r):
    """The [topology] keys, and the number of hosts (two at least)."""
    kind = r.choice(("line", "ring", "star", "leaf_spine", "fat_tree", "rail"))
    if kind == "line":  # a switch has two ports at least
        n = r.randint(1, 3)
        h = r.randint(2 if n == 1 else 1, 3)
        return {"kind": kind, "switches": n, "hosts_per_switch": h}, n * h
    if kind == "ring":
        n, h = r.randint(3, 4), r.randint(1, 2)
        return {"kind": kind, "switches": n, "hosts_per_switch": h}, n * h
    if kind == "star":
        h = r.randint(2, 6)
        return {"kind": kind, "hosts_per_switch": h}, h
    if kind == "leaf_spine":
        leaves, spines, h = r.randint(2, 3), r.randint(1, 2), r.randint(1, 3)
        t = {"kind": kind, "leaves": leaves, "spines": spines, "hosts_per_leaf": h,
             "spine_links": r.randint(1, 2)}
        return t, leaves * h
    if kind == "fat_tree":
        return {"kind": kind, "k": 4}, 16
    rails, servers = 2, r.randint(2, 3)  # a spine has a port a rail
    return {"kind": kind, "rails": rails, "servers": servers, "spines": r.randint(1, 2)}, \
        rails * servers


def traffic(r, hosts, classes, pfc, mtu_bytes, duration_us):
    """The keys of one [traffic.NAME] section: a pattern with its own keys."""
    pat = r.choice(PATTERNS + ("incast", "permutation"))  # the congested ones more often
    g = {"pattern": pat, "class": r.randrange(classes)}
    if pat in ("flow", "incast"):  # a flow has one source; none sends to itself
        src = r.sample(range(hosts), 1 if pat == "flow" else r.randint(1, min(4, hosts - 1)))
        g["src"] = ", ".join(map(str, src))
        g["dst"] = r.choice([h for h in range(hosts) if h not in src])
    else:
        g["src"] = f"0-{hosts - 1}" if r.random() < 0.5 else \
            ", ".join(map(str, sorted(r.sample(range(hosts), r.randint(2, hosts)))))
    if pat in ("ring_allreduce", "tree_allreduce", "sharp"):
        g["bytes"] = r.choice((4096, 16384, 65536))
    if pat == "sharp":
        g["chunk_bytes"] = r.choice((4096, 16384))
    if pat == "ddp":
        g["collective"] = r.choice(("ring", "tree", "sharp"))
        g["steps"], g["buckets"] = r.randint(1, 2), r.randint(1, 3)
        g["bucket_bytes"] = r.choice((4096, 20000))
        g["forward_us"], g["backward_us"] = r.choice((0, 0.5)), r.choice((0, 1))
    if pat == "poisson":
        g["sizes"] = r.choice(("4096:1", "1024:3, 65536:1", "256:1, 8192:1"))
    if pat in ("flow", "uniform", "permutation", "incast", "all_to_all", "poisson"):
        g["load"] = r.choice((0.05, 0.3, 0.7, 1.0, 1.0))
        if pat != "poisson" and r.random() < 0.3:
            g["bytes"] = r.choice((1000, 8192, 50000))
    g["packet_bytes"] = r.choice([b for b in (64, 100, 1024, 4096) if b <= mtu_bytes] + [mtu_bytes])
    if r.random() < 0.3:
        g["start_us"] = round(r.uniform(0, duration_us / 2), 2)
    if r.random() < 0.2:
        g["stop_us"] = round(g.get("start_us", 0) + r.uniform(0.5, duration_us / 2), 2)
    if r.random() < 0.2 and pat not in COLLECTIVES + ("poisson",):
        g["on_us"], g["off_us"] = r.choice((0.5, 2)), r.choice((0.5, 1))
    if pfc and r.random() < 0.5:
        g["ecn"] = 1
        if r.random() < 0.5 and pat not in COLLECTIVES:
            g["dcqcn"] = 1
    return g


def scenario(r, seed):
    """The text of a random scenario: sections of keys, drawn from r; `seed` is its [sim] seed."""
    duration_us = r.choice((5, 10, 20, 50))
    topo, hosts = topology(r)
    pfc = r.random() < 0.6
    classes = r.randint(1, 4)
    secs = {"sim": {"duration_us": duration_us, "seed": seed, "sample_us": r.choice((0.5, 1, 2))},
            "topology": topo}
    link = {"speed_gbps": r.choice(SPEEDS_GBPS), "cable_m": r.choice((1, 2, 10, 30))}
    if r.random() < 0.4:
        link["host_speed_gbps"] = r.choice([s for s in SPEEDS_GBPS if s <= link["speed_gbps"]])
    if r.random() < 0.3:
        link["host_cable_m"] = r.choice((1, 5, 40))
    secs["link"] = link
    mtu = r.choice((17, 33, 65))
    sw = {"mode": "pfc" if pfc else "ib", "classes": classes, "mtu_blocks": mtu,
          "wire_time": r.randint(0, 1),
          # cut-through with one speed only: a slower ingress would underrun a faster egress
          "cut_through": r.randint(0, 1) if "host_speed_gbps" not in link else 0,
          "latency_ns": r.choice((5, 50, 300))}
    secs["switch"] = sw
    if pfc:
        shared = r.choice((40, 64, 200, 1000, 4000))
        every = (1 << classes) - 1  # the masks name classes 0..classes-1
        quanta = r.choice((2, 30, 50, 1000, 65535))  # a refresh comes within one pause time
        p = {"shared_blocks": shared, "headroom_blocks": r.choice((0, 20, 100, 400)),
             "reserve_blocks": r.choice((0, 8, 70)), "xon_offset": r.choice((1, 8, 40)),
             "pause_quanta": quanta, "refresh_cycles": r.randint(1, quanta - 1),
             "lossless_mask": r.choice((every, 1, every & ~1))}
        if r.random() < 0.5:
            p["dynamic_th"], p["alpha_log2"] = 1, r.randint(-3, 3)
        else:
            p["xoff_th"] = r.choice((8, 16, shared // 4, shared))
        if r.random() < 0.3:
            p["strict_mask"] = r.randint(1, every)
        if r.random() < 0.4:  # a storm needs a queue paused for wd_detect cycles
            p["wd_enable"], p["wd_detect"], p["wd_restore"] = 1, r.choice((20, 50, 400)), \
                r.choice((100, 1000))
            p["wd_action"] = r.choice(("drop", "drop", "forward"))
        if r.random() < 0.4:
            kmin = r.choice((2, 10, 40))
            p["ecn_mask"], p["kmin"], p["kmax"] = r.randint(1, every), kmin, kmin + r.choice((1, 50, 400))
            p["pmax"] = r.choice((1, 20, 100))
        secs["pfc"] = p
    else:
        ib = {"vl_blocks": r.choice((mtu, 2 * mtu, 300)), "fcp_period": r.choice((16, 200, 1024))}
        if r.random() < 0.5:
            ib["fcp_holdoff"] = r.choice((0, 10, 100))
        secs["ib"] = ib
    if r.random() < 0.5:
        host = {"tx_fifo_pkts": r.choice((1, 4, 16)), "response_ns": r.choice((0, 20, 500))}
        if pfc and r.random() < 0.5:
            host["rx_blocks"] = r.choice((200, 2000))
        if r.random() < 0.5:  # a slow receiver: PFC storms, the watchdog's trips
            host["drain_gbps"] = r.choice((5, 10, 50))
        secs["host"] = host
    # One role of the fabric with settings of its own ([switch.ROLE], [pfc.ROLE], [ib.ROLE]).
    role = r.choice(ROLES[topo["kind"]])
    if r.random() < 0.3:
        secs[f"switch.{role}"] = {"latency_ns": r.choice((5, 100)), "wire_time": r.randint(0, 1)}
    if r.random() < 0.3:
        if pfc:
            secs[f"pfc.{role}"] = {"headroom_blocks": r.choice((10, 300)),
                                   "xon_offset": r.choice((2, 16))}
        else:
            secs[f"ib.{role}"] = {"vl_blocks": r.choice((mtu, 3 * mtu))}
    # A cable between two switches that changes the classes (an IB map is its own inverse).
    cable = {"line": ("sw0", "sw1"), "ring": ("sw0", "sw1"), "leaf_spine": ("leaf0", "spine0"),
             "rail": ("leaf0", "spine0"), "fat_tree": ("edge0", "agg0")}.get(topo["kind"])
    if cable is not None and classes >= 2 and (topo.get("switches", 2) >= 2) and r.random() < 0.3:
        if pfc:
            cmap = [r.randrange(classes) for _ in range(classes)]
        else:
            cmap = [1, 0] + list(range(2, classes))
        secs["classmap"] = {f"{cable[0]}-{cable[1]}": ", ".join(map(str, cmap))}
    if topo["kind"] == "leaf_spine" and topo["spines"] > 1 and r.random() < 0.3:
        topo["failed_links"] = "leaf1-spine0"  # one of the ways up fails (not the mapped one)
    routing = {}
    if topo["kind"] == "ring" and r.random() < 0.5:
        routing["algorithm"] = "updown"
    if r.random() < 0.3:
        routing["adaptive"] = 1
    if r.random() < 0.3:
        routing["ecmp"] = r.choice((1, 2, 4))
    if routing:
        secs["routing"] = routing
    for i in range(r.randint(1, 3)):
        secs[f"traffic.t{i}"] = traffic(r, hosts, classes, pfc, mtu * 64, duration_us)
    if any(g.get("pattern") == "sharp" or g.get("collective") == "sharp"
           for name, g in secs.items() if name.startswith("traffic.")):
        link["ae_speed_gbps"] = link["speed_gbps"]  # the aggregation engines' links: no faster
    return "".join(f"[{s}]\n" + "".join(f"{k} = {v}\n" for k, v in keys.items())
                   for s, keys in secs.items())


# ---- The runs ------------------------------------------------------------------------------

def run(binary, ini, extra, csv):
    """The digest of one run, its time series written into the directory csv; or an error text."""
    cmd = [binary, ini, "--no-progress", "--digest", "--csv", csv] + extra
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_LIMIT_S)
    except subprocess.TimeoutExpired:
        return None, f"no end within {RUN_LIMIT_S} s"
    digest = [l[7:] for l in p.stdout.splitlines() if l.startswith("digest ")]
    if p.returncode != 0 or len(digest) != 1:
        tail = (p.stderr.strip().splitlines() or p.stdout.strip().splitlines() or [""])[-1]
        return None, f"exit {p.returncode}: {tail[:200]}"
    return digest[0], None


def series(csv):
    """The time series files of a run (--csv): {name: bytes}."""
    out = {}
    for name in sorted(os.listdir(csv)):
        with open(os.path.join(csv, name), "rb") as f:
            out[name] = f.read()
    return out


def check_case(sim, chk, ini, work):
    """None if the five runs agree, else what went wrong (one line). The runs' time series are
    written under `work` (removed after) and must be the same bytes too: the digest covers the
    counters, flows and link words at the end, the series what was sampled on the way."""
    ways = (("stepped", chk, ["--step-all"]), ("checked", chk, []), ("fast", sim, []),
            ("2 threads", sim, ["--threads", "2"]), ("3 threads", sim, ["--threads", "3"]))
    got = []
    os.makedirs(work, exist_ok=True)
    try:
        for i, (name, binary, extra) in enumerate(ways):
            csv = os.path.join(work, str(i))
            d, err = run(binary, ini, extra, csv)
            if err is not None:
                return f"{name} run: {err}"
            got.append((name, d, series(csv)))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if len({d for _, d, _ in got}) != 1:
        return "digests differ: " + ", ".join(f"{n} {d}" for n, d, _ in got)
    for name, _, files in got[1:]:
        if files != got[0][2]:
            diff = sorted(f for f in set(files) | set(got[0][2]) if files.get(f) != got[0][2].get(f))
            return f"time series differ: {', '.join(diff)} of the {name} run against the stepped one"
    return None


def main(argv):
    sim, chk, out, seed, cases, seconds = parse_args(argv)
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        usage(f"OUT '{out}': {e.strerror}")
    print(f"sim_random: seed {seed}, " + (f"{seconds} s" if seconds else f"{cases} cases") +
          ", each run five ways", flush=True)
    t0, done, failed = time.monotonic(), 0, 0
    while True:
        if seconds > 0:
            if done > 0 and time.monotonic() - t0 >= seconds:
                break
        elif done >= cases:
            break
        r = random.Random(f"{seed}:{done}")
        ini = os.path.join(out, f"case-{seed}-{done}.ini")
        with open(ini, "w") as f:
            f.write(f"; sim_random.py --seed {seed}: case {done}\n")
            f.write(scenario(r, (seed * 1000 + done + 1) % SIM_SEEDS))
        why = check_case(sim, chk, ini, os.path.join(out, f"series-{seed}-{done}"))
        if why is None:
            os.remove(ini)
        else:
            failed += 1
            print(f"  FAIL {ini}: {why}", flush=True)
        done += 1
    print(f"sim_random: {done - failed} passed, {failed} failed "
          f"(seed {seed}, {time.monotonic() - t0:.0f} s; failing scenarios kept in {out})")
    if failed:
        print(f"  to run a kept scenario again: {chk} FILE --no-progress --digest --csv DIR1 "
              f"--step-all, then {sim} FILE --no-progress --digest --csv DIR2 [--threads N]")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
