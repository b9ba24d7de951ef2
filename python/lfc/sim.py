"""lfc.sim - the fabric simulator lfc-sim from Python: one run as a result object, and sweeps.

    import lfc
    r = lfc.sim.run("sim/scenarios/pfc_incast.ini", set={"sim.duration_us": 20}, seed=3)
    r.delivered_bytes, r.drops, r.pause_frames        # summary keys as attributes
    r.flows[["src", "dst", "throughput_gbps"]]          # pandas DataFrames (lfc[sim])
    df = lfc.sweep("sim/scenarios/pfc_incast.ini", grid={"pfc.xoff_th": [64, 256]},
                   seeds=[1, 2, 3], metrics=["delivered_bytes", "pause_frames"])

lfc-sim is the built binary: $LFC_SIM, else lfc-sim next to the library lfc loaded
(build/lfc-sim beside build/liblfc.so), else on PATH. Each run writes --json (and --csv) into a
temporary directory, removed when the run has been read. Keys and units: docs/sim-json.md.

pandas is imported only for the tables (Result.flows, ..., sweep), so that the rest of the
package works without it: pip install "lfc[sim]" (or `make python-venv`).
"""

import concurrent.futures
import itertools
import json
import math
import os
import shutil
import subprocess
import tempfile

from . import LfcError, library

__all__ = ["run", "sweep", "Result", "SimError", "find_lfc_sim", "write_ini", "t_quantile"]

TABLES = ("flows", "ports", "groups", "hosts", "links")  # the arrays of docs/sim-json.md
EXIT_FINDING = 1  # docs/exit-status.md: a finding (a scoreboard error, a link mismatch)
_WARNING = ": warning: "  # how lfc-sim's load warnings read (docs/sim.md "Warnings")


class SimError(LfcError):
    """lfc-sim refused or failed: message is its one line on stderr, status its exit status
    (docs/exit-status.md: 1 a finding, 2 bad input or a resource refused). For a finding the
    run's results are in .result (or None)."""

    def __init__(self, message, status, stderr="", command=(), result=None):
        super().__init__(message)
        self.message = message
        self.status = status
        self.stderr = stderr
        self.command = list(command)
        self.result = result


def _pandas():
    try:
        import pandas
    except ImportError:
        raise LfcError("lfc.sim tables need pandas: pip install 'lfc[sim]' (or make python-venv)"
                       ) from None
    return pandas


def find_lfc_sim():
    """The lfc-sim to run: $LFC_SIM, lfc-sim beside the loaded liblfc, or on PATH."""
    env = os.environ.get("LFC_SIM")
    if env:
        if not os.access(env, os.X_OK):
            raise LfcError(f"LFC_SIM={env}: not an executable file")
        return env
    lib_path = getattr(library(), "_name", "") or ""
    if os.sep in lib_path:
        beside = os.path.join(os.path.dirname(os.path.abspath(lib_path)), "lfc-sim")
        if os.access(beside, os.X_OK):
            return beside
    found = shutil.which("lfc-sim")
    if found:
        return found
    raise LfcError("lfc-sim not found: set LFC_SIM to build/lfc-sim (make build/lfc-sim), or put "
                   "it on PATH (make install)")


def _text(v):
    """A Python value as scenario text: bools 1/0, lists comma-separated."""
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, (list, tuple)):
        return ", ".join(_text(x) for x in v)
    s = str(v)
    if "\n" in s or "\r" in s:
        raise LfcError(f"scenario value {s!r}: one line only")
    return s


def write_ini(scenario, path):
    """Write a scenario given as {section: {key: value}} ("traffic.incast": {...}) as INI."""
    with open(path, "w", encoding="utf-8") as f:
        for section, items in scenario.items():
            if not isinstance(items, dict):
                raise LfcError(f"scenario section [{section}]: a dict of key: value, not "
                               f"{type(items).__name__}")
            f.write(f"[{section}]\n")
            for k, v in items.items():
                f.write(f"{k} = {_text(v)}\n")


def _set_items(set):
    """--set items from {"section.key": value} or {section: {key: value}}."""
    out = []
    for k, v in (set or {}).items():
        if isinstance(v, dict):
            out += [f"{k}.{kk}={_text(vv)}" for kk, vv in v.items()]
        else:
            out.append(f"{k}={_text(v)}")
    return out


