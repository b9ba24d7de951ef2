#!/usr/bin/env python3
"""scripts/mutants-c.py - mutation testing of the C model (issue #5 §4; `make mutants-c`).

Each mutant changes one thing in one file of cmodel/src/*.c:
  rel     a relational operator: < <=, <= <, > >=, >= >, == !=, != ==
  arith   a binary + or -, or += -=, swapped
  logic   && ||, swapped
  const   an integer literal n -> n + 1 or n - 1
  stmt    a one-line expression statement (assignment, call, ++/--, break) deleted
Only function bodies are mutated (file-scope tables and declarations are data, not logic);
comments, strings, character literals and preprocessor lines are never touched.

The tree is never edited in place (other people build it): the pristine library and test objects
are compiled once into BUILD/mutants-c/base/, and each mutant compiles only its file into its own
directory and links the test binaries against the pristine objects of every other file. The
cmocka binaries then run, fastest first and the ones that killed most so far first, until one
fails (killed) or all pass (survived); each has a time limit (a mutant that hangs is killed by
the timeout and counted as killed). With --golden, survivors also regenerate the golden traces
(cmodel/tools/lfc_trace) and are killed by any difference from cmodel/tests/golden/.

A mutant whose object file is byte-identical to the original one (-O2, no debug info) is
counted as equivalent: the compiler proved it changes nothing. One that does not compile is
stillborn and left out of the total.

Output: BUILD/mutants/c-summary.json (total, killed, survived, equivalent, stillborn, score =
killed / (total - equivalent), the sample and how it was drawn) and BUILD/mutants/c-survivors.txt
(one line per survivor: file:line, the change, and the source line). A sample (--max N > 0) is
drawn with random.Random(--seed) from the full list, so it is the same every run.
"""
import argparse
import concurrent.futures as cf
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CC = os.environ.get("CC_MUT", "gcc")
CFLAGS = ["-std=c11", "-O2", "-g0", "-fPIC", "-w", "-Icmodel/include",
          "-DLFC_VERSION_STRING=\"mutant\""]
# Tests that take tens of seconds run last: most mutants die in the fast ones.
SLOW_TESTS = ("test_property", "test_skip_ahead")

OPS = ["<<=", ">>=", "<=", ">=", "==", "!=", "&&", "||", "++", "--", "->", "+=", "-=", "*=",
       "/=", "%=", "&=", "|=", "^=", "<<", ">>", "<", ">", "+", "-", "*", "/", "%", "&", "|",
       "^", "!", "~", "=", "?", ":", ";", ",", ".", "(", ")", "[", "]", "{", "}"]
SWAP = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "==",
        "&&": "||", "||": "&&", "+=": "-=", "-=": "+=", "+": "-", "-": "+"}
KIND = {"<": "rel", "<=": "rel", ">": "rel", ">=": "rel", "==": "rel", "!=": "rel",
        "&&": "logic", "||": "logic", "+=": "arith", "-=": "arith", "+": "arith", "-": "arith"}
NUM_RE = re.compile(r"(0[xX][0-9a-fA-F]+|[0-9]+)([uUlL]*)")
STMT_RE = re.compile(
    r"^(\s+)("
    r"[A-Za-z_][\w.\->\[\]*]*\s*(?:=|\+=|-=|\|=|&=|\^=|<<=|>>=|\*=)[^=].*"  # assignment
    r"|[A-Za-z_][\w.\->\[\]]*\s*(?:\+\+|--)"  # x++
    r"|(?:\+\+|--)[A-Za-z_][\w.\->\[\]]*"  # ++x
    r"|[A-Za-z_]\w*\s*\(.*\)"  # call
    r"|break"
    r");\s*$")
DECL_RE = re.compile(r"^\s*(?:const\s+|static\s+|unsigned\s+|struct\s+|enum\s+)*"
                     r"[A-Za-z_]\w*\s+\**\s*[A-Za-z_]\w*\s*(?:=|\[|;|,)")


