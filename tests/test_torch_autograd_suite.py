"""``scripts/torch_autograd_suite.py`` on a small test file written here (PyTorch's own
file is never in the repository): the same class run on torch and through the shim, the
exclusion rule, parametrized tests, a missing name reported as such, and the counts."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "torch_autograd_suite.py"

TEST_FILE = '''
import torch
from torch.testing._internal.common_utils import (
    TestCase, gradcheck, instantiate_parametrized_tests, parametrize, skipIfTorchDynamo)


class TestAutograd(TestCase):
    def test_backward(self):
        x = torch.ones(2, requires_grad=True)
        (x * 2).sum().backward()
        self.assertEqual(x.grad, torch.full((2,), 2.0))

    @skipIfTorchDynamo("not relevant")
    def test_gradcheck_through_common_utils(self):
        x = torch.rand(3, dtype=torch.double, requires_grad=True)
        self.assertTrue(gradcheck(lambda t: t.exp(), (x,)))

    def test_uses_a_name_the_package_lacks(self):
        torch.fft.fft(torch.ones(4))

    def test_needs_cuda(self):
        torch.ones(1).cuda()

    @parametrize("n", [1, 2])
    def test_parametrized(self, n):
        self.assertEqual(torch.ones(n).sum().item(), n)

    def test_fails_everywhere(self):
        self.assertEqual(1, 2)

    def test_expect_file(self):
        self.assertExpected("x")


instantiate_parametrized_tests(TestAutograd)
'''


def test_the_runner_counts_and_groups(tmp_path, torch_oracle):
    path = tmp_path / "test_autograd.py"
    path.write_text(textwrap.dedent(TEST_FILE), encoding="utf-8")
    done = subprocess.run([sys.executable, str(SCRIPT), str(path), "--timeout", "60"],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert "torch PASS  here PASS  test_backward" in lines
    assert "torch PASS  here PASS  test_gradcheck_through_common_utils" in lines
    assert "torch PASS  here PASS  test_parametrized_n_1" in lines
    assert "torch PASS  here PASS  test_parametrized_n_2" in lines
    assert "torch FAIL  here FAIL  test_fails_everywhere" in lines
    assert "torch SKIP  here SKIP  test_expect_file" in lines
    assert "EXCLUDED   test_needs_cuda  (CUDA)" in lines
    assert ("torch PASS  here ERROR test_uses_a_name_the_package_lacks  | MissingFeature: "
            "torch.fft.fft") in lines
    assert "4 of 5 tests that pass on torch pass here" in lines
    group = lines.index("   1  missing torch.fft.fft")
    assert lines[group + 1].strip() == "test_uses_a_name_the_package_lacks"


def _suite_module():
    import importlib.util

    spec = importlib.util.spec_from_file_location("torch_autograd_suite", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_check_finds_unlisted_stale_and_miscounted_entries():
    suite = _suite_module()
    on_torch = {"test_a": ("PASS", ""), "test_b": ("PASS", ""), "test_c": ("PASS", ""),
                "test_d": ("FAIL", "")}
    here = {"test_a": ("PASS", ""), "test_b": ("FAIL", "x"), "test_c": ("ERROR", "y"),
            "test_d": ("FAIL", "")}

    def readme(listed: str, count: str = "1 of the 3") -> str:
        return (f"# x\n{suite.README_SECTION}\n\n{count} tests that pass on torch 2.13 pass\n"
                f"here.\n- {listed}\n\n## Next section\ntest_e\n")

    assert suite.readme_problems(on_torch, here, readme("test_b (why), test_c (why)")) == []
    assert suite.readme_problems(on_torch, here, readme("test_b")) == ["not listed: test_c"]
    assert suite.readme_problems(on_torch, here, readme("test_a, test_b_more, test_b, test_c")) \
        == ["listed but passes here: test_a"]
    assert suite.readme_problems(on_torch, here, readme("test_b, test_c", "2 of the 3")) == [
        "the count is not '1 of the 3 tests that pass on torch'"]
