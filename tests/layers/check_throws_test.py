#!/usr/bin/env python3
"""scripts/check_throws.py on small trees written here: a clean one passes (base/ may throw std::
types; comments, strings and tests/ do not count), and a std:: throw in a library or a workload
fails, naming file:line."""
import unittest

from planted_tree import run_check

CLEAN = {
    "base/atomic_file.cpp": 'void f() { throw std::system_error(errno, std::generic_category(), "x"); }\n',
    "images/oci/layout.cpp": '// Parsers throw std::runtime_error? No: gkebuild::Error.\n'
                             'void f() { throw Error(ErrorKind::kFailed, "a \\"throw std::x\\" in text"); }\n'
                             '/* throw std::logic_error in a block comment\n   throw std::out_of_range */\n',
    "tests/common/temp_dir.cpp": 'void f() { throw std::runtime_error("tests are no library"); }\n',
}


class CheckThrowsTest(unittest.TestCase):
    def run_on(self, extra):
        return run_check("check_throws.py", {**CLEAN, **extra})

    def test_a_clean_tree_passes(self):
        self.assertEqual(self.run_on({}), (0, ""))

    def test_each_library_layer_and_workloads_fail(self):
        for path in ("images/oci/digest.cpp", "registry/transport/session.cpp", "tool/steps/render/render.h",
                     "tool/core/kube/client.cpp", "workloads/common/stats.cpp"):
            code, out = self.run_on({path: 'int x;\nvoid f() {\n  if (x) throw std::invalid_argument("bad");\n}\n'})
            self.assertEqual(code, 1, out)
            self.assertEqual(out.strip().splitlines(), [f"{path}:3: throw std::invalid_argument: libraries throw "
                                                        "gkebuild::Error with a kind (base/error.h; InputError for "
                                                        "bad input a caller gives a position)"])

    def test_code_after_a_block_comment_counts(self):
        code, out = self.run_on({"tool/submit/submit.cpp": '/* a\n b */ throw std::runtime_error("x");\n'})
        self.assertEqual(code, 1, out)
        self.assertIn("tool/submit/submit.cpp:2: throw std::runtime_error", out)


if __name__ == "__main__":
    unittest.main()
