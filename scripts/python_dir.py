#!/usr/bin/env python3
"""scripts/python_dir.py PREFIX - where `make install` puts the Python package lfc for PREFIX.

The directory this python3 itself searches, when it lies under PREFIX (on Debian, PREFIX
/usr/local gives /usr/local/lib/python3.X/dist-packages, which is on sys.path); otherwise the
standard layout under PREFIX, PREFIX/lib/python3.X/site-packages, which a user adds to
PYTHONPATH. One line on standard output; exit status 2 for a PREFIX that is not absolute.
"""
import os
import sys
import sysconfig


def main(argv):
    if len(argv) != 2 or not os.path.isabs(argv[1]):
        print("python_dir.py: give one absolute PREFIX (make install PREFIX=/usr/local)",
              file=sys.stderr)
        return 2
    prefix = os.path.normpath(argv[1])
    searched = sysconfig.get_path("purelib")
    if os.path.commonpath([prefix, searched]) == prefix and searched in sys.path:
        print(searched)
    else:
        print(sysconfig.get_path("purelib", "posix_prefix", {"base": prefix, "platbase": prefix}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
