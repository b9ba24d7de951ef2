#!/usr/bin/env python3
"""test_layers.py - the files of cmodel/src depend on each other one way only, as
docs/cmodel-layers.md lists them: a file uses only files above it in that table.

    scripts/test_layers.py OBJDIR [--add-edge FROM:TO]

OBJDIR holds the library's objects (build/obj/src: one NAME.o per cmodel/src/NAME.c). A file
uses another when its object has an undefined symbol the other's object defines (nm), or when
it includes the other's own internal header ("NAME.h" beside NAME.c). Prints one line per
difference: a back edge (a use of a file at or below it in the table), a use the table does not
list, a listed use the code no longer has, a file missing from the table or a row naming no
file. --add-edge adds a use to those found, to show that the check catches it.

Exit status: 0 the table and the code agree and no edge goes down the table, 1 they differ,
2 bad arguments, a missing object, or nm failing.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "cmodel", "src")
DOC = os.path.join(ROOT, "docs", "cmodel-layers.md")
ROW = re.compile(r"^\| `([a-z0-9_]+\.c)` \|[^|]*\|([^|]*)\|\s*$")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z0-9_]+)\.h"', re.M)
DEFINED = set("TDBRCGSVWui")  # nm's letters of a global symbol the object defines


def fail2(msg):
    print(f"test_layers: {msg}", file=sys.stderr)
    sys.exit(2)


def read_table(path):
    """The rows of the table, in order: [(file, {files it uses}, line number)]."""
    try:
        text = open(path, encoding="utf-8").read()
    except OSError as e:
        fail2(f"{path}: {e.strerror}")
    rows = []
    for n, line in enumerate(text.split("\n"), 1):
        m = ROW.match(line)
        if m:
            uses = set(re.findall(r"`([a-z0-9_]+\.c)`", m.group(2)))
            rows.append((m.group(1), uses, n))
    if not rows:
        fail2(f"{path}: no table rows (| `file.c` | what | `uses.c` ... |)")
    return rows


def symbols(obj):
    """(defined global symbols, undefined symbols) of an object file."""
    r = subprocess.run(["nm", obj], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        fail2(f"nm {obj} failed: {r.stderr.strip().splitlines()[:1]}")
    defined, undefined = set(), set()
    for line in r.stdout.split("\n"):
        f = line.split()
        if len(f) == 3 and f[1] in DEFINED:
            defined.add(f[2])
        elif len(f) == 2 and f[0] == "U":
            undefined.add(f[1])
    return defined, undefined


def uses_found(objdir, files):
    """{file: {file: why}}: the uses of each file of cmodel/src, from objects and includes."""
    defs, undef = {}, {}
    for f in files:
        obj = os.path.join(objdir, f[:-2] + ".o")
        if not os.path.isfile(obj):
            fail2(f"{obj}: no such object (build the library first: make all)")
        defs[f], undef[f] = symbols(obj)
    owner = {}
    for f in files:
        for s in defs[f]:
            owner[s] = f
    found = {f: {} for f in files}
    for f in files:
        for s in sorted(undef[f]):
            g = owner.get(s)
            if g is not None and g != f:
                found[f].setdefault(g, f"calls or reads {s}")
        src = open(os.path.join(SRC, f), encoding="utf-8").read()
        for h in INCLUDE.findall(src):
            g = h + ".c"
            if g != f and g in found:
                found[f].setdefault(g, f'includes "{h}.h"')
    return found


def main():
    argv, objdir, added = sys.argv[1:], None, []
    while argv:
        arg = argv.pop(0)
        if arg == "--add-edge" and argv:
            added.append(argv.pop(0))
        elif arg.startswith("-") or objdir is not None:
            fail2(f"bad argument '{arg}' (usage: test_layers.py OBJDIR [--add-edge FROM:TO])")
        else:
            objdir = arg
    if objdir is None:
        fail2("usage: test_layers.py OBJDIR [--add-edge FROM:TO]")
    files = sorted(f for f in os.listdir(SRC) if f.endswith(".c"))
    rows = read_table(DOC)
    doc = os.path.relpath(DOC, ROOT)
    found = uses_found(objdir, files)
    for e in added:
        fr, _, to = e.partition(":")
        if fr not in found or to not in found:
            fail2(f"--add-edge {e}: FROM and TO must be files of cmodel/src")
        found[fr][to] = "added by --add-edge"

    fails = []
    pos = {}
    for i, (f, _, n) in enumerate(rows):
        if f in pos:
            fails.append(f"{doc}:{n}: {f} has a second row")
        elif f not in found:
            fails.append(f"{doc}:{n}: {f}: no such file in cmodel/src")
        pos.setdefault(f, i)
    for f in files:
        if f not in pos:
            fails.append(f"{doc}: cmodel/src/{f} has no row: add one above the first file that "
                         "uses it and below every file it uses")
    for f, listed, n in rows:
        if f not in found:
            continue
        for g, why in sorted(found[f].items()):
            if g in pos and pos[g] >= pos[f]:
                fails.append(f"{doc}:{n}: back edge: {f} uses {g} ({why}), which is listed "
                             "below it: a file may use only files above it")
            elif g not in listed:
                fails.append(f"{doc}:{n}: {f} uses {g} ({why}), not in its row: add it")
        for g in sorted(listed - set(found[f])):
            fails.append(f"{doc}:{n}: {f} no longer uses {g}: remove it from its row")
    for line in fails:
        print(f"  FAIL: {line}")
    if fails:
        print(f"test_layers: FAIL: {len(fails)} difference(s) between {doc} and the objects",
              file=sys.stderr)
        return 1
    edges = sum(len(v) for v in found.values())
    print(f"test_layers: ok, {len(files)} files of cmodel/src, {edges} uses, all upwards in {doc}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
