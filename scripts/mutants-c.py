#!/usr/bin/env python3
"""scripts/mutants-c.py - mutation testing of the C model (docs/fuzzing.md §3; `make mutants-c`).

Each mutant changes one thing in one file of cmodel/src/*.c:
  rel     a relational operator: < <=, <= <, > >=, >= >, == !=, != ==
  arith   a binary + or -, or += -=, swapped
  logic   && ||, swapped
  const   an integer literal n -> n + 1 or n - 1
  stmt    a one-line expression statement (assignment, call, ++/--, break) deleted
Only function bodies are mutated (file-scope tables and declarations are data, not logic);
comments, strings, character literals and preprocessor lines are never touched.

The tree is never edited in place (other people build it, and edit it: cmodel/ is copied to
BUILD/mutants-c/snapshot/ at the start and everything is read from the copy). The pristine
library and test objects are compiled once into BUILD/mutants-c/base/; before any mutant, the
pristine binaries (and, with --golden, the pristine golden traces) must pass, since a suite that
fails without a mutant would "kill" every mutant. Each mutant compiles only its file, in its own
directory, from the same relative path as the pristine file, and the test binaries are linked
with it on demand. They run fastest first and the ones that killed most so far first, until one
fails (killed) or all pass (survived); each has a time limit (a hang counts as killed). With
--golden, survivors also regenerate the golden traces (cmodel/tools/lfc_trace) and are killed
by any difference from cmodel/tests/golden/.

Every object is built with UndefinedBehaviorSanitizer and the binaries are linked with
LeakSanitizer (when the compiler has them; --no-sanitize for neither), as `make test-asan` runs
the suite: a mutant that indexes out of bounds or shifts too far dies in the first test that
makes it do so, and a deleted `free` fails the binary at exit (about 10 % more time). With
--asan, a mutant that survives gets a second stage: the suite built with AddressSanitizer (and
UBSan), which sees writes through a pointer past an array or past a heap block. It costs only
on survivors, but about a minute each on a loaded machine, so it is not the default.

A mutant whose object file is byte-identical to the original one (-O2, no debug info) is
counted as equivalent: the compiler proved it changes nothing. One that does not compile or
link is stillborn and left out of the total. A mutant listed in the reviewed-equivalents file
(--equivalent, default tb/fuzz/mutants-c-equivalent.txt: each entry the mutant's --list line,
followed by the written reason, indented) is still run: if it survives it counts as equivalent,
with its reason; if a test kills it, the review was wrong and it counts as killed (listed under
"review_wrong" in the summary). An entry that matches no mutant of the current sources is
reported as stale (its source line changed: review it again).

Output: BUILD/mutants/c-summary.json (total, killed, survived, equivalent (of which reviewed),
stillborn, score = killed / (total - equivalent), the sample and how it was drawn, the
survivors, the equivalents with their reasons) and BUILD/mutants/c-survivors.txt (one line per
survivor: file:line:column, kind, the change and the source line; then the review errors and the
equivalents of the sample, each with its reason). A sample (--max N > 0) is the N mutants
lowest in a hash of what each is (file, line text, column, change) salted with --seed: the same
every run, and an edit elsewhere in cmodel/src does not redraw it (stable_pick); --rerun and --only
evaluate the survivors of an earlier run, or the mutants at given places, instead (--rerun also
prints the earlier sample's score with the new results in place of its survivors'). --min-score
makes a sample run (or a --rerun, by that score) exit 1 below it (`make mutants-c`: 95 %).

--changed REV|auto (`make test`, as test-mutants-c-changed) is the quick check that keeps the
score as the code changes: only mutants of the lines of cmodel/src that differ between the
commit REV and the working tree, at most --max of them (default CHANGED_MAX), chosen by a hash of
what each mutant is (so the same ones on every run and machine, whatever else moved); exit 1 if
one survives (each printed as a SURVIVED line in the --list format), 0 if none does or no changed
line has a mutant. auto is a branch's merge base with the main line, or on the main line itself
(a fresh clone on CI) the parent of the last commit that changed cmodel/src; with no history to
compare with (no git, a shallow clone) the same few mutants of the whole model. Its work goes to
BUILD/mutants-c-changed/ and BUILD/mutants/c-changed.json; only the test binaries that killed a
mutant are run on the pristine library (test-unit runs them all).
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
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Where cmodel/ is read from: a copy taken at the start (snapshot()), so that edits others make
# to the tree during a run cannot mix two versions of a file.
SNAP = ROOT
# The directory under BUILD that holds the snapshot, the pristine objects and the mutants' work
# directories: "mutants-c" for a sample run, "mutants-c-changed" for --changed (so that `make
# test` can run while a sample run is going on).
WORK = "mutants-c"
CC = os.environ.get("CC_MUT", "gcc")
CFLAGS = ["-std=c11", "-O2", "-g0", "-fPIC", "-w", "-DLFC_VERSION_STRING=\"mutant\""]
# UndefinedBehaviorSanitizer, as `make test-asan` uses it: a mutant that indexes out of bounds,
# shifts too far or overflows a signed integer is killed by the test that makes it do so (about
# 10 % more time). Every object is compiled from the same relative path (cmodel/src/FILE.c) so
# that an unchanged mutant still gives a byte-identical object.
UBSAN_FLAGS = ["-fsanitize=undefined", "-fno-sanitize-recover=undefined"]
# gcc's bounds check skips an array that ends a struct (it could be a flexible array member);
# bounds-strict checks it too (lfc_port_t ends with its VL array). Used when the compiler has it.
UBSAN_STRICT = ["-fsanitize=bounds-strict"]
# Tests that take tens of seconds run last: most mutants die in the fast ones.
SLOW_TESTS = ("test_switch_property", "test_switch_skip_ahead")
EQUIV_FILE = os.path.join("tb", "fuzz", "mutants-c-equivalent.txt")
# LeakSanitizer: a leak fails the binary (exit 23); an allocation the test makes fail on purpose
# (test_alloc.c) returns NULL instead of aborting, as the C library's malloc does.
LSAN_FLAGS = ["-fsanitize=leak"]
SAN_CFLAGS = []  # UBSAN_FLAGS once probed (Base)
# Second stage, for the survivors of the first only: AddressSanitizer (+ UBSan), as `make
# test-asan` runs the suite. It catches what UBSan cannot, e.g. a write through a pointer one
# past an array into the next port's state or past the heap block. Three times slower, so it is
# not spent on mutants the plain suite already kills.
ASAN_FLAGS = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all",
              "-fno-omit-frame-pointer"]
ASAN_ENV = {"ASAN_OPTIONS": "detect_leaks=1:allocator_may_return_null=1:abort_on_error=0"}
# --changed: how many mutants of the changed lines (a few seconds each when a test kills them).
CHANGED_MAX = 8
LSAN_ENV = {"LSAN_OPTIONS": "exitcode=23:allocator_may_return_null=1"}
# One survivor line of c-survivors.txt, the header of an entry of the reviewed-equivalents file.
ENTRY_RE = re.compile(r"^(cmodel/\S+?):(\d+):(\d+): (\w+): (.*?)    \| (.*)$")

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


def col_of(src, pos):
    """1-based column of pos in its line."""
    return pos - (src.rfind("\n", 0, pos) + 1) + 1


def mutants_of(path):
    src = open(os.path.join(SNAP, path)).read()
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
        control = ln.lstrip().startswith(("return", "if ", "for ", "while ", "case ", "}"))
        if m and any(b0 < pos < b1 for b0, b1 in bodies) and not DECL_RE.match(ln) and not control:
            s = pos + len(m.group(1))
            e = pos + len(ln.rstrip())
            out.append((path, s, e, ";", "stmt", f"delete `{ln.strip()}`"))
        pos += len(ln) + 1
    return src, out


def run(cmd, cwd=ROOT, timeout=None):
    return subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          timeout=timeout, text=True)


def snapshot(build):
    """Copy cmodel/ (sources, headers, tests, golden traces) to BUILD/mutants-c/snapshot and
    read everything from there."""
    global SNAP
    SNAP = os.path.join(build, WORK, "snapshot")
    shutil.rmtree(SNAP, ignore_errors=True)
    shutil.copytree(os.path.join(ROOT, "cmodel"), os.path.join(SNAP, "cmodel"))


def compile_obj(src_path, obj, extra=(), cwd=None, san=None):
    """Compile src_path (relative to cwd, default the snapshot) to obj, with the sanitizer flags
    san (default SAN_CFLAGS)."""
    os.makedirs(os.path.dirname(obj), exist_ok=True)
    inc = [f"-I{os.path.join(SNAP, 'cmodel', d)}" for d in ("include", "src", "tests")]
    san = SAN_CFLAGS if san is None else san
    r = run([CC, *CFLAGS, *san, *inc, *extra, "-c", "-o", obj, src_path], cwd=cwd or SNAP)
    return r.returncode == 0, r.stdout


def headers_key():
    """A hash of every header of the snapshot's cmodel/ (any of them can change any object)."""
    h = hashlib.sha1()
    for d, _, names in sorted(os.walk(os.path.join(SNAP, "cmodel"))):
        for n in sorted(names):
            if n.endswith(".h"):
                h.update(os.path.relpath(os.path.join(d, n), SNAP).encode())
                h.update(open(os.path.join(d, n), "rb").read())
    return h.hexdigest()


