"""Tests of ptx_dwarf.py on the committed Triton PTX of hw/run (stdlib only):
    python3 conformance/kernels/test_ptx_dwarf.py
Moving a file's DW_AT_comp_dir under an absolute root and back must give the committed text
again, with the unit length grown by exactly the root's length; structures the module does not
recognise (a wrong unit length, an unknown form, a reference that is a label, no comp_dir, a
directory outside the root) must be refused."""
import glob
import os
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from ptx_dwarf import DwarfError, comp_dirs, relative_to, rewrite_comp_dir  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))
ROOT = "/elsewhere/checkout/"
LENGTHS = re.compile(r"^\.b32 (\d+)\s+// Length of Unit", re.M)


def refs_hit_entries(text):
    """Every DW_AT_abstract_origin value is the unit-relative offset of an entry's first byte,
    counted here from the data lines (.b8 1 byte, .b32 4, .b64 8): (references, hits)."""
    size = {"8": 1, "16": 2, "32": 4, "64": 8}
    refs, starts, off = [], set(), None
    for line in text.split(".debug_info", 1)[1].split("\t}", 1)[0].split("\n"):
        m = re.match(r"\.b(8|16|32|64) (\S+)", line)
        if not m:
            continue
        if "Length of Unit" in line:
            off = 0
        if "// Abbrev [" in line:
            starts.add(off)
        if "DW_AT_abstract_origin" in line:
            refs.append(int(m.group(2)))
        off += size[m.group(1)]
    return len(refs), sum(r in starts for r in refs)


def committed():
    files = sorted(glob.glob(os.path.join(REPO, "hw/run/**/*.ptx"), recursive=True))
    return [(f, open(f).read()) for f in files if ".debug_info" in open(f).read()]


class RoundTrip(unittest.TestCase):
    def test_committed_files_round_trip(self):
        files = committed()
        self.assertGreaterEqual(len(files), 24)
        for f, text in files:
            dirs = comp_dirs(text)
            self.assertTrue(dirs and all(not d.startswith("/") for d in dirs), f)
            absolute = rewrite_comp_dir(text, lambda old: ROOT + old)
            self.assertEqual(comp_dirs(absolute), [ROOT + d for d in dirs], f)
            grown = [int(n) - len(ROOT) for n in LENGTHS.findall(absolute)]
            self.assertEqual(grown, [int(n) for n in LENGTHS.findall(text)], f)
            self.assertEqual(rewrite_comp_dir(absolute, relative_to(ROOT)), text, f)
            for t in (text, absolute):
                refs, hits = refs_hit_entries(t)
                self.assertEqual(refs, hits, f)
            # Only debug bytes move: the text outside .debug_info is unchanged.
            outside = re.compile(r"\t\.section\t\.debug_info\n\t\{\n.*?\n\t\}\n", re.S)
            self.assertEqual(outside.sub("", absolute), outside.sub("", text), f)


class Refusals(unittest.TestCase):
    def setUp(self):
        self.text = open(os.path.join(REPO, "hw/run/ptx/row_sum.ptx")).read()

    def refused(self, mutated, new_dir=relative_to(ROOT)):
        self.assertNotEqual(mutated, self.text)
        with self.assertRaises(DwarfError):
            rewrite_comp_dir(mutated, new_dir)

    def test_unit_length_off_by_one(self):
        n = int(LENGTHS.search(self.text).group(1))
        for m in (n - 1, n + 1):
            self.refused(self.text.replace(f".b32 {n} ", f".b32 {m} ", 1))

    def test_unknown_form(self):
        self.refused(self.text.replace(".b8 8  ", ".b8 30  ", 1))

    def test_reference_as_label(self):
        self.refused(re.sub(r"\.b32 \d+(\s+// DW_AT_abstract_origin)", r".b32 $L__x\1", self.text, 1))

    def test_no_comp_dir(self):
        self.refused(self.text.replace(".b8 27  ", ".b8 28  ", 1))

    def test_outside_root(self):
        absolute = rewrite_comp_dir(self.text, lambda old: ROOT + old)
        with self.assertRaises(DwarfError):
            rewrite_comp_dir(absolute, relative_to("/another/"))

    def test_no_debug_info_unchanged(self):
        text = ".version 9.0\n.target sm_90a\n"
        self.assertEqual(rewrite_comp_dir(text, relative_to(ROOT)), text)


if __name__ == "__main__":
    unittest.main()
