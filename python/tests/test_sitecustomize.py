"""Tests of hotswap_py/sitecustomize.py, each in a fresh interpreter.

HOTSWAP_PY_DIR names the runtime directory under test (default: the source
copy); TRITON_STANDIN_DIR holds the stand-in triton package.
"""
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.normpath(os.path.join(HERE, ".."))
RUNTIME = os.environ.get("HOTSWAP_PY_DIR", os.path.join(SRC, "hotswap_py"))
TRITON = os.environ.get(
    "TRITON_STANDIN_DIR",
    os.path.normpath(os.path.join(SRC, "..", "..", "tests", "standin", "python")))

SHOW = ("import triton.backends.amd.driver as d; t = d.HIPDriver().get_current_target(); "
        "print(t.backend, t.arch, t.warp_size)")


def run(code, env=None, path=(RUNTIME, TRITON), flags=()):
    full = {k: v for k, v in os.environ.items()
            if not k.startswith(("HSA_HOTSWAP", "TRITON_", "PYTHON"))}
    full["PYTHONPATH"] = os.pathsep.join(path)
    full["PYTHONDONTWRITEBYTECODE"] = "1"  # never write into the tree under test
    full.update(env or {})
    return subprocess.run([sys.executable, *flags, "-c", code], env=full,
                          capture_output=True, text=True, timeout=60)


FORCE = {"HSA_HOTSWAP_BACKEND_ADAPTERS": "extension_jit,triton",
         "TRITON_CORPUS_FORCE_TARGET": "gfx1250"}


class Triton(unittest.TestCase):
    def test_forced_target_default_wave_32(self):
        r = run(SHOW, FORCE)
        self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "hip gfx1250 32\n", ""))

    def test_forced_target_with_wave(self):
        r = run(SHOW, dict(FORCE, TRITON_CORPUS_FORCE_TARGET="gfx1250:64"))
        self.assertEqual(r.stdout, "hip gfx1250 64\n")

    def test_adapter_off_leaves_triton_alone(self):
        r = run(SHOW, dict(FORCE, HSA_HOTSWAP_BACKEND_ADAPTERS="extension_jit,inductor"))
        self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "hip gfx942 64\n", ""))

    def test_imported_before_the_runtime(self):
        # -S: no automatic sitecustomize, so Triton is imported first.
        code = ("import sys; sys.path[:0] = %r; import triton.backends.amd.driver as d; "
                "import sitecustomize; t = d.HIPDriver().get_current_target(); "
                "print(t.arch, t.warp_size)" % [RUNTIME, TRITON])
        r = run(code, FORCE, flags=("-S",))
        self.assertEqual((r.returncode, r.stdout.strip()), (0, "gfx1250 32"), r.stderr)

    def test_bad_target_warns_and_leaves_triton_alone(self):
        r = run(SHOW, dict(FORCE, TRITON_CORPUS_FORCE_TARGET="gfx1250:abc"))
        self.assertEqual(r.returncode, 0)
        self.assertEqual(r.stdout, "hip gfx942 64\n")
        self.assertIn("TRITON_CORPUS_FORCE_TARGET", r.stderr)

    def test_no_triton_installed_is_silent(self):
        r = run("print('up')", FORCE, path=(RUNTIME,))
        self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "up\n", ""))

    def test_triton_not_imported_until_the_workload_does(self):
        r = run("import sys; print('triton' in sys.modules)", FORCE)
        self.assertEqual(r.stdout, "False\n")


class Chaining(unittest.TestCase):
    def other(self, body):
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d)
        with open(os.path.join(d, "sitecustomize.py"), "w") as f:
            f.write(body)
        return d

    def test_other_sitecustomize_still_runs(self):
        d = self.other("import sys; sys.stdout.write('chained\\n')\n")
        r = run(SHOW, FORCE, path=(RUNTIME, TRITON, d))
        self.assertEqual((r.returncode, r.stdout), (0, "chained\nhip gfx1250 32\n"), r.stderr)

    def test_broken_other_sitecustomize_never_breaks_startup(self):
        d = self.other("raise RuntimeError('boom')\n")
        r = run("print('up')", FORCE, path=(RUNTIME, d))
        self.assertEqual((r.returncode, r.stdout), (0, "up\n"))
        self.assertIn("boom", r.stderr)

    def test_second_copy_of_the_runtime_is_not_chained(self):
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d)
        with open(os.path.join(RUNTIME, "sitecustomize.py")) as src, \
                open(os.path.join(d, "sitecustomize.py"), "w") as dst:
            dst.write(src.read() + "\nimport sys; sys.stdout.write('copy ran\\n')\n")
        r = run("print('up')", FORCE, path=(RUNTIME, d))
        self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "up\n", ""))


class Parse(unittest.TestCase):
    def test_parse_target(self):
        # Loaded under another name: this process may have its own sitecustomize.
        spec = importlib.util.spec_from_file_location(
            "hotswap_sitecustomize_under_test", os.path.join(RUNTIME, "sitecustomize.py"))
        sc = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sc)
        self.assertEqual(sc.parse_target("gfx1250:32"), ("gfx1250", 32))
        self.assertEqual(sc.parse_target("gfx950"), ("gfx950", 32))
        self.assertEqual(sc.parse_target("gfx942:64"), ("gfx942", 64))
        self.assertIsNone(sc.parse_target("gfx1250:48"))
        self.assertIsNone(sc.parse_target("sm_90"))
        self.assertIsNone(sc.parse_target(""))


if __name__ == "__main__":
    unittest.main()