def cached_compile(src_path, obj, hdrs):
    """compile_obj from the snapshot, unless obj was built before from the same source text,
    headers (hdrs: headers_key()), compiler and flags: then it is reused (the compiler is
    deterministic, so it is the object a new compile would give). Saves most of a --changed
    run's time when only a few files changed since the last one."""
    h = hashlib.sha1()
    for part in (CC, *CFLAGS, *SAN_CFLAGS, hdrs, src_path):
        h.update(part.encode() + b"\0")
    h.update(open(os.path.join(SNAP, src_path), "rb").read())
    stamp = obj + ".key"
    if (os.path.exists(obj) and os.path.exists(stamp) and
            open(stamp).read() == h.hexdigest()):
        return True, ""
    ok, log = compile_obj(src_path, obj)
    if ok:
        with open(stamp, "w") as f:
            f.write(h.hexdigest())
    return ok, log


class Base:
    """Pristine objects: library, test helpers, tests, the golden-trace tool."""

    def __init__(self, build, sanitize=True, jobs=1):
        self.dir = os.path.join(build, WORK, "base")
        self.lib = {}
        # The sanitizers this compiler can link: UBSan in every object, LSan at link time.
        os.makedirs(self.dir, exist_ok=True)
        probe = os.path.join(self.dir, "san_probe")
        src = os.path.join(self.dir, "san_probe.c")
        with open(src, "w") as f:
            f.write("int main(void) { return 0; }\n")
        works = lambda flags: (run([CC, *flags, "-o", probe, src]).returncode == 0 and
                               run([probe]).returncode == 0)
        self.sanitizers = []
        SAN_CFLAGS[:] = []
        for flags in (UBSAN_FLAGS + UBSAN_STRICT, UBSAN_FLAGS):
            if sanitize and works(flags):
                SAN_CFLAGS[:] = flags
                self.sanitizers.append("UndefinedBehaviorSanitizer")
                break
        self.ldflags = list(SAN_CFLAGS)
        if sanitize and works(LSAN_FLAGS + SAN_CFLAGS):
            self.ldflags += LSAN_FLAGS
            self.sanitizers.append("LeakSanitizer")
        # Library and test objects, compiled `jobs` at a time (most of a --changed run's time).
        src_dir = os.path.join(SNAP, "cmodel", "src")
        tdir = os.path.join(SNAP, "cmodel", "tests")
        # The test_*.c objects are compiled when a binary is first linked (test_obj): a mutant
        # of the changed lines usually dies in one of the first few binaries.
        todo = [("src", f) for f in sorted(os.listdir(src_dir)) if f.endswith(".c")]
        todo += [("tests", f) for f in sorted(os.listdir(tdir))
                 if f.endswith(".c") and not f.startswith("test_")]
        hdrs = headers_key()
        with cf.ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
            built = list(ex.map(lambda df: cached_compile(
                os.path.join("cmodel", df[0], df[1]),
                os.path.join(self.dir, df[0], df[1][:-2] + ".o"), hdrs), todo))
        self.helpers, self.tests = [], {}
        for (d, f), (ok, log) in zip(todo, built):
            o = os.path.join(self.dir, d, f[:-2] + ".o")
            if not ok:
                what = "the pristine cmodel/src" if d == "src" else "cmodel/tests"
                sys.exit(f"mutants-c: {what}/{f} does not compile:\n{log}")
            if d == "src":
                self.lib[f] = o
            else:
                self.helpers.append(o)
        self.hdrs = hdrs
        self.tests = {f[:-2]: os.path.join(self.dir, "tests", f[:-2] + ".o")
                      for f in sorted(os.listdir(tdir)) if f.startswith("test_") and
                      f.endswith(".c")}
        self.test_locks = {t: threading.Lock() for t in self.tests}
        self.test_built = set()
        self.asan_lock = threading.Lock()
        self.asan_state = "unbuilt" if sanitize and works(ASAN_FLAGS) else "unavailable"
        self.trace = None
        tool = os.path.join("cmodel", "tools", "lfc_trace.c")
        if os.path.exists(os.path.join(SNAP, tool)):
            o = os.path.join(self.dir, "tools", "lfc_trace.o")
            if cached_compile(tool, o, hdrs)[0]:
                self.trace = o

    def test_obj(self, name):
        """The pristine object of cmodel/tests/NAME.c, compiled on first use; a test that does
        not compile stops the run (exit 2): every result would mean nothing."""
        with self.test_locks[name]:
            if name not in self.test_built:
                ok, log = cached_compile(os.path.join("cmodel", "tests", name + ".c"),
                                         self.tests[name], self.hdrs)
                if not ok:
                    print(f"mutants-c: cmodel/tests/{name}.c does not compile:\n{log}",
                          file=sys.stderr, flush=True)
                    os._exit(2)
                self.test_built.add(name)
        return self.tests[name]

    def asan_objects(self):
        """The pristine library and tests under ASan, built on first use; None if impossible."""
        with self.asan_lock:
            if self.asan_state == "unbuilt":
                d = os.path.join(self.dir, "asan")
                lib, tests, helpers = {}, {}, []
                ok = True
                for f in self.lib:
                    o = os.path.join(d, "src", f[:-2] + ".o")
                    ok = ok and compile_obj(os.path.join("cmodel", "src", f), o, san=ASAN_FLAGS)[0]
                    lib[f] = o
                for name in self.tests:
                    o = os.path.join(d, "tests", name + ".o")
                    ok = ok and compile_obj(os.path.join("cmodel", "tests", name + ".c"), o,
                                            san=ASAN_FLAGS)[0]
                    tests[name] = o
                for h in self.helpers:
                    f = os.path.basename(h)[:-2] + ".c"
                    o = os.path.join(d, "tests", os.path.basename(h))
                    ok = ok and compile_obj(os.path.join("cmodel", "tests", f), o,
                                            san=ASAN_FLAGS)[0]
                    helpers.append(o)
                self.asan_state = (lib, tests, helpers) if ok else "unavailable"
            return None if self.asan_state == "unavailable" else self.asan_state

    def link_asan(self, out_dir, replaced, obj):
        """The test binaries under ASan with obj in place of the library object `replaced`."""
        objs = self.asan_objects()
        if objs is None:
            return None
        lib, tests, helpers = objs
        libs = [obj if f == replaced else o for f, o in lib.items()]
        bins = {}
        os.makedirs(out_dir, exist_ok=True)
        for name, to in tests.items():
            b = os.path.join(out_dir, name)
            if run([CC, *ASAN_FLAGS, "-o", b, to, *helpers, *libs, "-lcmocka", "-lm"]).returncode:
                return None
            bins[name] = b
        return bins

    def link(self, out_dir, replaced, obj):
        """The test binaries with `obj` in place of the library object `replaced` (None: the
        pristine library), each linked when first asked for: most mutants die in the first
        binaries run, and linking all of them would cost more than running those."""
        return LazyBins(self, out_dir, [obj if f == replaced else o for f, o in self.lib.items()])


