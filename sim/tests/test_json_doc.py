#!/usr/bin/env python3
"""test_json_doc.py DOC JSON... - every key of lfc-sim's --json output is defined in
docs/sim-json.md, and every key defined there is in the output (`make test-sim-defaults`).

DOC's table rows start with a key in backquotes: `a.b` for the key b of the object a, `a[].b`
for the key b of every element of the array a. The JSON files' keys are collected the same way
(every element of every array); together they must cover every key the table defines, so the
runs are chosen to have a deadlock, collective groups, hops and end nodes. Each key must have a
type and a unit cell. Exit status 0 the sets agree, 1 they differ, 2 bad usage.
"""
import json
import re
import sys


def doc_keys(path):
    keys = {}
    row = re.compile(r"^\|\s*`([^`]+)`\s*\|([^|]*)\|([^|]*)\|([^|]*)\|\s*$")
    for line in open(path, encoding="utf-8"):
        m = row.match(line)
        if m:
            keys[m.group(1)] = (m.group(2).strip(), m.group(3).strip(), m.group(4).strip())
    return keys


def json_keys(value, prefix, out):
    if isinstance(value, dict):
        for k, v in value.items():
            p = prefix + "." + k if prefix else k
            out.add(p)
            json_keys(v, p, out)
    elif isinstance(value, list):
        for v in value:
            json_keys(v, prefix + "[]", out)


def main():
    if len(sys.argv) < 3:
        sys.stderr.write("usage: test_json_doc.py DOC JSON...\n")
        return 2
    doc = doc_keys(sys.argv[1])
    out = set()
    for path in sys.argv[2:]:
        with open(path, encoding="utf-8") as fh:
            json_keys(json.load(fh), "", out)
    fail = 0
    for k in sorted(out - set(doc)):
        print("  FAIL key %s in the --json output is not defined in %s" % (k, sys.argv[1]))
        fail = 1
    for k in sorted(set(doc) - out):
        print("  FAIL key %s of %s is not in the --json output" % (k, sys.argv[1]))
        fail = 1
    for k, (typ, unit, meaning) in sorted(doc.items()):
        if not typ or not unit or not meaning:
            print("  FAIL key %s of %s: a type, a unit (or —) and a meaning, please" % (k, sys.argv[1]))
            fail = 1
    if not fail:
        print("  ok   %d keys of the --json output, each defined in %s with its unit, and no other"
              % (len(out), sys.argv[1]))
    return fail


if __name__ == "__main__":
    sys.exit(main())