def tokens(src):
    """(start, end, text, kind) of operators and integer literals outside comments, strings,
    character literals and preprocessor lines; kind is 'op', 'num' or 'id'."""
    i, n = 0, len(src)
    line_start = True
    while i < n:
        c = src[i]
        if c == "\n":
            line_start = True
            i += 1
            continue
        if c in " \t\r":
            i += 1
            continue
        if line_start and c == "#":  # preprocessor line, with continuations
            while i < n and not (src[i] == "\n" and src[i - 1] != "\\"):
                i += 1
            continue
        line_start = False
        if src.startswith("/*", i):
            i = src.index("*/", i + 2) + 2
            continue
        if src.startswith("//", i):
            i = src.find("\n", i)
            i = n if i < 0 else i
            continue
        if c in "\"'":
            j = i + 1
            while src[j] != c:
                j += 2 if src[j] == "\\" else 1
            i = j + 1
            continue
        if c.isalpha() or c == "_":
            j = i
            while j < n and (src[j].isalnum() or src[j] == "_"):
                j += 1
            yield (i, j, src[i:j], "id")
            i = j
            continue
        if c.isdigit():
            m = NUM_RE.match(src, i)
            j = m.end()
            while j < n and (src[j].isalnum() or src[j] == "."):  # floats etc.: skip whole
                j += 1
            if j == m.end():
                yield (i, j, src[i:j], "num")
            i = j
            continue
        for op in OPS:
            if src.startswith(op, i):
                yield (i, i + len(op), op, "op")
                i += len(op)
                break
        else:
            i += 1


def line_of(src, pos):
    return src.count("\n", 0, pos) + 1


def mutants_of(path):
    src = open(os.path.join(ROOT, path)).read()
    toks = list(tokens(src))
    out = []
    depth = 0       # brace depth
    in_func = False  # inside a function body (a file-scope `{` right after `)`)
    bodies = []      # (start, end) of function bodies, for statement deletion
    for k, (s, e, t, kind) in enumerate(toks):
        prev = toks[k - 1] if k else None
        if t == "{":
            if depth == 0 and prev and prev[2] == ")":
                in_func = True
                bodies.append([s, len(src)])
            depth += 1
        elif t == "}":
            depth -= 1
            if depth == 0 and in_func:
                in_func = False
                bodies[-1][1] = e
        # Outside function bodies: initialised tables (key ranges, register widths, names) and
        # declarations. Data, not logic: left alone, so the mutants are spent on behaviour.
        if not in_func:
            continue
        if kind == "op" and t in SWAP:
            if t in ("+", "-"):  # binary only: after an operand
                if not prev or not (prev[3] in ("id", "num") or prev[2] in (")", "]")):
                    continue
            out.append((path, s, e, SWAP[t], KIND[t], f"{t} -> {SWAP[t]}"))
        elif kind == "num":
            m = NUM_RE.fullmatch(t)
            v = int(m.group(1), 0)
            base16 = m.group(1).lower().startswith("0x")
            for d in (1, -1):
                if v + d < 0:
                    continue
                nv = (hex(v + d) if base16 else str(v + d)) + m.group(2)
                out.append((path, s, e, nv, "const", f"{t} -> {nv}"))
    # statement deletion, line by line, inside functions
    pos = 0
    for ln in src.split("\n"):
        m = STMT_RE.match(ln)
        if m and any(b0 < pos < b1 for b0, b1 in bodies) and not DECL_RE.match(ln) and not ln.lstrip().startswith(("return", "if ", "for ",
                                                                        "while ", "case ", "}")):
            s = pos + len(m.group(1))
            e = pos + len(ln.rstrip())
            out.append((path, s, e, ";", "stmt", f"delete `{ln.strip()}`"))
        pos += len(ln) + 1
    return src, out


def run(cmd, cwd=ROOT, timeout=None):
    return subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          timeout=timeout, text=True)


def compile_obj(src_path, obj, extra=()):
    os.makedirs(os.path.dirname(obj), exist_ok=True)
    r = run([CC, *CFLAGS, *extra, "-c", "-o", obj, src_path])
    return r.returncode == 0, r.stdout