class LazyBins:
    """name -> path of a test binary (or "lfc_trace"), linked on first use; None if the link
    fails (the mutant is then stillborn)."""

    def __init__(self, base, out_dir, libs):
        self.base, self.out_dir, self.libs, self.done = base, out_dir, libs, {}

    def __contains__(self, name):
        return name in self.base.tests or (name == "lfc_trace" and self.base.trace is not None)

    def get(self, name):
        if name not in self.done:
            b = os.path.join(self.out_dir, name)
            if name == "lfc_trace":
                objs = [self.base.trace, *self.libs, "-lm"]
            else:
                objs = [self.base.test_obj(name), *self.base.helpers, *self.libs, "-lcmocka",
                        "-lm"]
            ok = run([CC, *self.base.ldflags, "-o", b, *objs]).returncode == 0
            self.done[name] = b if ok else None
        return self.done[name]

    def items(self):
        return [(n, self.get(n)) for n in [*self.base.tests, "lfc_trace"] if n in self]


def run_test(binary, timeout, env=None):
    """True if the cmocka binary passes (exit 0, no leak) within timeout seconds."""
    try:
        r = subprocess.run([binary], cwd=ROOT, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=timeout,
                           env=dict(os.environ, CMOCKA_MESSAGE_OUTPUT="stdout",
                                    **(env or LSAN_ENV)))
        return r.returncode == 0
    except subprocess.TimeoutExpired:
        return False


