"""docs/verify-your-rtl.md shows the examples of docs/examples/pfc_tx whole: the files the make
targets run are the ones the reader sees."""

import os
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


class TestDocs(unittest.TestCase):
    def test_examples_are_shown_whole(self):
        doc = read("docs/verify-your-rtl.md")
        for path in ("docs/examples/pfc_tx/test_pfc_tx_stub.py",
                     "docs/examples/pfc_tx/pfc_tx_stub_tb.sv"):
            with self.subTest(path=path):
                self.assertTrue("\n" + read(path) + "```\n" in doc,
                                f"{path} differs from its copy in docs/verify-your-rtl.md")


if __name__ == "__main__":
    unittest.main()
