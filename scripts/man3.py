#!/usr/bin/env python3
"""man3.py INCLUDE_DIR OUT_DIR VERSION - a man page per public function of liblfc.

Each function declared with LFC_API in INCLUDE_DIR/lfc/*.h gets OUT_DIR/NAME.3: its header, its
prototype as the header writes it, and the comment the header puts above it (a comment above
several declarations describes each of them; a comment on the declaration's own line is added).
The header is the one source: `make man` regenerates the pages, `make test-man` checks that every
function liblfc.so exports has a page and that each renders without a groff warning.
"""
import os
import re
import sys

DECL = re.compile(r"\bLFC_API\b(.*?);", re.S)
NAME = re.compile(r"\b(lfc_[A-Za-z0-9_]+)\s*\(")
SENTENCE_MAX = 72
SHORT_SENTENCE = 16  # a first sentence shorter than this takes the next one along  # characters of the NAME line's description, as whatis(1) shows it


def roff(text):
    """Text safe for roff: backslashes doubled, a line starting with . or ' escaped."""
    out = []
    for line in text.replace("\\", "\\e").splitlines():
        out.append("\\&" + line if line[:1] in (".", "'") else line)
    return "\n".join(out)


def comment_text(c):
    """The words of a /* ... */ or // comment, its leading stars removed, lines kept."""
    if c.startswith("//"):
        return c[2:].strip()
    body = c[2:-2]
    lines = [re.sub(r"^\s*\*?\s?", "", ln).rstrip() for ln in body.splitlines()]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(lines)


def first_sentence(text):
    """What whatis(1) shows: the first sentence, or the first two when the first is a few words
    ("Give up."), cut to SENTENCE_MAX characters."""
    flat = " ".join(text.split())
    m = re.match(r"(.+?[.:;])(\s|$)", flat)
    if m and len(m.group(1)) < SHORT_SENTENCE:
        m2 = re.match(r"(.+?[.:;]\s+.+?[.:;])(\s|$)", flat)
        m = m2 or m
    s = m.group(1).rstrip(".:;") if m else flat
    return s if len(s) <= SENTENCE_MAX else s[:SENTENCE_MAX - 3].rstrip() + "..."


def header_summary(src, header):
    """The header's own one-line description: 'x.h - what it is' in its first comment."""
    m = re.match(r"\s*/\*+\s*\*?\s*(?:lfc/)?%s\s*-\s*(.+?)(?:\n\s*\*\s*\n|\*/)" % re.escape(header),
                 src, re.S)
    return " ".join(m.group(1).replace("*", " ").split()) if m else header


def functions(path):
    """[(name, prototype, description)] of the header at path, in order."""
    src = open(path, encoding="utf-8").read()
    header = os.path.basename(path)
    summary = header_summary(src, header)
    # Tokens in order: comments and LFC_API declarations, with their spans.
    items = []
    for m in re.finditer(r"/\*.*?\*/|//[^\n]*", src, re.S):
        items.append((m.start(), m.end(), "comment", m.group(0)))
    for m in DECL.finditer(src):
        if any(s <= m.start() < e for s, e, k, _ in items if k == "comment"):
            continue  # LFC_API inside a comment
        items.append((m.start(), m.end(), "decl", m.group(0)))
    items.sort()
    out = []
    # A comment describes the declarations under it, up to a blank line, other code or another
    # comment; a comment on a declaration's own line is added to that declaration's.
    group = None
    last_end = 0
    for start, end, kind, text in items:
        gap = src[last_end:start]
        if gap.strip() or "\n\n" in gap:
            group = None  # other code or a blank line between: that comment was about the rest
        if kind == "comment":
            if "\n" not in gap and out and out[-1][3] == last_end:
                name, proto, desc, _ = out[-1]
                out[-1] = (name, proto, (desc + "\n" + comment_text(text)).strip(), end)
            else:
                group = comment_text(text)
        else:
            m = NAME.search(text)
            if m is None:
                continue
            proto = " ".join(text.replace("LFC_API", "", 1).split())
            out.append((m.group(1), proto, group or "", end))
        last_end = end
    return header, summary, [(n, p, d) for n, p, d, _ in out]


def page(name, header, summary, proto, desc, version, siblings):
    desc = desc or "See the comments of <lfc/%s>." % header
    lines = [
        '.TH %s 3 "" "lfc %s" "lfc library"' % (name.upper(), version),
        ".SH NAME",
        "%s \\- %s" % (name, roff(first_sentence(desc) if desc else summary)),
        ".SH SYNOPSIS",
        ".nf",
        ".B #include <lfc/%s>" % header,
        ".PP",
        roff(proto),
        ".fi",
        ".PP",
        "Link with \\fB\\-llfc\\fR (pkg-config lfc).",
        ".SH DESCRIPTION",
        ".nf",
        roff(desc),
        ".fi",
        ".SH SEE ALSO",
        ", ".join(["\\fBlfc\\fR(3)"] + ["\\fB%s\\fR(3)" % s for s in siblings if s != name]),
        ".PP",
        "<lfc/%s>: %s." % (header, roff(summary.rstrip("."))),
        "",
    ]
    return "\n".join(lines)


def main():
    if len(sys.argv) != 4:
        print("usage: man3.py INCLUDE_DIR OUT_DIR VERSION", file=sys.stderr)
        return 2
    inc, out, version = sys.argv[1:]
    os.makedirs(out, exist_ok=True)
    count = 0
    for h in sorted(os.listdir(os.path.join(inc, "lfc"))):
        if not h.endswith(".h"):
            continue
        header, summary, fns = functions(os.path.join(inc, "lfc", h))
        names = [n for n, _, _ in fns]
        for name, proto, desc in fns:
            tmp = os.path.join(out, name + ".3.tmp")
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(page(name, header, summary, proto, desc, version, names))
            os.replace(tmp, os.path.join(out, name + ".3"))
            count += 1
    print("man3: %d pages in %s" % (count, out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