def value_at(data, path):
    """The value at a dot-separated path of a run's JSON ("summary.drops", "groups.ring.mfu",
    "flows.0.latency_ns_p99"): in a list, an index or the entry whose name, group or id is that
    word (as scripts/sweep's --column). KeyError if there is none."""
    v = data
    for part in path.split("."):
        if isinstance(v, dict):
            v = v[part]
        elif isinstance(v, list):
            if part.isdigit() and int(part) < len(v):
                v = v[int(part)]
            else:
                hit = [e for e in v if isinstance(e, dict)
                       and part in (str(e.get("name")), str(e.get("id")))]
                if not hit:
                    raise KeyError(path)
                v = hit[0]
        else:
            raise KeyError(path)
    return v


class Result:
    """One lfc-sim run: every summary key as an attribute (r.delivered_bytes, r.drops,
    r.deadlock, ...); .summary, .scenario and .json as lfc-sim wrote them; .flows, .ports,
    .groups, .hosts, .links as pandas DataFrames (a row per array element, a column per key;
    the summary's count of flows is r.summary["flows"]); .deadlock_queues the queues of a
    deadlock's cycle (docs/sim-json.md "deadlock"); with
    csv=True, .series {"queues": DataFrame, "flows": DataFrame} of --csv. .report is the text
    lfc-sim printed, .warnings its load warnings, .command what was run."""

    def __init__(self, data, report="", warnings=(), command=(), csv_text=None):
        self.json = data
        self.summary = data.get("summary", {})
        self.scenario = data.get("scenario", {})
        self.deadlock_queues = data.get("deadlock", {}).get("queues", [])
        self.report = report
        self.warnings = list(warnings)
        self.command = list(command)
        self._csv = dict(csv_text or {})
        self._tables = {}

    def __getattr__(self, name):
        summary = self.__dict__.get("summary", {})
        if name in TABLES:
            return self.table(name)
        if name in summary:
            return summary[name]
        raise AttributeError(f"lfc-sim result has no {name!r} (summary keys: "
                             f"{', '.join(summary)}; tables: {', '.join(TABLES)})")

    def __dir__(self):
        return list(super().__dir__()) + list(self.summary) + list(TABLES)

    def table(self, name):
        """The array `name` of the JSON (flows, ports, groups, hosts, links) as a DataFrame."""
        if name not in self._tables:
            if name not in TABLES:
                raise LfcError(f"table '{name}': one of {', '.join(TABLES)}")
            self._tables[name] = _pandas().DataFrame(self.json.get(name, []))
        return self._tables[name]

    @property
    def series(self):
        """The --csv time series as DataFrames by file name ("queues", "flows"); {} without
        csv=True."""
        if not self._csv:
            return {}
        import io
        pd = _pandas()
        return {k: pd.read_csv(io.StringIO(v)) for k, v in self._csv.items()}

    def get(self, path):
        """value_at(self.json, path)."""
        return value_at(self.json, path)

    def __repr__(self):
        s = self.summary
        return (f"<lfc-sim result {self.scenario.get('file', '?')}: {self.scenario.get('mode')} "
                f"{s.get('sim_us')} us, delivered {s.get('delivered_bytes')} bytes, "
                f"drops {s.get('drops')}>")


