#!/usr/bin/env python3
"""deadlock_gen.py SEED N OUTDIR [cyclic] - N random lfc-sim scenarios whose routing cannot
deadlock, or with `cyclic` N rings routed so that they must.

Each fabric's routes leave no cycle in the channel dependency graph (Dally & Seitz 1987), so no
wait-for cycle can form, however congested it gets:
  - leaf_spine, routing = shortest: every path is leaf, spine, leaf (up, then down);
  - leaf_spine with random failed links, routing = updown (Autonet's up*/down*);
  - fat_tree k = 4, routing = shortest: up to the lowest common level, then down;
  - fat_tree k = 4 with a random failed link, routing = updown;
  - ring, routing = updown (the cable below the root is never crossed downwards then up);
  - line, routing = shortest (a tree: a path never turns back).
The traffic is heavy and keeps flowing: uniform, permutation, all_to_all and incasts at full
load, into hosts that drain slowly (drain_gbps), so pauses (PFC) or credit stalls (IB) spread
through the fabric. Writes OUTDIR/rand_NN.ini and prints one line per scenario: its name and
what it is (the seed alone rebuilds them).

`cyclic`: rings of 3 to 6 switches (PFC or IB), every host sending to the host 2 switches
clockwise by an explicit clockwise path (ring_deadlock_pfc.ini, generalised): the clockwise
queues form a cycle of buffer dependencies and deadlock. Writes OUTDIR/ring_NN.ini and prints
its name and the expected cycle, the clockwise port of every switch: "sw0 pP c0 sw1 pP c0 ...".
"""
import os
import random
import sys


def connected(nodes, links):
    """Are all nodes joined by links (pairs)?"""
    parent = {n: n for n in nodes}

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in links:
        parent[find(a)] = find(b)
    return len({find(n) for n in nodes}) == 1


def fabric(rng):
    """(description, [topology] and [routing] lines, number of hosts)."""
    kind = rng.choice(["ls", "ls_fail", "ft", "ft_fail", "ring", "line"])
    if kind in ("ls", "ls_fail"):
        leaves, spines, hpl = rng.randint(3, 5), rng.randint(2, 3), rng.randint(2, 4)
        topo = ["kind = leaf_spine", f"leaves = {leaves}", f"spines = {spines}",
                f"hosts_per_leaf = {hpl}"]
        if kind == "ls":
            return (f"leaf_spine {leaves}x{spines}x{hpl} shortest", topo,
                    ["algorithm = shortest"], leaves * hpl)
        cables = [(f"leaf{l}", f"spine{s}") for l in range(leaves) for s in range(spines)]
        nodes = [c[0] for c in cables] + [c[1] for c in cables]
        while True:
            failed = rng.sample(cables, rng.randint(1, leaves - 1))
            if connected(set(nodes), [c for c in cables if c not in failed]):
                break
        names = ", ".join(f"{a}-{b}" for a, b in failed)
        return (f"leaf_spine {leaves}x{spines}x{hpl} updown, failed {names}",
                topo + [f"failed_links = {names}"], ["algorithm = updown"], leaves * hpl)
    if kind in ("ft", "ft_fail"):
        topo = ["kind = fat_tree", "k = 4"]
        if kind == "ft":
            return ("fat_tree k=4 shortest", topo, ["algorithm = shortest"], 16)
        pod, e, a = rng.randint(0, 3), rng.randint(0, 1), rng.randint(0, 1)
        link = f"edge{pod * 2 + e}-agg{pod * 2 + a}"
        return (f"fat_tree k=4 updown, failed {link}", topo + [f"failed_links = {link}"],
                ["algorithm = updown"], 16)
    n, hps = rng.randint(3, 6), rng.randint(1, 3)
    topo = [f"kind = {kind}", f"switches = {n}", f"hosts_per_switch = {hps}"]
    alg = "updown" if kind == "ring" else "shortest"
    return (f"{kind} {n}x{hps} {alg}", topo, [f"algorithm = {alg}"], n * hps)


