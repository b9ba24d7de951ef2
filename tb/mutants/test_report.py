#!/usr/bin/env python3
"""test_report.py - `make test-mutants-report`: report.py on made-up results of three mutants.

Checks the verdicts that make `make mutants` pass or fail: an argued equivalent counts as
equivalent only while its explained.txt entry names the mutant's source line (a renumbering
must stop the report, exit 2); a survivor without an entry is NOT EXPLAINED and lowers the kill
rate below the target (exit 1).
"""
import json
import os
import subprocess
import sys
import tempfile

REPORT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "report.py")
HEADER = "# id\tconfig\tmodule\tmode\tymodule\tcell\tport\tbit\tsrc\n"
# Two mutants of configuration t: 1 killed by the short run, 2 surviving every run.
CHOSEN = ("1\tt\tcredit_rx\tinv\tlfc_credit_rx\t$add$x$1\tY\t3\trtl/lfc_credit_rx.v:40.3-40.20\n"
          "2\tt\tcredit_rx\tconst0\tlfc_credit_rx\t$procmux$2\tY\t15\t"
          "rtl/lfc_credit_rx.v:45.5-47.8\n")


def run(explained):
    """report.py on the two mutants with this explained.txt text: (exit status, stderr, summary)."""
    with tempfile.TemporaryDirectory() as out:
        os.makedirs(os.path.join(out, "t", "equiv"))
        with open(os.path.join(out, "t", "chosen.tsv"), "w") as f:
            f.write(HEADER + CHOSEN)
        for k, res in ((1, "killed short 1 short MISMATCH cycle=5"),
                       (2, "survived - 0 - all runs passed")):
            os.makedirs(os.path.join(out, "t", "runs", str(k)))
            with open(os.path.join(out, "t", "runs", str(k), "result"), "w") as f:
                f.write(res + "\n")
        with open(os.path.join(out, "t", "equiv", "2.result"), "w") as f:
            f.write("unproven timeout\n")
        path = os.path.join(out, "explained.txt")
        with open(path, "w") as f:
            f.write(explained)
        p = subprocess.run([sys.executable, REPORT, out, "t"], capture_output=True, text=True,
                           env=dict(os.environ, MUT_EXPLAINED=path))
        summary = None
        if os.path.exists(os.path.join(out, "summary.json")):
            with open(os.path.join(out, "summary.json")) as f:
                summary = json.load(f)
        return p.returncode, p.stderr, summary


def main():
    failures = []

    def check(what, cond):
        print("%s: %s" % ("ok" if cond else "FAILED", what))
        if not cond:
            failures.append(what)

    rc, err, s = run("t 2 EQUIVALENT lfc_credit_rx.v:45-47 occ_d bit 15 tied 0: never set\n")
    check("an entry naming the mutant's line counts it as an argued equivalent (exit 0)",
          rc == 0 and s is not None and s["equivalent_argued"] == 1 and s["killed_pct"] == 100.0)
    rc, err, s = run("t 2 EQUIVALENT lfc_credit_rx.v:50-56 occ_q bit 10: never set\n")
    check("an entry naming another line stops the report (exit 2, the line it wants)",
          rc == 2 and "does not name lfc_credit_rx.v:45" in err and "explained.txt:1" in err)
    rc, err, s = run("")
    check("a survivor with no entry is NOT EXPLAINED and fails the target (exit 1)",
          rc == 1 and s is not None and s["survived"] == 1 and s["killed_pct"] == 50.0)
    if failures:
        print("test-mutants-report: %d of 3 checks failed" % len(failures))
        return 1
    print("test-mutants-report: 3 checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
