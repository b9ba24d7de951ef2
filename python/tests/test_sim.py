"""Tests of lfc.sim (python/lfc/sim.py): lfc-sim runs from Python.

Each result is checked against lfc-sim run here directly with --json: the summary attributes,
the DataFrames' rows (the JSON's arrays, element for element), the --csv series; a dict scenario
gives the run its INI file gives; lfc-sim's refusals raise with its own line and exit status;
the sweep's means and Student-t intervals equal those computed from the single runs, and the
t quantile equals the closed forms and the NIST table.

The DataFrame and sweep tests need pandas (lfc[sim]): `make test-python-sim` runs them in
$(BUILD)/venv; `make test-python` runs the rest with the system's Python and skips them.
"""

import json
import math
import os
import subprocess
import tempfile
import unittest

import lfc
from lfc import sim

try:
    import pandas  # noqa: F401
    HAVE_PANDAS = True
except ImportError:
    HAVE_PANDAS = False
needs_pandas = unittest.skipUnless(HAVE_PANDAS, "pandas not installed (make test-python-sim)")

# A small fabric with random traffic: four hosts on one PFC switch, uniform destinations, so that
# seeds differ; 10 us is a few ms of lfc-sim.
UNIFORM = {
    "sim": {"duration_us": 10},
    "topology": {"kind": "star", "hosts_per_switch": 4},
    "switch": {"mode": "pfc", "classes": 1},
    "traffic": {"pattern": "uniform", "src": "0-3", "load": 0.8, "packet_bytes": 1024},
}
INCAST = {
    "sim": {"duration_us": 10},
    "topology": {"kind": "star", "hosts_per_switch": 4},
    "switch": {"mode": "pfc", "classes": 1},
    "traffic.incast": {"pattern": "incast", "src": [1, 2, 3], "dst": 0},
}


def direct(scenario, *args):
    """lfc-sim run here without lfc.sim: (exit status, JSON or None, stderr, csv dir)."""
    tmp = tempfile.mkdtemp(prefix="test-sim-")
    if isinstance(scenario, dict):
        path = os.path.join(tmp, "s.ini")
        sim.write_ini(scenario, path)
    else:
        path = scenario
    out = os.path.join(tmp, "out.json")
    p = subprocess.run([sim.find_lfc_sim(), path, "--json", out, "--csv",
                        os.path.join(tmp, "csv"), "--no-progress", *args],
                       capture_output=True, text=True)
    data = None
    if os.path.exists(out):
        with open(out, encoding="utf-8") as f:
            data = json.load(f)
    return p.returncode, data, p.stderr, os.path.join(tmp, "csv")


class TestRun(unittest.TestCase):
    def test_summary_as_attributes(self):
        r = sim.run(UNIFORM, seed=2)
        rc, data, _, _ = direct(UNIFORM, "--seed", "2")
        self.assertEqual(rc, 0)
        for k, v in data["summary"].items():
            self.assertEqual(r.summary[k], v, k) if k != "wall_seconds" else None
            if k not in ("wall_seconds", "flows"):  # r.flows is the table
                self.assertEqual(getattr(r, k), v, k)
        self.assertEqual(r.scenario["seed"], 2)
        self.assertEqual(r.json["flows"], data["flows"])
        self.assertGreater(r.delivered_bytes, 0)
        self.assertIn("delivered", r.report)  # lfc-sim's text report
        self.assertEqual(r.get("flows.0.src"), data["flows"][0]["src"])

    def test_set_seed_threads(self):
        base = sim.run(UNIFORM, seed=1)
        other = sim.run(UNIFORM, seed=3)
        # another seed draws other destinations: the flows' figures differ (their total may not)
        self.assertNotEqual(base.json["flows"], other.json["flows"])
        self.assertEqual(sim.run(UNIFORM, seed=1, threads=2).json["flows"], base.json["flows"])
        short = sim.run(UNIFORM, set={"sim.duration_us": 5})
        self.assertAlmostEqual(short.sim_us, 5, delta=0.01)
        self.assertLess(short.delivered_bytes, base.delivered_bytes)

    def test_dict_scenario_is_its_ini(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "incast.ini")
            sim.write_ini(INCAST, path)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            self.assertIn("[traffic.incast]\npattern = incast\nsrc = 1, 2, 3\ndst = 0\n", text)
            a = sim.run(path)
        b = sim.run(INCAST)
        self.assertEqual(a.json["flows"], b.json["flows"])
        self.assertEqual(len(b.json["flows"]), 3)
        self.assertGreater(b.pause_frames, 0)  # 3:1 onto one link under PFC

    def test_bad_key_raises_lfc_sims_line(self):
        rc, _, stderr, _ = direct(UNIFORM, "--set", "pfc.bogus=1")
        self.assertEqual(rc, 2)
        with self.assertRaises(sim.SimError) as cm:
            sim.run(UNIFORM, set={"pfc.bogus": 1})
        self.assertEqual(cm.exception.status, 2)
        self.assertEqual(str(cm.exception), stderr.strip())
        self.assertIn("unknown key 'bogus'", str(cm.exception))
        self.assertIsInstance(cm.exception, lfc.LfcError)

    def test_bad_scenario_raises(self):
        bad = dict(UNIFORM, traffic=dict(UNIFORM["traffic"], load=7))
        with self.assertRaisesRegex(sim.SimError, r"scenario\.ini:\d+: \[traffic\] load = 7"):
            sim.run(bad)
        with self.assertRaisesRegex(sim.SimError, "cannot open the scenario file") as cm:
            sim.run("/nonexistent/x.ini")
        self.assertEqual(cm.exception.status, 2)
        with self.assertRaisesRegex(lfc.LfcError, "one line only"):
            sim.run({"sim": {"duration_us": "1\n[evil]"}})

    def test_lfc_sim_found_through_env(self):
        old = os.environ.get("LFC_SIM")
        os.environ["LFC_SIM"] = "/nonexistent/lfc-sim"
        try:
            with self.assertRaisesRegex(lfc.LfcError, "LFC_SIM=/nonexistent/lfc-sim"):
                sim.run(UNIFORM)
        finally:
            if old is None:
                del os.environ["LFC_SIM"]
            else:
                os.environ["LFC_SIM"] = old