class Base:
    """Pristine objects: library, test helpers, tests, the golden-trace tool."""

    def __init__(self, build):
        self.dir = os.path.join(build, "mutants-c", "base")
        self.lib = {}
        src_dir = os.path.join(ROOT, "cmodel", "src")
        for f in sorted(os.listdir(src_dir)):
            if f.endswith(".c"):
                o = os.path.join(self.dir, "src", f[:-2] + ".o")
                ok, log = compile_obj(os.path.join("cmodel", "src", f), o)
                if not ok:
                    sys.exit(f"mutants-c: the pristine cmodel/src/{f} does not compile:\n{log}")
                self.lib[f] = o
        tdir = os.path.join(ROOT, "cmodel", "tests")
        self.helpers, self.tests = [], {}
        for f in sorted(os.listdir(tdir)):
            if not f.endswith(".c"):
                continue
            o = os.path.join(self.dir, "tests", f[:-2] + ".o")
            ok, log = compile_obj(os.path.join("cmodel", "tests", f), o, ["-Icmodel/tests"])
            if not ok:
                sys.exit(f"mutants-c: cmodel/tests/{f} does not compile:\n{log}")
            if f.startswith("test_"):
                self.tests[f[:-2]] = o
            else:
                self.helpers.append(o)
        self.trace = None
        tool = os.path.join("cmodel", "tools", "lfc_trace.c")
        if os.path.exists(os.path.join(ROOT, tool)):
            o = os.path.join(self.dir, "tools", "lfc_trace.o")
            if compile_obj(tool, o)[0]:
                self.trace = o

    def link(self, out_dir, replaced, obj):
        """Link every test binary with `obj` in place of the library object `replaced`."""
        libs = [obj if f == replaced else o for f, o in self.lib.items()]
        bins = {}
        for name, to in self.tests.items():
            b = os.path.join(out_dir, name)
            r = run([CC, "-o", b, to, *self.helpers, *libs, "-lcmocka", "-lm"])
            if r.returncode != 0:
                return None
            bins[name] = b
        if self.trace:
            b = os.path.join(out_dir, "lfc_trace")
            if run([CC, "-o", b, self.trace, *libs, "-lm"]).returncode == 0:
                bins["lfc_trace"] = b
        return bins


def golden_differs(trace_bin, timeout):
    """1 if any golden trace regenerated with this binary differs from the recorded one."""
    import gzip
    gdir = os.path.join(ROOT, "cmodel", "tests", "golden")
    names = run([trace_bin, "--list"], timeout=timeout).stdout.split()
    for n in names:
        want = gzip.open(os.path.join(gdir, n + ".trace.gz"), "rt").read()
        r = subprocess.run([trace_bin, n], cwd=ROOT, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, timeout=timeout, text=True)
        if r.returncode != 0 or r.stdout != want:
            return n
    return None


