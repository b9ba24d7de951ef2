#!/usr/bin/env python3
"""test_report.py - `make test-mutants-report`: report.py on made-up results of three mutants.

Checks the verdicts that make `make mutants` pass or fail: an argued equivalent counts as
equivalent only while its explained.txt entry names the mutant's source line (a renumbering
must stop the report, exit 2); a survivor without an entry is NOT EXPLAINED and lowers the kill
rate below the target (exit 1), and fails the report even when the rate is above it; a kill by
the time limit is reported apart; the whole plan must make at least 200 mutants. And
report.py --explained (make mutants-list), on the choice alone: the same check of the entries'
lines, and an entry of a mutant that is not in the choice stops it too.
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


# More mutants killed (ids 3..): the kill rate with one survivor above the 97 % target.
MORE_KILLED = 40
TIMEOUT_RC = 124


def run_explained(explained):
    """report.py --explained (make mutants-list) on the two mutants' choice alone, no runs:
    (exit status, stdout + stderr)."""
    with tempfile.TemporaryDirectory() as out:
        os.makedirs(os.path.join(out, "t"))
        with open(os.path.join(out, "t", "chosen.tsv"), "w") as f:
            f.write(HEADER + CHOSEN)
        path = os.path.join(out, "explained.txt")
        with open(path, "w") as f:
            f.write(explained)
        p = subprocess.run([sys.executable, REPORT, "--explained", out, "t"],
                           capture_output=True, text=True,
                           env=dict(os.environ, MUT_EXPLAINED=path))
        return p.returncode, p.stdout + p.stderr


def run(explained, more=0, kill_rc=1, env=None):
    """report.py on the two mutants (and `more` killed ones, the last with status kill_rc) with
    this explained.txt text: (exit status, stdout + stderr, summary)."""
    with tempfile.TemporaryDirectory() as out:
        os.makedirs(os.path.join(out, "t", "equiv"))
        extra = "".join("%d\tt\tcredit_rx\tinv\tlfc_credit_rx\t$add$x$%d\tY\t0\t"
                        "rtl/lfc_credit_rx.v:40.3-40.20\n" % (k, k) for k in range(3, 3 + more))
        with open(os.path.join(out, "t", "chosen.tsv"), "w") as f:
            f.write(HEADER + CHOSEN + extra)
        results = [(1, "killed short 1 short MISMATCH cycle=5"),
                   (2, "survived - 0 - all runs passed")]
        results += [(k, "killed short %d short MISMATCH cycle=7" %
                     (kill_rc if k == 2 + more else 1)) for k in range(3, 3 + more)]
        for k, res in results:
            os.makedirs(os.path.join(out, "t", "runs", str(k)))
            with open(os.path.join(out, "t", "runs", str(k), "result"), "w") as f:
                f.write(res + "\n")
        with open(os.path.join(out, "t", "equiv", "2.result"), "w") as f:
            f.write("unproven timeout\n")
        path = os.path.join(out, "explained.txt")
        with open(path, "w") as f:
            f.write(explained)
        p = subprocess.run([sys.executable, REPORT, out, "t"], capture_output=True, text=True,
                           env=dict(os.environ, MUT_EXPLAINED=path, **(env or {})))
        summary = None
        if os.path.exists(os.path.join(out, "summary.json")):
            with open(os.path.join(out, "summary.json")) as f:
                summary = json.load(f)
        return p.returncode, p.stdout + p.stderr, summary


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
    rc, err, s = run("", more=MORE_KILLED)
    check("a survivor not explained fails the report above the target too (exit 1)",
          rc == 1 and s is not None and s["killed_pct"] >= 97.0 and "not explained" in err)
    rc, err, s = run("t 2 COVERAGE HOLE lfc_credit_rx.v:45-47 no run fills the buffer\n",
                     more=MORE_KILLED)
    check("an explained survivor above the target passes (exit 0)",
          rc == 0 and s is not None and s["survived"] == 1)
    rc, err, s = run("t 2 COVERAGE HOLE lfc_credit_rx.v:45-47 no run fills the buffer\n",
                     more=MORE_KILLED, kill_rc=TIMEOUT_RC)
    check("a kill by the time limit is counted apart (killed_by_timeout 1)",
          rc == 0 and s is not None and s["killed_by_timeout"] == 1 and "time limit" in err)
    rc, err, s = run("t 2 COVERAGE HOLE lfc_credit_rx.v:45-47 no run fills the buffer\n",
                     more=MORE_KILLED, env={"MUT_FULL_PLAN": "1"})
    check("the whole plan with fewer than 200 mutants fails (exit 1)",
          rc == 1 and s is not None and s["min_total"] == 200 and "fewer than" in err)
    rc, err = run_explained("t 2 EQUIVALENT lfc_credit_rx.v:45-47 occ_d bit 15 tied 0\n")
    check("--explained: an entry naming its mutant's line passes without runs (exit 0)",
          rc == 0 and "1 explained.txt entries" in err)
    rc, err = run_explained("t 2 EQUIVALENT lfc_credit_rx.v:50-56 occ_q bit 10\n")
    check("--explained: an entry naming another line stops it (exit 2, the line it wants)",
          rc == 2 and "does not name lfc_credit_rx.v:45" in err)
    rc, err = run_explained("t 9 EQUIVALENT lfc_credit_rx.v:45 no such mutant\n")
    check("--explained: an entry of a mutant the choice does not have stops it (exit 2)",
          rc == 2 and "has no mutant 9" in err)
    total = 10
    if failures:
        print("test-mutants-report: %d of %d checks failed" % (len(failures), total))
        return 1
    print("test-mutants-report: %d checks passed" % total)
    return 0


if __name__ == "__main__":
    sys.exit(main())
