#!/usr/bin/env python3
"""test_pick.py - `make test-mutants-pick`: pick.py's sample on made-up Yosys candidate lists.

The property `make mutants` relies on (README.md step 2): a module's mutants depend only on that
module. Yosys's list of the same module changes with the rest of the design in three ways: the
cells' design-wide counters ($add$lfc_credit_tx.v:28$323 -> ...$1323), the order of the lines,
and the control bit it draws for cnot0/cnot1. pick.py must choose the same mutants (same mode,
port, bit, source, control bit, in the same order) from either list; a plan asking for more
than the module has must stop it (exit 2); another configuration gets another sample.
"""
import os
import random
import subprocess
import sys
import tempfile

PICK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pick.py")
DESIGN = "module \\lfc_switch\n  cell \\lfc_credit_tx \\u_ctx\n  end\nend\n"
COUNT = 12


def yosys_list(counter, prefix, order_seed):
    """Candidate lines of lfc_credit_tx as Yosys writes them: 3 cells of 8-bit ports, every bit
    in every mode (cnot with a random control bit), shuffled."""
    rng = random.Random(order_seed)
    lines = []
    for n, (typ, line) in enumerate((("add", 28), ("sub", 29), ("le", 31))):
        cell = "$%s$%slfc_credit_tx.v:%d$%d" % (typ, prefix, line, counter + n)
        for port in ("A", "Y"):
            for bit in range(8):
                for mode in ("inv", "const0", "const1", "cnot0", "cnot1"):
                    ctrl = " -ctrlbit %d" % rng.choice([b for b in range(8) if b != bit]) \
                        if mode.startswith("cnot") else ""
                    lines.append("mutate -mode %s -module lfc_credit_tx -cell %s -port %s "
                                 "-portbit %d%s -src %slfc_credit_tx.v:%d.3-%d.40\n" %
                                 (mode, cell, port, bit, ctrl, prefix, line, line))
    rng.shuffle(lines)
    return "".join(lines)


def pick(listing, count=COUNT, config="t"):
    """pick.py on one list: (exit status, stderr, [(mode, port, bit, src, ctrlbit)])."""
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "plan.txt"), "w") as f:
            f.write("%s credit_tx %d\n" % (config, count))
        with open(os.path.join(d, "list.credit_tx.txt"), "w") as f:
            f.write(listing)
        with open(os.path.join(d, "design.il"), "w") as f:
            f.write(DESIGN)
        p = subprocess.run([sys.executable, PICK, os.path.join(d, "plan.txt"), config, d,
                            os.path.join(d, "design.il"), "1", os.path.join(d, "chosen.tsv"),
                            os.path.join(d, "apply.ys"), "9"], capture_output=True, text=True)
        if p.returncode:
            return p.returncode, p.stderr, []
        with open(os.path.join(d, "chosen.tsv")) as f:
            rows = [line.rstrip("\n").split("\t") for line in f if not line.startswith("#")]
        with open(os.path.join(d, "apply.ys")) as f:
            ctrl = [line.split("-ctrlbit ")[1].split()[0] if "-ctrlbit" in line else "-"
                    for line in f if line.startswith("mutate ")]
        return 0, p.stderr, [(r[3], r[6], r[7], r[8], c) for r, c in zip(rows, ctrl)]


def main():
    checks = 0
    rc, err, a = pick(yosys_list(323, "rtl/", 1))
    assert rc == 0 and len(a) == COUNT, "pick.py failed: %s" % err
    # The same module in another design: other counters, directories, order and control bits.
    rc, err, b = pick(yosys_list(1323, "/abs/rtl/", 2))
    assert rc == 0, "pick.py failed: %s" % err
    assert a == b, "the sample changed with the rest of the design:\n%s\n%s" % (a, b)
    print("ok: the same %d mutants whatever the cells' counters, order and Yosys's control bits"
          % COUNT)
    checks += 1
    assert len({(m, p, bit, s) for m, p, bit, s, _ in a}) == COUNT, "a mutant chosen twice"
    assert len({s for _, _, _, s, _ in a[:3]}) == 3, "the first three not on three source lines"
    print("ok: no mutant twice; one per source line first")
    checks += 1
    rc, err, c = pick(yosys_list(323, "rtl/", 1), config="u")
    assert rc == 0 and c != a, "another configuration got the same sample"
    print("ok: another configuration, another sample")
    checks += 1
    rc, err, _ = pick(yosys_list(323, "rtl/", 1), count=1000)
    assert rc == 2 and "1000 mutants of credit_tx wanted" in err, (rc, err)
    print("ok: a plan asking for more than the module has stops pick.py (exit 2)")
    checks += 1
    print("test-mutants-pick: %d checks passed" % checks)


if __name__ == "__main__":
    main()