class TestStudentT(unittest.TestCase):
    def test_closed_forms(self):
        # df = 1 is the Cauchy distribution: t_p = tan(pi (p - 1/2)); df = 2: t_p =
        # (2p - 1) / sqrt(2 p (1 - p)).
        for p in (0.9, 0.95, 0.975, 0.995):
            self.assertAlmostEqual(sim.t_quantile(p, 1), math.tan(math.pi * (p - 0.5)), places=6)
            self.assertAlmostEqual(sim.t_quantile(p, 2),
                                   (2 * p - 1) / math.sqrt(2 * p * (1 - p)), places=6)

    def test_nist_table(self):
        # NIST/SEMATECH e-Handbook of Statistical Methods, 1.3.6.7.2, upper critical values of
        # Student's t, alpha = 0.025 (three decimals).
        for df, t in ((3, 3.182), (4, 2.776), (9, 2.262), (10, 2.228), (30, 2.042),
                      (100, 1.984)):
            self.assertAlmostEqual(sim.t_quantile(0.975, df), t, delta=0.0006)

    def test_mean_ci(self):
        m, lo, hi = sim.mean_ci([1, 2, 3, 4, 5])  # s = sqrt(2.5), t_{0.975,4} = 2.776
        self.assertEqual(m, 3)
        half = 2.776445 * math.sqrt(2.5) / math.sqrt(5)
        self.assertAlmostEqual(lo, 3 - half, places=5)
        self.assertAlmostEqual(hi, 3 + half, places=5)
        self.assertTrue(math.isnan(sim.mean_ci([7])[1]))


@needs_pandas
class TestTables(unittest.TestCase):
    def test_frames_are_the_json_arrays(self):
        r = sim.run(INCAST, csv=True)
        rc, data, _, csv_dir = direct(INCAST)
        self.assertEqual(rc, 0)
        for name in sim.TABLES:
            df = getattr(r, name)
            self.assertEqual(len(df), len(data[name]), name)
            for i, row in enumerate(df.to_dict("records")):
                want = data[name][i]
                self.assertEqual(set(row), set(want), name)
                for k, v in want.items():
                    if v is None:
                        self.assertTrue(row[k] is None or math.isnan(row[k]), f"{name}[{i}].{k}")
                    else:
                        self.assertEqual(row[k], v, f"{name}[{i}].{k}")
        self.assertEqual(list(r.flows["dst"]), [0, 0, 0])
        for name in ("queues", "flows"):
            with open(os.path.join(csv_dir, name + ".csv"), encoding="utf-8") as f:
                lines = f.read().splitlines()
            df = r.series[name]
            self.assertEqual(list(df.columns), lines[0].split(","))
            self.assertEqual(len(df), len(lines) - 1)
            self.assertEqual([float(x) for x in df.iloc[-1]],
                             [float(x) for x in lines[-1].split(",")])

    def test_sweep_means_and_intervals(self):
        seeds = [1, 2, 3]
        grid = {"traffic.load": [0.4, 0.8]}
        df = lfc.sweep(UNIFORM, grid=grid, seeds=seeds, jobs=2,
                       metrics=["delivered_bytes", "drops"])
        self.assertEqual(list(df["traffic.load"]), [0.4, 0.8])
        self.assertEqual(list(df["n"]), [3, 3])
        for i, load in enumerate(grid["traffic.load"]):
            xs = [direct(UNIFORM, "--seed", str(s), "--set", f"traffic.load={load}")[1]
                  ["summary"]["delivered_bytes"] for s in seeds]
            m = sum(xs) / 3
            s = math.sqrt(sum((x - m) ** 2 for x in xs) / 2)
            half = 4.303 * s / math.sqrt(3)  # NIST table: t_{0.975, 2}
            self.assertEqual(df["delivered_bytes_mean"][i], m)
            self.assertAlmostEqual(df["delivered_bytes_hi"][i], m + half, delta=1e-3 * s + 1e-9)
            self.assertAlmostEqual(df["delivered_bytes_lo"][i], m - half, delta=1e-3 * s + 1e-9)
        self.assertGreater(df["delivered_bytes_mean"][1], df["delivered_bytes_mean"][0])
        runs = df.attrs["runs"]
        self.assertEqual(len(runs), 6)
        self.assertEqual(sorted(set(runs["seed"])), seeds)

    def test_sweep_metric_paths_and_bad_point(self):
        df = lfc.sweep(INCAST, grid={"pfc.xoff_th": [32, 256]}, seeds=[1],
                       metrics={"f0": "flows.0.delivered_bytes"})
        self.assertEqual(list(df.columns), ["point", "pfc.xoff_th", "n", "f0_mean", "f0_lo",
                                            "f0_hi"])
        self.assertEqual(df["f0_mean"][0],
                         direct(INCAST, "--set", "pfc.xoff_th=32")[1]["flows"][0]
                         ["delivered_bytes"])
        with self.assertRaisesRegex(sim.SimError, r"point 1 \(pfc\.xoff_th=abc, seed=1\): .*"
                                    r"xoff_th = abc: expected an integer"):
            lfc.sweep(INCAST, grid={"pfc.xoff_th": [32, "abc"]}, seeds=[1])


if __name__ == "__main__":
    unittest.main()