def run(scenario, set=None, seed=None, threads=None, csv=False, step_all=False, args=(),
        lfc_sim=None, timeout=None):
    """Run lfc-sim on a scenario (a path, or a dict {section: {key: value}} written as INI) with
    --set items (set={"pfc.xoff_th": 64}), --seed, --threads, --step-all, and any other args;
    returns a Result. SimError with lfc-sim's one-line message and exit status if it refused
    or failed (for a finding, exit status 1, SimError.result holds the run's results)."""
    exe = lfc_sim or find_lfc_sim()
    with tempfile.TemporaryDirectory(prefix="lfc-sim-") as tmp:
        if isinstance(scenario, dict):
            path = os.path.join(tmp, "scenario.ini")
            write_ini(scenario, path)
        else:
            path = os.fspath(scenario)
        out = os.path.join(tmp, "out.json")
        cmd = [exe, path, "--json", out, "--no-progress"]
        if seed is not None:
            cmd += ["--seed", str(int(seed))]
        if threads is not None:
            cmd += ["--threads", str(int(threads))]
        if step_all:
            cmd.append("--step-all")
        csv_dir = os.path.join(tmp, "csv")
        if csv:
            cmd += ["--csv", csv_dir]
        for item in _set_items(set):
            cmd += ["--set", item]
        cmd += [str(a) for a in args]
        p = subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                           timeout=timeout)
        lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
        warnings = [ln for ln in lines if _WARNING in ln]
        errors = [ln for ln in lines if _WARNING not in ln]
        result = None
        if p.returncode in (0, EXIT_FINDING) and os.path.exists(out):
            with open(out, encoding="utf-8") as f:
                data = json.load(f)
            csv_text = {}
            if csv and os.path.isdir(csv_dir):
                for name in sorted(os.listdir(csv_dir)):
                    if name.endswith(".csv"):
                        with open(os.path.join(csv_dir, name), encoding="utf-8") as f:
                            csv_text[name[:-len(".csv")]] = f.read()
            result = Result(data, p.stdout, warnings, cmd, csv_text)
        if p.returncode != 0:
            msg = errors[-1] if errors else f"lfc-sim exited {p.returncode}"
            raise SimError(msg, p.returncode, p.stderr, cmd, result)
        if result is None:
            raise SimError(f"lfc-sim wrote no {out}", p.returncode, p.stderr, cmd)
        return result


# ---- Confidence intervals: Student's t (W. S. Gosset, "The probable error of a mean",
# Biometrika 6, 1908). The quantile is computed, not tabled: the t distribution function is
# 1 - I_x(df/2, 1/2) / 2 for t > 0, x = df / (df + t^2) (NIST/SEMATECH e-Handbook of Statistical
# Methods, 1.3.6.6.4; Abramowitz and Stegun 26.7.1), with the regularized incomplete beta I_x by
# its continued fraction (DLMF 8.17.22, evaluated by the modified Lentz method), and inverted by
# bisection. python/tests/test_sim.py checks it against the closed forms for 1 and 2 degrees of
# freedom and the NIST table of critical values.

_BETA_EPS = 1e-15
_BETA_TINY = 1e-300
_BETA_MAX_TERMS = 500


def _betacf(a, b, x):
    """The continued fraction of I_x(a, b) (DLMF 8.17.22), modified Lentz."""
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > _BETA_TINY else _BETA_TINY)
    h = d
    for m in range(1, _BETA_MAX_TERMS):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > _BETA_TINY else _BETA_TINY)
            c = 1.0 + num / c
            c = c if abs(c) > _BETA_TINY else _BETA_TINY
            h *= d * c
        if abs(d * c - 1.0) < _BETA_EPS:
            break
    return h


def _betainc(a, b, x):
    """The regularized incomplete beta function I_x(a, b), 0 <= x <= 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    # The fraction converges fast for x < (a + 1) / (a + b + 2); otherwise use the symmetry
    # I_x(a, b) = 1 - I_{1-x}(b, a).
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_cdf(t, df):
    """P(T <= t) for Student's t with df degrees of freedom."""
    tail = 0.5 * _betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


_T_BISECT_STEPS = 200


def t_quantile(p, df):
    """The t with P(T <= t) = p, 0.5 <= p < 1 (t_{0.975, 4} = 2.776)."""
    if not 0.5 <= p < 1.0 or df < 1:
        raise LfcError(f"t_quantile: p = {p} (0.5 <= p < 1), df = {df} (>= 1)")
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        lo, hi = hi, hi * 2.0
    for _ in range(_T_BISECT_STEPS):
        mid = (lo + hi) / 2.0
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * max(1.0, hi):
            break
    return (lo + hi) / 2.0


def mean_ci(values, confidence=0.95):
    """(mean, low, high): the mean of the values and its confidence interval by Student's t,
    mean +- t_{(1+c)/2, n-1} s / sqrt(n), s the sample standard deviation. One value: (v, nan,
    nan)."""
    xs = [float(v) for v in values]
    n = len(xs)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    m = sum(xs) / n
    if n == 1:
        return (m, math.nan, math.nan)
    s = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    half = t_quantile((1.0 + confidence) / 2.0, n - 1) * s / math.sqrt(n)
    return (m, m - half, m + half)