def check_pristine(args, base):
    """Every pristine test binary (and golden trace) must pass, else no mutant result means
    anything. Returns the seconds each binary took."""
    bdir = os.path.join(base.dir, "bin")
    os.makedirs(bdir, exist_ok=True)
    bins = base.link(bdir, None, None)
    secs, bad = {}, []
    for t, b in bins.items():
        if b is None:
            sys.exit(f"mutants-c: the pristine {t} does not link")
        if t == "lfc_trace":
            continue
        t0 = time.time()
        if not run_test(b, args.timeout):
            bad.append(t)
        secs[t] = time.time() - t0
    if bad:
        sys.exit(f"mutants-c: pristine test binaries fail ({', '.join(bad)}): fix the suite first "
                 f"(run {bdir}/<name> to see why)")
    if args.golden and "lfc_trace" in bins:
        n = golden_differs(bins.get("lfc_trace"), args.timeout)
        if n:
            sys.exit(f"mutants-c: the pristine model differs from golden trace {n}: "
                     f"regenerate cmodel/tests/golden first (scripts/golden.sh)")
    return secs


def read_equivalents(path):
    """The reviewed equivalents: a list of dicts with file, line, col, kind, change, source,
    reason. A malformed entry stops the run (file, line, what is wrong), exit 2."""
    out = []
    if not os.path.exists(path):
        return out
    cur = None
    for n, ln in enumerate(open(path), 1):
        ln = ln.rstrip("\n")
        if not ln.strip() or ln.startswith("#"):
            continue
        if ln[0] in " \t":
            if cur is None:
                print(f"{path}:{n}: a reason line before any entry", file=sys.stderr)
                sys.exit(2)
            cur["reason"] = (cur["reason"] + " " + ln.strip()).strip()
            continue
        m = ENTRY_RE.match(ln)
        if not m:
            print(f"{path}:{n}: not an entry header: {ln!r}; expected "
                  f"'cmodel/src/FILE.c:LINE:COL: KIND: CHANGE    | SOURCE LINE' (a line of "
                  f"c-survivors.txt), then the reason on indented lines", file=sys.stderr)
            sys.exit(2)
        cur = {"file": m.group(1), "line": int(m.group(2)), "col": int(m.group(3)),
               "kind": m.group(4), "change": m.group(5), "source": m.group(6).strip(),
               "reason": "", "where": f"{path}:{n}"}
        out.append(cur)
    for e in out:
        if not e["reason"]:
            print(f"{e['where']}: entry without a reason (indented lines after the header)",
                  file=sys.stderr)
            sys.exit(2)
    return out


def match_equivalents(entries, allm, srcs):
    """Map mutant index -> entry, and the entries that match no mutant (stale). An entry matches
    the mutant with the same file, column, kind, change and source line text: the only one, or
    among several (the same line text elsewhere in the file) the one on the entry's line."""
    lines = {f: [l.strip() for l in s.split("\n")] for f, s in srcs.items()}
    cands = {k: [] for k in range(len(entries))}
    by_key = {}
    for k, e in enumerate(entries):
        by_key.setdefault((e["file"], e["col"], e["kind"], e["change"], e["source"]), []).append(k)
    for i, m in enumerate(allm):
        path, s = m[0], m[1]
        src = srcs[path]
        ln, col = line_of(src, s), col_of(src, s)
        for k in by_key.get((path, col, m[4], m[5], lines[path][ln - 1]), ()):
            cands[k].append((i, ln))
    found, stale = {}, []
    for k, e in enumerate(entries):
        c = cands[k] if len(cands[k]) == 1 else [x for x in cands[k] if x[1] == e["line"]]
        if len(c) == 1:
            found[c[0][0]] = e
        else:
            stale.append(e)
    return found, stale