def evaluate(args, base, order, idx, m):
    path, s, e, new, kind, what = m
    fname = os.path.basename(path)
    wdir = os.path.join(args.build, "mutants-c", f"m{idx:05d}")
    shutil.rmtree(wdir, ignore_errors=True)
    os.makedirs(wdir)
    src = open(os.path.join(ROOT, path)).read()
    msrc = src[:s] + new + src[e:]
    mpath = os.path.join(wdir, fname)
    with open(mpath, "w") as f:
        f.write(msrc)
    obj = os.path.join(wdir, fname[:-2] + ".o")
    # Compiled from the copy, with cmodel/src on the include path for its private headers.
    ok, _ = compile_obj(mpath, obj, ["-Icmodel/src"])
    res = {"file": path, "line": line_of(src, s), "kind": kind, "change": what,
           "source": src.split("\n")[line_of(src, s) - 1].strip()}
    if not ok:
        res["status"] = "stillborn"
    elif open(obj, "rb").read() == open(base.lib[fname], "rb").read():
        res["status"] = "equivalent"
        res["reason"] = "object file identical to the original (-O2)"
    else:
        bins = base.link(wdir, fname, obj)
        if bins is None:
            res["status"] = "stillborn"
        else:
            res["status"] = "survived"
            for t in order():
                try:
                    r = subprocess.run([bins[t]], cwd=ROOT, stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL, timeout=args.timeout,
                                       env=dict(os.environ, CMOCKA_MESSAGE_OUTPUT="stdout"))
                    dead = r.returncode != 0
                except subprocess.TimeoutExpired:
                    dead = True
                if dead:
                    res["status"] = "killed"
                    res["by"] = t
                    break
            if res["status"] == "survived" and args.golden and "lfc_trace" in bins:
                try:
                    n = golden_differs(bins["lfc_trace"], args.timeout)
                except subprocess.TimeoutExpired:
                    n = "timeout"
                if n:
                    res["status"] = "killed"
                    res["by"] = f"golden:{n}"
    if not args.keep:
        shutil.rmtree(wdir, ignore_errors=True)
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--max", type=int, default=0, help="sample size (0: every mutant)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=120, help="seconds per test binary")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--golden", action="store_true", help="golden traces kill survivors too")
    ap.add_argument("--files", default="", help="comma-separated cmodel/src files (default all)")
    ap.add_argument("--list", action="store_true", help="print the mutants and stop")
    ap.add_argument("--keep", action="store_true", help="keep each mutant's directory")
    ap.add_argument("--rerun", default="",
                    help="a c-summary.json: evaluate only its survivors again (after new tests)")
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)

    files = [f"cmodel/src/{f}" for f in sorted(os.listdir(os.path.join(ROOT, "cmodel", "src")))
             if f.endswith(".c")]
    if args.files:
        files = [f if f.startswith("cmodel/") else f"cmodel/src/{f}" for f in args.files.split(",")]
    allm = []
    for f in files:
        allm += mutants_of(f)[1]
    if args.list:
        for m in allm:
            print(f"{m[0]}:{line_of(open(os.path.join(ROOT, m[0])).read(), m[1])}: {m[4]}: {m[5]}")
        print(f"{len(allm)} mutants")
        return 0
    sample = list(range(len(allm)))
    how = f"all {len(allm)} mutants of {len(files)} files"
    if args.rerun:
        prev = json.load(open(args.rerun))["survivors"]
        want = {(r["file"], r["line"], r["change"]) for r in prev}
        src_of = {f: open(os.path.join(ROOT, f)).read() for f in files}
        sample = [i for i, m in enumerate(allm)
                  if (m[0], line_of(src_of[m[0]], m[1]), m[5]) in want]
        how = f"the {len(sample)} survivors of {args.rerun}, again"
    elif 0 < args.max < len(allm):
        sample = sorted(random.Random(args.seed).sample(sample, args.max))
        how = (f"{args.max} of {len(allm)} mutants, drawn uniformly with "
               f"random.Random({args.seed}).sample")
    print(f"mutants-c: {how}; building the pristine objects", flush=True)
    base = Base(args.build)

    kills = {t: 0 for t in base.tests}

    def order():
        fast = [t for t in base.tests if t not in SLOW_TESTS]
        fast.sort(key=lambda t: -kills[t])
        return fast + [t for t in base.tests if t in SLOW_TESTS]

    t0 = time.time()
    results = []
    # In a random order (same seed): the summary is rewritten after every mutant, and whatever
    # part of the sample is done at any time is itself a uniform sample of it.
    todo = list(sample)
    random.Random(args.seed + 1).shuffle(todo)
    with cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        futs = {ex.submit(evaluate, args, base, order, i, allm[i]): i for i in todo}
        for n, fu in enumerate(cf.as_completed(futs), 1):
            r = fu.result()
            results.append(r)
            if r.get("by") in kills:
                kills[r["by"]] += 1
            if r["status"] == "survived" or n % 10 == 0:
                print(f"  [{n}/{len(sample)}] {r['file']}:{r['line']} {r['change']}: "
                      f"{r['status']}{' by ' + r['by'] if 'by' in r else ''}", flush=True)
            write_summary(args, how, results, kills, t0, len(sample))
    write_summary(args, how, results, kills, t0, len(sample), final=True)
    return 0


def write_summary(args, how, results, kills, t0, planned, final=False):
    cnt = {k: sum(1 for r in results if r["status"] == k)
           for k in ("killed", "survived", "equivalent", "stillborn")}
    total = cnt["killed"] + cnt["survived"] + cnt["equivalent"]
    live = total - cnt["equivalent"]
    score = cnt["killed"] / live if live else 1.0
    summary = {"total": total, "killed": cnt["killed"], "survived": cnt["survived"],
               "equivalent": cnt["equivalent"], "stillborn": cnt["stillborn"],
               "score": round(score, 4), "sample": how, "seed": args.seed,
               "evaluated": len(results), "planned": planned,
               "golden": args.golden, "seconds": round(time.time() - t0),
               "killed_by": {k: v for k, v in sorted(kills.items()) if v},
               "survivors": sorted([r for r in results if r["status"] == "survived"],
                                   key=lambda r: (r["file"], r["line"]))}
    out = os.path.join(args.build, "mutants")
    os.makedirs(out, exist_ok=True)
    name = "c-rerun" if args.rerun else "c-summary"
    with open(os.path.join(out, name + ".json"), "w") as f:
        json.dump(summary, f, indent=1)
    with open(os.path.join(out, name.replace("summary", "survivors") + ".txt"), "w") as f:
        for r in summary["survivors"]:
            f.write(f"{r['file']}:{r['line']}: {r['kind']}: {r['change']}    | {r['source']}\n")
    if final:
        print(f"mutants-c: total={total} killed={cnt['killed']} survived={cnt['survived']} "
              f"equivalent={cnt['equivalent']} stillborn={cnt['stillborn']} "
              f"score={100 * score:.1f}% of non-equivalent killed ({summary['seconds']} s); "
              f"{out}/{name}.json")


if __name__ == "__main__":
    sys.exit(main())
