"""The documentation's examples are the ones that run:

- docs/verify-your-rtl.md shows the examples of docs/examples/pfc_tx whole: the files the make
  targets run are the ones the reader sees;
- the Python blocks of python/README.md ("The cycle model") and docs/sim.md ("From Python") run
  here as they are, and print exactly the text block that follows each (docs/sim.md's needs
  pandas: `make test-python-sim`).
"""

import os
import re
import subprocess
import sys
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

try:
    import pandas  # noqa: F401
    HAVE_PANDAS = True
except ImportError:
    HAVE_PANDAS = False


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def example(path, heading):
    """The first ```python block under `heading` of a Markdown file and the ```text block after
    it: (code, expected output)."""
    doc = read(path)
    start = doc.index("\n" + heading + "\n")
    end = doc.find("\n## ", start + 1)
    section = doc[start:end if end >= 0 else len(doc)]
    m = re.search(r"```python\n(.*?)```\n.*?```text\n(.*?)```\n", section, re.S)
    if m is None:
        raise AssertionError(f"{path}: no ```python block followed by a ```text block under "
                             f"{heading}")
    return m.group(1), m.group(2)


class TestDocs(unittest.TestCase):
    def test_examples_are_shown_whole(self):
        doc = read("docs/verify-your-rtl.md")
        for path in ("docs/examples/pfc_tx/test_pfc_tx_stub.py",
                     "docs/examples/pfc_tx/pfc_tx_stub_tb.sv"):
            with self.subTest(path=path):
                self.assertTrue("\n" + read(path) + "```\n" in doc,
                                f"{path} differs from its copy in docs/verify-your-rtl.md")

    def run_example(self, path, heading):
        code, want = example(path, heading)
        p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                           text=True, timeout=120)
        self.assertEqual(p.returncode, 0, f"{path} {heading}: the example failed:\n{p.stderr}")
        self.assertEqual(p.stdout, want, f"{path} {heading}: the example printed something else "
                         "than the doc shows")

    def test_readme_cycle_model_example(self):
        self.run_example("python/README.md", "## The cycle model")

    @unittest.skipUnless(HAVE_PANDAS, "pandas not installed (make test-python-sim)")
    def test_sim_from_python_example(self):
        self.run_example("docs/sim.md", "## From Python (`lfc.sim`, python/lfc/sim.py)")


if __name__ == "__main__":
    unittest.main()