def git(*argv):
    """The output of a git command in the source tree, stripped; None if git fails (no git, not
    a repository, an unknown revision)."""
    try:
        r = subprocess.run(["git", "-C", ROOT, *argv], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True)
    except OSError:
        return None
    return r.stdout.strip() if r.returncode == 0 else None


def auto_base():
    """The commit a --changed auto run compares the tree with, and why; (None, why) if there is
    none. On a branch: its merge base with the main line (the upstream, origin/HEAD, origin/main
    or main, the first that exists), so that every line the branch changed is a candidate. On
    the main line itself (a fresh clone on CI, or after the merge): the parent of the last commit
    that changed cmodel/src, so that the newest change of the model is checked. Uncommitted
    changes count in both cases (the diff is against the working tree)."""
    if git("rev-parse", "--is-inside-work-tree") != "true":
        return None, "not a git work tree"
    head = git("rev-parse", "HEAD")
    if head is None:
        return None, "no commit yet"
    for up in ("@{upstream}", "origin/HEAD", "origin/main", "main"):
        if git("rev-parse", "--verify", "--quiet", up + "^{commit}") is None:
            continue
        mb = git("merge-base", "HEAD", up)
        if mb and mb != head:
            return mb, f"the merge base of HEAD with {up} ({mb[:12]})"
        break
    last = git("log", "-1", "--format=%H", "--", "cmodel/src")
    if not last:
        return None, "no commit changed cmodel/src"
    parent = git("rev-parse", "--verify", "--quiet", last + "^")
    if parent is None:  # the root commit, or the boundary of a shallow clone
        return None, f"the last commit that changed cmodel/src ({last[:12]}) has no parent here"
    return parent, (f"the parent of {last[:12]}, the last commit that changed cmodel/src "
                    f"(\"{git('log', '-1', '--format=%s', last)}\")")


def changed_lines(rev, files):
    """{file: set of line numbers} of the lines of files (cmodel/src/*.c) that differ between
    the commit rev and the working tree: added or changed, as `git diff -U0` numbers them on the
    new side. A file git does not track is new: every line of it."""
    out = {}
    diff = git("diff", "-U0", "--no-color", "--no-ext-diff", rev, "--", *files)
    if diff is None:
        return None
    cur = None
    for ln in diff.split("\n"):
        if ln.startswith("+++ "):
            cur = ln[6:] if ln.startswith("+++ b/") else None
        elif ln.startswith("@@") and cur:
            m = re.match(r"@@ -\S+ \+(\d+)(?:,(\d+))? @@", ln)
            start, n = int(m.group(1)), int(m.group(2) or 1)
            out.setdefault(cur, set()).update(range(start, start + n))
    untracked = git("ls-files", "--others", "--exclude-standard", "--", *files)
    for f in (untracked or "").split():
        out[f] = set(range(1, open(os.path.join(ROOT, f)).read().count("\n") + 2))
    return out


def stable_pick(idx, allm, srcs, n, salt=""):
    """n of the mutants idx, chosen by a hash of what each one is (file, source line text,
    column, change), salted (a sample's seed), rather than by its place in the list: the same
    mutants whatever else changed in the files, and the same on every machine. A new file or
    function only adds its own mutants to the draw (each taken with the same chance as any
    other), and an edited line only redraws the mutants of that line, so a sample's score
    stays a measure of the same tests on the same code as the code grows."""
    def key(i):
        m = allm[i]
        src = srcs[m[0]]
        text = src.split("\n")[line_of(src, m[1]) - 1].strip()
        h = hashlib.sha1(f"{salt}{m[0]}|{text}|{col_of(src, m[1])}|{m[5]}".encode()).hexdigest()
        return (h, i)
    return sorted(sorted(idx, key=key)[:n])


def golden_differs(trace_bin, timeout):
    """1 if any golden trace regenerated with this binary differs from the recorded one."""
    import gzip
    gdir = os.path.join(SNAP, "cmodel", "tests", "golden")
    names = run([trace_bin, "--list"], timeout=timeout).stdout.split()
    for n in names:
        want = gzip.open(os.path.join(gdir, n + ".trace.gz"), "rt").read()
        r = subprocess.run([trace_bin, n], cwd=ROOT, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, timeout=timeout, text=True)
        if r.returncode != 0 or r.stdout != want:
            return n
    return None


def asan_obj(base, path, wdir, obj):
    """The mutant (already written under wdir) compiled with ASan; None if that fails."""
    aobj = obj[:-2] + ".asan.o"
    return aobj if compile_obj(path, aobj, cwd=wdir, san=ASAN_FLAGS)[0] else None