def traffic(rng, nhosts):
    """[traffic.*] sections: one heavy pattern, and sometimes two crossing incasts."""
    pat = rng.choice(["uniform", "permutation", "all_to_all", "incast"])
    out = ["[traffic.main_load]", f"pattern = {pat}"]
    if pat == "incast":
        dst = rng.randrange(nhosts)
        out += [f"src = {', '.join(str(h) for h in range(nhosts) if h != dst)}", f"dst = {dst}"]
    else:
        out += [f"src = 0-{nhosts - 1}"]
    out += ["load = 1.0"]
    desc = pat
    if nhosts >= 4 and rng.random() < 0.5:  # two incasts into opposite ends of the fabric
        a, b = 0, nhosts - 1
        for name, dst in (("x", a), ("y", b)):
            srcs = [h for h in range(nhosts) if h != dst]
            out += [f"[traffic.incast_{name}]", "pattern = incast",
                    f"src = {', '.join(str(h) for h in srcs)}", f"dst = {dst}", "load = 1.0"]
        desc += " + incasts into h0 and h%d" % b
    return desc, out


def write(outdir, name, lines):
    tmp = os.path.join(outdir, name + ".ini.tmp")
    with open(tmp, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, os.path.join(outdir, name + ".ini"))


def cyclic(rng, seed, n, outdir):
    for i in range(n):
        sw, hps = rng.randint(3, 6), rng.randint(1, 2)
        mode = rng.choice(["pfc", "ib"])
        lines = [f"; ring {i} of seed {seed}: {sw} switches x {hps} hosts, {mode}, routed "
                 "clockwise two hops: must deadlock",
                 "[sim]", "duration_us = 60", "deadlock_us = 5", f"seed = {rng.randint(1, 1 << 30)}",
                 "[topology]", "kind = ring", f"switches = {sw}", f"hosts_per_switch = {hps}",
                 "[switch]", f"mode = {mode}", "classes = 1"]
        lines += ["[pfc]", "shared_blocks = 400", "xoff_th = 100"] if mode == "pfc" else []
        lines += ["[routing]"]
        for h in range(sw * hps):
            s0, d = h // hps, (h + 2 * hps) % (sw * hps)
            lines.append(f"path = h{h} sw{s0} sw{(s0 + 1) % sw} sw{(s0 + 2) % sw} h{d}")
        for h in range(sw * hps):
            lines += [f"[traffic.f{h}]", "pattern = flow", f"src = {h}",
                      f"dst = {(h + 2 * hps) % (sw * hps)}"]
        name = f"ring_{i:02d}"
        write(outdir, name, lines)
        # port layout (docs/sim.md): hosts 0..H-1, H towards switch i-1, H+1 towards i+1
        print(name, " ".join(f"sw{s} p{hps + 1} c0" for s in range(sw)))


def main():
    if len(sys.argv) not in (4, 5) or (len(sys.argv) == 5 and sys.argv[4] != "cyclic"):
        sys.stderr.write("usage: deadlock_gen.py SEED N OUTDIR [cyclic]\n")
        return 2
    seed, n, outdir = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    rng = random.Random(seed)
    os.makedirs(outdir, exist_ok=True)
    if len(sys.argv) == 5:
        cyclic(rng, seed, n, outdir)
        return 0
    for i in range(n):
        desc, topo, routing, nhosts = fabric(rng)
        mode = rng.choice(["pfc", "pfc", "ib"])
        tdesc, tr = traffic(rng, nhosts)
        drain = rng.choice([2, 5, 10, 20])
        lines = [f"; random deadlock-free fabric {i} of seed {seed}: {desc}; {mode}; {tdesc}; "
                 f"hosts drain {drain} Gb/s",
                 "[sim]", f"duration_us = {rng.choice([200, 300])}", "deadlock_us = 5",
                 f"seed = {rng.randint(1, 1 << 30)}",
                 "[topology]"] + topo + ["[switch]", f"mode = {mode}", "classes = 1"]
        if mode == "pfc":
            lines += ["[pfc]", "shared_blocks = 400", "xoff_th = 100"]
        else:
            lines += ["[ib]", f"vl_blocks = {rng.choice([65, 130])}"]
        lines += ["[host]", "rx_blocks = 256", f"drain_gbps = {drain}", "[routing]"] + routing + tr
        name = f"rand_{i:02d}"
        write(outdir, name, lines)
        print(f"{name} {desc}; {mode}; {tdesc}; drain {drain} Gb/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
