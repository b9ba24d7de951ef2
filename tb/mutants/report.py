#!/usr/bin/env python3
"""report.py - the result of `make mutants` (tb/mutants/mutants.sh writes its inputs).

    report.py OUT CONFIG...

Reads, per configuration C: OUT/C/chosen.tsv (the mutants), OUT/C/runs/<id>/result (killed or
survived, by which run), OUT/C/equiv/<id>.result (equiv.sh: "equivalent HOW" or "unproven WHY")
and tb/mutants/explained.txt (hand-reviewed reasons for survivors that no tool proved, one
"config id reason" a line). A reason that starts with "EQUIVALENT" is an argument that the mutant
cannot change any output of the switch (it names the parameter values and invariants that make
the mutated bit unreachable): such a mutant counts as equivalent, reported apart from the
tool-proved ones ("equivalent_argued"); any other reason (a "COVERAGE HOLE") leaves it a survivor.

Writes OUT/summary.json (total, killed, survived, equivalent, the kill rate over the
non-equivalent mutants, per module, per configuration, and how many of the credit/PFC/ECN
mutants the runs of `make test` kill), OUT/survivors.txt (every survivor with its reason) and
OUT/mutants.tsv (every mutant and its outcome). Prints a short summary.

Environment: TEST_COSIM_SEEDS (tb/tb.mk's, default 4): `make test-cosim` runs seeds
1..TEST_COSIM_SEEDS of every configuration at full length on Verilator, besides the short run.
MUT_FULL_PLAN=1 (mutants.sh, when every configuration of the plan ran): there must be at least
MIN_TOTAL mutants.
Exit 1 if fewer than TARGET_PCT % of the non-equivalent mutants were killed, if a survivor is not
explained, or if the full plan made fewer than MIN_TOTAL mutants; 2 on bad input. A kill by the
runs' time limit (timeout's status 124) counts, and is reported apart ("killed_by_timeout"): a
mutant that hangs the simulation is caught, but so would be one on a machine far too slow.
"""
import json
import os
import sys

# The mutation score required (tb/mutants/README.md): at least 97 % of the non-equivalent mutants
# killed, of at least 200, every survivor explained.
TARGET_PCT = 97.0
MIN_TOTAL = 200
# timeout(1)'s status when it stopped a run (runs.sh: MUT_TIMEOUT).
TIMEOUT_RC = 124
# The modules of the credit, PFC and ECN logic: a wrong operator or constant
# there must make `make test` fail.
FOCUS = {
    "credit": ("credit_tx", "credit_rx", "fcp_gen"),
    "pfc": ("pfc_gen", "pfc_rx", "buffer", "watchdog"),
    "ecn": ("ecn",),
}
# MUT_EXPLAINED: another file, for tb/mutants/test_report.py.
EXPLAINED = os.environ.get("MUT_EXPLAINED", "tb/mutants/explained.txt")


def fail(msg):
    sys.stderr.write("report.py: " + msg + "\n")
    sys.exit(2)


def read_first_line(path):
    try:
        with open(path) as f:
            return f.readline().rstrip("\n")
    except OSError:
        return None


def load_explained():
    """{(config, id): (line number, reason)}"""
    out = {}
    if not os.path.exists(EXPLAINED):
        return out
    with open(EXPLAINED) as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.rstrip("\n").split(None, 2)
            if len(parts) != 3 or not parts[1].isdigit():
                fail("%s:%d: want 'config id reason'" % (EXPLAINED, lineno))
            out[(parts[0], int(parts[1]))] = (lineno, parts[2])
    return out


def src_tag(src):
    """'rtl/lfc_credit_rx.v:45.5-47.8' -> 'lfc_credit_rx.v:45': the file and first line a
    reason in explained.txt must name."""
    where = src.rsplit("/", 1)[-1]
    name, _, pos = where.partition(":")
    return "%s:%s" % (name, pos.split(".", 1)[0].split("-", 1)[0])


def check_reason(entry, c, k, src):
    """An entry is keyed by mutant number, which names another mutant once rtl/, the plan or
    the list seed change: the reason must name the mutant's source file and first line, so that
    a review that is due fails here instead of counting a stale argument."""
    lineno, why = entry
    tag = src_tag(src)
    if tag not in why:
        fail("%s:%d: the reason for %s %d does not name %s, where that mutant is now (%s): "
             "rtl/, plan.txt or the list seed changed; review the entry (survivors.md)"
             % (EXPLAINED, lineno, c, k, tag, src))
    return why