def evaluate(args, base, order, idx, m, src, review=None):
    """Build and test mutant m of the source text src (the snapshot's)."""
    path, s, e, new, kind, what = m
    fname = os.path.basename(path)
    wdir = os.path.join(args.build, WORK, f"m{idx:05d}")
    shutil.rmtree(wdir, ignore_errors=True)
    os.makedirs(wdir)
    msrc = src[:s] + new + src[e:]
    # The copy sits at cmodel/src/FILE.c under wdir and is compiled from there, by the same
    # relative path as the pristine file (the sanitizers record it in the object).
    os.makedirs(os.path.join(wdir, "cmodel", "src"))
    with open(os.path.join(wdir, path), "w") as f:
        f.write(msrc)
    obj = os.path.join(wdir, fname[:-2] + ".o")
    ok, _ = compile_obj(path, obj, cwd=wdir)
    res = {"file": path, "line": line_of(src, s), "col": col_of(src, s), "kind": kind,
           "change": what, "source": src.split("\n")[line_of(src, s) - 1].strip()}
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
            for t in order(path):
                b = bins.get(t)
                if b is None:  # does not link: a mutant that removed a symbol
                    res["status"] = "stillborn"
                    break
                if not run_test(b, args.timeout):  # a failure, a leak or a hang
                    res["status"] = "killed"
                    res["by"] = t
                    break
            if res["status"] == "survived" and args.golden and "lfc_trace" in bins:
                try:
                    n = golden_differs(bins.get("lfc_trace"), args.timeout) \
                        if bins.get("lfc_trace") else "lfc_trace does not link"
                except subprocess.TimeoutExpired:
                    n = "timeout"
                if n:
                    res["status"] = "killed"
                    res["by"] = f"golden:{n}"
            if (res["status"] == "survived" and args.asan and
                    base.asan_state != "unavailable"):
                aobj = asan_obj(base, path, wdir, obj)
                abins = aobj and base.link_asan(os.path.join(wdir, "asan"), fname, aobj)
                for t in order(path) if abins else []:
                    # ASan is slower: three times the time limit.
                    if not run_test(abins[t], 3 * args.timeout, ASAN_ENV):
                        res["status"] = "killed"
                        res["by"] = f"asan:{t}"
                        break
            if review is not None:
                if res["status"] == "survived":
                    res["status"] = "equivalent"
                    res["reason"] = "reviewed: " + review["reason"]
                else:  # the written argument was wrong: say so
                    res["review_wrong"] = review["where"]
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
    ap.add_argument("--only", default="",
                    help="comma-separated FILE:LINE or FILE:LINE:COL (FILE as in cmodel/src): "
                         "evaluate just those mutants (to check that a new test kills them)")
    ap.add_argument("--keep", action="store_true", help="keep each mutant's directory")
    ap.add_argument("--no-sanitize", action="store_true",
                    help="plain objects: no UBSan, no LSan (faster, kills fewer)")
    ap.add_argument("--asan", action="store_true",
                    help="a second stage under AddressSanitizer for the survivors (slow)")
    ap.add_argument("--equivalent", default=EQUIV_FILE,
                    help="reviewed equivalent mutants (default %(default)s; '' for none)")
    ap.add_argument("--rerun", default="",
                    help="a c-summary.json: evaluate only its survivors again (after new tests)")
    ap.add_argument("--changed", default="", metavar="REV|auto",
                    help="only mutants of the lines changed since the commit REV (auto: see "
                         "auto_base), --max of them (default %d) chosen by a hash of each; exit 1 "
                         "if one survives (`make test`)" % CHANGED_MAX)
    ap.add_argument("--min-score", type=float, default=0.0, metavar="PCT",
                    help="exit 1 if the score is below PCT %% (a sample run)")
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)
    if args.changed:
        global WORK
        WORK = "mutants-c-changed"
        if args.changed != "auto" and git("rev-parse", "--verify", "--quiet",
                                          args.changed + "^{commit}") is None:
            print(f"mutants-c: --changed {args.changed}: not a commit of this repository "
                  f"(a revision git knows, or auto)", file=sys.stderr)
            return 2

    snapshot(args.build)
    files = [f"cmodel/src/{f}" for f in sorted(os.listdir(os.path.join(SNAP, "cmodel", "src")))
             if f.endswith(".c")]
    if args.files:
        files = [f if f.startswith("cmodel/") else f"cmodel/src/{f}" for f in args.files.split(",")]
    allm, srcs = [], {}
    for f in files:
        srcs[f], ms = mutants_of(f)
        allm += ms
    if args.list:
        for m in allm:
            src = srcs[m[0]]
            print(f"{m[0]}:{line_of(src, m[1])}:{col_of(src, m[1])}: {m[4]}: {m[5]}    | "
                  f"{src.split(chr(10))[line_of(src, m[1]) - 1].strip()}")
        print(f"{len(allm)} mutants")
        return 0
    entries = read_equivalents(os.path.join(ROOT, args.equivalent)) if args.equivalent else []
    reviewed, stale = match_equivalents(entries, allm, srcs)
    for e in stale:
        if not args.files or e["file"] in files:
            print(f"mutants-c: {e['where']}: stale entry, no such mutant in the current source "
                  f"(review it again): {e['file']}:{e['line']}:{e['col']}: {e['change']}",
                  flush=True)
    sample = list(range(len(allm)))
    how = f"all {len(allm)} mutants of {len(files)} files"
    if args.rerun:
        prev = json.load(open(args.rerun))["survivors"]
        # The same mutant: file, column, change and source line text (its line may have moved).
        want = {(r["file"], r.get("col"), r["change"], r["source"]) for r in prev}
        lines = {f: t.split("\n") for f, t in srcs.items()}
        sample = [i for i, m in enumerate(allm)
                  if (m[0], col_of(srcs[m[0]], m[1]), m[5],
                      lines[m[0]][line_of(srcs[m[0]], m[1]) - 1].strip()) in want]
        how = f"the {len(sample)} survivors of {args.rerun}, again"
    elif args.only:
        want = [w.strip() for w in args.only.split(",") if w.strip()]

        def chosen(m):
            src = srcs[m[0]]
            here = (os.path.basename(m[0]), str(line_of(src, m[1])), str(col_of(src, m[1])))
            return any(tuple(w.split(":")) in (here[:2], here) for w in want)
        sample = [i for i, m in enumerate(allm) if chosen(m)]
        how = f"the {len(sample)} mutants at {args.only}"
    elif args.changed:
        n = args.max or CHANGED_MAX
        rev, why = auto_base() if args.changed == "auto" else (args.changed, args.changed)
        lines = changed_lines(rev, files) if rev else None
        if lines is None:
            # No history to compare with (no git, a shallow clone, the root commit): the same
            # few mutants of the whole model every time, so that the step still means something.
            sample = stable_pick(sample, allm, srcs, n)
            how = (f"no base commit ({why}): {len(sample)} of all {len(allm)} mutants, chosen by "
                   f"a hash of each")
        else:
            near = [i for i, m in enumerate(allm)
                    if line_of(srcs[m[0]], m[1]) in lines.get(m[0], ())]
            nlines = sum(len(v) for v in lines.values())
            if not near:
                what = (f"no mutant on the {nlines} lines of cmodel/src changed" if nlines
                        else "no line of cmodel/src changed")
                print(f"mutants-c: {what} since {why}: nothing to check", flush=True)
                return 0
            sample = stable_pick(near, allm, srcs, n)
            how = (f"{len(sample)} of the {len(near)} mutants on the {nlines} lines of cmodel/src "
                   f"changed since {why}, chosen by a hash of each")
    elif 0 < args.max < len(allm):
        # By a seeded hash of each mutant, not by its place in the list: a draw by place
        # (random.sample over indices) is a new sample after any edit anywhere in cmodel/src.
        sample = stable_pick(sample, allm, srcs, args.max, salt=f"seed {args.seed}|")
        how = (f"{args.max} of {len(allm)} mutants, the {args.max} lowest of a hash of each "
               f"salted with seed {args.seed}")
    print(f"mutants-c: {how}; building the pristine objects", flush=True)
    base = Base(args.build, sanitize=not args.no_sanitize, jobs=args.jobs)
    sans = (", with " + " and ".join(base.sanitizers) if base.sanitizers else ", no sanitizer")
    sans += ", golden traces" if args.golden else ""
    if args.changed:
        # The whole suite runs in test-unit anyway: here only the binaries that kill a mutant
        # are run without one (check_killers, after the mutants), which is what the result
        # depends on.
        print(f"mutants-c: pristine objects built{sans}; {len(reviewed)} mutants reviewed as "
              f"equivalent in {args.equivalent or '-'}", flush=True)
    else:
        secs = check_pristine(args, base)
        print(f"mutants-c: the pristine suite passes ({len(secs)} binaries, "
              f"{sum(secs.values()):.0f} s{sans}); {len(reviewed)} mutants reviewed as "
              f"equivalent in {args.equivalent or '-'}", flush=True)

    kills = {t: 0 for t in base.tests}

    def order(path=""):
        """The test binaries to run on a mutant of path: the ones that killed most so far, and
        among equals those named after the mutated file first (cmodel/tests has one test file
        per unit, test_<unit>.c or test_<unit>_<aspect>.c: test_credit_rx for credit_rx.c), then
        those of its family (test_credit_* for credit_rx.c); the slow ones last."""
        unit = os.path.basename(path)[:-2] if path else ""
        family = unit.split("_")[0]

        def named(t, stem):
            return bool(stem) and (t == "test_" + stem or t.startswith("test_" + stem + "_"))

        fast = [t for t in base.tests if t not in SLOW_TESTS]
        fast.sort(key=lambda t: (-kills[t], not named(t, unit), not named(t, family)))
        return fast + [t for t in base.tests if t in SLOW_TESTS]

    t0 = time.time()
    results = []
    # In a random order (same seed): the summary is rewritten after every mutant, and whatever
    # part of the sample is done at any time is itself a uniform sample of it.
    todo = list(sample)
    random.Random(args.seed + 1).shuffle(todo)
    with cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        futs = {ex.submit(evaluate, args, base, order, i, allm[i], srcs[allm[i][0]],
                          reviewed.get(i)): i
                for i in todo}
        for n, fu in enumerate(cf.as_completed(futs), 1):
            r = fu.result()
            results.append(r)
            if r.get("by") in kills:
                kills[r["by"]] += 1
            if r["status"] == "survived" or "review_wrong" in r or n % 10 == 0:
                by = f" by {r['by']}" if "by" in r else ""
                wrong = (f" (reviewed equivalent in {r['review_wrong']}: WRONG)"
                         if "review_wrong" in r else "")
                print(f"  [{n}/{len(sample)}] {r['file']}:{r['line']} {r['change']}: "
                      f"{r['status']}{by}{wrong}", flush=True)
            write_summary(args, how, results, kills, t0, len(sample))
    score = write_summary(args, how, results, kills, t0, len(sample), final=True)
    if args.changed:
        check_killers(args, base, results)
        surv = sorted([r for r in results if r["status"] == "survived"],
                      key=lambda r: (r["file"], r["line"], r["col"]))
        for r in surv:
            print(f"SURVIVED {r['file']}:{r['line']}:{r['col']}: {r['kind']}: {r['change']}    | "
                  f"{r['source']}", flush=True)
        if surv:
            print(f"mutants-c: {len(surv)} mutants of changed lines survive the suite: kill each "
                  f"with a test of the behaviour the line implements, or argue it equivalent in "
                  f"{args.equivalent} (docs/fuzzing.md §3)", flush=True)
            return 1
        return 0
    if args.rerun:
        score = rerun_sample_score(args, results)
    if args.min_score and 100 * score < args.min_score:
        print(f"mutants-c: score {100 * score:.1f}% is below {args.min_score:g}%: kill or argue "
              f"the survivors in {os.path.join(args.build, 'mutants', 'c-survivors.txt')}",
              flush=True)
        return 1
    return 0


