"""``scripts/functorch_suite.py`` on a small file written here in the shape of PyTorch's
``test/functorch/test_eager_transforms.py`` (never in the repository): device-generic classes
instantiated for cpu with PyTorch's names, ``subtest`` names, the exclusion rules, a missing
name reported, the counts, and the README check."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "functorch_suite.py"

TEST_FILE = '''
import torch
from functorch import grad, jacrev, jacfwd


def _helper(x):
    return x.sin().sum()


jacs = parametrize("jacapi", [subtest(jacrev, name="jacrev"), subtest(jacfwd, name="jacfwd")])


class TestJac(TestCase):
    @jacs
    def test_simple(self, device, jacapi):
        x = torch.randn(3, device=device)
        self.assertEqual(jacapi(torch.sin)(x), torch.diag(x.cos()))

    def test_grad(self, device):
        x = torch.randn(3, device=device)
        self.assertEqual(grad(_helper)(x), x.cos())

    def test_is_cuda(self, device):
        self.assertFalse(torch.randn(1, device=device).is_cuda)

    def test_not_in_package(self, device):
        torch.a_name_nobody_has(1)


class TestMakeFunctional(TestCase):
    @parametrize("mechanism", ["make_functional", "functional_call"])
    def test_mech(self, mechanism):
        self.assertTrue(mechanism in ("make_functional", "functional_call"))
'''


def _run(tmp_path, *extra):
    path = tmp_path / "test_eager_transforms.py"
    path.write_text(TEST_FILE)
    done = subprocess.run([sys.executable, str(SCRIPT), str(path), *extra], capture_output=True,
                          text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": ""})
    return done.returncode, done.stdout + done.stderr


def test_names_rules_and_counts(tmp_path):
    code, out = _run(tmp_path)
    assert code == 0, out
    for line in ["torch PASS  here PASS  TestJacCPU.test_simple_jacrev_cpu",
                 "torch PASS  here PASS  TestJacCPU.test_simple_jacfwd_cpu",
                 "torch PASS  here PASS  TestJacCPU.test_grad_cpu",
                 "EXCLUDED   TestJacCPU.test_is_cuda_cpu  (CUDA)",
                 "EXCLUDED   TestMakeFunctional.test_mech_mechanism_make_functional  "
                 "(functorch.make_functional)",
                 "torch PASS  here PASS  TestMakeFunctional.test_mech_mechanism_functional_call",
                 "TestJacCPU: 3 of 3 tests that pass on torch pass here (1 excluded by the rule)",
                 "overall: 4 of 4 tests that pass on torch pass here"]:
        assert line in out, out
    assert "torch ERROR here ERROR TestJacCPU.test_not_in_package_cpu" in out


def test_readme_check(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("#### torch.func: PyTorch's functorch tests\n\n4 of the 4 tests that pass "
                      "on torch pass here.\n")
    code, out = _run(tmp_path, "--readme", str(readme))
    assert code == 0 and "README: the list is complete" in out, out
    readme.write_text("#### torch.func: PyTorch's functorch tests\n\n3 of the 4 tests that pass "
                      "on torch pass here; failing: TestJacCPU.test_grad_cpu.\n")
    code, out = _run(tmp_path, "--readme", str(readme))
    assert code == 1 and "listed but passes here: TestJacCPU.test_grad_cpu" in out, out