def check_explained(out, configs):
    """report.py --explained OUT CONFIG...: every explained.txt entry of these configurations
    names a mutant of OUT/C/chosen.tsv, and names its source line (check_reason); exit 2
    naming the first that does not. Needs the choice only (make mutants-list), no runs."""
    explained = load_explained()
    checked = 0
    for c in configs:
        src = {}
        with open(os.path.join(out, c, "chosen.tsv")) as f:
            for line in f:
                if not line.startswith("#"):
                    cols = line.rstrip("\n").split("\t")
                    src[int(cols[0])] = cols[8]
        for (ec, k), entry in sorted(explained.items()):
            if ec != c:
                continue
            if k not in src:
                fail("%s:%d: %s has no mutant %d (%d chosen): review the entry (survivors.md)"
                     % (EXPLAINED, entry[0], c, k, len(src)))
            check_reason(entry, c, k, src[k])
            checked += 1
    print("report.py: %d explained.txt entries of %s name their mutants' source lines"
          % (checked, " ".join(configs)))


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "--explained":
        if len(sys.argv) < 4:
            fail("usage: report.py --explained OUT CONFIG...")
        check_explained(sys.argv[2], sys.argv[3:])
        return 0
    if len(sys.argv) < 3:
        fail("usage: report.py OUT CONFIG...")
    out, configs = sys.argv[1], sys.argv[2:]
    explained = load_explained()
    mutants = []
    stale = []  # explained.txt entries of mutants that a run killed
    for c in configs:
        tsv = os.path.join(out, c, "chosen.tsv")
        with open(tsv) as f:
            for line in f:
                if line.startswith("#"):
                    continue
                k, config, module, mode, _ymod, cell, port, bit, src = \
                    line.rstrip("\n").split("\t")
                k = int(k)
                res = read_first_line(os.path.join(out, c, "runs", str(k), "result"))
                if res is None:
                    fail("%s: mutant %d has no result (did its runs finish?)" % (c, k))
                r = res.split(" ", 4)
                m = {"config": c, "id": k, "module": module, "mode": mode, "cell": cell,
                     "port": port, "bit": bit, "src": src, "status": r[0],
                     "killed_by": r[1], "rc": int(r[2]), "run": r[3], "line": r[4]}
                if m["status"] == "survived":
                    eq = read_first_line(os.path.join(out, c, "equiv", "%d.result" % k)) or \
                        "unproven equiv.sh wrote no result"
                    how = eq.split(" ", 1)
                    why = None
                    if (c, k) in explained:
                        why = check_reason(explained[(c, k)], c, k, src)
                    if how[0] == "equivalent":
                        m["status"] = "equivalent"
                        m["equiv"] = "proved"
                        m["reason"] = "proved equivalent: " + (how[1] if len(how) > 1 else "")
                    elif why is not None and why.startswith("EQUIVALENT"):
                        m["status"] = "equivalent"
                        m["equiv"] = "argued"
                        m["reason"] = "argued (tb/mutants/explained.txt): " + why
                    else:
                        m["reason"] = why or "NOT EXPLAINED (" + eq + ")"
                elif (c, k) in explained:
                    stale.append("%s:%d" % (c, k))
                mutants.append(m)

    def count(ms):
        d = {"total": len(ms), "killed": 0, "survived": 0, "equivalent": 0}
        for m in ms:
            d[m["status"]] += 1
        live = d["total"] - d["equivalent"]
        d["killed_pct"] = round(100.0 * d["killed"] / live, 2) if live else 100.0
        return d

    summary = count(mutants)
    summary["target_pct"] = TARGET_PCT
    summary["equivalent_proved"] = sum(1 for m in mutants if m.get("equiv") == "proved")
    summary["equivalent_argued"] = sum(1 for m in mutants if m.get("equiv") == "argued")
    summary["killed_by"] = {kind: sum(1 for m in mutants if m["status"] == "killed"
                                      and m["killed_by"] == kind)
                            for kind in ("short", "long", "variant")}
    summary["killed_by_timeout"] = sum(1 for m in mutants if m["status"] == "killed"
                                       and m["rc"] == TIMEOUT_RC)
    full_plan = os.environ.get("MUT_FULL_PLAN", "0") == "1"
    summary["min_total"] = MIN_TOTAL if full_plan else 0
    summary["per_module"] = {mod: count([m for m in mutants if m["module"] == mod])
                             for mod in sorted({m["module"] for m in mutants})}
    summary["per_config"] = {c: count([m for m in mutants if m["config"] == c]) for c in configs}
    # Which of the non-equivalent credit/PFC/ECN mutants the runs of `make test` kill. A run is
    # named "short" (seed 1, test_cycles) or "seedN" (full length), prefixed "VARIANT/" when it ran
    # a stimulus variant, which is an ordinary configuration of make test-cosim too. make
    # test-cosim makes the short run of every configuration and seeds 1..TEST_COSIM_SEEDS at full
    # length (tb/tb.mk); a run outside that set (MUT_SEEDS larger than it) does not count.
    seeds = os.environ.get("TEST_COSIM_SEEDS", "4")
    if not seeds.isdigit():
        fail("TEST_COSIM_SEEDS='%s': want a number of seeds" % seeds)
    test_seeds = int(seeds)

    def run_in_make_test(run):
        leaf = run.rsplit("/", 1)[-1]
        if leaf == "short":
            return True
        return leaf.startswith("seed") and leaf[4:].isdigit() and int(leaf[4:]) <= test_seeds

    def by_short_run(m):
        return m["status"] == "killed" and m["run"].rsplit("/", 1)[-1] == "short"

    def by_make_test(m):
        return m["status"] == "killed" and run_in_make_test(m["run"])
    tc = {}
    for area, mods in FOCUS.items():
        ms = [m for m in mutants if m["module"] in mods and m["status"] != "equivalent"]
        missed = [m for m in ms if not by_make_test(m)]
        tc[area] = {"modules": list(mods), "non_equivalent": len(ms),
                    "killed_by_short_run": sum(1 for m in ms if by_short_run(m)),
                    "killed_by_make_test": len(ms) - len(missed),
                    "missed": ["%s:%d %s %s %s[%s] %s" % (m["config"], m["id"], m["module"],
                               m["mode"], m["port"], m["bit"], m["src"]) for m in missed]}
    summary["make_test_runs"] = tc

    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=2)
        f.write("\n")
    with open(os.path.join(out, "mutants.tsv"), "w") as f:
        f.write("config\tid\tmodule\tmode\tport\tbit\tsrc\tstatus\tkilled_by\trun\tdetail\n")
        for m in mutants:
            f.write("\t".join(str(x) for x in (
                m["config"], m["id"], m["module"], m["mode"], m["port"], m["bit"], m["src"],
                m["status"], m["killed_by"], m["run"], m.get("reason", m["line"]))) + "\n")
    with open(os.path.join(out, "survivors.txt"), "w") as f:
        f.write("# Mutants no run killed (config:id module mode port[bit] source: reason).\n")
        for m in mutants:
            if m["status"] != "killed":
                f.write("%s:%d %s %s %s[%s] %s %s: %s\n" % (
                    m["config"], m["id"], m["module"], m["mode"], m["port"], m["bit"],
                    m["src"], m["cell"], m["reason"]))

    s = summary
    print("== mutants: %d total, %d killed, %d survived, %d equivalent: %.2f %% of the "
          "non-equivalent killed (target %.0f %%)" % (s["total"], s["killed"], s["survived"],
                                                       s["equivalent"], s["killed_pct"],
                                                       TARGET_PCT))
    print("   equivalent: %d proved by Yosys (equiv.sh), %d argued in %s; killed by the "
          "test-cosim run %d, by longer seeds %d, by stimulus variants %d" % (
              s["equivalent_proved"], s["equivalent_argued"], EXPLAINED,
              s["killed_by"]["short"], s["killed_by"]["long"], s["killed_by"]["variant"]))
    for mod, d in s["per_module"].items():
        print("   %-11s %3d total %3d killed %3d survived %3d equivalent" % (
            mod, d["total"], d["killed"], d["survived"], d["equivalent"]))
    for area, d in tc.items():
        print("   make test kills %d of %d non-equivalent %s mutants (its short runs alone %d)" % (
            d["killed_by_make_test"], d["non_equivalent"], area, d["killed_by_short_run"]))
    unexplained = [m for m in mutants if m["status"] == "survived"
                   and m["reason"].startswith("NOT EXPLAINED")]
    print("   survivors: %s/survivors.txt (%d not explained)" % (out, len(unexplained)))
    if s["killed_by_timeout"]:
        print("   %d of the kills are by the time limit (MUT_TIMEOUT): a mutant that hangs the "
              "simulation, or a machine too slow for the limit; mutants.tsv says which" %
              s["killed_by_timeout"])
    if stale:
        print("   note: %s lists mutants that are now killed: %s" % (EXPLAINED, " ".join(stale)))
    print("   summary:   %s/summary.json" % out)
    ok = True
    if s["killed_pct"] < TARGET_PCT:
        print("mutants: FAIL: %.2f %% of the non-equivalent mutants killed, below %.0f %%" %
              (s["killed_pct"], TARGET_PCT))
        ok = False
    if unexplained:
        print("mutants: FAIL: %d survivors not explained (every survivor must be explained): "
              "%s" % (len(unexplained), " ".join("%s:%d" % (m["config"], m["id"])
                                                   for m in unexplained)))
        ok = False
    if s["total"] < s["min_total"]:
        print("mutants: FAIL: %d mutants, fewer than the %d the plan must make" %
              (s["total"], s["min_total"]))
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