def _numeric(v):
    return isinstance(v, (int, float))  # bools too: the mean of deadlock is the share of runs


def _summary_metrics(data):
    """Every number of the summary (drops_by_cause flattened: drops_by_cause.shared)."""
    out = {}
    for k, v in data.get("summary", {}).items():
        if isinstance(v, dict):
            out.update({f"{k}.{kk}": vv for kk, vv in v.items() if _numeric(vv)})
        elif _numeric(v) and k != "wall_seconds":
            out[k] = v
    return out


def sweep(scenario, grid=None, seeds=(1,), jobs=None, set=None, metrics=None, confidence=0.95,
          threads=None, lfc_sim=None):
    """Run a scenario at every point of a grid ({"pfc.xoff_th": [64, 256], ...}: every
    combination, the first key varying slowest, as scripts/sweep), once per seed, jobs runs at
    a time on this machine (default: every core). Returns a DataFrame, one row per point: the
    grid values, n (the seeds run), and per metric <m>_mean, <m>_lo, <m>_hi (the confidence
    interval of the mean by Student's t over the seeds; NaN with one seed). metrics: names of
    summary keys, or {column: JSON path} (value_at: "groups.ring.mfu"); default every number of
    the summary. The per-run values are in df.attrs["runs"] (a DataFrame). SimError for the
    first point lfc-sim refuses, naming the point."""
    pd = _pandas()
    grid = dict(grid or {})
    keys = list(grid)
    points = list(itertools.product(*[list(grid[k]) for k in keys])) if keys else [()]
    seeds = list(seeds)
    if not seeds:
        raise LfcError("sweep: seeds: at least one")
    exe = lfc_sim or find_lfc_sim()
    tmpdir = None
    if isinstance(scenario, dict):  # written once, run many times
        tmpdir = tempfile.TemporaryDirectory(prefix="lfc-sweep-")
        path = os.path.join(tmpdir.name, "scenario.ini")
        write_ini(scenario, path)
        scenario = path

    def one(job):
        i, values, seed = job
        fixed = dict(set or {})
        fixed.update(zip(keys, values))
        try:
            return job, run(scenario, set=fixed, seed=seed, threads=threads, lfc_sim=exe)
        except SimError as e:
            where = ", ".join(f"{k}={v}" for k, v in zip(keys, values))
            raise SimError(f"point {i} ({where}{', ' if where else ''}seed={seed}): {e.message}",
                           e.status, e.stderr, e.command, e.result) from None

    jobs_list = [(i, values, seed) for i, values in enumerate(points) for seed in seeds]
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as ex:
            done = list(ex.map(one, jobs_list))
    finally:
        if tmpdir is not None:
            tmpdir.cleanup()

    rows = []
    for (i, values, seed), r in done:
        if metrics is None:
            got = _summary_metrics(r.json)
        elif isinstance(metrics, dict):
            got = {}
            for name, path in metrics.items():
                try:
                    got[name] = value_at(r.json, path)
                except KeyError:
                    got[name] = None
        else:
            got = {m: value_at(r.json, m if "." in m else f"summary.{m}") for m in metrics}
        rows.append({"point": i, **dict(zip(keys, values)), "seed": seed, **got})
    runs = pd.DataFrame(rows)
    names = [c for c in runs.columns if c not in ("point", "seed", *keys)]
    out = []
    for i, values in enumerate(points):
        mine = [r for r in rows if r["point"] == i]
        row = {"point": i, **dict(zip(keys, values)), "n": len(mine)}
        for m in names:
            xs = [r[m] for r in mine if r.get(m) is not None]
            lo_hi = mean_ci(xs, confidence) if xs else (math.nan,) * 3
            row[f"{m}_mean"], row[f"{m}_lo"], row[f"{m}_hi"] = lo_hi
        out.append(row)
    df = pd.DataFrame(out)
    df.attrs["runs"] = runs
    df.attrs["confidence"] = confidence
    return df