def rerun_sample_score(args, results):
    """--rerun: the score of the whole earlier sample with these results in place of its
    survivors' (the rest of the sample was killed or equivalent, and more tests keep it so)."""
    prev = json.load(open(args.rerun))
    cnt = {k: sum(1 for r in results if r["status"] == k)
           for k in ("killed", "survived", "equivalent", "stillborn")}
    killed = prev["killed"] + cnt["killed"]
    equiv = prev["equivalent"] + cnt["equivalent"]
    survived = prev["survived"] - cnt["killed"] - cnt["equivalent"] - cnt["stillborn"]
    live = prev["total"] - equiv
    score = killed / live if live else 1.0
    print(f"mutants-c: the sample of {args.rerun} ({prev['sample']}) with these results: "
          f"total={prev['total']} killed={killed} survived={survived} equivalent={equiv} "
          f"score={100 * score:.1f}% of non-equivalent killed", flush=True)
    return score


def check_killers(args, base, results):
    """--changed: every binary (or golden trace) that killed a mutant must pass on the pristine
    library, else the kill is the suite's own failure (exit 1)."""
    bdir = os.path.join(base.dir, "bin")
    os.makedirs(bdir, exist_ok=True)
    bins = base.link(bdir, None, None)
    for t in sorted({r["by"] for r in results if "by" in r}):
        if t.startswith("golden:"):
            bad = golden_differs(bins.get("lfc_trace"), args.timeout)
        elif ":" in t:  # asan:NAME, only with --asan
            continue
        else:
            bad = not run_test(bins.get(t), args.timeout)
        if bad:
            sys.exit(f"mutants-c: {t} fails without a mutant too, so its kills mean nothing: fix "
                     f"the suite first")


def write_summary(args, how, results, kills, t0, planned, final=False):
    cnt = {k: sum(1 for r in results if r["status"] == k)
           for k in ("killed", "survived", "equivalent", "stillborn")}
    total = cnt["killed"] + cnt["survived"] + cnt["equivalent"]
    live = total - cnt["equivalent"]
    score = cnt["killed"] / live if live else 1.0
    key = lambda r: (r["file"], r["line"], r.get("col", 0))
    equiv = sorted([r for r in results if r["status"] == "equivalent"], key=key)
    summary = {"total": total, "killed": cnt["killed"], "survived": cnt["survived"],
               "equivalent": cnt["equivalent"],
               "equivalent_reviewed": sum(1 for r in equiv if r["reason"].startswith("reviewed")),
               "stillborn": cnt["stillborn"],
               "score": round(score, 4), "sample": how, "seed": args.seed,
               "evaluated": len(results), "planned": planned,
               "golden": args.golden, "seconds": round(time.time() - t0),
               "killed_by": {k: v for k, v in sorted(kills.items()) if v},
               "survivors": sorted([r for r in results if r["status"] == "survived"], key=key),
               "equivalents": equiv,
               "review_wrong": sorted([r for r in results if "review_wrong" in r], key=key)}
    out = os.path.join(args.build, "mutants")
    os.makedirs(out, exist_ok=True)
    name = ("c-rerun" if args.rerun else "c-only" if args.only else
            "c-changed" if args.changed else "c-summary")
    with open(os.path.join(out, name + ".json"), "w") as f:
        json.dump(summary, f, indent=1)
    with open(os.path.join(out, name.replace("summary", "survivors") + ".txt"), "w") as f:
        line = lambda r: (f"{r['file']}:{r['line']}:{r.get('col', 0)}: {r['kind']}: "
                          f"{r['change']}    | {r['source']}\n")
        for r in summary["survivors"]:
            f.write(line(r))
        if summary["review_wrong"]:
            f.write("\n# Reviewed as equivalent, but killed: the review is wrong, fix its entry\n")
            for r in summary["review_wrong"]:
                f.write(f"# {r['review_wrong']}: killed by {r['by']}: " + line(r))
        if equiv:
            f.write("\n# Equivalent (not counted in the score), with the reason\n")
            for r in equiv:
                f.write("# " + line(r) + f"#     {r['reason']}\n")
    if final:
        print(f"mutants-c: total={total} killed={cnt['killed']} survived={cnt['survived']} "
              f"equivalent={cnt['equivalent']} (reviewed {summary['equivalent_reviewed']}) "
              f"stillborn={cnt['stillborn']} review_wrong={len(summary['review_wrong'])} "
              f"score={100 * score:.1f}% of non-equivalent killed ({summary['seconds']} s); "
              f"{out}/{name}.json")
    return score


if __name__ == "__main__":
    sys.exit(main())
